"""Stops a crawl after a budget of evaluated pages (``GEOFOCUS_MAX_PAGES``, 0 = no limit).

Unlike CLOSESPIDER_PAGECOUNT, which counts every response (robots.txt,
redirects, errors), this counts the pages the harvest rate is measured on,
and it counts across resumed runs (the total is kept in the frontier).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from geofocus import signals as geo_signals

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler


class PageBudget:
    def __init__(self, crawler: Crawler, max_pages: int):
        self.crawler = crawler
        self.max_pages = max_pages
        self.closing = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageBudget:
        max_pages = crawler.settings.getint("GEOFOCUS_MAX_PAGES")
        if max_pages <= 0:
            raise NotConfigured("GEOFOCUS_MAX_PAGES is not set")
        ext = cls(crawler, max_pages)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        return ext

    def page_evaluated(self, spider: Spider, **kwargs: Any) -> None:
        if self.closing:
            return
        assert self.crawler.stats is not None
        if self.crawler.stats.get_value("geofocus/fetched", 0) >= self.max_pages:
            self.closing = True
            self.crawler.engine.close_spider(spider, "budget_reached")
