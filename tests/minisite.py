"""A tiny hand-made web served through an HTTP proxy, for precise crawl tests.

Run as ``python tests/minisite.py SITE.json`` (prints ``minisite listening on
http://127.0.0.1:PORT``); SITE.json maps absolute URLs to pages:
``{"http://a.de/": {"body": "<html>...", "status": 200, "type": "text/html",
"headers": {...}}}``; a bare string is an HTML body.  Unknown URLs are 404.
Each request is appended to ``SITE.json.requests`` so tests can see what was
fetched, in order.
"""

from __future__ import annotations

import json
import sys

from twisted.internet import reactor
from twisted.web import resource, server


class ProxiedSite(resource.Resource):
    isLeaf = True

    def __init__(self, pages: dict, log_path: str):
        super().__init__()
        self.pages = pages
        self.log = open(log_path, "a", buffering=1)

    def render(self, request):
        url = request.uri.decode("latin-1")
        if not url.startswith("http"):
            host = (request.getHeader("host") or "").lower()
            url = f"http://{host}{url}"
        self.log.write(url + "\n")
        if url.endswith("/robots.txt") and url not in self.pages:
            request.setResponseCode(404)
            return b""
        page = self.pages.get(url)
        if page is None:
            request.setResponseCode(404)
            request.setHeader("Content-Type", "text/html")
            return b"<html><body>not found</body></html>"
        if isinstance(page, str):
            page = {"body": page}
        request.setResponseCode(page.get("status", 200))
        request.setHeader("Content-Type", page.get("type", "text/html; charset=utf-8"))
        for name, value in page.get("headers", {}).items():
            request.setHeader(name, value)
        return page.get("body", "").encode("utf-8")


def main() -> None:
    path = sys.argv[1]
    with open(path) as f:
        pages = json.load(f)
    port = reactor.listenTCP(0, server.Site(ProxiedSite(pages, path + ".requests")), interface="127.0.0.1")
    print(f"minisite listening on http://127.0.0.1:{port.getHost().port}", flush=True)
    reactor.run()


if __name__ == "__main__":
    main()
