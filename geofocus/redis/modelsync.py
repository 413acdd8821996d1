"""A worker's link model kept in step with the crawl's pool in Redis.

Every ``GEOFOCUS_MODEL_SYNC_INTERVAL`` seconds the counts the model learned since
the last exchange are shipped to the pool (:class:`~geofocus.redis.modelstore.RedisModelPool`)
and what the other workers shipped is merged in.  The Redis round trip runs in a
thread; counts whose shipping failed go with the next exchange.  Best effort: when
Redis cannot be reached the model simply stays local (logged, stat
``geofocus/prediction/pool/errors``); the frontier is what reports Redis as down.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from twisted.internet import task, threads
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from geofocus import defaults
from geofocus.redis.connection import RedisUnavailableError, make_client, redis_params
from geofocus.redis.modelstore import RedisModelPool

if TYPE_CHECKING:
    from scrapy.settings import Settings
    from scrapy.statscollectors import StatsCollector

    from geofocus.prediction.model import BridgeNaiveBayes

logger = logging.getLogger(__name__)


class ModelPoolSync:
    def __init__(self, model: Callable[[], BridgeNaiveBayes], pool: RedisModelPool, stats: StatsCollector,
                 interval: float, on_merged: Callable[[], None]) -> None:
        self.model = model  # the model in use now (the middleware may replace it when it loads one)
        self.pool = pool
        self.stats = stats
        self.interval = interval
        self.on_merged = on_merged
        self.pending: Deferred | None = None  # the exchange under way
        self._loop: task.LoopingCall | None = None

    @classmethod
    def connect(cls, settings: Settings, url: str, crawl_id: str, model: Callable[[], BridgeNaiveBayes],
                depth: int, alpha: float, stats: StatsCollector,
                on_merged: Callable[[], None]) -> ModelPoolSync | None:
        """The pool of crawl ``crawl_id`` at ``url`` with the crawl's client parameters, or None (logged)."""
        if not crawl_id:
            logger.error("GEOFOCUS_REDIS_URL is set but GEOFOCUS_CRAWL_ID is empty: link model not pooled")
            return None
        try:
            # the frontier's client parameters too (TLS, ...), from GEOFOCUS_REDIS_PARAMS / REDIS_PARAMS
            timeout = settings.getfloat("GEOFOCUS_REDIS_TIMEOUT", defaults.GEOFOCUS_REDIS_TIMEOUT)
            client = make_client(url, timeout=timeout, params=redis_params(settings))
        except RedisUnavailableError as exc:
            logger.error("link model not pooled: %s", exc)
            return None
        base = f"{settings.get('GEOFOCUS_REDIS_PREFIX') or defaults.GEOFOCUS_REDIS_PREFIX}:{crawl_id}"
        pool = RedisModelPool(client, base, depth, alpha)
        logger.info("link model pooled in Redis under %s:model:*", base)
        interval = settings.getfloat("GEOFOCUS_MODEL_SYNC_INTERVAL", defaults.GEOFOCUS_MODEL_SYNC_INTERVAL)
        return cls(model, pool, stats, interval, on_merged)

    def start(self) -> None:
        self._loop = task.LoopingCall(self.sync)
        self._loop.start(self.interval, now=True)

    def sync(self) -> Deferred | None:
        """Ship the counts learned since the last exchange; merge what the other workers learned.

        Returns the Deferred of the exchange (None when one is already under way).
        """
        if self.pending is not None:
            return None
        delta = self.model().take_delta()
        d = threads.deferToThread(self.pool.exchange, delta)
        d.addCallbacks(self._merge, self._failed, errbackArgs=(delta,))
        d.addBoth(self._finished)
        self.pending = d
        return d

    def close(self) -> None:
        """Ship the rest (blocking: the crawl is over)."""
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        delta = self.model().take_delta()
        try:
            self._merge(self.pool.exchange(delta))
        except Exception as exc:
            self.model().requeue_delta(delta)
            self.stats.inc_value("geofocus/prediction/pool/errors")
            logger.error("link model pool: final exchange failed, counts not shipped: %s", exc)

    def _merge(self, others: dict[str, Any]) -> None:
        examples = sum(a + b for a, b in others["docs"])
        if examples or others["terms"]:
            self.model().merge(others)
            self.on_merged()
        self.stats.inc_value("geofocus/prediction/pool/syncs")
        self.stats.inc_value("geofocus/prediction/pool/examples_merged", examples)

    def _failed(self, failure: Failure, delta: dict[str, Any]) -> None:
        self.model().requeue_delta(delta)
        self.stats.inc_value("geofocus/prediction/pool/errors")
        logger.warning(
            "link model pool: exchange with Redis failed (%s); retrying in %.0f s",
            failure.getErrorMessage(),
            self.interval,
        )

    def _finished(self, result: Any) -> None:
        self.pending = None
