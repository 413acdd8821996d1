"""Real HTTP servers for the SSRF tests, run in threads of the test process.

- :class:`RecordingServer`: an ordinary web server on 127.0.0.1 that records every
  request it receives (the "internal" service an attacker wants the crawler to read);
- :class:`ForwardProxy`: an HTTP forward proxy that serves a few public-looking hosts
  from a table and forwards every other request for real: it resolves the host with
  ``getaddrinfo`` (so ``2130706433``, ``0x7f.1``, ``127.1`` ... reach loopback, as they
  do through squid or tinyproxy) and relays the answer.
"""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class _Quiet(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):  # keep pytest output clean
        pass


class _Server:
    def __init__(self, handler: type[BaseHTTPRequestHandler]):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class RecordingServer(_Server):
    def __init__(self, body: bytes = b"<html><body>SECRET internal page</body></html>"):
        self.requests: list[str] = []
        outer = self

        class Handler(_Quiet):
            def do_GET(self):
                outer.requests.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        super().__init__(Handler)


class ForwardProxy(_Server):
    def __init__(self, pages: dict[str, dict]):
        """``pages``: absolute URL -> {"body": str (sent as UTF-8) or bytes (as they are), "status": int,
        "type": Content-Type, "headers": {...}}, served directly."""
        self.forwarded: list[str] = []
        outer = self

        class Handler(_Quiet):
            def do_GET(self):
                url = self.path
                page = pages.get(url)
                parts = urlsplit(url)
                if page is not None or parts.hostname in {urlsplit(u).hostname for u in pages}:
                    page = page or {"status": 404, "body": "not found"}
                    body = page.get("body", "")
                    body = body if isinstance(body, bytes) else body.encode()
                    self.send_response(page.get("status", 200))
                    self.send_header("Content-Type", page.get("type", "text/html; charset=utf-8"))
                    for name, value in page.get("headers", {}).items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                outer.forwarded.append(url)
                try:
                    upstream = socket.create_connection((parts.hostname, parts.port or 80), timeout=5)
                except OSError:
                    self.send_error(502)
                    return
                with upstream:
                    path = parts.path or "/"
                    if parts.query:
                        path += "?" + parts.query
                    upstream.sendall(f"GET {path} HTTP/1.0\r\nHost: {parts.netloc}\r\n\r\n".encode())
                    while chunk := upstream.recv(65536):
                        self.wfile.write(chunk)

        super().__init__(Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
