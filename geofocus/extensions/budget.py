"""Stops a crawl after a budget of evaluated pages (``GEOFOCUS_MAX_PAGES``, 0 = no limit).

Unlike CLOSESPIDER_PAGECOUNT, which counts every response (robots.txt,
redirects, errors), this counts the pages the harvest rate is measured on,
and it counts across resumed runs (the total is kept in the frontier).

Closing the spider when the count is reached leaves the requests already in flight
(up to CONCURRENT_REQUESTS) to be fetched and counted: a budget of 50 fetched 76.  So the
engine starts no request while the pages fetched plus the requests in flight fill the
budget, and starts one again when one of those fails; the crawl closes once the count is reached.
A resumed crawl whose budget is used up closes before it fetches anything.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import signals

from geofocus import signals as geo_signals
from geofocus.downloadslots import requests_in_flight

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class PageBudget:
    def __init__(self, crawler: Crawler, max_pages: int):
        self.crawler = crawler
        self.max_pages = max_pages
        self.closing = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageBudget:
        max_pages = crawler.settings.getint("GEOFOCUS_MAX_PAGES")
        ext = cls(crawler, max_pages)
        if max_pages <= 0:  # no budget: stays inert (no "Disabled" warning for the default)
            return ext
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        return ext

    def fetched(self) -> int:
        assert self.crawler.stats is not None
        return int(self.crawler.stats.get_value("geofocus/fetched", 0) or 0)

    def in_flight(self) -> int:
        """Requests the engine is downloading or whose response is being processed."""
        return requests_in_flight(self.crawler)

    def spent(self) -> bool:
        """True when the pages fetched and in flight fill the budget: start no more requests."""
        return self.fetched() + self.in_flight() >= self.max_pages

    def spider_opened(self, spider: Spider) -> None:
        # The engine starts requests while needs_backout() is False, in one loop: answering
        # True once the budget is spent stops that loop at the right request.  A request that
        # fails leaves room again, and the engine looks for the next request after each one.
        engine = self.crawler.engine
        plain_backout = engine.needs_backout
        engine.needs_backout = lambda: self.spent() or plain_backout()  # type: ignore[method-assign]
        if self.fetched() >= self.max_pages:
            logger.info("The page budget is used up: %(fetched)d of GEOFOCUS_MAX_PAGES=%(max)d pages "
                        "fetched before; nothing to do", {"fetched": self.fetched(), "max": self.max_pages})
            self._close(spider)

    def page_evaluated(self, spider: Spider | None = None, **kwargs: Any) -> None:
        if not self.closing and self.fetched() >= self.max_pages:
            self._close(self.crawler.spider)

    def _close(self, spider: Spider | None) -> None:
        self.closing = True
        spider = spider or self.crawler.spider
        if spider is not None:  # always, once the crawl runs
            self.crawler.engine.close_spider(spider, "budget_reached")
