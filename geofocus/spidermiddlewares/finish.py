"""Tells the scheduler when a page is finished: all its links were handed over.

Installed closest to the engine, so the end of its output is the end of the
page's output: only then may the frontier mark the URL done, or a kill in
between would lose the links of a page counted as fetched.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from geofocus import signals as geo_signals

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class PageFinishedMiddleware:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageFinishedMiddleware:
        return cls(crawler)

    def _finished(self, response: Response, spider: Spider) -> None:
        self.crawler.signals.send_catch_log(geo_signals.request_finished, request=response.request, spider=spider)

    def process_spider_output(self, response: Response, result: Iterable[Any], spider: Spider | None = None) -> Iterator[Any]:
        spider = spider or self.crawler.spider
        yield from result
        self._finished(response, spider)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        spider = spider or self.crawler.spider
        async for item in result:
            yield item
        self._finished(response, spider)

    def process_spider_exception(self, response: Response, exception: Exception, spider: Spider | None = None) -> None:
        spider = spider or self.crawler.spider
        self._finished(response, spider)
