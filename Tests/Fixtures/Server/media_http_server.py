#!/usr/bin/env python3
"""The tests' local HTTP server: serves a folder over loopback, with byte ranges, and
misbehaves on request so that the network faults can be tested.

    media_http_server.py ROOT      prints the port it listens on, then serves until killed or
                                   until the process that started it ends

Paths (relative to ROOT):
    /FILE               the file; a Range header gets 206 and the range; a missing file gets 404
    /stall/FILE         the headers and the first half of the file, then nothing (the connection
                        stays open until the client gives up)
    /cut/FILE           the headers, then what the request asks of the first half of the file,
                        and the connection closes: nothing past the middle is ever sent
    /slow/RATE/FILE     the file at RATE bytes per second
    /throttle/PREFIX/RATE/FILE
                        the file at RATE bytes per second when its name starts with PREFIX (an
                        HLS variant's segments), else at once
    /live/FILE.m3u8     the playlist without its #EXT-X-ENDLIST line: a live stream that never
                        gets a new segment; its segments are served from the playlist's folder
    /auth/TOKEN/FILE    the file to a request with "Authorization: Bearer TOKEN", else 401
    /agent/NAME/FILE    the file to a request with "User-Agent: NAME", else 403
    /stalled            how many /stall/ requests have sent their half and wait, as text
    /transferred        how many requests for files were answered and how many bytes of their
                        bodies the client took, in all and by path, as JSON: {"requests": N,
                        "bytes": N, "paths": {"/PATH": N, ...}} (a body is sent in pieces: one the
                        client stops reading is counted as far as it was sent)
"""
import http.server
import json
import os
import re
import socket
import sys
import threading
import time


STALLED = [0]
STALLED_LOCK = threading.Lock()
# Requests for files, and the bytes of their bodies sent, and requests by path (see /transferred).
TRANSFERRED = [0, 0]
REQUESTED = {}
TRANSFERRED_LOCK = threading.Lock()
PIECE = 16384


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle(self):
        # A small send buffer, so that what a client never reads is not counted as sent.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, PIECE * 4)
        # A client that gives up (FFmpeg closing a connection it no longer needs) is normal.
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_HEAD(self):
        self.serve(send_body=False)

    def do_GET(self):
        self.serve(send_body=True)

    def serve(self, send_body):
        path = self.path.split("?", 1)[0]
        if path in ("/stalled", "/transferred"):
            if path == "/stalled":
                with STALLED_LOCK:
                    text = str(STALLED[0]).encode()
            else:
                with TRANSFERRED_LOCK:
                    text = json.dumps({"requests": TRANSFERRED[0], "bytes": TRANSFERRED[1], "paths": REQUESTED}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            if send_body:
                self.wfile.write(text)
            return
        mode, rate = None, None
        match = re.match(r"^/(stall|cut|live)(/.*)$", path)
        if match:
            mode, path = match.group(1), match.group(2)
        match = re.match(r"^/slow/(\d+)(/.*)$", path)
        if match:
            mode, rate, path = "slow", int(match.group(1)), match.group(2)
        match = re.match(r"^/throttle/([^/]+)/(\d+)(/.*)$", path)
        if match:
            path = match.group(3)
            if os.path.basename(path).startswith(match.group(1)):
                mode, rate = "slow", int(match.group(2))
        match = re.match(r"^/auth/([^/]+)(/.*)$", path)
        if match:
            if self.headers.get("Authorization") != "Bearer " + match.group(1):
                self.send_error(401)
                return
            path = match.group(2)
        match = re.match(r"^/agent/([^/]+)(/.*)$", path)
        if match:
            if self.headers.get("User-Agent") != match.group(1):
                self.send_error(403)
                return
            path = match.group(2)
        local = os.path.realpath(os.path.join(ROOT, path.lstrip("/")))
        if not local.startswith(ROOT + os.sep) or not os.path.isfile(local):
            self.send_error(404)
            return
        with open(local, "rb") as file:
            body = file.read()
        if mode == "live":
            body = b"".join(line for line in body.splitlines(keepends=True) if not line.startswith(b"#EXT-X-ENDLIST"))
        start, end = 0, len(body)
        ranged = re.match(r"^bytes=(\d+)-(\d*)$", self.headers.get("Range", ""))
        if ranged:
            start = int(ranged.group(1))
            end = min(len(body), int(ranged.group(2)) + 1) if ranged.group(2) else len(body)
            if start >= len(body):
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % len(body))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end - 1, len(body)))
        else:
            self.send_response(200)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start))
        self.send_header("Content-Type", content_type(local))
        self.end_headers()
        if not send_body:
            return
        part = body[start:end]
        try:
            if mode == "cut":
                self.wfile.write(part[: max(0, len(body) // 2 - start)])
                self.wfile.flush()
                self.close_connection = True
            elif mode == "stall":
                self.wfile.write(part[: len(part) // 2])
                self.wfile.flush()
                with STALLED_LOCK:
                    STALLED[0] += 1
                while True:
                    time.sleep(1)
            elif mode == "slow":
                for offset in range(0, len(part), max(1, rate // 10)):
                    self.wfile.write(part[offset : offset + max(1, rate // 10)])
                    self.wfile.flush()
                    time.sleep(0.1)
            else:
                with TRANSFERRED_LOCK:
                    TRANSFERRED[0] += 1
                    REQUESTED[path] = REQUESTED.get(path, 0) + 1
                for offset in range(0, len(part), PIECE):
                    self.wfile.write(part[offset : offset + PIECE])
                    self.wfile.flush()
                    with TRANSFERRED_LOCK:
                        TRANSFERRED[1] += len(part[offset : offset + PIECE])
        except (BrokenPipeError, ConnectionResetError):
            pass


def content_type(path):
    types = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".mp4": "video/mp4",
             ".m4s": "video/iso.segment", ".mov": "video/quicktime"}
    return types.get(os.path.splitext(path)[1], "application/octet-stream")


if __name__ == "__main__":
    ROOT = os.path.realpath(sys.argv[1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    parent = os.getppid()

    def exit_with_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=exit_with_parent, daemon=True).start()
    server.serve_forever()
