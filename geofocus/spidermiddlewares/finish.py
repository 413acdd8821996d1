"""Tells the scheduler when a page is finished: all its links were handed over.

Scrapy hands a callback's output to the scheduler through a queue of
concurrent workers, so the end of the output is not yet the moment its links
are queued.  This middleware, installed closest to the engine, appends one
marker request to the output; it travels the same queue behind the page's
links, and the scheduler marks the page done when it arrives (and does not
queue it).  Only then may the frontier mark the URL done: a kill in between
would otherwise lose the links of a page counted as fetched.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.http.request import NO_CALLBACK

from geofocus import signals as geo_signals

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

#: meta key of the marker request; its value is the fingerprint of the finished page.
FINISHED_MARKER = "geofocus_page_finished"


class PageFinishedMiddleware:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageFinishedMiddleware:
        return cls(crawler)

    def marker(self, response: Response) -> Request:
        from geofocus.scheduler import scheduler_of  # the scheduler imports this module

        scheduler = scheduler_of(self.crawler)
        if scheduler is not None:  # its key for the page (a dont_filter duplicate has one of its own)
            fingerprint = scheduler.frontier_key(response.request)  # type: ignore[arg-type]
        else:
            fingerprint = self.crawler.request_fingerprinter.fingerprint(response.request).hex()  # type: ignore[union-attr]
        return Request(response.url, callback=NO_CALLBACK, dont_filter=True, meta={FINISHED_MARKER: fingerprint})

    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        yield from result
        yield self.marker(response)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        async for item in result:
            yield item
        yield self.marker(response)

    def process_spider_exception(
        self, response: Response, exception: Exception, spider: Spider | None = None
    ) -> None:
        self.crawler.signals.send_catch_log(
            geo_signals.request_finished, request=response.request, spider=self.crawler.spider
        )
