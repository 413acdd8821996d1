"""Crawl-wide Scrapy stats: every worker's stats added up in Redis (``GEOFOCUS_REDIS_SHARED_STATS``).

scrapy-redis's :class:`~scrapy_redis.stats.RedisStatsCollector` keeps a
spider's stats in one Redis hash so that all workers write into it.  This
subclass keeps that idea and the hash, but not four of its choices, which do
not hold for many workers of one crawl:

- every stats call there is a Redis round trip on the reactor thread (Scrapy
  makes dozens per page); here calls change a local view at once and a
  background thread sends them in one script call every
  ``GEOFOCUS_REDIS_FLUSH_INTERVAL`` seconds, then reads the crawl-wide hash back;
- ``inc_value``/``max_value`` there read, then write (two workers lose each
  other's updates); here the script ``lua/stats_merge.lua`` adds, and keeps
  maxima and minima, atomically;
- values there are read back as ``int``; here as int, float or text;
- the hash there is ``<spider>:stats`` and is deleted at close unless
  ``SCHEDULER_PERSIST``; here it is the crawl's ``B:scrapy-stats``
  (:mod:`geofocus.redis.keys`) and no worker deletes it (``crawl-admin clear``
  does).

Each worker's ``get_value``/``get_stats`` (its stats dump, ``stats.json``,
progress lines) then show crawl-wide figures as of the last sync plus its own
changes since; ``scrapy crawl-admin status`` shows the hash.  Counts add up;
a value that is *set* (``start_time``, ``finish_reason``) is the last writer's
in Redis, while each worker keeps its own in its view.  Nothing is written into
a Redis that lost the crawl (the generation check of :mod:`geofocus.redis.generation`).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import Any

import redis
from scrapy.statscollectors import StatsCollector
from scrapy_redis.stats import RedisStatsCollector

from geofocus.redis.connection import make_client, redis_params, redis_url
from geofocus.redis.keys import CrawlKeys
from geofocus.redis.scripts import Scripts
from geofocus.stats import PlainAttributes

logger = logging.getLogger(__name__)

_INC, _SETNX, _SET, _MAX, _MIN = "f", "n", "s", "max", "min"


def _encode(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)
    return str(value)


def decode_stat(raw: bytes) -> Any:
    """A value of the shared stats hash: int, float or text."""
    text = raw.decode("utf-8", "replace")
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


class SharedStatsCollector(PlainAttributes, RedisStatsCollector):
    """Scrapy's stats of all workers of a shared crawl, added up in ``B:scrapy-stats``."""

    def __init__(self, crawler: Any, spider: Any = None) -> None:
        # not RedisStatsCollector.__init__: its client ignores GEOFOCUS_REDIS_* and its key has no crawl id
        StatsCollector.__init__(self, crawler)
        settings = crawler.settings
        self.server = make_client(redis_url(settings), timeout=settings.getfloat("GEOFOCUS_REDIS_TIMEOUT"),
                                  params=redis_params(settings))
        self.keys = CrawlKeys.from_settings(settings)
        self.stats_key = self.keys.scrapy_stats
        self.persist = True
        self.spider = spider
        self.spider_name = getattr(crawler.spidercls, "name", None)
        self.interval = settings.getfloat("GEOFOCUS_REDIS_FLUSH_INTERVAL")
        self.scripts = Scripts(self.server)
        self._lock = threading.Lock()
        self._ops: list[list[Any]] = []  # [op, key, value], merged per key while the op repeats
        self._last_op: dict[str, list[Any]] = {}
        self._own: dict[str, Any] = {}  # values this worker set (kept as objects in its view)
        self._generation: bytes | str | None = None   # what redis-py's GET returns
        self._healthy = True
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- Scrapy's stats interface: local, non-blocking --------------------------------------
    def _queue(self, op: str, key: str, value: Any) -> None:
        last = self._last_op.get(key)
        if last is not None and last[0] == op:
            if op == _INC:
                last[2] += value
            elif op == _MAX:
                last[2] = max(last[2], value)
            elif op == _MIN:
                last[2] = min(last[2], value)
            else:
                last[2] = value
            return
        item = [op, key, value]
        self._ops.append(item)
        self._last_op[key] = item

    def get_value(self, key: str, default: Any = None, spider: Any = None) -> Any:
        return self._stats.get(key, default)

    def get_stats(self, spider: Any = None) -> dict[str, Any]:
        return self._stats

    def set_value(self, key: str, value: Any, spider: Any = None) -> None:
        with self._lock:
            self._stats[key] = value
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self._own.pop(key, None)  # a number: the crawl-wide value is in Redis
            else:
                self._own[key] = value  # a time, a reason: this worker's own, kept as is
            self._queue(_SET, key, value)

    def set_stats(self, stats: dict[str, Any], spider: Any = None) -> None:
        for key, value in stats.items():
            self.set_value(key, value)

    def inc_value(self, key: str, count: int = 1, start: int = 0, spider: Any = None) -> None:
        with self._lock:
            d = self._stats
            if key not in d and start:
                self._queue(_SETNX, key, start)
            d[key] = d.setdefault(key, start) + count
            self._queue(_INC, key, count)

    def max_value(self, key: str, value: Any, spider: Any = None) -> None:
        with self._lock:
            self._stats[key] = max(self._stats.setdefault(key, value), value)
            self._queue(_MAX, key, value)

    def min_value(self, key: str, value: Any, spider: Any = None) -> None:
        with self._lock:
            self._stats[key] = min(self._stats.setdefault(key, value), value)
            self._queue(_MIN, key, value)

    def clear_stats(self, spider: Any = None) -> None:
        """This worker's view only: the crawl's hash is deleted by ``crawl-admin clear``."""
        with self._lock:
            self._stats.clear()
            self._own.clear()

    def open_spider(self, spider: Any = None) -> None:
        if spider is not None:
            self.spider = spider
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="geofocus-redis-stats", daemon=True)
        self._thread.start()

    def close_spider(self, spider: Any = None, reason: str | None = None) -> None:
        """Send what is left, read the crawl-wide figures once more, then dump them as Scrapy does."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        try:
            self.sync()
        except (redis.RedisError, OSError) as exc:
            logger.warning("Shared stats: not sent at close (%(exc)s)", {"exc": exc})
        StatsCollector.close_spider(self, reason=reason)
        self.spider = None

    # -- the sync thread ---------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.sync()
                if not self._healthy:
                    logger.info("Shared stats: Redis is reachable again")
                self._healthy = True
            except (redis.RedisError, OSError) as exc:
                if self._healthy:
                    logger.warning("Shared stats: Redis unreachable (%(exc)s); retrying", {"exc": exc})
                self._healthy = False

    def sync(self) -> None:
        """Send this worker's changes and read the crawl-wide stats back (blocking: thread or close)."""
        with self._lock:
            ops, self._ops, self._last_op = self._ops, [], {}
        try:
            pipe = self.server.pipeline(transaction=True)
            pipe.watch(self.keys.generation)
            current = pipe.get(self.keys.generation)
            if self._generation is None and current is not None:
                self._generation = current
            if current is None or current != self._generation:
                pipe.reset()
                if self._generation is None:  # the crawl is not created yet: send it next time
                    with self._lock:
                        self._ops[:0] = ops
                        self._last_op = {}
                # else Redis lost the crawl: write nothing (the frontier stops the worker)
                return
            pipe.multi()
            args = [x for op, key, value in ops for x in (op, key, _encode(value))]
            if args:
                self.scripts.call_chunked("stats_merge", [self.stats_key], args, 3, client=pipe)
            pipe.hgetall(self.stats_key)
            remote = pipe.execute()[-1]
        except BaseException:
            with self._lock:  # sent again with the next sync, in front of newer changes
                self._ops[:0] = ops
                self._last_op = {}
            raise
        view = {k.decode("utf-8", "replace"): decode_stat(v) for k, v in remote.items()}
        with self._lock:
            view.update(self._own)
            for op, key, value in self._ops:  # changes made while this sync ran
                if op == _INC:
                    view[key] = view.get(key, 0) + value
                elif op in (_MAX, _MIN):
                    view[key] = (max if op == _MAX else min)(view.get(key, value), value)
            self._stats = view
