"""Tells the scheduler when a page is finished: all its links were handed over.

(Being closest to the engine, it also drops links the frontier would refuse
as duplicates at their final priority, before the engine signals them.)

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
from geofocus.pagemeta import FINGERPRINT_META, FINISHED_MARKER, PageMeta
from geofocus.scheduler import scheduler_of

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

    def marker(self, response: Response) -> Request:
        request = response.request
        assert request is not None  # a response that reaches the spider middlewares has its request
        scheduler = scheduler_of(self.crawler)
        if scheduler is not None:  # its key for the page (a dont_filter duplicate has one of its own)
            fingerprint = scheduler.frontier_key(request)
        else:
            fingerprint = self.crawler.request_fingerprinter.fingerprint(request).hex()
        return Request(response.url, callback=NO_CALLBACK, dont_filter=True, meta={FINISHED_MARKER: fingerprint})

    def _known(self) -> Any:
        """A test "would the scheduler refuse this request as a duplicate?" (None: no such test)."""
        scheduler = scheduler_of(self.crawler)
        if scheduler is None:
            return None
        link_wanted = scheduler.link_wanted

        def known(item: Any) -> bool:
            # Links with their final priority (after the prediction): one the frontier would refuse is
            # dropped here, before the engine's signals and the scheduler's serialisation.
            if not isinstance(item, Request) or item.dont_filter:
                return False
            carried = item.meta.get(FINGERPRINT_META)
            if carried is None or carried[0] != item.url:
                return False
            page = PageMeta.of(item)
            if page is None or page.priority is None:
                return False
            return not link_wanted(carried[1], page.priority)

        return known

    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        known = self._known()
        for item in result:
            if known is None or not known(item):
                yield item
        yield self.marker(response)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        known = self._known()
        async for item in result:
            if known is None or not known(item):
                yield item
        yield self.marker(response)

    def process_spider_exception(
        self, response: Response, exception: Exception, spider: Spider | None = None
    ) -> None:
        self.crawler.signals.send_catch_log(
            geo_signals.request_finished, request=response.request, spider=self.crawler.spider
        )
