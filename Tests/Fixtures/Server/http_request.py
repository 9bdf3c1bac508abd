#!/usr/bin/env python3
"""One HTTP request as a test makes it, the path sent exactly as given (no normalisation):
http_request.py METHOD URL [COOKIE [JSON_BODY]]. Prints the status code on the first line, then the body.
METHOD WEBSOCKET sends a WebSocket upgrade (GET with the upgrade headers) and prints only the
status code: 101 when upgraded."""
import http.client
import sys
from urllib.parse import urlsplit

method, url = sys.argv[1], sys.argv[2]
cookie = sys.argv[3] if len(sys.argv) > 3 else None
body = sys.argv[4].encode() if len(sys.argv) > 4 else b""
parts = urlsplit(url)
target = parts.path + ("?" + parts.query if parts.query else "")
headers = {"Cookie": cookie} if cookie else {}
if method == "WEBSOCKET":
    method = "GET"
    headers.update({"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
connection.putrequest(method, target, skip_accept_encoding=True)
for name, value in headers.items():
    connection.putheader(name, value)
if body:
    connection.putheader("Content-Type", "application/json")
connection.putheader("Content-Length", str(len(body)))
connection.endheaders(body)
response = connection.getresponse()
print(response.status)
if response.status != 101:
    sys.stdout.write(response.read().decode("utf-8", "replace"))
