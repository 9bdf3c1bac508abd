#!/usr/bin/env python3
"""A headless Chromium driven through its WebDriver (chromedriver, by Selenium), for the tests
of `openav serve`. Reads one JSON command per line on stdin and answers one JSON line on stdout:
{"ok": true, "value": ...} or {"ok": false, "error": "..."}.

Commands:
  {"op": "open", "url": U}                      load U in the current tab
  {"op": "eval", "script": S}                   run S (a function body; `return` a value)
  {"op": "click", "id": ID}                     click the element with that id
  {"op": "screenshot", "id": ID, "path": P}     PNG of that element's box into P; the value is
                                                {"before": ns, "after": ns}, CLOCK_MONOTONIC
                                                around the capture
  {"op": "visitors", "url": U, "count": N, "open": K, "frames": F}
                                                N tabs load U, K at a time, each closed once it
                                                has drawn F pictures; the value is the pictures
                                                each drew
  {"op": "quit"}

The browser runs at a lower priority than the test (nice 10), as a visitor's machine would be
another machine: the server under test keeps the CPU it needs.
"""
import json
import os
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def start():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1200", "--hide-scrollbars", "--force-device-scale-factor=1",
                     "--autoplay-policy=no-user-gesture-required", "--mute-audio",
                     "--user-data-dir=" + tempfile.mkdtemp(prefix="openav-chromium-")):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def screenshot(driver, command):
    rect = driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height};", command["id"])
    clip = dict(rect, scale=1)
    before = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": clip})
    after = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    import base64
    with open(command["path"], "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    return {"before": before, "after": after}


def visitors(driver, command):
    home = driver.current_window_handle
    drawn, waiting = [], []
    remaining = command["count"]
    deadline = time.monotonic() + 120
    while (remaining or waiting) and time.monotonic() < deadline:
        while remaining and len(waiting) < command["open"]:
            driver.switch_to.new_window("tab")
            driver.get(command["url"])
            waiting.append(driver.current_window_handle)
            remaining -= 1
        for handle in list(waiting):
            driver.switch_to.window(handle)
            frames = int(driver.execute_script("return document.getElementById('picture').dataset.frames"))
            if frames >= command["frames"]:
                drawn.append(frames)
                driver.close()
                waiting.remove(handle)
                # A new tab opens from a window that is still there.
                driver.switch_to.window(home)
        time.sleep(0.05)
    for handle in waiting:
        driver.switch_to.window(handle)
        drawn.append(int(driver.execute_script("return document.getElementById('picture').dataset.frames")))
        driver.close()
    driver.switch_to.window(home)
    return drawn


def main():
    os.nice(10)
    driver = start()
    print(json.dumps({"ok": True, "value": "ready"}), flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        try:
            op = command["op"]
            if op == "open":
                driver.get(command["url"])
                value = None
            elif op == "eval":
                value = driver.execute_script(command["script"])
            elif op == "click":
                driver.find_element(By.ID, command["id"]).click()
                value = None
            elif op == "screenshot":
                value = screenshot(driver, command)
            elif op == "visitors":
                value = visitors(driver, command)
            elif op == "quit":
                break
            else:
                raise ValueError("unknown op " + op)
            print(json.dumps({"ok": True, "value": value}), flush=True)
        except Exception as error:  # the test reads the message
            print(json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}"}), flush=True)
    driver.quit()


if __name__ == "__main__":
    main()
