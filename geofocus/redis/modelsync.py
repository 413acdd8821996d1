"""RedisModelSync extension: the workers of a shared crawl pool their link models.

Every ``GEOFOCUS_REDIS_MODEL_SYNC_INTERVAL`` seconds it takes what the link
prediction middleware's model learned since the last exchange (the count
difference to a snapshot; counts only grow), ships it to Redis and merges what
the other workers added (``RedisModelPool.exchange``, run in a thread so the
reactor never waits).  Only for adaptive crawls shared through Redis.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task, threads

from geofocus.redis.connection import connect
from geofocus.redis.modelstore import RedisModelPool, add_counts, count_delta

logger = logging.getLogger(__name__)


class RedisModelSync:
    def __init__(self, crawler: Any, pool: RedisModelPool, interval: float) -> None:
        self.crawler = crawler
        self.pool = pool
        self.interval = interval
        self._snapshot: dict[str, Any] | None = None
        self._busy = False
        self._loop: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> RedisModelSync:
        s = crawler.settings
        if not s.get("GEOFOCUS_REDIS_URL") or not s.get("GEOFOCUS_CRAWL_ID"):
            raise NotConfigured("not a shared crawl")
        interval = s.getfloat("GEOFOCUS_REDIS_MODEL_SYNC_INTERVAL", 10.0)
        if interval <= 0:
            raise NotConfigured("GEOFOCUS_REDIS_MODEL_SYNC_INTERVAL <= 0")
        base = f"{s.get('GEOFOCUS_REDIS_PREFIX', 'geofocus')}:{s.get('GEOFOCUS_CRAWL_ID')}"
        pool = RedisModelPool(connect(s.get("GEOFOCUS_REDIS_URL")), base,
                              depth=s.getint("GEOFOCUS_PREDICTION_DEPTH", 3))
        ext = cls(crawler, pool, interval)
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        return ext

    def middleware(self) -> Any:
        scraper = getattr(self.crawler.engine, "scraper", None)
        for mw in getattr(getattr(scraper, "spidermw", None), "middlewares", ()):
            if hasattr(mw, "model") and hasattr(getattr(mw, "model"), "merge"):
                return mw
        return None

    def spider_opened(self, spider: Any) -> None:
        mw = self.middleware()
        if mw is not None:
            # a warm-start model is every worker's: pool only what is learned from now on
            self._snapshot = mw.model.to_dict()
        self._loop = task.LoopingCall(self.sync)
        self._loop.start(self.interval, now=False)

    def spider_closed(self, spider: Any) -> Any:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        return self.sync()  # ship what is left (Scrapy waits for the Deferred)

    def sync(self) -> Any:
        mw = self.middleware()
        if mw is None or self._busy or getattr(mw, "adaptive", True) is False:
            return None
        model = mw.model
        current = model.to_dict()
        if int(current["depth"]) != self.pool.depth:
            return None
        delta = count_delta(current, self._snapshot)
        previous, self._snapshot = self._snapshot, current
        self._busy = True

        def merged(others: dict[str, Any]) -> None:
            self._busy = False
            if others["terms"] or any(any(d) for d in others["docs"]):
                if mw.model is model:
                    model.merge(others)
                    self._snapshot = add_counts(self._snapshot, others)
                    self.crawler.stats.inc_value("geofocus/redis/model_merges")

        def failed(failure: Any) -> None:
            self._busy = False
            self._snapshot = previous  # what failed goes in the next delta
            logger.warning("Link model exchange with Redis failed (%(error)s); will retry",
                           {"error": failure.getErrorMessage()})

        d = threads.deferToThread(self.pool.exchange, delta)
        d.addCallbacks(merged, failed)
        return d
