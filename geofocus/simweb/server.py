"""A small, fast HTTP/1.1 proxy server (Twisted) that serves a simweb Web.

Clients talk to it as to any forward proxy: ``GET http://host/path HTTP/1.1``
(absolute URI, as Scrapy's HttpProxyMiddleware sends when ``http_proxy`` is
set). Origin-form requests (``GET /path`` with a ``Host`` header) work too.
Connections are kept alive (HTTP/1.1 default, ``Connection: close`` honoured);
pipelined requests are answered in order even when a slow host delays one.
Requests to the server's own address get a status page and ``/seeds.txt``.

The protocol is hand-written on ``twisted.internet.protocol`` rather than
``twisted.web`` because it must serve thousands of pages per second on one
core; it understands only what a crawler sends (GET/HEAD, small headers).
"""

from __future__ import annotations

import logging
from collections import deque
from urllib.parse import urlsplit

from twisted.internet import protocol

from geofocus.simweb.render import REASONS, Response, _simple, respond
from geofocus.simweb.web import SimWeb

logger = logging.getLogger(__name__)

MAX_HEAD = 64 * 1024


class SimWebProtocol(protocol.Protocol):
    def __init__(self, factory: SimWebFactory):
        self.factory = factory
        self.buf = b""
        self.pending: deque = deque()       # [ready, bytes, close_after]
        self.closing = False

    def dataReceived(self, data: bytes) -> None:
        self.buf += data
        while not self.closing:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buf) > MAX_HEAD:
                    self._queue(_simple(400, "header too large"), close=True)
                return
            head = self.buf[:end].decode("latin-1")
            rest = self.buf[end + 4:]
            lines = head.split("\r\n")
            headers: dict[str, str] = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = headers.get("content-length", "0")
            try:
                length_n = int(length)
            except ValueError:
                self._queue(_simple(400, "bad content-length"), close=True)
                return
            if len(rest) < length_n:
                return                      # wait for the request body (ignored)
            self.buf = rest[length_n:]
            self._handle(lines[0], headers)

    def _handle(self, request_line: str, headers: dict[str, str]) -> None:
        parts = request_line.split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            self._queue(_simple(400, "bad request line"), close=True)
            return
        method, target, version = parts
        conn = headers.get("connection", "").lower()
        close = conn == "close" or (version == "HTTP/1.0" and conn != "keep-alive")
        if method not in ("GET", "HEAD"):
            self._queue(_simple(405, "simweb serves GET and HEAD only"), close=close, head=False)
            return
        if target.startswith(("http://", "https://")):
            split = urlsplit(target)
            hostname = split.netloc
            path = split.path or "/"
            if split.query:
                path += "?" + split.query
        else:
            hostname = headers.get("host", "")
            path = target
        response = self.factory.answer(hostname, path)
        self._queue(response, close=close, head=method == "HEAD")

    def _queue(self, response: Response, close: bool = False, head: bool = False) -> None:
        hdr = [f"HTTP/1.1 {response.status} {REASONS.get(response.status, 'Unknown')}",
               "Server: simweb/1.0"]
        hdr += [f"{k}: {v}" for k, v in response.headers]
        hdr.append(f"Content-Length: {len(response.body)}")
        if close:
            hdr.append("Connection: close")
        data = ("\r\n".join(hdr) + "\r\n\r\n").encode("latin-1")
        if not head:
            data += response.body
        slot = [response.delay <= 0, data, close]
        self.pending.append(slot)
        self.factory.served += 1
        if close:
            self.closing = True
        if response.delay > 0:
            self.factory.reactor.callLater(response.delay, self._ready, slot)
        else:
            self._flush()

    def _ready(self, slot: list) -> None:
        slot[0] = True
        self._flush()

    def _flush(self) -> None:
        while self.pending and self.pending[0][0]:
            _, data, close = self.pending.popleft()
            if self.transport is None:
                return
            # The ignores: twisted's zope Interface methods are declared without self; mypy reads
            # them right only with the mypy-zope plugin.
            self.transport.write(data)  # type: ignore[call-arg,misc]
            if close:
                self.transport.loseConnection()  # type: ignore[misc]
                self.pending.clear()
                return

    def connectionLost(self, reason=None) -> None:
        self.pending.clear()


class SimWebFactory(protocol.Factory):
    """Serves ``web``; ``own_names`` are the host names that mean the server itself."""

    def __init__(self, web: SimWeb, reactor=None, seeds: list[str] | None = None):
        if reactor is None:
            from twisted.internet import reactor as default_reactor
            reactor = default_reactor
        self.web = web
        self.reactor = reactor
        self.seeds = seeds if seeds is not None else web.seeds()
        self.served = 0
        self.own_names: set[str] = {"localhost", "127.0.0.1", ""}

    def buildProtocol(self, addr):
        return SimWebProtocol(self)

    def answer(self, hostname: str, path: str) -> Response:
        name = hostname.lower().split(":")[0]
        if name in self.own_names:
            return self._status(path)
        try:
            return respond(self.web, self.web.resolve(name, path))
        except Exception:                     # never let one URL take the server down
            logger.exception("simweb: error serving http://%s%s", hostname, path)
            return _simple(500, "simweb internal error")

    def _status(self, path: str) -> Response:
        if path == "/seeds.txt":
            return Response(200, [("Content-Type", "text/plain; charset=utf-8")],
                            ("\n".join(self.seeds) + "\n").encode())
        p = self.web.p
        links = "".join(f'<li><a href="{u}">{u}</a></li>' for u in self.seeds)
        body = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>simweb</title></head><body>"
                f"<h1>simweb</h1><p>{p.pages} pages, seed {p.seed}, region {p.region}, "
                f"{self.web.n_hosts} hosts, {self.served} responses served.</p>"
                f"<h2>Seeds</h2><ul>{links}</ul></body></html>").encode()
        return Response(200, [("Content-Type", "text/html; charset=utf-8")], body)
