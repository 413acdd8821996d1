"""RedisFrontier: the :class:`~geofocus.frontier.FrontierQueue` shared by the workers of one crawl.

The key layout is in :mod:`geofocus.redis.keys`, the Lua scripts that make
every change atomically in ``geofocus/redis/lua/`` (:mod:`geofocus.redis.scripts`),
the lease bookkeeping in :mod:`geofocus.redis.leases`, the background thread
that talks to Redis in :mod:`geofocus.redis.sync`.  Two workers never lease
the same fingerprint and a fetched fingerprint is never queued again.
Requests are JSON (``Request.to_dict()``), never pickle.

The reactor never waits for Redis in steady state: ``push``/``done``/
``increment`` go to local buffers that a background thread sends in one
pipeline per cycle (every ``flush_interval`` seconds, or sooner when a buffer
fills); ``pop`` serves from a prefetched local batch of leased entries that the
thread refills at a low-water mark; ``len`` adds a cached ZCARD to the local
buffers.  Only when the local batch is empty while Redis should have entries
does ``pop`` wait, at most ``pop_wait`` seconds, for one refill; the first
``queued_sample`` of a pass waits the same way for the sample (the next one is
prefetched).

``close`` releases the prefetched and in-flight entries at once and never
deletes the shared crawl (``scrapy crawl-admin clear`` does that).

If Redis goes away, buffers are kept, the thread logs once and retries with
backoff; the crawl continues from the local batch meanwhile.  If Redis comes
back without the crawl (restarted without persistence, flushed, replaced: see
:mod:`geofocus.redis.generation`), every cycle's writes are refused before they
are made, the thread logs one error line and stops, and :attr:`lost` says why.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Collection, Iterable
from typing import Any, Protocol, runtime_checkable

import redis

from geofocus import defaults
from geofocus.frontier import FrontierEntry, PushResult, encode_request
from geofocus.redis import generation as crawl_generation
from geofocus.redis.connection import RedisUnavailableError, connect_from_settings, redact, retrying
from geofocus.redis.entries import slot_of
from geofocus.redis.generation import CrawlLostError
from geofocus.redis.keys import DEFAULT_NODE, CrawlKeys, clean, compact_fingerprint, seen_shard
from geofocus.redis.leases import Leases
from geofocus.redis.scripts import Scripts
from geofocus.redis.sync import Sample, SyncCycle

logger = logging.getLogger(__name__)

__all__ = ["DEFAULT_NODE", "RedisFrontier", "SharedFrontier", "compact_fingerprint", "seen_shard"]

# this worker's local marks of a fingerprint (a queued one maps to its priority)
_LEASED = -1.0
_DONE = -2.0


@runtime_checkable
class SharedFrontier(Protocol):
    """What a frontier shared by many workers offers the crawl's Redis extension
    (:mod:`geofocus.redis.extension`) beyond :class:`~geofocus.frontier.FrontierQueue`.
    Every call is non-blocking (it reads what the sync thread fetched)."""

    @property
    def lost(self) -> str | None:
        """None, or the one-line reason why Redis no longer holds the crawl (the worker must stop)."""
        ...

    @property
    def healthy(self) -> bool:
        """False while Redis is unreachable (the worker runs on its local batch)."""
        ...

    def take_seeds(self, limit: int = 100) -> list[str]:
        """Seed URLs taken from the crawl's seed lists (each URL goes to one worker)."""
        ...

    def shared_counters(self) -> dict[str, float]:
        """Crawl totals of all workers (for the crawl-wide budget)."""
        ...

    def leased_elsewhere(self) -> int:
        """Entries other workers hold: their pages may still bring new URLs."""
        ...

    def flush(self) -> None: ...

    def __len__(self) -> int: ...


class RedisFrontier(SyncCycle):
    """A frontier shared through Redis by many workers of crawl ``crawl_id`` (see the module docstring).

    ``push`` returns this worker's view (what it pushed, leased or fetched
    itself, plus the seen-set loaded at ``open``); the script in Redis decides
    for good, and its outcome is counted under ``B:stats``.
    """

    def __init__(
        self,
        client: redis.Redis,
        crawl_id: str,
        *,
        prefix: str = defaults.GEOFOCUS_REDIS_PREFIX,
        node: str = DEFAULT_NODE,
        worker_id: str | None = None,
        batch: int = defaults.GEOFOCUS_REDIS_BATCH,
        max_held: int = defaults.GEOFOCUS_REDIS_MAX_HELD,
        slot_cap: int = defaults.GEOFOCUS_REDIS_SLOT_CAP,
        lease_ttl: float = defaults.GEOFOCUS_REDIS_LEASE_TTL,
        flush_interval: float = defaults.GEOFOCUS_REDIS_FLUSH_INTERVAL,
        pop_wait: float = defaults.GEOFOCUS_REDIS_POP_WAIT,
        push_buffer: int = 500,
        known_max: int = defaults.GEOFOCUS_REDIS_KNOWN_MAX,
        url: str = "",
        run_dir: Any = None,
        seed_lists: Iterable[str] = (),
    ) -> None:
        if not crawl_id:
            raise ValueError("a Redis crawl needs a crawl id (GEOFOCUS_CRAWL_ID)")
        self.client = client
        self.crawl_id = crawl_id
        self.keys = CrawlKeys.of(crawl_id, prefix)
        self.base = self.keys.base
        self.node = clean(node or DEFAULT_NODE)
        self.worker_id = worker_id or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.batch = batch
        self.max_held = max_held
        self.slot_cap = slot_cap
        self.lease_ttl = lease_ttl
        self.flush_interval = flush_interval
        self.pop_wait = pop_wait
        self.push_buffer = push_buffer
        self.known_max = known_max
        self.url = url
        self.run_dir = run_dir
        # the crawl's own list first, then any other (scrapy-redis's "<spider>:start_urls")
        self.seed_lists = list(dict.fromkeys([self.keys.start_urls, *seed_lists]))
        self.generation: str | None = None
        self._run_id: str | None = None
        self._lost: str | None = None

        self.scripts = Scripts(client)
        self.leases = Leases(self.scripts, self.base, self.worker_id, lease_ttl)
        self._cond = threading.Condition()
        self._stop = threading.Event()
        # Guarded by _cond: buffers shared with the thread.
        self._pending_push: dict[str, tuple[FrontierEntry, str]] = {}
        self._pending_done: list[str] = []
        self._pending_counters: dict[str, float] = {}
        self._pending_new = 0
        self._pending_release: dict[str, FrontierEntry] = {}
        self._pending_bad: dict[str, tuple[str, str]] = {}
        self._pending_rescore: dict[str, tuple[float, dict[str, Any] | None, str]] = {}
        self._sample: Sample | None = None
        self._want_sample: tuple[int, bool] | None = None
        self._batch: list[FrontierEntry] = []
        # Entries leased per refill: ``batch``, doubled (up to ``max_held``) each time pops run the local
        # batch dry and wait for Redis although the last refill brought all it asked for (the queue has
        # more: the pops outran the round trips), halved again (not below ``batch``) when a refill finds a
        # quarter of the last one still unused.  A crawl that pops a few pages a second leases ``batch``
        # at a time; a worker that pops faster than a round trip brings them gets more per round trip.
        self._lease_size = batch
        self._refill_full = False
        self._inflight: dict[str, FrontierEntry] = {}
        self._queued_remote = 0
        self._leases_remote = 0
        self._exclude: set[str] = set()
        self._want_cycle = False
        self._cycles = 0
        self._cycle_running = False
        self._healthy = True
        self._stopping = False
        self._workers = 1
        self._shared_counters: dict[str, float] = {}
        self._empty_exclusive: tuple[frozenset[str], float] | None = None
        self._seeds: list[str] = []
        self._want_seeds = 0
        # Sync thread only: the pass over the queue that samples are cut from (None: pass ended).
        self._scan_cursor: int | None = 0
        self._scan_rest: list[tuple[bytes, float]] = []
        # Reactor thread only.
        self._known: dict[bytes, float] = {}
        self._sampled: dict[str, FrontierEntry] = {}
        self._sample_last = ""
        self._thread: threading.Thread | None = None

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_crawler(cls, crawler: Any) -> RedisFrontier:
        """Reads GEOFOCUS_REDIS_* settings; raises RedisUnavailableError (one line) if Redis is down."""
        from geofocus.redis.connection import redis_url
        from geofocus.redis.seeds import spider_seed_lists
        from geofocus.rundir import get_run_dir

        s = crawler.settings
        crawl_id = s.get("GEOFOCUS_CRAWL_ID") or ""
        if not crawl_id:
            raise RedisUnavailableError("GEOFOCUS_REDIS_URL is set but GEOFOCUS_CRAWL_ID is empty: "
                                        "name the shared crawl with -s GEOFOCUS_CRAWL_ID=NAME")
        # `scrapy crawl` checked Redis before starting; a worker that opens while Redis restarts
        # waits for it a little rather than fail
        client = retrying(lambda: connect_from_settings(s), 3 * s.getfloat("GEOFOCUS_REDIS_TIMEOUT"))
        return cls(
            client,
            crawl_id,
            prefix=s.get("GEOFOCUS_REDIS_PREFIX"),
            node=s.get("GEOFOCUS_NODE") or DEFAULT_NODE,
            batch=s.getint("GEOFOCUS_REDIS_BATCH"),
            max_held=s.getint("GEOFOCUS_REDIS_MAX_HELD"),
            slot_cap=s.getint("GEOFOCUS_REDIS_SLOT_CAP"),
            lease_ttl=s.getfloat("GEOFOCUS_REDIS_LEASE_TTL"),
            flush_interval=s.getfloat("GEOFOCUS_REDIS_FLUSH_INTERVAL"),
            pop_wait=s.getfloat("GEOFOCUS_REDIS_POP_WAIT"),
            known_max=s.getint("GEOFOCUS_REDIS_KNOWN_MAX"),
            url=redis_url(s),
            run_dir=get_run_dir(crawler),  # remembers the crawl's generation
            seed_lists=spider_seed_lists(s, getattr(crawler.spidercls, "name", None)),
        )

    def key(self, suffix: str) -> str:
        return self.keys.key(suffix)

    # -- life cycle -------------------------------------------------------------------
    def open(self) -> None:
        """Checks Redis, reclaims expired leases, loads the seen-set, starts the thread
        (waiting up to 15 s for a Redis that is restarting)."""
        retrying(self._open_in_redis, 15.0)
        self._stopping = False
        self._start_thread()

    def _open_in_redis(self) -> None:
        try:
            self.client.ping()
            self._run_id = crawl_generation.server_run_id(self.client)
            # raises CrawlLostError if this run directory knew a generation Redis no longer has
            self.generation = crawl_generation.join(self.client, self.base, self.crawl_id, self.run_dir,
                                                    self.url)
            self._lost = None
            self.leases.reclaim(self.client, time.time())
            self._load_seen()
            self._queued_remote = int(self.client.zcard(self.keys.queue(self.node)))
            self._leases_remote = int(self.client.zcard(self.keys.leases))
            self.client.hset(self.keys.workers, self.worker_id, f"{time.time():.0f}")
        except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError) as exc:
            raise RedisUnavailableError(
                f"cannot reach Redis at {redact(self.url) or 'the configured URL'} ({exc})"
            ) from None

    def _start_thread(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"geofocus-redis-{self.node}", daemon=True)
        self._thread.start()
        logger.info(
            "Redis frontier: crawl %(crawl)s, node %(node)s, worker %(worker)s, %(queued)d queued",
            {"crawl": self.crawl_id, "node": self.node, "worker": self.worker_id,
             "queued": self._queued_remote},
        )

    def close(self, timeout: float = 30.0) -> None:
        """Sends every buffer, gives unused and in-flight leases back; keeps the shared crawl."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        if self._lost:
            # never write into a Redis that lost the crawl: that would re-create a partial crawl
            thread.join(timeout)
            return
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._stop.set()
        thread.join()
        with self._cond:
            # leased ahead: back at their current (maybe re-scored) priority; in flight: as leased
            held: list[tuple[str, FrontierEntry | None]] = [(e.fingerprint, e) for e in self._batch]
            held += [(fp, None) for fp in self._inflight]
            self._batch.clear()
            self._inflight.clear()
        deadline = time.monotonic() + timeout
        delay = 0.2
        while True:
            try:
                self._cycle(refill=False)
                self.leases.queue_release(self.client, held)
                self.client.hdel(self.keys.workers, self.worker_id)
                break
            except CrawlLostError as exc:
                logger.error("%(error)s", {"error": exc})
                crawl_generation.LOST_CRAWLS.append(self.crawl_id)
                self._lost = str(exc)
                break
            except (redis.ConnectionError, redis.TimeoutError, redis.WatchError) as exc:
                if time.monotonic() > deadline:
                    logger.error(
                        "Redis frontier: Redis unreachable at close (%(exc)s); %(n)d pushes and "
                        "%(d)d fetched marks not sent, %(h)d leases will expire in %(ttl).0f s",
                        {"exc": exc, "n": len(self._pending_push), "d": len(self._pending_done),
                         "h": len(held), "ttl": self.lease_ttl},
                    )
                    break
                time.sleep(delay)
                delay = min(delay * 2, 5.0)

    def flush(self) -> None:
        """Asks the thread to send the buffers now (does not wait: the reactor must not block)."""
        with self._cond:
            self._want_cycle = True
            self._cond.notify_all()

    def sync(self, timeout: float = 10.0) -> bool:
        """Waits until one full cycle has run after this call (tests, tools; not the reactor)."""
        with self._cond:
            target = self._cycles + (2 if self._cycle_running else 1)
            self._want_cycle = True
            self._cond.notify_all()
            return self._cond.wait_for(lambda: self._cycles >= target or self._stopping, timeout)

    # -- the protocol (reactor thread) ---------------------------------------------------
    def pushable(self, fingerprint: str, priority: float) -> bool:
        """Would :meth:`push` at this priority not be refused here?  The same local test as ``push``
        (no I/O): the scheduler drops a link this worker would refuse before it becomes a Request."""
        state = self._known.get(compact_fingerprint(fingerprint))
        return state is None or (state >= 0 and priority > state)

    def push(self, entry: FrontierEntry) -> str:
        c = compact_fingerprint(entry.fingerprint)
        state = self._known.get(c)
        if state is None:
            result = PushResult.NEW
        elif state < 0 or entry.priority <= state:
            return PushResult.REJECTED
        else:
            result = PushResult.RAISED
        self._remember(c, entry.priority)
        meta = entry.request.get("meta") or {}
        gf = meta.get("geofocus") if isinstance(meta, dict) else None
        node = clean(str((gf or {}).get("node") or self.node))
        with self._cond:
            old = self._pending_push.get(entry.fingerprint)
            if old is None or old[0].priority < entry.priority:
                self._pending_push[entry.fingerprint] = (entry, node)
            if result == PushResult.NEW and node == self.node:
                self._pending_new += 1
            if len(self._pending_push) >= self.push_buffer:
                self._want_cycle = True
                self._cond.notify_all()
        return result

    def pop(self, busy_slots: Collection[str] = ()) -> FrontierEntry | None:
        waited_for: int | None = None
        deadline = 0.0
        with self._cond:
            while True:
                if self._lost:  # Redis lost the crawl: its leases mean nothing any more
                    return None
                for i, e in enumerate(self._batch):
                    if e.slot not in busy_slots:
                        del self._batch[i]
                        self._inflight[e.fingerprint] = e
                        if len(self._batch) < self._lease_size // 2:
                            self._want_cycle = True
                            self._cond.notify_all()
                        self._known[compact_fingerprint(e.fingerprint)] = _LEASED
                        return e
                if waited_for is not None and self._cycles >= waited_for:
                    if busy_slots:
                        self._empty_exclusive = (frozenset(busy_slots), time.monotonic())
                    return None
                hopeful = self._pending_new > 0 or self._queued_remote > 0
                if not hopeful or not self._healthy or self._stopping or self._thread is None:
                    return None
                if self._empty_exclusive is not None and busy_slots:
                    slots, when = self._empty_exclusive
                    if slots <= set(busy_slots) and time.monotonic() - when < self.flush_interval:
                        return None  # the last refill with these hosts busy found nothing else
                if waited_for is None:
                    if not self._batch and self._refill_full:  # outran the refills: lease more at a time
                        self._lease_size = min(2 * self._lease_size, max(self.batch, self.max_held))
                    waited_for = self._cycles + (2 if self._cycle_running else 1)
                    deadline = time.monotonic() + self.pop_wait
                    self._exclude = set(busy_slots)
                    self._want_cycle = True
                    self._cond.notify_all()
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)

    def done(self, fingerprint: str) -> None:
        self._remember(compact_fingerprint(fingerprint), _DONE)
        with self._cond:
            self._inflight.pop(fingerprint, None)
            self._pending_done.append(fingerprint)
            if len(self._pending_done) >= self.push_buffer:
                self._want_cycle = True
                self._cond.notify_all()

    def quarantine(self, entry: FrontierEntry, reason: str) -> None:
        """Move a leased entry that is not a readable request to ``B:bad`` (its lease released)."""
        try:
            payload = encode_request(entry.request)
        except (TypeError, ValueError):
            payload = repr(entry.request)[:10000]
        with self._cond:
            self._inflight.pop(entry.fingerprint, None)
            self._pending_bad[entry.fingerprint] = (clean(reason)[:500], payload)
            self._want_cycle = True
            self._cond.notify_all()
        self._remember(compact_fingerprint(entry.fingerprint), _DONE)  # never queued again, as fetched

    def release(self, entry: FrontierEntry) -> bool:
        """Give an entry this worker holds back to the queue (a retry), at ``entry``'s priority."""
        with self._cond:
            if self._inflight.pop(entry.fingerprint, None) is None:
                return False
            self._pending_release[entry.fingerprint] = entry
            self._pending_new += 1
        self._remember(compact_fingerprint(entry.fingerprint), entry.priority)
        return True

    def seen(self, fingerprint: str) -> bool:
        """True once this worker knows the fingerprint leased or fetched: the crawl's seen-set as
        loaded at ``open``, plus what this worker leased or fetched since (what other workers
        fetched later, Redis rejects when a push reaches it)."""
        state = self._known.get(compact_fingerprint(fingerprint))
        return state is not None and state < 0

    def queued_sample(self, limit: int, after: str = "") -> list[FrontierEntry]:
        """Up to ``limit`` entries of this node's queue (see the protocol in geofocus.frontier).

        A pass over the queue is a Redis ZSCAN; ``after`` is either "" (start a
        pass) or the last fingerprint of the previous sample (go on with the pass);
        any other value starts a pass too.  The next sample is prefetched by the
        thread, so only the first call of a pass waits (at most ``pop_wait``
        seconds; [] if Redis does not answer in time or is unreachable).  A
        prefetched sample is the queue as the thread read it after the previous
        call: an entry leased since then is still in it, and re-scoring it changes
        nothing.  An entry may appear twice in one pass if the queue is resized
        meanwhile (ZSCAN).
        """
        restart = not after or after != self._sample_last
        deadline: float | None = None
        with self._cond:
            while True:
                ready = self._sample
                if ready is not None and ready.limit == limit and ready.restart == restart:
                    self._sample = None
                    entries = ready.entries
                    break
                if self._lost or self._thread is None or not self._healthy or self._stopping:
                    return []
                if deadline is None:
                    self._sample = None
                    self._want_sample = (limit, restart)
                    self._want_cycle = True
                    self._cond.notify_all()
                    deadline = time.monotonic() + self.pop_wait
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return []
                self._cond.wait(remaining)
            # prefetch the next part of this pass, or the start of the next pass
            self._want_sample = (limit, len(entries) < limit)
        self._sampled = {e.fingerprint: e for e in entries}
        self._sample_last = entries[-1].fingerprint if len(entries) == limit else ""
        return entries

    def update_priorities(self, updates: Iterable[tuple[str, float, dict[str, Any] | None]]) -> int:
        """New priorities (up or down) of entries queued as far as this worker knows (its last
        sample, its own pushes, the entries it leased ahead); a request of None keeps the stored
        one.  Returns how many priorities change; those in Redis are sent with the next cycle,
        and Redis leaves alone an entry another worker leased meanwhile."""
        changed = 0
        rescores: dict[str, tuple[float, dict[str, Any] | None, str]] = {}
        with self._cond:
            held = {e.fingerprint: i for i, e in enumerate(self._batch)}
            for fingerprint, priority, request in updates:
                i = held.get(fingerprint)
                if i is None:
                    rescores[fingerprint] = (float(priority), request, "")
                    continue
                # leased ahead by this worker: re-scored here (given back at this priority at close)
                e = self._batch[i]
                if e.priority != float(priority):
                    self._batch[i] = FrontierEntry(fingerprint, float(priority), e.slot,
                                                   request if request is not None else e.request)
                    changed += 1
            if changed:
                self._batch.sort(key=lambda e: -e.priority)
        candidates, rescores = rescores, {}
        for fingerprint, (priority, request, _) in candidates.items():
            c = compact_fingerprint(fingerprint)
            state = self._known.get(c)
            if state is not None and state < 0:
                continue  # leased or fetched
            sampled = self._sampled.get(fingerprint)
            current = sampled.priority if sampled is not None else state
            if current is None or current == priority:
                continue  # not known to be queued, or unchanged
            slot = sampled.slot if sampled is not None else slot_of(request or {})
            rescores[fingerprint] = (priority, request, slot)
            if sampled is not None:
                self._sampled[fingerprint] = FrontierEntry(fingerprint, priority, sampled.slot,
                                                           request if request is not None else sampled.request)
            if state is not None:
                self._known[c] = priority
            changed += 1
        if rescores:
            with self._cond:
                self._pending_rescore.update(rescores)
        return changed

    def __len__(self) -> int:
        return self._queued_remote + len(self._batch) + self._pending_new

    def increment(self, counter: str, amount: float = 1) -> None:
        with self._cond:
            self._pending_counters[counter] = self._pending_counters.get(counter, 0) + amount

    def counters(self) -> dict[str, float]:
        """Crawl totals of all workers (a Redis read: for reports and close, not per page)."""
        stored = {k.decode(): float(v) for k, v in self.client.hgetall(self.keys.counters).items()}
        with self._cond:
            for name, value in self._pending_counters.items():
                stored[name] = stored.get(name, 0) + value
        return stored

    # -- SharedFrontier: for the crawl's Redis extension ------------------------------------
    @property
    def lost(self) -> str | None:
        """None, or the one-line reason why Redis no longer holds this crawl (the worker must stop)."""
        return self._lost

    @property
    def healthy(self) -> bool:
        """False while Redis is unreachable (the worker runs on its local batch)."""
        return self._healthy

    def leased_elsewhere(self) -> int:
        """Leases of other workers at the last cycle: their pages may still bring new URLs,
        so a worker with an empty queue should keep idling while this is positive."""
        with self._cond:
            mine = len(self._batch) + len(self._inflight)
            return max(0, self._leases_remote - mine)

    def take_seeds(self, limit: int = 100) -> list[str]:
        """Seed URLs popped from the seed lists by the thread (non-blocking)."""
        with self._cond:
            out, self._seeds = self._seeds[:limit], self._seeds[limit:]
            self._want_seeds = max(self._want_seeds, limit)
            return out

    def shared_counters(self) -> dict[str, float]:
        """Crawl totals of all workers as of the last cycle, plus this worker's unsent
        increments (non-blocking; for crawl-wide budgets)."""
        with self._cond:
            out = dict(self._shared_counters)
            for name, value in self._pending_counters.items():
                out[name] = out.get(name, 0) + value
            return out

    def prefetched(self) -> set[str]:
        """Fingerprints leased ahead to this worker and not yet popped (``queued_sample`` leaves
        them out: ``pop`` hands them out next)."""
        with self._cond:
            return {e.fingerprint for e in self._batch}

    def remote_stats(self) -> dict[str, int]:
        return {k.decode(): int(v) for k, v in self.client.hgetall(self.keys.stats).items()}

    # -- internals -----------------------------------------------------------------------
    def _remember(self, c: bytes, state: float) -> None:
        known = self._known
        if c not in known and len(known) >= self.known_max:
            # forget the oldest tenth; Redis still rejects what they were
            for old in list(known)[: self.known_max // 10 + 1]:
                del known[old]
        known[c] = state

    def _load_seen(self) -> None:
        """The fetched fingerprints, so ``push`` can reject them locally (bounded by known_max)."""
        n = 0
        prefix = self.keys.seen("").encode()
        for key in self.client.scan_iter(match=self.keys.seen_pattern, count=1000):
            shard = bytes.fromhex(key[len(prefix):].decode())
            for fld in self.client.hkeys(key):
                self._known[shard + fld] = _DONE
                n += 1
                if n >= self.known_max:
                    return
