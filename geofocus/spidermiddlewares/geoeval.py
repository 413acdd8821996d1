"""Geo evaluation: eval(page) in {0, 1} for every page that reaches the spider.

Runs the geoparser on the page and records the verdict in
``response.meta["geofocus"]`` ("relevant", "addresses"), where the rest of the
chain (decay, prediction, spider, crawl log) reads it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.http import Response, TextResponse

from geofocus import signals as geo_signals
from geofocus.geoparser import GeoParser

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class GeoEvaluationMiddleware:
    def __init__(self, crawler: Crawler, max_parse_bytes: int):
        self.crawler = crawler
        self.stats = crawler.stats
        self.max_parse_bytes = max_parse_bytes
        self._parsers: dict[str, GeoParser] = {}
        self._parse_errors_logged = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GeoEvaluationMiddleware:
        return cls(crawler, crawler.settings.getint("GEOFOCUS_MAX_PARSE_BYTES"))

    def parser_for(self, spider: Spider) -> GeoParser | None:
        region = getattr(spider, "region", None)
        if region is None:
            return None
        parser = self._parsers.get(region.name)
        if parser is None:
            parser = self._parsers[region.name] = GeoParser(region)
        return parser

    def evaluate(self, response: Response, spider: Spider) -> tuple[bool, list[dict[str, Any]]]:
        parser = self.parser_for(spider)
        if parser is None or not isinstance(response, TextResponse):
            return False, []
        if len(response.body) > self.max_parse_bytes:
            self.stats.inc_value("geofocus/geoparser/skipped/too_large")
            return False, []
        try:
            result = parser.parse(response.text, url=response.url)
        except Exception:
            self.stats.inc_value("geofocus/geoparser/errors")
            if not self._parse_errors_logged:
                logger.exception(
                    "Geoparser failed on %(url)s (further failures are only counted)",
                    {"url": response.url},
                    extra={"spider": spider},
                )
                self._parse_errors_logged = True
            return False, []
        addresses = [a.to_dict() for a in result.addresses]
        return bool(addresses), addresses

    def process_spider_input(self, response: Response, spider: Spider | None = None) -> None:
        spider = spider or self.crawler.spider
        meta = response.meta.setdefault("geofocus", {})
        if "relevant" in meta:  # evaluated already (a retried callback)
            return
        relevant, addresses = self.evaluate(response, spider)
        meta["relevant"] = relevant
        meta["addresses"] = addresses
        self.stats.inc_value("geofocus/fetched")
        if relevant:
            self.stats.inc_value("geofocus/relevant")
            self.stats.inc_value("geofocus/geoparser/addresses", len(addresses))
        fetched = self.stats.get_value("geofocus/fetched", 0)
        self.stats.set_value("geofocus/harvest_rate", round(self.stats.get_value("geofocus/relevant", 0) / fetched, 4))
        self.crawler.signals.send_catch_log(
            geo_signals.page_evaluated, response=response, relevant=relevant, addresses=addresses, spider=spider
        )
