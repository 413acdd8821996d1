"""Drops pages declared to be in a language the region does not use.

Only a declaration counts (the Content-Language header or ``<html lang>``);
an undeclared page is kept, since a wrong guess would lose relevant pages.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse

from geofocus.context import crawl_context
from geofocus.downloadermiddlewares.base import FilterMiddleware

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from geofocus.regions import Region

_HTML_LANG = re.compile(rb"<html[^>]*?\blang\s*=\s*[\"']?([a-zA-Z]{2,3})", re.I)


def declared_language(response: Response) -> str | None:
    header = response.headers.get(b"Content-Language")
    if header:
        first = header.split(b",", 1)[0].strip().decode("latin-1")
        if first:
            return first.split("-", 1)[0].lower()
    match = _HTML_LANG.search(response.body[:4096])
    return match.group(1).decode("ascii").lower() if match else None


class LanguageFilterMiddleware(FilterMiddleware):
    def __init__(self, crawler: Crawler, region: Region | None):
        super().__init__(crawler)
        self.region = region

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LanguageFilterMiddleware:
        if not crawler.settings.getbool("GEOFOCUS_LANGUAGE_FILTER_ENABLED"):
            raise NotConfigured("GEOFOCUS_LANGUAGE_FILTER_ENABLED is off")
        return cls(crawler, crawl_context(crawler).region)

    def process_response(self, request: Request, response: Response, spider: Spider | None = None) -> Response:
        spider = spider or self.crawler.spider
        region = self.region
        if region is None or not isinstance(response, TextResponse) or response.status >= 300:
            return response
        language = declared_language(response)
        if language and region.languages and language not in region.languages:
            self.reject(request, f"language/{language}", spider)
        return response
