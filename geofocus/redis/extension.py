"""RedisCrawl extension: seeds from ``B:start_urls`` and staying alive while the crawl is shared.

``GEOFOCUS_MAX_PAGES`` is the budget of the whole shared crawl: every worker
closes once all workers together have fetched that many pages.

A worker whose own queue is empty must not close while other workers still
hold leases (their pages may bring new URLs) or seeds may still be pushed:
on ``spider_idle`` it takes seed URLs the frontier's thread popped from the
Redis list (like scrapy-redis's RedisSpider) and raises ``DontCloseSpider``
while others are busy, up to ``GEOFOCUS_REDIS_IDLE_TIMEOUT`` seconds of idling.

If Redis loses the crawl (see :mod:`geofocus.redis.generation`) the worker
closes with the reason ``redis_crawl_lost`` and ``scrapy crawl`` exits with
status 1 (``geofocus.redis.generation.LOST_CRAWLS`` tells the command).

The extension talks to the frontier only through the
:class:`~geofocus.redis.frontier.SharedFrontier` protocol, and finds it as the
``frontier`` attribute of the crawl's open scheduler
(:func:`geofocus.scheduler.scheduler_of`), never through the engine's private
slot.  One private engine attribute remains, in :func:`wake_engine`: Scrapy
has no public call that makes the engine ask the scheduler for requests
before its next 5-second heartbeat.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from twisted.internet import task

from geofocus import signals as geo_signals
from geofocus.seeds import SeedLineError, parse_seed_line

if TYPE_CHECKING:
    from geofocus.redis.frontier import SharedFrontier

logger = logging.getLogger(__name__)

LOST_REASON = "redis_crawl_lost"

SEED_META = {"seed": True, "score": 1.0, "priority": 1.0, "dist": 0, "seed_dist": 0, "parent": None}


def frontier_of(crawler: Any) -> SharedFrontier | None:
    """The shared frontier of the crawl's open scheduler (None before it opens, or when the
    crawl's frontier is not shared)."""
    from geofocus.redis.frontier import SharedFrontier
    from geofocus.scheduler import scheduler_of  # the scheduler imports the spider middlewares

    frontier = getattr(scheduler_of(crawler), "frontier", None)
    return frontier if isinstance(frontier, SharedFrontier) else None


def wake_engine(crawler: Any) -> None:
    """Ask the engine to call the scheduler now instead of at its next heartbeat (5 s).

    Scrapy (2.19) has no public call for this; ``engine.crawl()`` does it only
    together with a new request.  This is the one private engine attribute the
    extension reads, and it degrades to the heartbeat if Scrapy renames it.
    """
    slot = getattr(getattr(crawler, "engine", None), "_slot", None)
    nextcall = getattr(slot, "nextcall", None)
    if nextcall is not None:
        nextcall.schedule()


class RedisCrawl:
    def __init__(self, crawler: Any, idle_timeout: float, seed_interval: float, max_pages: int = 0) -> None:
        self.crawler = crawler
        self.max_pages = max_pages
        self.closing = False
        self.idle_timeout = idle_timeout
        self.seed_interval = seed_interval
        self.idle_since: float | None = None
        self._loop: task.LoopingCall | None = None
        self._frontier: SharedFrontier | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> RedisCrawl:
        from geofocus.redis.connection import redis_url  # only shared crawls need the Redis client

        if not redis_url(crawler.settings):
            raise NotConfigured  # not a shared crawl (no message: Scrapy would log it as a WARNING on every crawl)
        ext = cls(crawler, crawler.settings.getfloat("GEOFOCUS_REDIS_IDLE_TIMEOUT"),
                  crawler.settings.getfloat("GEOFOCUS_REDIS_POLL_INTERVAL"),
                  crawler.settings.getint("GEOFOCUS_MAX_PAGES"))
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_idle, signals.spider_idle)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        return ext

    def frontier(self) -> SharedFrontier | None:
        if self._frontier is None:  # found once: a crawl's scheduler keeps its frontier
            self._frontier = frontier_of(self.crawler)
        return self._frontier

    def check_budget(self, spider: scrapy.Spider) -> bool:
        """Close the worker once all workers together reached GEOFOCUS_MAX_PAGES; True if closing."""
        frontier = self.frontier()
        if frontier is None or self.max_pages <= 0 or self.closing:
            return self.closing
        # GEOFOCUS_MAX_PAGES of a shared crawl is the crawl's budget, not each worker's
        fetched = frontier.shared_counters().get("geofocus/fetched", 0)
        if fetched >= self.max_pages:
            self.closing = True
            logger.info("Shared crawl reached its budget: %(n)d pages fetched by all workers", {"n": fetched})
            self.crawler.engine.close_spider(spider, "budget_reached")
        return self.closing

    def page_evaluated(self, spider: scrapy.Spider, **kwargs: Any) -> None:
        # Checked on every page, not only on the poll timer: the overshoot of a shared budget is
        # then what the other workers fetched since the last counter refresh.
        self.check_budget(spider)

    def check_lost(self, spider: scrapy.Spider) -> bool:
        """Close the worker if Redis lost the crawl (the frontier already logged the one line)."""
        frontier = self.frontier()
        if frontier is None or not getattr(frontier, "lost", None):
            return False
        if not self.closing:
            self.closing = True
            self.crawler.stats.set_value("geofocus/redis/crawl_lost", 1)
            self.crawler.engine.close_spider(spider, LOST_REASON)
        return True

    def poll(self, spider: scrapy.Spider) -> None:
        """Seeds from Redis, and a wake-up call for the engine of an idle worker."""
        if self.check_lost(spider):
            return
        self.take_seeds(spider)
        frontier = self.frontier()
        if self.check_budget(spider):
            return
        # an idle worker re-checks every poll (not at the engine's 5 s heartbeat), so it
        # closes soon after a shared crawl ends and starts soon after new URLs arrive
        if frontier is not None and (len(frontier) or self.idle_since is not None):
            wake_engine(self.crawler)

    def spider_opened(self, spider: scrapy.Spider) -> None:
        self._loop = task.LoopingCall(self.poll, spider)
        self._loop.start(self.seed_interval, now=False)

    def spider_closed(self, spider: scrapy.Spider) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._frontier = None

    def take_seeds(self, spider: scrapy.Spider) -> int:
        frontier = self.frontier()
        if frontier is None:
            return 0
        n = 0
        for line in frontier.take_seeds():
            try:
                url = parse_seed_line(line)
            except SeedLineError as exc:
                logger.warning("Skipping a seed from Redis: %(error)s", {"error": exc})
                continue
            if url is None:
                continue
            request = scrapy.Request(url, callback=getattr(spider, "parse", None),
                                     errback=getattr(spider, "errback", None),
                                     meta={"geofocus": dict(SEED_META)})
            self.crawler.engine.crawl(request)
            n += 1
        if n:
            self.crawler.stats.inc_value("geofocus/redis/seeds", n)
            logger.info("Took %(n)d seed URLs from Redis", {"n": n})
        return n

    def spider_idle(self, spider: scrapy.Spider) -> None:
        frontier = self.frontier()
        if frontier is None or self.check_lost(spider):
            return
        now = time.monotonic()
        if self.take_seeds(spider) or len(frontier):
            self.idle_since = None
            raise DontCloseSpider
        frontier.flush()
        busy = frontier.leased_elsewhere() > 0 or not frontier.healthy
        if self.idle_since is None:
            self.idle_since = now
        idle_for = now - self.idle_since
        # a short grace even when nobody seems busy: a worker that starts with a fresh crawl
        # may see nothing before the first worker's pushes reach Redis
        grace = min(self.idle_timeout, 2.0)
        if idle_for < grace or (busy and idle_for < self.idle_timeout):
            raise DontCloseSpider
        self.idle_since = None
