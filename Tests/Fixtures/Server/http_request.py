#!/usr/bin/env python3
"""One HTTP request as a test makes it, the path sent exactly as given (no normalisation):
http_request.py METHOD URL [COOKIE [JSON_BODY [ORIGIN]]] (an empty argument: none).
Prints the status code on the first line, the response's headers as a JSON object on the
second, then the body. METHOD WEBSOCKET sends a WebSocket upgrade (GET with the upgrade
headers): 101 when upgraded, and then no body."""
import http.client
import json
import sys
from urllib.parse import urlsplit

arguments = sys.argv[1:] + [""] * 5
method, url, cookie, body, origin = arguments[:5]
parts = urlsplit(url)
target = parts.path + ("?" + parts.query if parts.query else "")
headers = {}
if cookie:
    headers["Cookie"] = cookie
if origin:
    headers["Origin"] = origin
if method == "WEBSOCKET":
    method = "GET"
    headers.update({"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
if body:
    headers["Content-Type"] = "application/json"
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
connection.putrequest(method, target, skip_accept_encoding=True)
for name, value in headers.items():
    connection.putheader(name, value)
connection.putheader("Content-Length", str(len(body.encode())))
connection.endheaders(body.encode())
response = connection.getresponse()
print(response.status)
print(json.dumps({name.lower(): value for name, value in response.getheaders()}))
if response.status != 101:
    sys.stdout.write(response.read().decode("utf-8", "replace"))
