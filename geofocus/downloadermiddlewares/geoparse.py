"""Geoparses each HTML response off the reactor thread, before it reaches the spider.

:class:`GeoParseDownloaderMiddleware` hands each HTML response to a small thread pool
(``GEOFOCUS_GEOPARSER_THREADS``) as it comes back from the downloader and passes the
response on when the parse is done, so a page that takes long to parse holds back only
itself while the crawl goes on fetching and evaluating other pages.  The verdict travels
in the page state (:attr:`geofocus.pagemeta.PageMeta.geoparse`, never stored) to the geo
evaluation spider middleware (geofocus/spidermiddlewares/geoeval.py), which records it.
Scrapy's spider middlewares cannot wait for a result (``process_spider_input`` must return
at once), which is why the work sits in a downloader middleware.  With this middleware
disabled, or ``GEOFOCUS_GEOPARSER_THREADS=0``, the spider middleware parses on the reactor
thread.  The parser is pure and deterministic, so where it runs does not change the result;
the verdict is computed once per response.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.http import Response, TextResponse
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool

from geofocus.context import crawl_context
from geofocus.geoparser import GeoParser
from geofocus.pagemeta import PageMeta

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

    from geofocus.regions import Region

#: (relevant, addresses, event): event is None, "too_large", "truncated" or "error: <repr>".
Verdict = tuple[bool, list[dict[str, Any]], str | None]

_EVALUATORS: WeakKeyDictionary[Crawler, PageEvaluator] = WeakKeyDictionary()


class PageEvaluator:
    """The crawl region's geoparser and the page-size limit; one per crawler, shared by both middlewares."""

    def __init__(self, region: Region | None, max_parse_bytes: int):
        self.region = region
        self.max_parse_bytes = max_parse_bytes
        self._parser: GeoParser | None = None

    @classmethod
    def of(cls, crawler: Crawler) -> PageEvaluator:
        evaluator = _EVALUATORS.get(crawler)
        if evaluator is None:
            evaluator = _EVALUATORS[crawler] = cls(
                crawl_context(crawler).region, crawler.settings.getint("GEOFOCUS_MAX_PARSE_BYTES"))
        return evaluator

    def parser(self) -> GeoParser | None:
        """Built on the reactor thread on first use (None without a region); ``GeoParser.parse`` is
        then thread-safe."""
        if self._parser is None and self.region is not None:
            self._parser = GeoParser(self.region)
        return self._parser

    def wants(self, response: Response) -> TypeGuard[TextResponse]:
        return isinstance(response, TextResponse)

    def evaluate(self, parser: GeoParser, response: TextResponse) -> Verdict:
        """The verdict on one page.

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
        page = PageMeta.of(request)  # response.meta is tied to the request only later
        if page is not None and page.evaluated:
            return response
        parser = self.evaluator.parser()
        if parser is None:
            return response
        from twisted.internet import reactor  # the one Scrapy installed; not at import time

        verdict = await maybe_deferred_to_future(
            deferToThreadPool(reactor, self._pool(), self.evaluator.evaluate, parser, response)
        )
        PageMeta.ensure(request).geoparse = verdict
        return response
