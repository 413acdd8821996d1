"""Geo evaluation: eval(page) in {0, 1} for every page that reaches the spider.

Records the geoparser's verdict on the page in its page state (``relevant``,
``addresses`` of :class:`geofocus.pagemeta.PageMeta`), where the rest of the chain
(decay, prediction, spider, crawl log) reads it, and sends ``page_evaluated``.

The parse itself normally ran off the reactor thread already, in
:class:`geofocus.downloadermiddlewares.geoparse.GeoParseDownloaderMiddleware`; this
middleware then only records the verdict.  Without it (disabled, or
``GEOFOCUS_GEOPARSER_THREADS=0``) the page is parsed here, on the reactor thread.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.http import Response

from geofocus import signals as geo_signals
from geofocus.downloadermiddlewares.geoparse import PageEvaluator
from geofocus.pagemeta import PageMeta

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

    from geofocus.geoparser import GeoParser

logger = logging.getLogger(__name__)


class GeoEvaluationMiddleware:
    def __init__(self, crawler: Crawler, max_parse_bytes: int | None = None):
        self.crawler = crawler
        self.stats = crawler.stats
        self.evaluator = PageEvaluator.of(crawler)
        if max_parse_bytes is not None:
            self.evaluator.max_parse_bytes = max_parse_bytes
        self._parse_errors_logged = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GeoEvaluationMiddleware:
        return cls(crawler)

    @property
    def max_parse_bytes(self) -> int:
        return self.evaluator.max_parse_bytes

    def parser(self) -> GeoParser | None:
        return self.evaluator.parser()

    def evaluate(self, response: Response, page: PageMeta,
                 spider: Spider | None) -> tuple[bool, list[dict[str, Any]]]:
        verdict, page.geoparse = page.geoparse, None
        if verdict is None:
            parser = self.parser()
            if parser is None or not self.evaluator.wants(response):
                return False, []
            verdict = self.evaluator.evaluate(parser, response)
        relevant, addresses, event = verdict
        if event == "too_large":
            self.stats.inc_value("geofocus/geoparser/skipped/too_large")
        elif event == "truncated":
            # More anchors than one parse looks at (geofocus.geoparser.model.WorkLimit).
            self.stats.inc_value("geofocus/geoparser/truncated")
        elif event is not None:
            self.stats.inc_value("geofocus/geoparser/errors")
            if not self._parse_errors_logged:
                logger.error(
                    "Geoparser failed on %(url)s: %(error)s (further failures are only counted)",
                    {"url": response.url, "error": event},
                    extra={"spider": spider},
                )
                self._parse_errors_logged = True
        return relevant, addresses

    def process_spider_input(self, response: Response, spider: Spider | None = None) -> None:
        spider = spider or self.crawler.spider
        page = PageMeta.ensure(response)
        if page.evaluated:  # evaluated already (a retried callback)
            page.geoparse = None
            return
        relevant, addresses = self.evaluate(response, page, spider)
        page.relevant = relevant
        page.addresses = addresses
        self.stats.inc_value("geofocus/fetched")
        if relevant:
            self.stats.inc_value("geofocus/relevant")
            self.stats.inc_value("geofocus/geoparser/addresses", len(addresses))
        fetched = self.stats.get_value("geofocus/fetched", 0)
        self.stats.set_value("geofocus/harvest_rate", round(self.stats.get_value("geofocus/relevant", 0) / fetched, 4))
        self.crawler.signals.send_catch_log(
            geo_signals.page_evaluated, response=response, relevant=relevant, addresses=addresses, spider=spider
        )
