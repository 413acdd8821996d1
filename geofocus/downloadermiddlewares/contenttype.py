"""Keeps only HTML, deciding on the response headers before the body is read.

A ``headers_received`` handler stops the download of anything whose
Content-Type is not HTML (Scrapy's StopDownload); the middleware turns that
into IgnoreRequest and counts it, so a 50 MB video costs one header read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured, StopDownload

from geofocus.downloadermiddlewares.base import FilterMiddleware
from geofocus.pagemeta import IMAGE_META

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.http.headers import Headers

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


def content_type_of(headers: Headers) -> str | None:
    value = headers.get(b"Content-Type")
    if not value:
        return None
    return value.split(b";", 1)[0].strip().lower().decode("latin-1")


class ContentTypeFilterMiddleware(FilterMiddleware):
    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentTypeFilterMiddleware:
        if not crawler.settings.getbool("GEOFOCUS_CONTENT_TYPE_FILTER_ENABLED"):
            raise NotConfigured("GEOFOCUS_CONTENT_TYPE_FILTER_ENABLED is off")
        mw = cls(crawler)
        crawler.signals.connect(mw.headers_received, signals.headers_received)
        return mw

    @staticmethod
    def is_wanted(request: Request, content_type: str | None) -> bool:
        if request.url.endswith("/robots.txt"):
            return True
        if request.meta.get(IMAGE_META):  # an image of the classifier strategy: judged there
            return True
        # No Content-Type: let the body decide (Scrapy sniffs it into HtmlResponse or not).
        return content_type is None or content_type in HTML_TYPES

    def headers_received(self, headers: Headers, body_length: int, request: Request, spider: Spider) -> None:
        if not self.is_wanted(request, content_type_of(headers)):
            raise StopDownload(fail=True)

    def process_exception(self, request: Request, exception: Exception, spider: Spider | None = None) -> Any:
        spider = spider or self.crawler.spider
        if isinstance(exception, StopDownload):
            response = getattr(exception, "response", None)
            ctype = content_type_of(response.headers) if response is not None else None
            self.reject(request, f"content_type/{(ctype or 'unknown').split('/')[0]}", spider, detail=ctype or "")
        return None

    def process_response(self, request: Request, response: Response, spider: Spider | None = None) -> Response:
        spider = spider or self.crawler.spider
        # Redirects and errors carry no content worth judging; other non-HTML bodies are dropped.
        if response.status < 300 and not self.is_wanted(request, content_type_of(response.headers)):
            ctype = content_type_of(response.headers) or "unknown"
            self.reject(request, f"content_type/{ctype.split('/')[0]}", spider, detail=ctype)
        return response
