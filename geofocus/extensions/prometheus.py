"""Prometheus metrics of the crawl, served on ``GEOFOCUS_PROMETHEUS_PORT`` (0: off)
at ``GEOFOCUS_PROMETHEUS_ADDR`` (127.0.0.1; 0.0.0.0 for a Prometheus on another machine).

The figures of the progress line: pages fetched and relevant, harvest rate, frontier size,
requests in flight, page budget; scraped at ``http://HOST:PORT/metrics``.  The gauges are
refreshed from the crawl's stats on every scrape, so they are never stale.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import signals

from geofocus import defaults
from geofocus.downloadslots import requests_in_flight

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class PrometheusMetrics:
    def __init__(self, crawler: Crawler, port: int):
        from prometheus_client import CollectorRegistry
        from prometheus_client.core import GaugeMetricFamily

        self.crawler = crawler
        self.port = port
        # empty means the default, never "every interface"
        self.addr = crawler.settings.get("GEOFOCUS_PROMETHEUS_ADDR") or defaults.GEOFOCUS_PROMETHEUS_ADDR
        self.registry = CollectorRegistry(auto_describe=False)
        self.server: Any = None
        ext = self

        class Collector:
            def collect(self) -> Any:
                for name, help_text, value in ext.figures():
                    yield GaugeMetricFamily(name, help_text, value=value)

        self.registry.register(Collector())

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PrometheusMetrics:
        port = crawler.settings.getint("GEOFOCUS_PROMETHEUS_PORT")
        ext = cls(crawler, port)
        if port <= 0:  # off by default: stays inert, without a "Disabled" warning
            return ext
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        return ext

    def figures(self) -> list[tuple[str, str, float]]:
        stats = self.crawler.stats

        def stat(key: str) -> float:
            value = stats.get_value(key, 0) if stats else 0
            return float(value or 0)

        fetched, relevant = stat("geofocus/fetched"), stat("geofocus/relevant")
        return [
            ("geofocus_pages_fetched", "pages evaluated (across resumes)", fetched),
            ("geofocus_pages_relevant", "pages with an address of the region", relevant),
            ("geofocus_harvest_rate", "relevant / fetched", relevant / fetched if fetched else 0.0),
            ("geofocus_frontier_size", "URLs queued", stat("geofocus/frontier/size")),
            ("geofocus_requests_in_flight", "requests being downloaded or processed",
             float(requests_in_flight(self.crawler))),
            ("geofocus_page_budget", "GEOFOCUS_MAX_PAGES (0: none)",
             float(self.crawler.settings.getint("GEOFOCUS_MAX_PAGES"))),
            ("geofocus_filtered", "requests rejected by the filters", stat("geofocus/filtered")),
        ]

    def spider_opened(self, spider: Spider) -> None:
        from prometheus_client import start_http_server

        try:
            self.server, _thread = start_http_server(self.port, addr=self.addr, registry=self.registry)
        except OSError as exc:
            logger.warning("Cannot serve Prometheus metrics on port %(port)d: %(error)s",
                           {"port": self.port, "error": exc})
            return
        logger.info("Prometheus metrics on http://%(addr)s:%(port)d/metrics", {"addr": self.addr, "port": self.port})

    def spider_closed(self, spider: Spider) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
