"""RedisFrontier: the :class:`~geofocus.frontier.FrontierQueue` shared by the workers of one crawl.

Redis layout (implementation detail; ``B`` = ``<prefix>:<crawl id>``)::

    B:q:<node>     sorted set  fingerprint -> priority (one queue per collaborating node)
    B:req          hash        fingerprint -> "<home node>\\t<slot>\\t<request JSON>"
    B:leases       sorted set  fingerprint -> lease deadline (unix ms)
    B:lease        hash        fingerprint -> "<worker id>\\t<priority>"
    B:seen:<xxxx>  hash        16-byte binary fingerprint, sharded by its first 2 bytes
                               (4 hex digits in the key, 14 bytes as the field) -> node that fetched it
    B:counters     hash        crawl counters (HINCRBYFLOAT), the protocol's ``counters()``
    B:stats        hash        backend events: push/new, push/raised, push/rejected, reclaimed,
                               seen, refetched, overlap, done/queued, ...
    B:workers      hash        worker id -> last heartbeat (unix s)
    B:start_urls   list        seed URLs (like scrapy-redis's RedisSpider)

Every change is made by a Lua script, so two workers never lease the same
fingerprint and a fetched fingerprint is never queued again.  Requests are
JSON (``Request.to_dict()``), never pickle.

The reactor never waits for Redis in steady state: ``push``/``done``/
``increment`` go to local buffers that a background thread sends in one
pipeline per cycle (every ``flush_interval`` seconds, or sooner when a buffer
fills); ``pop`` serves from a prefetched local batch of leased entries that the
thread refills at a low-water mark; ``len`` adds a cached ZCARD to the local
buffers.  Only when the local batch is empty while Redis should have entries
does ``pop`` wait, at most ``pop_wait`` seconds, for one refill.

Leases: popped (and prefetched) entries are leased to this worker with a
deadline ``lease_ttl`` ahead, renewed every ``lease_ttl / 3`` while the
worker lives.  A worker killed with -9 stops renewing; any worker's thread
moves expired leases back to their queue.  ``close`` releases the prefetched
and in-flight entries at once and never deletes the shared crawl
(``scrapy crawl-admin clear`` does that).

If Redis goes away, buffers are kept, the thread logs once and retries with
backoff; the crawl continues from the local batch meanwhile.  If Redis comes
back without the crawl (restarted without persistence, flushed, replaced: see
:mod:`geofocus.redis.generation`), every cycle's writes are refused before they
are made, the thread logs one error line and stops, and :attr:`lost` says why.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Collection, Iterable
from typing import Any

import redis

from geofocus.frontier import MALFORMED_KEY, FrontierEntry, PushResult, decode_request, encode_request
from geofocus.redis import generation as crawl_generation
from geofocus.redis.connection import RedisUnavailableError, connect, redact
from geofocus.redis.generation import CrawlLostError

logger = logging.getLogger(__name__)

DEFAULT_NODE = "default"
_LEASED = -1.0
_DONE = -2.0

# -- Lua scripts (ARGV[1] is the key base B; keys are built inside the script, so
# Redis Cluster is not supported: one crawl lives on one Redis server) -------------

# the home node of a stored request value, "<home node>\\t<slot>\\t<json>"; nil for a value
# geofocus did not write (the scripts must not fail on it: it is set aside instead)
_HOME_OF = """
local function home_of(v)
  local t = string.find(v, '\\t', 1, true)
  if t then return string.sub(v, 1, t - 1) end
  return nil
end
"""

_LUA_PUSH = _HOME_OF + """
local b = ARGV[1]
local new, raised, rejected = 0, 0, 0
for i = 2, #ARGV, 6 do
  local fp, skey, sfield, prio, node, val =
    ARGV[i], ARGV[i+1], ARGV[i+2], tonumber(ARGV[i+3]), ARGV[i+4], ARGV[i+5]
  if redis.call('HEXISTS', b .. ':seen:' .. skey, sfield) == 1
      or redis.call('ZSCORE', b .. ':leases', fp) then
    rejected = rejected + 1
  else
    local old = redis.call('HGET', b .. ':req', fp)
    if not old then
      redis.call('ZADD', b .. ':q:' .. node, prio, fp)
      redis.call('HSET', b .. ':req', fp, node .. '\\t' .. val)
      new = new + 1
    else
      -- already queued (maybe for another node): it stays where it is, at the better priority
      local home = home_of(old) or node
      local q = b .. ':q:' .. home
      local cur = redis.call('ZSCORE', q, fp)
      if (not cur) or prio > tonumber(cur) then
        redis.call('ZADD', q, 'GT', prio, fp)
        redis.call('HSET', b .. ':req', fp, home .. '\\t' .. val)
        raised = raised + 1
      else
        rejected = rejected + 1
      end
    end
  end
end
if new > 0 then redis.call('HINCRBY', b .. ':stats', 'push/new', new) end
if raised > 0 then redis.call('HINCRBY', b .. ':stats', 'push/raised', raised) end
if rejected > 0 then redis.call('HINCRBY', b .. ':stats', 'push/rejected', rejected) end
return {new, raised, rejected}
"""

# ARGV: b, node, worker, deadline, batch, max_scan, slot_cap, workers, excluded slots...
_LUA_POP = """
local b, node, worker = ARGV[1], ARGV[2], ARGV[3]
local deadline, batch, max_scan, slot_cap, workers =
  tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local excluded = {}
for i = 9, #ARGV do excluded[ARGV[i]] = true end
local q = b .. ':q:' .. node
-- a fair share of a short queue, so that one worker does not hoard what the others could fetch
local fair = math.ceil(redis.call('ZCARD', q) / math.max(workers, 1))
if fair < batch then batch = math.max(fair, 1) end
local per_slot, picked, orphans = {}, {}, {}
local start, chunk = 0, 64
while #picked < 3 * batch and start < max_scan do
  local items = redis.call('ZREVRANGE', q, start, start + chunk - 1, 'WITHSCORES')
  if #items == 0 then break end
  for k = 1, #items, 2 do
    local fp = items[k]
    local v = redis.call('HGET', b .. ':req', fp)
    if not v then
      orphans[#orphans + 1] = fp
    else
      local a = string.find(v, '\\t', 1, true)
      local c = a and string.find(v, '\\t', a + 1, true)
      if not c then
        -- not written by geofocus: leased like any entry, so that the worker sets it aside
        picked[#picked + 1] = fp
        picked[#picked + 1] = items[k + 1]
        picked[#picked + 1] = '\\1malformed\\t' .. v
        if #picked >= 3 * batch then break end
      else
      local slot = string.sub(v, a + 1, c - 1)
      local n = per_slot[slot] or 0
      if not excluded[slot] and n < slot_cap then
        per_slot[slot] = n + 1
        picked[#picked + 1] = fp
        picked[#picked + 1] = items[k + 1]
        picked[#picked + 1] = string.sub(v, a + 1)
        if #picked >= 3 * batch then break end
      end
      end
    end
  end
  start = start + chunk
end
for _, fp in ipairs(orphans) do redis.call('ZREM', q, fp) end
for k = 1, #picked, 3 do
  local fp = picked[k]
  redis.call('ZREM', q, fp)
  redis.call('ZADD', b .. ':leases', deadline, fp)
  redis.call('HSET', b .. ':lease', fp, worker .. '\\t' .. picked[k + 1])
end
return picked
"""

# ARGV: b, node, then (fp, seen shard, seen field) triples
_LUA_DONE = _HOME_OF + """
local b, node = ARGV[1], ARGV[2]
local seen, refetched, overlap, dequeued = 0, 0, 0, 0
for i = 3, #ARGV, 3 do
  local fp = ARGV[i]
  redis.call('ZREM', b .. ':leases', fp)
  redis.call('HDEL', b .. ':lease', fp)
  local v = redis.call('HGET', b .. ':req', fp)
  if v then
    dequeued = dequeued + 1
    -- a lease that expired was queued again meanwhile: it is fetched now, drop it
    local home = home_of(v)
    if home then redis.call('ZREM', b .. ':q:' .. home, fp) end
    redis.call('HDEL', b .. ':req', fp)
  end
  local skey = b .. ':seen:' .. ARGV[i + 1]
  if redis.call('HSETNX', skey, ARGV[i + 2], node) == 1 then
    seen = seen + 1
  else
    refetched = refetched + 1
    if redis.call('HGET', skey, ARGV[i + 2]) ~= node then overlap = overlap + 1 end
  end
end
if seen > 0 then redis.call('HINCRBY', b .. ':stats', 'seen', seen) end
if refetched > 0 then redis.call('HINCRBY', b .. ':stats', 'refetched', refetched) end
if overlap > 0 then redis.call('HINCRBY', b .. ':stats', 'overlap', overlap) end
-- done for an entry that was queued (push/new = done/queued + queued + leased, always)
if dequeued > 0 then redis.call('HINCRBY', b .. ':stats', 'done/queued', dequeued) end
return {seen, refetched, overlap}
"""

# ARGV: b, worker, deadline, fps...   (renews only leases still held by this worker)
_LUA_RENEW = """
local b, worker, deadline = ARGV[1], ARGV[2], tonumber(ARGV[3])
local n = 0
for i = 4, #ARGV do
  local l = redis.call('HGET', b .. ':lease', ARGV[i])
  if l and string.sub(l, 1, #worker + 1) == worker .. '\\t' then
    redis.call('ZADD', b .. ':leases', 'XX', deadline, ARGV[i])
    n = n + 1
  end
end
return n
"""

_REQUEUE = _HOME_OF + """
local function requeue(b, fp)
  local l = redis.call('HGET', b .. ':lease', fp)
  redis.call('ZREM', b .. ':leases', fp)
  redis.call('HDEL', b .. ':lease', fp)
  local v = redis.call('HGET', b .. ':req', fp)
  local t = l and string.find(l, '\\t', 1, true)
  local prio = t and tonumber(string.sub(l, t + 1))
  local home = v and home_of(v)
  if prio and home then
    redis.call('ZADD', b .. ':q:' .. home, prio, fp)
    return 1
  elseif v then  -- not written by geofocus: aside, never queued again
    redis.call('HSET', b .. ':bad', fp, 'unreadable entry or lease\\t' .. v)
    redis.call('HDEL', b .. ':req', fp)
    redis.call('HINCRBY', b .. ':stats', 'malformed', 1)
  end
  return 0
end
"""

# ARGV: b, worker, then (fp, new priority or '', new "slot\\tjson" or '') triples:
# gives this worker's leases back to the queue (unused prefetches at close, retries)
_LUA_RELEASE = _REQUEUE + """
local b, worker = ARGV[1], ARGV[2]
local n = 0
for i = 3, #ARGV, 3 do
  local fp = ARGV[i]
  local l = redis.call('HGET', b .. ':lease', fp)
  if l and string.sub(l, 1, #worker + 1) == worker .. '\\t' then
    local v = redis.call('HGET', b .. ':req', fp)
    if v and ARGV[i + 2] ~= '' and home_of(v) then
      local home = home_of(v)
      redis.call('HSET', b .. ':req', fp, home .. '\\t' .. ARGV[i + 2])
    end
    if ARGV[i + 1] ~= '' then
      redis.call('HSET', b .. ':lease', fp, worker .. '\\t' .. ARGV[i + 1])
    end
    n = n + requeue(b, fp)
  end
end
if n > 0 then redis.call('HINCRBY', b .. ':stats', 'released', n) end
return n
"""

# ARGV: b, then (fp, priority, "slot\\tjson") triples: re-scores entries still queued
_LUA_RESCORE = _HOME_OF + """
local b = ARGV[1]
local n = 0
for i = 2, #ARGV, 3 do
  local fp = ARGV[i]
  local v = redis.call('HGET', b .. ':req', fp)
  local home = v and home_of(v)
  if home then
    if redis.call('ZADD', b .. ':q:' .. home, 'XX', 'CH', tonumber(ARGV[i + 1]), fp) == 1 then
      redis.call('HSET', b .. ':req', fp, home .. '\\t' .. ARGV[i + 2])
      n = n + 1
    end
  end
end
return n
"""

# ARGV: b, now (ms), limit
_LUA_RECLAIM = _REQUEUE + """
local b = ARGV[1]
local expired = redis.call('ZRANGEBYSCORE', b .. ':leases', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local n = 0
for _, fp in ipairs(expired) do n = n + requeue(b, fp) end
if n > 0 then redis.call('HINCRBY', b .. ':stats', 'reclaimed', n) end
return n
"""


# ARGV: b, then (fp, reason, request JSON) triples: entries set aside as malformed
# (in B:bad, fp -> "<reason>\\t<stored value or request>"), their leases released, never queued again
_LUA_BAD = _REQUEUE + """
local b = ARGV[1]
local n = 0
for i = 2, #ARGV, 3 do
  local fp = ARGV[i]
  redis.call('ZREM', b .. ':leases', fp)
  redis.call('HDEL', b .. ':lease', fp)
  local v = redis.call('HGET', b .. ':req', fp)
  if v then
    local home = home_of(v)
    if home then redis.call('ZREM', b .. ':q:' .. home, fp) end
    redis.call('HDEL', b .. ':req', fp)
  end
  redis.call('HSET', b .. ':bad', fp, ARGV[i + 1] .. '\\t' .. (v or ARGV[i + 2]))
  n = n + 1
end
if n > 0 then redis.call('HINCRBY', b .. ':stats', 'malformed', n) end
return n
"""


def compact_fingerprint(fingerprint: str) -> bytes:
    """16 bytes that stand for ``fingerprint`` in the seen-set.

    Always hashed (BLAKE2b-128), so structured fingerprints (a custom
    REQUEST_FINGERPRINTER, counters) spread as well as Scrapy's SHA1 does.
    Collisions need ~2**64 URLs: no silent loss in practice.
    """
    return hashlib.blake2b(fingerprint.encode("utf-8"), digest_size=16).digest()


def seen_shard(compact: bytes) -> tuple[str, bytes]:
    """(shard key suffix, field) of a compact fingerprint: 65536 small hashes keep Redis compact."""
    return compact[:2].hex(), compact[2:]


def _clean(name: str) -> str:
    """Node names and slots are separated by tabs in Redis values."""
    return name.replace("\t", " ").replace("\n", " ")


class RedisFrontier:
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
        prefix: str = "geofocus",
        node: str = DEFAULT_NODE,
        worker_id: str | None = None,
        batch: int = 32,
        max_held: int = 256,
        slot_cap: int = 8,
        lease_ttl: float = 120.0,
        flush_interval: float = 1.0,
        pop_wait: float = 0.05,
        push_buffer: int = 500,
        known_max: int = 500_000,
        url: str = "",
        run_dir: Any = None,
    ) -> None:
        if not crawl_id:
            raise ValueError("a Redis crawl needs a crawl id (GEOFOCUS_CRAWL_ID)")
        self.client = client
        self.crawl_id = crawl_id
        self.base = f"{prefix}:{crawl_id}"
        self.node = _clean(node or DEFAULT_NODE)
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
        self.generation: str | None = None
        self._run_id: str | None = None
        self._lost: str | None = None

        self._scripts = {
            name: client.register_script(src)
            for name, src in [
                ("push", _LUA_PUSH), ("pop", _LUA_POP), ("done", _LUA_DONE), ("renew", _LUA_RENEW),
                ("release", _LUA_RELEASE), ("reclaim", _LUA_RECLAIM), ("rescore", _LUA_RESCORE),
                ("bad", _LUA_BAD),
            ]
        }
        self._cond = threading.Condition()
        self._stop = threading.Event()
        # Guarded by _cond: buffers shared with the thread.
        self._pending_push: dict[str, tuple[FrontierEntry, str]] = {}
        self._pending_done: list[str] = []
        self._pending_counters: dict[str, float] = {}
        self._pending_new = 0
        self._pending_release: dict[str, FrontierEntry] = {}
        self._pending_bad: dict[str, tuple[str, str]] = {}
        self._pending_rescore: dict[str, tuple[float, dict[str, Any], str]] = {}
        self._sample: list[FrontierEntry] | None = None
        self._sample_cursor = 0
        self._sample_slots: dict[str, str] = {}
        self._want_sample = 0
        self._batch: list[FrontierEntry] = []
        self._inflight: dict[str, FrontierEntry] = {}
        self._queued_remote = 0
        self._leases_remote = 0
        self._exclude: set[str] = set()
        self._want_cycle = False
        self._cycles = 0
        self._cycle_running = False
        self._healthy = True
        self._stopping = False
        self._last_renew = 0.0
        self._workers = 1
        self._shared_counters: dict[str, float] = {}
        self._last_reclaim = 0.0
        self._empty_exclusive: tuple[frozenset[str], float] | None = None
        self._seeds: list[str] = []
        self._want_seeds = 0
        # Reactor thread only.
        self._known: dict[bytes, float] = {}
        self._thread: threading.Thread | None = None

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_crawler(cls, crawler: Any) -> RedisFrontier:
        """Reads GEOFOCUS_REDIS_* settings; raises RedisUnavailableError (one line) if Redis is down."""
        from geofocus.rundir import get_run_dir

        s = crawler.settings
        url = s.get("GEOFOCUS_REDIS_URL")
        crawl_id = s.get("GEOFOCUS_CRAWL_ID") or ""
        if not crawl_id:
            raise RedisUnavailableError("GEOFOCUS_REDIS_URL is set but GEOFOCUS_CRAWL_ID is empty: "
                                        "name the shared crawl with -s GEOFOCUS_CRAWL_ID=NAME")
        timeout = s.getfloat("GEOFOCUS_REDIS_TIMEOUT", 5.0)
        # `scrapy crawl` checked Redis before starting; a worker that opens while Redis restarts
        # waits for it a little rather than fail
        client = _retrying(lambda: connect(url, timeout=timeout), 3 * timeout)
        return cls(
            client,
            crawl_id,
            prefix=s.get("GEOFOCUS_REDIS_PREFIX", "geofocus"),
            node=s.get("GEOFOCUS_NODE") or DEFAULT_NODE,
            batch=s.getint("GEOFOCUS_REDIS_BATCH", 32),
            max_held=s.getint("GEOFOCUS_REDIS_MAX_HELD", 256),
            slot_cap=s.getint("GEOFOCUS_REDIS_SLOT_CAP", 8),
            lease_ttl=s.getfloat("GEOFOCUS_REDIS_LEASE_TTL", 120.0),
            flush_interval=s.getfloat("GEOFOCUS_REDIS_FLUSH_INTERVAL", 1.0),
            pop_wait=s.getfloat("GEOFOCUS_REDIS_POP_WAIT", 0.05),
            known_max=s.getint("GEOFOCUS_REDIS_KNOWN_MAX", 500_000),
            url=url,
            run_dir=get_run_dir(crawler),  # remembers the crawl's generation
        )

    def key(self, suffix: str) -> str:
        return f"{self.base}:{suffix}"

    # -- life cycle -------------------------------------------------------------------
    def open(self) -> None:
        """Checks Redis, reclaims expired leases, loads the seen-set, starts the thread
        (waiting up to 15 s for a Redis that is restarting)."""
        _retrying(self._open_in_redis, 15.0)
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
            self._reclaim(time.time())
            self._load_seen()
            self._queued_remote = int(self.client.zcard(self.key(f"q:{self.node}")))
            self._leases_remote = int(self.client.zcard(self.key("leases")))
            self.client.hset(self.key("workers"), self.worker_id, f"{time.time():.0f}")
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
            held = [e.fingerprint for e in self._batch] + list(self._inflight)
            self._batch.clear()
            self._inflight.clear()
        deadline = time.monotonic() + timeout
        delay = 0.2
        while True:
            try:
                self._cycle(refill=False)
                if held:
                    args = [x for fp in held for x in (fp, "", "")]
                    self._call_chunked("release", [self.base, self.worker_id], args, 3)
                self.client.hdel(self.key("workers"), self.worker_id)
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
        node = _clean(str((gf or {}).get("node") or self.node))
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
                        if len(self._batch) < self.batch // 2:
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
            self._pending_bad[entry.fingerprint] = (_clean(reason)[:500], payload)
            self._want_cycle = True
            self._cond.notify_all()
        self._known.pop(compact_fingerprint(entry.fingerprint), None)

    def release(self, entry: FrontierEntry) -> bool:
        """Give an entry this worker holds back to the queue (a retry), at ``entry``'s priority."""
        with self._cond:
            if self._inflight.pop(entry.fingerprint, None) is None:
                return False
            self._pending_release[entry.fingerprint] = entry
            self._pending_new += 1
        self._remember(compact_fingerprint(entry.fingerprint), entry.priority)
        return True

    def queued_sample(self, limit: int, after: str = "") -> list[FrontierEntry]:
        """Up to ``limit`` entries of this node's queue, fetched in the background.

        Returns the sample the thread fetched since the last call ([] if none
        yet) and asks for the next one; the Redis scan cursor is kept here, so
        ``after`` only restarts the scan when empty.
        """
        with self._cond:
            sample, self._sample = self._sample, None
            if sample:
                self._sample_slots = {e.fingerprint: e.slot for e in sample}
            if not after and sample is None:
                self._sample_cursor = 0
            self._want_sample = limit
            return sample or []

    def update_priorities(self, updates: Iterable[tuple[str, float, dict[str, Any]]]) -> int:
        """Buffer new priorities (up or down) for entries still queued; returns how many were sent."""
        n = 0
        with self._cond:
            for fingerprint, priority, request in updates:
                slot = self._sample_slots.get(fingerprint) or _slot_of(request)
                self._pending_rescore[fingerprint] = (float(priority), request, slot)
                n += 1
        return n

    def __len__(self) -> int:
        return self._queued_remote + len(self._batch) + self._pending_new

    def increment(self, counter: str, amount: float = 1) -> None:
        with self._cond:
            self._pending_counters[counter] = self._pending_counters.get(counter, 0) + amount

    def counters(self) -> dict[str, float]:
        """Crawl totals of all workers (a Redis read: for reports and close, not per page)."""
        stored = {k.decode(): float(v) for k, v in self.client.hgetall(self.key("counters")).items()}
        with self._cond:
            for name, value in self._pending_counters.items():
                stored[name] = stored.get(name, 0) + value
        return stored

    # -- extras for the scheduler and tools ---------------------------------------------
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
        """Seed URLs popped from ``B:start_urls`` by the thread (non-blocking)."""
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

    def remote_stats(self) -> dict[str, int]:
        return {k.decode(): int(v) for k, v in self.client.hgetall(self.key("stats")).items()}

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
        prefix = self.key("seen:").encode()
        for key in self.client.scan_iter(match=self.key("seen:*"), count=1000):
            shard = bytes.fromhex(key[len(prefix):].decode())
            for field in self.client.hkeys(key):
                self._known[shard + field] = _DONE
                n += 1
                if n >= self.known_max:
                    return

    def _call_chunked(self, name: str, head: list[Any], items: list[Any], width: int,
                      chunk: int = 300, pipe: Any = None) -> None:
        script = self._scripts[name]
        for i in range(0, len(items), chunk * width):
            script(args=head + items[i:i + chunk * width], client=pipe or self.client)

    def _reclaim(self, now: float) -> int:
        self._last_reclaim = now
        total = 0
        while True:
            n = int(self._scripts["reclaim"](args=[self.base, int(now * 1000), 1000]))
            total += n
            if n < 1000:
                break
        if total:
            logger.info("Redis frontier: %(n)d expired leases went back to the queue", {"n": total})
        return total

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
        """One round trip: send buffers, renew/reclaim leases, refill the batch, refresh sizes."""
        now = time.time()
        with self._cond:
            pushes, self._pending_push = self._pending_push, {}
            dones, self._pending_done = self._pending_done, []
            counters, self._pending_counters = self._pending_counters, {}
            sent_new, self._pending_new = self._pending_new, 0
            releases, self._pending_release = self._pending_release, {}
            rescores, self._pending_rescore = self._pending_rescore, {}
            bad, self._pending_bad = self._pending_bad, {}
            want_sample = self._want_sample if refill else 0
            self._want_sample = 0
            held = len(self._batch) + len(self._inflight)
            want = 0
            # a pop that found only busy hosts in the batch asks for other hosts even if it is full
            if refill and (len(self._batch) < self.batch or self._exclude) and held < self.max_held:
                want = min(self.batch, self.max_held - held)
            exclude = set(self._exclude)
            self._exclude = set()
            # busy hosts that already fill the batch need no more entries now
            per_slot: dict[str, int] = {}
            for e in self._batch:
                per_slot[e.slot] = per_slot.get(e.slot, 0) + 1
            exclude.update(s for s, n in per_slot.items() if n >= self.slot_cap)
            renew = []
            if now - self._last_renew >= self.lease_ttl / 3:
                renew = [e.fingerprint for e in self._batch] + list(self._inflight)
            want_seeds = self._want_seeds if refill and not self._seeds else 0
            if want_seeds:
                self._want_seeds = 0
        try:
            pipe = self.client.pipeline(transaction=True)
            self._check_generation(pipe)
            if pushes:
                args: list[Any] = []
                for fp, (entry, node) in pushes.items():
                    skey, field = seen_shard(compact_fingerprint(fp))
                    value = f"{_clean(entry.slot)}\t{encode_request(entry.request)}"
                    args += [fp, skey, field, repr(float(entry.priority)), node, value]
                self._call_chunked("push", [self.base], args, 6, pipe=pipe)
            if dones:
                args = []
                for fp in dones:
                    skey, field = seen_shard(compact_fingerprint(fp))
                    args += [fp, skey, field]
                self._call_chunked("done", [self.base, self.node], args, 3, pipe=pipe)
            if releases:
                args = []
                for fp, entry in releases.items():
                    args += [fp, repr(float(entry.priority)),
                             f"{_clean(entry.slot)}\t{encode_request(entry.request)}"]
                self._call_chunked("release", [self.base, self.worker_id], args, 3, pipe=pipe)
            if rescores:
                args = []
                for fp, (priority, request, slot) in rescores.items():
                    args += [fp, repr(priority), f"{_clean(slot)}\t{encode_request(request)}"]
                self._call_chunked("rescore", [self.base], args, 3, pipe=pipe)
            if bad:
                args = [x for fp, (reason, payload) in bad.items() for x in (fp, reason, payload)]
                self._call_chunked("bad", [self.base], args, 3, pipe=pipe)
            for name, amount in counters.items():
                pipe.hincrbyfloat(self.key("counters"), name, amount)
            if renew:
                self._call_chunked("renew", [self.base, self.worker_id, int((now + self.lease_ttl) * 1000)],
                                   renew, 1, pipe=pipe)
            if now - self._last_reclaim >= min(5.0, self.lease_ttl / 3):
                self._scripts["reclaim"](args=[self.base, int(now * 1000), 1000], client=pipe)
            if want:
                self._scripts["pop"](
                    args=[self.base, self.node, self.worker_id, int((now + self.lease_ttl) * 1000),
                          want, max(1024, 8 * want), self.slot_cap, self._workers, *sorted(exclude)],
                    client=pipe,
                )
            if want_seeds:
                pipe.lpop(self.key("start_urls"), want_seeds)
            pipe.zcard(self.key(f"q:{self.node}"))
            pipe.zcard(self.key("leases"))
            pipe.hset(self.key("workers"), self.worker_id, f"{now:.0f}")
            pipe.hvals(self.key("workers"))
            pipe.hgetall(self.key("counters"))
            results = pipe.execute()
        except BaseException:
            with self._cond:  # nothing is lost: put the buffers back in front of newer ones
                for fp, item in pushes.items():
                    newer = self._pending_push.get(fp)
                    if newer is None or newer[0].priority < item[0].priority:
                        self._pending_push[fp] = item
                self._pending_done[:0] = dones
                for name, amount in counters.items():
                    self._pending_counters[name] = self._pending_counters.get(name, 0) + amount
                self._pending_new += sent_new
                for fp, entry in releases.items():
                    self._pending_release.setdefault(fp, entry)
                for fp, item in rescores.items():
                    self._pending_rescore.setdefault(fp, item)
                for fp, item in bad.items():
                    self._pending_bad.setdefault(fp, item)
                self._want_sample = max(self._want_sample, want_sample)
                self._exclude |= exclude
                self._want_seeds = max(self._want_seeds, want_seeds)
            raise
        if renew:
            self._last_renew = now
        if now - self._last_reclaim >= min(5.0, self.lease_ttl / 3):
            self._last_reclaim = now
        popped: list[FrontierEntry] = []
        seeds: list[str] = []
        live_after = now - max(10.0, 5 * self.flush_interval)
        shared = {k.decode(): float(v) for k, v in results[-1].items()}
        self._workers = sum(1 for ts in results[-2] if float(ts) >= live_after) or 1
        results = results[:-2]
        idx = len(results) - 3
        if want_seeds:
            seeds = [u.decode() for u in (results[idx - 1] or [])]
            idx -= 1
        if want:
            flat = results[idx - 1]
            for k in range(0, len(flat), 3):
                popped.append(_entry(flat[k], flat[k + 1], flat[k + 2]))
        sample = self._fetch_sample(want_sample) if want_sample else None
        with self._cond:
            if sample is not None:
                self._sample = sample
            if popped:
                self._batch.extend(popped)
                self._batch.sort(key=lambda e: -e.priority)
            if seeds:
                self._seeds.extend(seeds)
            self._shared_counters = shared
            self._queued_remote = int(results[-3])
            self._leases_remote = int(results[-2])
            self._cycles += 1
            self._cond.notify_all()

    def _check_generation(self, pipe: Any) -> None:
        """WATCH the generation key and compare it before the cycle's MULTI: if Redis lost or swapped
        the crawl, raise CrawlLostError before anything is written (and if it changes between
        this check and EXEC, the transaction fails with WatchError and the next cycle sees it)."""
        if self.generation is None:  # not opened (tools): nothing to compare with
            return
        key = crawl_generation.generation_key(self.base)
        pipe.watch(key)
        current = pipe.get(key)
        if current is None or current.decode() != self.generation:
            pipe.reset()
            what = crawl_generation.describe_loss(
                current, self._run_id, crawl_generation.server_run_id(self.client))
            raise CrawlLostError(crawl_generation.lost_message(self.crawl_id, self.url, what))
        pipe.multi()

    def _fetch_sample(self, limit: int) -> list[FrontierEntry]:
        cursor, items = self.client.zscan(self.key(f"q:{self.node}"), self._sample_cursor, count=limit)
        self._sample_cursor = int(cursor)
        items = items[:limit]
        if not items:
            return []
        values = self.client.hmget(self.key("req"), [fp for fp, _ in items])
        out = []
        for (fp, score), value in zip(items, values):
            if value is None:
                continue
            _home, _, rest = value.partition(b"\t")
            out.append(_entry(fp, score, rest if _ else b"\x01malformed\t" + value))
        return out


def _retrying(action: Any, patience: float) -> Any:
    """``action()``, tried again for ``patience`` seconds while Redis cannot be reached (it may be
    restarting); other errors, and CrawlLostError, are raised at once."""
    deadline = time.monotonic() + patience
    delay = 0.2
    while True:
        try:
            return action()
        except CrawlLostError:
            raise
        except RedisUnavailableError as exc:
            if "cannot reach" not in str(exc) or time.monotonic() + delay > deadline:
                raise
            logger.info("Redis frontier: %(error)s; retrying", {"error": exc})
        time.sleep(delay)
        delay = min(delay * 2, 2.0)


def _entry(fp: bytes, score: Any, value: bytes) -> FrontierEntry:
    """A FrontierEntry from Redis's ``<slot>\\t<json>``; anything unreadable becomes an entry whose
    request says so (``decode_request``), which the scheduler sets aside."""
    fingerprint = fp.decode("utf-8", "replace")
    try:
        priority = float(score)
    except (TypeError, ValueError):
        priority = 0.0
    slot, sep, payload = value.partition(b"\t")
    if not sep or slot == b"\x01malformed":
        raw = (payload if sep else value).decode("utf-8", "replace")
        return FrontierEntry(fingerprint, priority, "",
                             {MALFORMED_KEY: "not a frontier entry geofocus wrote", "raw": raw[:10000]})
    return FrontierEntry(fingerprint, priority, slot.decode("utf-8", "replace"), decode_request(payload))


def _slot_of(request: dict[str, Any]) -> str:
    from urllib.parse import urlsplit

    try:
        return urlsplit(str(request.get("url", ""))).hostname or ""
    except ValueError:
        return ""

