"""Geo evaluation: eval(page) in {0, 1} for every page that reaches the spider.

Runs the geoparser on the page and records the verdict in
``response.meta["geofocus"]`` ("relevant", "addresses"), where the rest of the
chain (decay, prediction, spider, crawl log) reads it.

The parse itself runs off the reactor thread: :class:`GeoParseDownloaderMiddleware`
hands each HTML response to a small thread pool (``GEOFOCUS_GEOPARSER_THREADS``,
default 1) as it comes back from the downloader and passes the response on when
the parse is done, so a page that takes long to parse holds back only itself
while the crawl goes on fetching and evaluating other pages.  The spider
middleware then only records the verdict.  Scrapy's spider middlewares cannot
wait for a result (``process_spider_input`` must return at once), which is why
the work sits in a downloader middleware.  With the downloader middleware
disabled, or ``GEOFOCUS_GEOPARSER_THREADS=0``, the spider middleware parses on
the reactor thread as before.  The parser is pure and deterministic, so where
it runs does not change the result; the verdict is computed once per response.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.http import Response, TextResponse
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool

from geofocus import signals as geo_signals
from geofocus.geoparser import GeoParser

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

# Where the downloader middleware leaves the verdict for the spider middleware.
_PRECOMPUTED = "_geoparse"


class PageEvaluator:
    """The geoparser of each region and the page-size limit; one per crawler, shared by both middlewares."""

    def __init__(self, max_parse_bytes: int):
        self.max_parse_bytes = max_parse_bytes
        self._parsers: dict[str, GeoParser] = {}

    @classmethod
    def of(cls, crawler: Crawler) -> PageEvaluator:
        evaluator = getattr(crawler, "_geofocus_evaluator", None)
        if evaluator is None:
            evaluator = cls(crawler.settings.getint("GEOFOCUS_MAX_PARSE_BYTES"))
            crawler._geofocus_evaluator = evaluator  # type: ignore[attr-defined]
        return evaluator

    def parser_for(self, spider: Spider | None) -> GeoParser | None:
        """Built on the reactor thread on first use; ``GeoParser.parse`` is then thread-safe."""
        region = getattr(spider, "region", None)
        if region is None:
            return None
        parser = self._parsers.get(region.name)
        if parser is None:
            parser = self._parsers[region.name] = GeoParser(region)
        return parser

    def wants(self, response: Response) -> bool:
        return isinstance(response, TextResponse)

    def evaluate(self, parser: GeoParser, response: TextResponse) -> tuple[bool, list[dict[str, Any]], str | None]:
        """(relevant, addresses, event): event is None, "too_large", "truncated" or "error: <repr>".

        Touches no shared state (stats are counted by the caller on the reactor
        thread), so it may run in a worker thread.
        """
        if len(response.body) > self.max_parse_bytes:
            return False, [], "too_large"
        try:
            result = parser.parse(response.text, url=response.url)
        except Exception as exc:  # noqa: BLE001 - one odd page must not stop the crawl
            return False, [], f"error: {exc!r}"
        addresses = [a.to_dict() for a in result.addresses]
        return bool(addresses), addresses, "truncated" if result.truncated else None


class GeoParseDownloaderMiddleware:
    """Parses each HTML response in a bounded thread pool before it reaches the spider."""

    def __init__(self, crawler: Crawler, threads: int):
        self.crawler = crawler
        self.evaluator = PageEvaluator.of(crawler)
        self.threads = threads
        self.pool: ThreadPool | None = None
        crawler.signals.connect(self._stop_pool, signal=signals.engine_stopped)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GeoParseDownloaderMiddleware:
        return cls(crawler, crawler.settings.getint("GEOFOCUS_GEOPARSER_THREADS"))

    def _pool(self) -> ThreadPool:
        if self.pool is None:
            self.pool = ThreadPool(minthreads=0, maxthreads=self.threads, name="geofocus-geoparser")
            self.pool.start()
        return self.pool

    def _stop_pool(self) -> None:
        if self.pool is not None:
            self.pool.stop()
            self.pool = None

    async def process_response(self, request: Request, response: Response, spider: Spider | None = None) -> Response:
        if self.threads <= 0 or not self.evaluator.wants(response) or not 200 <= response.status < 300:
            return response
        if request.meta.get("dont_obey_robotstxt") and request.url.endswith("/robots.txt"):
            return response
        meta = request.meta.get("geofocus")  # response.meta is tied to the request only later
        if meta is not None and "relevant" in meta:
            return response
        parser = self.evaluator.parser_for(self.crawler.spider)
        if parser is None:
            return response
        from twisted.internet import reactor  # the one Scrapy installed; not at import time

        verdict = await maybe_deferred_to_future(
            deferToThreadPool(reactor, self._pool(), self.evaluator.evaluate, parser, response)
        )
        request.meta.setdefault("geofocus", {})[_PRECOMPUTED] = verdict
        return response


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

    def parser_for(self, spider: Spider) -> GeoParser | None:
        return self.evaluator.parser_for(spider)

    def evaluate(self, response: Response, spider: Spider) -> tuple[bool, list[dict[str, Any]]]:
        meta = response.meta.get("geofocus") or {}
        verdict = meta.pop(_PRECOMPUTED, None)
        if verdict is None:
            parser = self.parser_for(spider)
            if parser is None or not self.evaluator.wants(response):
                return False, []
            verdict = self.evaluator.evaluate(parser, response)  # type: ignore[arg-type]
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
        meta = response.meta.setdefault("geofocus", {})
        if "relevant" in meta:  # evaluated already (a retried callback)
            meta.pop(_PRECOMPUTED, None)
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
