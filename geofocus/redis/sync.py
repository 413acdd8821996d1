"""The sync thread of :class:`~geofocus.redis.frontier.RedisFrontier`: one round trip per cycle.

The frontier's reactor-side methods only touch local buffers; this half of the
class sends them.  Each cycle (every ``flush_interval`` seconds, or sooner when
asked) takes the buffers under the lock (:class:`CycleWork`), checks the
crawl's generation (``WATCH``), queues the writes (pushes, fetched marks,
releases, re-scorings, entries set aside, counters, lease renewals and
reclaims) and the reads (a refill of the local batch, seeds, sizes, live
workers, counters) in one ``MULTI``/``EXEC``, reads the results by name
(:class:`~geofocus.redis.pipeline.NamedPipeline`), then, if asked, cuts the
next queue sample (``queued_sample``).  A failed cycle puts its buffers back;
the thread logs once and retries with backoff.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import redis

from geofocus.frontier import FrontierEntry
from geofocus.redis import generation as crawl_generation
from geofocus.redis.entries import entry_from_redis, request_value
from geofocus.redis.generation import CrawlLostError
from geofocus.redis.keys import compact_fingerprint, seen_shard
from geofocus.redis.pipeline import NamedPipeline

if TYPE_CHECKING:
    from geofocus.redis.keys import CrawlKeys
    from geofocus.redis.leases import Leases
    from geofocus.redis.scripts import Scripts

logger = logging.getLogger("geofocus.redis.frontier")


@dataclass
class Sample:
    """A sample of the queue fetched by the sync thread for ``queued_sample``."""

    limit: int
    restart: bool  # the first part of a pass over the queue
    entries: list[FrontierEntry]


@dataclass
class CycleWork:
    """What one sync cycle sends and asks for, taken out of the buffers under the lock
    (and put back in front of newer ones if the cycle fails: nothing is lost)."""

    pushes: dict[str, tuple[FrontierEntry, str]]
    dones: list[str]
    counters: dict[str, float]
    sent_new: int
    releases: dict[str, FrontierEntry]
    rescores: dict[str, tuple[float, dict[str, Any] | None, str]]
    bad: dict[str, tuple[str, str]]
    want_sample: tuple[int, bool] | None  # (limit, restart)
    want: int  # entries to lease into the local batch
    exclude: set[str] = field(default_factory=set)  # slots not to lease now
    renew: list[str] = field(default_factory=list)  # leases to renew
    want_seeds: int = 0


class SyncCycle:
    """The background half of RedisFrontier (a mixin: the state is the frontier's, guarded by
    ``_cond``; see RedisFrontier.__init__)."""

    client: Any
    keys: CrawlKeys
    base: str
    node: str
    worker_id: str
    crawl_id: str
    url: str
    batch: int
    max_held: int
    slot_cap: int
    flush_interval: float
    seed_lists: list[str]
    generation: str | None
    scripts: Scripts
    leases: Leases
    _cond: threading.Condition
    _stop: threading.Event
    _run_id: str | None
    _lost: str | None
    # The buffers and the state shared with the reactor thread (set in RedisFrontier.__init__).
    _pending_push: dict[str, tuple[FrontierEntry, str]]
    _pending_done: list[str]
    _pending_counters: dict[str, float]
    _pending_new: int
    _pending_release: dict[str, FrontierEntry]
    _pending_bad: dict[str, tuple[str, str]]
    _pending_rescore: dict[str, tuple[float, dict[str, Any] | None, str]]
    _sample: Sample | None
    _want_sample: tuple[int, bool] | None
    _batch: list[FrontierEntry]
    _lease_size: int
    _refill_full: bool
    _inflight: dict[str, FrontierEntry]
    _queued_remote: int
    _leases_remote: int
    _exclude: set[str]
    _want_cycle: bool
    _cycles: int
    _cycle_running: bool
    _healthy: bool
    _stopping: bool
    _workers: int
    _shared_counters: dict[str, float]
    _seeds: list[str]
    _want_seeds: int
    _scan_cursor: int | None
    _scan_rest: list[tuple[bytes, float]]

    def _run(self) -> None:
        delay = 0.5
        while True:
            with self._cond:
                if not self._stopping and not self._want_cycle:
                    self._cond.wait(self.flush_interval)
                if self._stopping:
                    return
                self._want_cycle = False
                self._cycle_running = True
            failed = True
            try:
                self._cycle(refill=True)
                failed = False
                if not self._healthy:
                    logger.warning("Redis frontier: Redis is reachable again; the crawl goes on")
                self._healthy = True
                delay = 0.5
            except CrawlLostError as exc:
                logger.error("%(error)s", {"error": exc})
                crawl_generation.LOST_CRAWLS.append(self.crawl_id)
                with self._cond:
                    self._lost = str(exc)
                    self._healthy = False
                    self._cycle_running = False
                    self._cycles += 1
                    self._cond.notify_all()
                return
            except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, redis.WatchError) as exc:
                if self._healthy:
                    logger.warning(
                        "Redis frontier: lost Redis (%(exc)s); buffering and retrying with backoff",
                        {"exc": exc},
                    )
                self._healthy = False
            except Exception:
                logger.exception("Redis frontier: unexpected error in the sync thread; retrying")
            finally:
                with self._cond:
                    self._cycle_running = False
                    if failed:
                        self._cycles += 1  # a waiting pop returns None rather than wait more
                        self._cond.notify_all()
            if failed:
                self._stop.wait(delay)
                delay = min(delay * 2, 10.0)

    def _cycle(self, refill: bool) -> None:
        """One round trip: send buffers, renew/reclaim leases, refill the batch, refresh sizes;
        then the queue sample if one was asked for."""
        now = time.time()
        out = self._take_outgoing(refill, now)
        reclaim = self.leases.reclaim_due(now)
        try:
            pipe = self.client.pipeline(transaction=True)
            self._check_generation(pipe)
            self._queue_writes(pipe, out, now, reclaim)
            named = NamedPipeline(pipe)
            self._queue_reads(named, out, now)
            results = named.execute()
        except BaseException:
            self._give_back(out)
            raise
        self.leases.sent(now, renewed=bool(out.renew), reclaimed=reclaim)
        self._apply(out, results, now)
        sample = None
        if out.want_sample is not None:
            try:
                sample = Sample(*out.want_sample, self._fetch_sample(*out.want_sample))
            except BaseException:
                with self._cond:
                    self._want_sample = self._want_sample or out.want_sample
                raise
        with self._cond:
            if sample is not None:
                self._sample = sample
            self._cycles += 1
            self._cond.notify_all()

    def _take_outgoing(self, refill: bool, now: float) -> CycleWork:
        with self._cond:
            out = CycleWork(
                pushes=self._pending_push, dones=self._pending_done, counters=self._pending_counters,
                sent_new=self._pending_new, releases=self._pending_release,
                rescores=self._pending_rescore, bad=self._pending_bad,
                want_sample=self._want_sample if refill else None, want=0,
            )
            self._pending_push, self._pending_done, self._pending_counters = {}, [], {}
            self._pending_new = 0
            self._pending_release, self._pending_rescore, self._pending_bad = {}, {}, {}
            if refill:
                self._want_sample = None
            held = len(self._batch) + len(self._inflight)
            # a pop that found only busy hosts in the batch asks for other hosts even if it is full
            if refill and (len(self._batch) < self._lease_size or self._exclude) and held < self.max_held:
                out.want = min(self._lease_size, self.max_held - held)
            out.exclude, self._exclude = set(self._exclude), set()
            # busy hosts that already fill the batch need no more entries now
            per_slot: dict[str, int] = {}
            for e in self._batch:
                per_slot[e.slot] = per_slot.get(e.slot, 0) + 1
            out.exclude.update(s for s, n in per_slot.items() if n >= self.slot_cap)
            if self.leases.renew_due(now):
                out.renew = [e.fingerprint for e in self._batch] + list(self._inflight)
            out.want_seeds = self._want_seeds if refill and not self._seeds else 0
            if out.want_seeds:
                self._want_seeds = 0
        return out

    def _give_back(self, out: CycleWork) -> None:
        """A cycle failed: its buffers go back in front of newer ones."""
        with self._cond:
            for fp, item in out.pushes.items():
                newer = self._pending_push.get(fp)
                if newer is None or newer[0].priority < item[0].priority:
                    self._pending_push[fp] = item
            self._pending_done[:0] = out.dones
            for name, amount in out.counters.items():
                self._pending_counters[name] = self._pending_counters.get(name, 0) + amount
            self._pending_new += out.sent_new
            for fp, entry in out.releases.items():
                self._pending_release.setdefault(fp, entry)
            for fp, rescore in out.rescores.items():
                self._pending_rescore.setdefault(fp, rescore)
            for fp, bad in out.bad.items():
                self._pending_bad.setdefault(fp, bad)
            if self._want_sample is None:
                self._want_sample = out.want_sample
            self._exclude |= out.exclude
            self._want_seeds = max(self._want_seeds, out.want_seeds)

    def _queue_writes(self, pipe: Any, out: CycleWork, now: float, reclaim: bool) -> None:
        """The cycle's changes, in MULTI: pushes, fetched marks, releases, re-scorings, entries set
        aside, counters, lease renewals and reclaims."""
        # A seen-set entry goes as one argument, its shard's suffix (4 characters) then its field: redis-py
        # packs every argument on its own, and these calls carry a few per URL.
        if out.pushes:
            by_node: dict[str, list[Any]] = {}
            for fp, (entry, node) in out.pushes.items():
                args = by_node.get(node)
                if args is None:
                    args = by_node[node] = []
                skey, sfield = seen_shard(compact_fingerprint(fp))
                fp_bytes = fp.encode()
                # one argument per entry (see push.lua): redis-py packs each argument in Python
                args.append(b"".join((skey.encode(), sfield, repr(float(entry.priority)).encode(), b"\t",
                                      str(len(fp_bytes)).encode(), b"\t", fp_bytes,
                                      request_value(entry.slot, entry.request, entry.encoded))))
            for node, args in by_node.items():
                self.scripts.call_chunked("push", [self.base, node], args, 1, client=pipe)
        if out.dones:
            args = []
            for fp in out.dones:
                skey, sfield = seen_shard(compact_fingerprint(fp))
                args.append(skey.encode() + sfield + fp.encode())  # one argument per fingerprint (done.lua)
            self.scripts.call_chunked("done", [self.base, self.node], args, 1, client=pipe)
        self.leases.queue_release(pipe, out.releases.items())
        if out.rescores:
            args = []
            for fp, (priority, request, slot) in out.rescores.items():
                value = b"" if request is None else request_value(slot, request)
                args += [fp, repr(priority), value]
            self.scripts.call_chunked("rescore", [self.base], args, 3, client=pipe)
        if out.bad:
            args = []
            for fp, (reason, payload) in out.bad.items():
                skey, sfield = seen_shard(compact_fingerprint(fp))
                args += [fp, skey, sfield, reason, payload]
            self.scripts.call_chunked("bad", [self.base, self.node], args, 5, client=pipe)
        for name, amount in out.counters.items():
            pipe.hincrbyfloat(self.keys.counters, name, amount)
        if out.renew:
            self.leases.queue_renew(pipe, out.renew, now)
        if reclaim:
            self.leases.queue_reclaim(pipe, now)

    def _queue_reads(self, named: NamedPipeline, out: CycleWork, now: float) -> None:
        """The cycle's reads, by name: leased entries, seeds, queue and lease sizes, live workers,
        crawl counters (and this worker's heartbeat)."""
        if out.want:
            args = [self.base, self.node, self.worker_id, self.leases.deadline_ms(now), out.want,
                    max(1024, 8 * out.want), self.slot_cap, self._workers, *sorted(out.exclude)]
            named.add("popped", lambda p: self.scripts("pop", args, client=p))
        if out.want_seeds:
            for i, key in enumerate(self.seed_lists):
                def pop_seeds(p: Any, key: str = key) -> Any:
                    return p.lpop(key, out.want_seeds)

                named.add(f"seeds/{i}", pop_seeds)
        named.add("queued", lambda p: p.zcard(self.keys.queue(self.node)))
        named.add("leases", lambda p: p.zcard(self.keys.leases))
        named.pipe.hset(self.keys.workers, self.worker_id, f"{now:.0f}")
        named.add("workers", lambda p: p.hvals(self.keys.workers))
        named.add("counters", lambda p: p.hgetall(self.keys.counters))

    def _apply(self, out: CycleWork, results: dict[str, Any], now: float) -> None:
        flat = results.get("popped") or []
        popped = [entry_from_redis(flat[k], flat[k + 1], flat[k + 2]) for k in range(0, len(flat), 3)]
        seeds = [u.decode() for i in range(len(self.seed_lists)) for u in (results.get(f"seeds/{i}") or [])]
        live_after = now - max(10.0, 5 * self.flush_interval)
        with self._cond:
            if out.want and 4 * len(self._batch) >= self._lease_size > self.batch:
                # a quarter of the entries were still unused when this refill came: pops are not outrunning
                # the round trips, so lease fewer at a time again
                self._lease_size = max(self.batch, self._lease_size // 2)
            if out.want:
                self._refill_full = len(popped) >= out.want
            if popped:
                self._batch.extend(popped)
                self._batch.sort(key=lambda e: -e.priority)
            if seeds:
                self._seeds.extend(seeds)
            self._shared_counters = {k.decode(): float(v) for k, v in results["counters"].items()}
            self._workers = sum(1 for ts in results["workers"] if float(ts) >= live_after) or 1
            self._queued_remote = int(results["queued"])
            self._leases_remote = int(results["leases"])

    def _check_generation(self, pipe: Any) -> None:
        """WATCH the generation key and compare it before the cycle's MULTI: if Redis lost or swapped
        the crawl, raise CrawlLostError before anything is written (and if it changes between
        this check and EXEC, the transaction fails with WatchError and the next cycle sees it)."""
        if self.generation is None:  # not opened (tools): nothing to compare with
            return
        key = self.keys.generation
        pipe.watch(key)
        current = pipe.get(key)
        if current is None or current.decode() != self.generation:
            pipe.reset()
            what = crawl_generation.describe_loss(
                current, self._run_id, crawl_generation.server_run_id(self.client))
            raise CrawlLostError(crawl_generation.lost_message(self.crawl_id, self.url, what))
        pipe.multi()

    def _fetch_sample(self, limit: int, restart: bool) -> list[FrontierEntry]:
        """(sync thread) The next ``limit`` entries of a pass over this node's queue; fewer only
        at the end of the pass."""
        if restart:
            self._scan_cursor, self._scan_rest = 0, []
        queue = self.keys.queue(self.node)
        out: list[FrontierEntry] = []
        while len(out) < limit:
            if not self._scan_rest:
                if self._scan_cursor is None:
                    break
                cursor, items = self.client.zscan(queue, self._scan_cursor, count=max(limit - len(out), 16))
                self._scan_cursor = int(cursor) or None
                self._scan_rest = list(items)
                continue
            take = self._scan_rest[: limit - len(out)]
            self._scan_rest = self._scan_rest[len(take):]
            values = self.client.hmget(self.keys.requests, [fp for fp, _ in take])
            for (fp, score), value in zip(take, values, strict=True):
                if value is None:
                    continue  # fetched or set aside since the scan
                _home, sep, rest = value.partition(b"\t")
                out.append(entry_from_redis(fp, score, rest if sep else b"\x01malformed\t" + value))
        return out
