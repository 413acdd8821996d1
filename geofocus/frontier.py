"""The crawl frontier: a best-first queue of URLs with float priorities.

One global order by priority (higher first, ties broken at random), one entry
per URL fingerprint, and a life cycle per entry::

    push -> QUEUED --pop--> LEASED --done--> DONE
              ^  (push with a higher priority re-prioritises a QUEUED entry)
              +------ reopen / lease expiry (LEASED entries were in flight)

A DONE or LEASED fingerprint is never queued again, so a fetched URL is never
fetched twice.  The embedded backend (:class:`SqliteFrontier`) keeps all of
this in one SQLite file; the Redis backend
(:class:`geofocus.redis.frontier.RedisFrontier`) implements the same protocol
for crawls shared by many workers.  ``tests/test_frontier.py`` runs one suite
of the whole protocol against both.
"""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import random
import sqlite3
import time
import zlib
from array import array
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import orjson

logger = logging.getLogger(__name__)

QUEUED, LEASED, DONE = 0, 1, 2  # states of a row (LEASED only in files of earlier versions)


@dataclass
class FrontierEntry:
    """One queued URL: its fingerprint, priority, download slot and serialised request.

    ``encoded`` may carry the request already encoded as compact JSON (what
    :func:`encode_request_bytes` gives): a backend that stores JSON stores it as
    is instead of encoding ``request`` a second time.  Left out of comparisons.
    """

    fingerprint: str
    priority: float
    slot: str
    request: dict[str, Any]
    encoded: bytes | None = field(default=None, repr=False, compare=False)


class PushResult:
    """What a push did: ``NEW`` queued, ``RAISED`` re-prioritised, ``REJECTED`` otherwise."""

    NEW = "new"
    RAISED = "raised"
    REJECTED = "rejected"


class FrontierQueue(Protocol):
    """The contract of a frontier backend.

    Priorities are floats in [0, 1]; ``pop`` returns the entry of highest
    priority whose slot is not in ``busy_slots`` (the best entry of a busy
    slot is passed over, not lost).  ``done`` marks a fingerprint fetched for
    good.  Counters are additive crawl totals that survive a restart.
    """

    def open(self) -> None: ...

    def close(self) -> None: ...

    def push(self, entry: FrontierEntry) -> str:
        """Queue an entry or raise its priority; returns a :class:`PushResult` value."""
        ...

    def pop(self, busy_slots: Collection[str] = ()) -> FrontierEntry | None:
        """The best queued entry whose slot is not busy, now LEASED; None if there is none."""
        ...

    def done(self, fingerprint: str) -> None: ...

    def quarantine(self, entry: FrontierEntry, reason: str) -> None:
        """Move a LEASED entry that cannot be read as a request aside (kept for inspection, its
        lease released); like a fetched one it is seen and never queued again, so a bad stored
        entry cannot come back in a loop (both backends; tests/test_frontier.py)."""
        ...

    def release(self, entry: FrontierEntry) -> bool:
        """Put an entry this frontier leased (popped, not done) back in the queue at ``entry``'s
        priority and request (a retry); False if it is not leased here (queued, done, unknown)."""
        ...

    def seen(self, fingerprint: str) -> bool:
        """True once the fingerprint is LEASED or DONE (a push of it is rejected); False while it
        is queued or unknown.  A shared backend answers from this worker's view: the crawl's
        fetched set as of ``open`` plus what this worker leased or fetched since."""
        ...

    def queued_sample(self, limit: int, after: str = "") -> list[FrontierEntry]:
        """A pass over the queued entries, ``limit`` at a time (for re-scoring).

        ``after=""`` starts a pass; ``after`` = the last fingerprint of the previous
        sample goes on with it.  Every call answers at once with what is queued (no
        empty warm-up call); fewer than ``limit`` entries means the pass is at its
        end.  A pass returns each entry queued throughout it, with its current
        priority, slot and request; entries leased meanwhile are left out, and so
        are the few a shared backend has leased ahead for this worker (``pop``
        hands those out next).
        """
        ...

    def update_priorities(self, updates: Iterable[tuple[str, float, dict[str, Any] | None]]) -> int:
        """Set new priorities (up or down) of queued entries; a request of None keeps the stored
        one.  Entries that are leased, done or unknown are left alone.  Returns how many
        priorities *changed* (an update to the priority an entry already has is not counted):
        what the scheduler counts as ``geofocus/frontier/rescored``.  A shared backend applies
        them with its next sync, and one that another worker leased meanwhile keeps its priority.
        """
        ...

    def __len__(self) -> int: ...

    def increment(self, counter: str, amount: float = 1) -> None: ...

    def counters(self) -> dict[str, float]: ...

    def flush(self) -> None:
        """Make every change so far durable."""
        ...


def encode_request(request: dict[str, Any]) -> str:
    return json.dumps(request, separators=(",", ":"), ensure_ascii=False)


#: Key of the dict that stands for an entry whose JSON cannot be read (see ``geofocus.serialize``).
MALFORMED_KEY = "_geofocus_malformed"


def decode_request(data: str | bytes) -> dict[str, Any]:
    """The entry's dict; an unreadable one becomes ``{MALFORMED_KEY: reason, "raw": text}``, which
    the scheduler sets aside instead of crashing on it (or retrying it for ever)."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        try:  # JSON that only the standard library reads (NaN, ...)
            value = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raw = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
            return {MALFORMED_KEY: f"bad JSON ({exc})", "raw": raw[:10000]}
    if not isinstance(value, dict):
        return {MALFORMED_KEY: f"an entry must be a JSON object, not {type(value).__name__}",
                "raw": encode_request(value)[:10000]}
    return value


def encode_request_bytes(request: dict[str, Any]) -> bytes:
    """The request as compact UTF-8 JSON (orjson: ~10x faster than json.dumps; same JSON)."""
    try:
        return orjson.dumps(request, option=orjson.OPT_NON_STR_KEYS)
    except (TypeError, orjson.JSONEncodeError):  # e.g. an int beyond 64 bits: the slow path
        return encode_request(request).encode()


_SCHEMA = """
CREATE TABLE IF NOT EXISTS urls (
    id INTEGER PRIMARY KEY,
    fp TEXT NOT NULL,
    priority REAL NOT NULL,
    slot TEXT NOT NULL,
    state INTEGER NOT NULL,
    request BLOB
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value REAL NOT NULL);
CREATE TABLE IF NOT EXISTS malformed (fp TEXT PRIMARY KEY, reason TEXT NOT NULL, request TEXT, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, ids BLOB NOT NULL, priorities BLOB);
CREATE TABLE IF NOT EXISTS request_log (seq INTEGER PRIMARY KEY, id INTEGER NOT NULL, request BLOB NOT NULL);
"""

#: Kinds of a journal record: row ids that were fetched, or row ids with their new priorities.
_J_DONE, _J_PRIORITY = 2, 0

#: The layout of earlier versions (fp-keyed table plus a payload table), migrated at open.
_OLD_LAYOUT_MIGRATION = """
INSERT INTO urls(fp, priority, slot, state, request)
    SELECT f.fp, f.priority, f.slot, CASE f.state WHEN 1 THEN 0 ELSE f.state END, p.request
    FROM frontier f LEFT JOIN payloads p ON p.id = f.payload;
DROP TABLE frontier;
DROP TABLE payloads;
"""

#: In-memory mark of a fetched fingerprint (a queued one maps to its entry, a leased one to -row id).
_DONE_MARK = 0

#: Row ids per journal record when a whole queue's priorities are written (1.6 MB a record).
_JOURNAL_CHUNK = 100_000


def _ids_blob(ids: Iterable[int]) -> bytes:
    return array("q", ids).tobytes()


def _priorities_blob(priorities: Iterable[float]) -> bytes:
    return array("d", priorities).tobytes()


def _priority_records(pairs: Iterable[tuple[int, float]], seq: int) -> Iterable[tuple[int, int, bytes, bytes]]:
    """Journal records of (row id, priority) pairs, ``_JOURNAL_CHUNK`` a record, built as they are
    written (no list of the whole queue in memory)."""
    ids, priorities = array("q"), array("d")
    for row_id, priority in pairs:
        ids.append(row_id)
        priorities.append(priority)
        if len(ids) == _JOURNAL_CHUNK:
            yield seq, _J_PRIORITY, ids.tobytes(), priorities.tobytes()
            seq += 1
            ids, priorities = array("q"), array("d")
    if ids:
        yield seq, _J_PRIORITY, ids.tobytes(), priorities.tobytes()


class SqliteFrontier:
    """The embedded frontier: the order in memory, the durable state in one SQLite file.

    Memory holds, per known fingerprint, its queue entry ``(-priority,
    tiebreak, fingerprint, slot, row id)`` while queued (a tuple of atoms,
    which Python's garbage collector stops tracking: its full collections do
    not walk the queue), ``-row id`` while leased, or a done mark: the
    seen-set and the "best queued priority" map that answers a push without
    the disk (:meth:`pushable`).  The order is one heap per download slot
    (host) plus a heap of the slots' best entries, both with lazy deletion: a
    pop is O(log n) and passes over busy slots exactly (the best entry of a
    host that is not busy, however deep; a busy slot waits aside until a pop
    finds it free).  Requests stay on disk (compact JSON, encoded once: a
    ``FrontierEntry.encoded`` given by the caller is stored as is) and are
    read back by row id when popped; about 300 bytes of memory per queued URL.

    Durability: the file is written append-only between compactions.  Table
    ``urls`` gets one row per fingerprint when it is first seen (with its
    request); every later change is appended, never updated in place: fetched
    row ids and new priorities as packed arrays in ``journal`` (one record per
    kind and flush), a changed request (a better parent, a retry) as a row of
    ``request_log``.  All changes since the last :meth:`flush` are kept in
    memory and written in one transaction by :meth:`flush` (the scheduler
    flushes every few pages and on a timer): a kill -9 loses at most that
    much, which the crawl redoes (WAL, ``synchronous=NORMAL``: a committed
    flush survives the process being killed; an OS crash or power loss may
    lose the last flushes, never corrupt the file).  :meth:`open` replays the
    journal over ``urls``; :meth:`close`, and a flush once the journal and the
    request log hold more than ``compact_after`` row ids (default twice the
    rows, at least one million), compact them in one transaction: fetched
    rows become ``state = 2`` without their request, changed requests are
    folded into ``urls``, and the priorities are folded in (few) or written
    as one snapshot (many).  A pop writes nothing: an entry leased but not
    done at a stop is queued again at the next :meth:`open`.  Ties in priority
    are broken by a hash of the fingerprint mixed with a per-run random (or
    ``seed``-given) mask, so equal priorities are not served in discovery
    order.
    """

    #: A compaction updates the priorities of at most this many rows in place; beyond it, it writes the
    #: priorities of all queued entries as one snapshot in the journal instead.
    fold_limit = 200_000

    def __init__(
        self, path: str | Path, cache_mb: int = 64, lookahead: int = 64, seed: int | None = None,
        compact_after: int | None = None,
    ):
        self.path = str(path)
        # Kept for compatibility: busy hosts are passed over exactly, without a lookahead limit.
        self.lookahead = lookahead
        self.cache_mb = cache_mb
        self.compact_after = compact_after
        self._tie_mask = random.Random(seed).getrandbits(32)
        self._db: sqlite3.Connection | None = None
        self._pending_counters: dict[str, float] = {}
        self._reset_memory()

    def _reset_memory(self) -> None:
        self._entries: dict[str, tuple[Any, ...] | int] = {}
        self._slot_heaps: dict[str, list[tuple[Any, ...]]] = {}
        self._slot_top: dict[str, tuple[float, int]] = {}
        self._best: list[tuple[float, int, str]] = []  # (-priority, tiebreak, slot) per slot
        self._parked: dict[str, tuple[float, int, str]] = {}  # registrations of slots found busy at a pop
        self._slot_names: dict[str, str] = {}
        self._queued = 0
        self._stale = 0
        self._heaps_invalid = False  # entries were changed in place: rebuild before the next pop
        self._all_priorities_dirty = False  # ... and their priorities are to be written at the next flush
        # Changes not yet written: new rows, and priority / request / done changes of written rows.
        self._new: dict[int, list[Any]] = {}  # row id -> [fp, priority, slot, state, request|None, encoded|None]
        self._new_priorities: dict[int, float] = {}
        self._new_requests: dict[int, dict[str, Any]] = {}
        self._dones: list[int] = []
        self._leased: dict[int, float] = {}  # row id -> priority of an entry in flight
        self._logged_request: dict[int, int] = {}  # row id -> seq of its newest request in request_log
        self._journal_ids = 0  # row ids in journal records (what a compaction removes)
        self._next_id = 1
        self._next_seq = 1

    # -- life cycle -------------------------------------------------------
    def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(f"PRAGMA cache_size=-{self.cache_mb * 1024}")
        db.execute("PRAGMA temp_store=MEMORY")
        db.executescript(_SCHEMA)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if {"frontier", "payloads"} <= tables:
            db.executescript("BEGIN;" + _OLD_LAYOUT_MIGRATION + "COMMIT;")
            logger.info("Frontier: %s converted to the current layout", self.path)
        self._reset_memory()
        max_id = db.execute("SELECT MAX(id) FROM urls").fetchone()[0] or 0
        # Replay the journal into two arrays indexed by row id (8 + 1 bytes per row, no dict).
        nan = float("nan")
        override = array("d", [nan]) * (max_id + 1)
        fetched = bytearray(max_id + 1)
        journal_ids = 0
        for kind, ids_blob, priorities_blob in db.execute("SELECT kind, ids, priorities FROM journal ORDER BY seq"):
            ids = array("q")
            ids.frombytes(ids_blob)
            journal_ids += len(ids)
            if kind == _J_DONE:
                for row_id in ids:
                    fetched[row_id] = 1
            else:
                priorities = array("d")
                priorities.frombytes(priorities_blob)
                for row_id, priority in zip(ids, priorities, strict=True):
                    override[row_id] = priority
        entries = self._entries
        heaps = self._slot_heaps
        for row_id, fp, priority, slot, state in db.execute("SELECT id, fp, priority, slot, state FROM urls"):
            if state == QUEUED and not fetched[row_id]:
                slot = self._slot_name(slot)
                newer = override[row_id]
                if newer == newer:  # not NaN
                    priority = newer
                entry = (-priority, self._tiebreak(fp), fp, slot, row_id)
                entries[fp] = entry
                heap = heaps.get(slot)
                if heap is None:
                    heaps[slot] = [entry]
                else:
                    heap.append(entry)
            else:
                entries[fp] = _DONE_MARK
        del override, fetched
        for heap in heaps.values():
            heapq.heapify(heap)
        self._queued = sum(len(h) for h in heaps.values())
        self._rebuild_best()
        self._logged_request = dict(db.execute("SELECT id, seq FROM request_log ORDER BY seq"))
        self._journal_ids = journal_ids
        self._next_id = max_id + 1
        self._next_seq = max(
            db.execute("SELECT MAX(seq) FROM journal").fetchone()[0] or 0,
            db.execute("SELECT MAX(seq) FROM request_log").fetchone()[0] or 0,
        ) + 1
        self._db = db

    def close(self) -> None:
        if self._db is not None:
            self.flush()
            self.compact()
            self._db.close()
            self._db = None
            self._reset_memory()

    def flush(self) -> None:
        db = self._require_db()
        if not (self._new or self._dones or self._new_priorities or self._new_requests or self._pending_counters
                or self._all_priorities_dirty):
            return
        rows = [
            (row_id, fp, priority, slot, state,
             encoded if encoded is not None else None if request is None else encode_request_bytes(request))
            for row_id, (fp, priority, slot, state, request, encoded) in self._new.items()
        ]
        records: list[tuple[int, int, bytes, bytes | None]] = []
        seq = self._next_seq
        journal_ids = 0
        bulk: Iterable[tuple[int, int, bytes, bytes]] = ()
        if self._all_priorities_dirty:
            # A bulk re-scoring: every queued priority (rows not yet written carry theirs with them).
            new = self._new
            bulk_ids = sum(1 for e in self._entries.values() if type(e) is tuple and e[4] not in new)
            bulk = _priority_records(
                ((e[4], -e[0]) for e in self._entries.values() if type(e) is tuple and e[4] not in new), seq)
            seq += -(-bulk_ids // _JOURNAL_CHUNK)
            journal_ids += bulk_ids
        if self._new_priorities:
            records.append((seq, _J_PRIORITY, _ids_blob(self._new_priorities),
                            _priorities_blob(self._new_priorities.values())))
            seq += 1
            journal_ids += len(self._new_priorities)
        if self._dones:
            records.append((seq, _J_DONE, _ids_blob(self._dones), None))
            seq += 1
            journal_ids += len(self._dones)
        logged = []
        for row_id, request in self._new_requests.items():
            logged.append((seq, row_id, encode_request_bytes(request)))
            seq += 1
        db.execute("BEGIN")
        try:
            if rows:
                db.executemany(
                    "INSERT INTO urls(id, fp, priority, slot, state, request) VALUES(?, ?, ?, ?, ?, ?)", rows)
            db.executemany("INSERT INTO journal(seq, kind, ids, priorities) VALUES(?, ?, ?, ?)", bulk)
            if records:
                db.executemany("INSERT INTO journal(seq, kind, ids, priorities) VALUES(?, ?, ?, ?)", records)
            if logged:
                db.executemany("INSERT INTO request_log(seq, id, request) VALUES(?, ?, ?)", logged)
            if self._pending_counters:
                db.executemany(
                    "INSERT INTO counters(name, value) VALUES(?, ?) "
                    "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
                    list(self._pending_counters.items()),
                )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        for s, row_id, _ in logged:
            self._logged_request[row_id] = s
        self._next_seq = seq
        self._journal_ids += journal_ids
        self._new = {}
        self._new_priorities = {}
        self._new_requests = {}
        self._dones = []
        self._all_priorities_dirty = False
        self._pending_counters.clear()
        limit = self.compact_after if self.compact_after is not None else max(1_000_000, 2 * len(self._entries))
        if self._journal_ids + len(self._logged_request) > limit:
            self.compact()

    def compact(self) -> None:
        """Fold the journal and the request log into ``urls`` (one transaction; :meth:`flush` first)."""
        db = self._require_db()
        if self._new or self._dones or self._new_priorities or self._new_requests:
            self.flush()
        if not self._journal_ids and not self._logged_request:
            return
        done_ids = array("q")
        changed: dict[int, float] = {}
        for kind, ids_blob, priorities_blob in db.execute("SELECT kind, ids, priorities FROM journal ORDER BY seq"):
            if kind == _J_DONE:
                done_ids.frombytes(ids_blob)
            elif len(changed) <= self.fold_limit:
                ids = array("q")
                ids.frombytes(ids_blob)
                priorities = array("d")
                priorities.frombytes(priorities_blob)
                changed.update(zip(ids, priorities, strict=True))
        entries = self._entries
        snapshot = len(changed) > self.fold_limit  # many priorities changed: a snapshot, no updates in place
        if snapshot:
            changed = {}
        else:
            for row_id in done_ids:
                changed.pop(row_id, None)
        done = set(done_ids)
        db.execute("BEGIN")
        try:
            if self._logged_request:
                db.executemany(
                    "UPDATE urls SET request = (SELECT request FROM request_log WHERE seq = ?) WHERE id = ?",
                    [(s, i) for i, s in sorted(self._logged_request.items()) if i not in done],
                )
                db.execute("DELETE FROM request_log")
            if changed:
                db.executemany("UPDATE urls SET priority = ? WHERE id = ?",
                               [(p, i) for i, p in sorted(changed.items())])
            if done_ids:
                db.executemany("UPDATE urls SET state = 2, request = NULL WHERE id = ?", [(i,) for i in sorted(done)])
            db.execute("DELETE FROM journal")
            seq = self._next_seq
            if snapshot:
                count = sum(1 for e in entries.values() if type(e) is tuple) + len(self._leased)
                pairs = itertools.chain(
                    ((e[4], -e[0]) for e in entries.values() if type(e) is tuple), self._leased.items())
                db.executemany("INSERT INTO journal(seq, kind, ids, priorities) VALUES(?, ?, ?, ?)",
                               _priority_records(pairs, seq))
                seq += -(-count // _JOURNAL_CHUNK)
                self._journal_ids = count
            else:
                self._journal_ids = 0
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._next_seq = seq
        self._logged_request = {}

    def _require_db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("frontier is not open")
        return self._db

    def _slot_name(self, slot: str) -> str:
        # One string object per host, however many URLs it has.
        return self._slot_names.setdefault(slot, slot)

    def _tiebreak(self, fingerprint: str) -> int:
        return zlib.crc32(fingerprint.encode()) ^ self._tie_mask

    def _load(self, row_id: int) -> dict[str, Any]:
        pending = self._new.get(row_id)
        if pending is not None:
            if pending[4] is not None:
                return pending[4]
            if pending[5] is not None:
                return decode_request(pending[5])
        request = self._new_requests.get(row_id)
        if request is not None:
            return request
        db = self._require_db()
        seq = self._logged_request.get(row_id)
        if seq is not None:
            row = db.execute("SELECT request FROM request_log WHERE seq = ?", (seq,)).fetchone()
        else:
            row = db.execute("SELECT request FROM urls WHERE id = ?", (row_id,)).fetchone()
        return decode_request(row[0]) if row and row[0] is not None else {}

    def _record(self, row_id: int, priority: float, request: dict[str, Any] | None) -> None:
        """Remember a new priority (and request) of a queued row for the next flush."""
        pending = self._new.get(row_id)
        if pending is not None:
            pending[1] = priority
            pending[3] = QUEUED
            if request is not None:
                pending[4] = request
                pending[5] = None
            return
        self._new_priorities[row_id] = priority
        if request is not None:
            self._new_requests[row_id] = request

    # -- the in-memory order ------------------------------------------------
    def _enqueue(self, entry: tuple[Any, ...]) -> None:
        slot = entry[3]
        heap = self._slot_heaps.get(slot)
        if heap is None:
            heap = self._slot_heaps[slot] = []
        heapq.heappush(heap, entry)
        if heap[0] is entry:
            key = (entry[0], entry[1])
            self._slot_top[slot] = key
            heapq.heappush(self._best, (entry[0], entry[1], slot))

    def _settle(self, slot: str, heap: list[tuple[Any, ...]]) -> None:
        """Drop stale entries off the top of a slot's heap and register its best live entry."""
        entries = self._entries
        while heap and entries.get(heap[0][2]) is not heap[0]:
            heapq.heappop(heap)
        if not heap:
            del self._slot_heaps[slot]
            self._slot_top.pop(slot, None)
            return
        top = heap[0]
        key = (top[0], top[1])
        if self._slot_top.get(slot) != key:
            self._slot_top[slot] = key
            heapq.heappush(self._best, (top[0], top[1], slot))

    def _rebuild_best(self) -> None:
        self._slot_top = {slot: (h[0][0], h[0][1]) for slot, h in self._slot_heaps.items()}
        self._best = [(key[0], key[1], slot) for slot, key in self._slot_top.items()]
        heapq.heapify(self._best)
        self._parked = {}

    def _rebuild(self) -> None:
        """All heaps anew from the live entries (after a bulk re-scoring, or when stale entries pile up)."""
        heaps: dict[str, list[tuple[Any, ...]]] = {}
        for value in self._entries.values():
            if type(value) is tuple:
                heap = heaps.get(value[3])
                if heap is None:
                    heaps[value[3]] = [value]
                else:
                    heap.append(value)
        for heap in heaps.values():
            heapq.heapify(heap)
        self._slot_heaps = heaps
        self._stale = 0
        self._heaps_invalid = False
        self._rebuild_best()

    def _replace(self, old: tuple[Any, ...], priority: float) -> None:
        entry = (-priority, old[1], old[2], old[3], old[4])
        self._entries[old[2]] = entry
        self._enqueue(entry)
        self._stale += 1
        if self._stale > self._queued + 100_000:
            self._rebuild()

    # -- queue ------------------------------------------------------------
    def pushable(self, fingerprint: str, priority: float) -> bool:
        """Would :meth:`push` at this priority queue or raise it?  (No I/O: callers drop links early.)"""
        known = self._entries.get(fingerprint)
        if known is None:
            return True
        return type(known) is tuple and priority > -known[0]

    def push(self, entry: FrontierEntry) -> str:
        self._require_db()
        fingerprint = entry.fingerprint
        known = self._entries.get(fingerprint)
        if known is None:
            slot = self._slot_name(entry.slot)
            row_id = self._next_id
            self._next_id += 1
            queued = (-entry.priority, self._tiebreak(fingerprint), fingerprint, slot, row_id)
            self._entries[fingerprint] = queued
            self._enqueue(queued)
            self._new[row_id] = [fingerprint, entry.priority, slot, QUEUED, entry.request, entry.encoded]
            self._queued += 1
            return PushResult.NEW
        if type(known) is not tuple or entry.priority <= -known[0]:
            return PushResult.REJECTED
        self._replace(known, entry.priority)
        self._record(known[4], entry.priority, entry.request)
        return PushResult.RAISED

    def pop(self, busy_slots: Collection[str] = ()) -> FrontierEntry | None:
        self._require_db()
        if self._heaps_invalid:
            self._rebuild()
        best = self._best
        entries = self._entries
        slot_top = self._slot_top
        parked = self._parked
        if parked:
            # A busy slot's registration waits aside until a pop finds the slot free again (a pop then
            # costs O(log slots) however many busy slots are better than the best free one).
            for slot in [s for s in parked if s not in busy_slots] if busy_slots else list(parked):
                heapq.heappush(best, parked.pop(slot))
        found = None
        while best:
            negative, tiebreak, slot = best[0]
            if slot_top.get(slot) != (negative, tiebreak):
                heapq.heappop(best)  # superseded by a later registration of the slot
                continue
            heap = self._slot_heaps[slot]
            top = heap[0]
            if entries.get(top[2]) is not top or top[0] != negative or top[1] != tiebreak:
                # the slot's registered best went stale (done, re-scored): register the live one
                heapq.heappop(best)
                del slot_top[slot]
                self._settle(slot, heap)
                continue
            if slot in busy_slots:
                parked[slot] = heapq.heappop(best)
                continue
            heapq.heappop(best)
            del slot_top[slot]
            heapq.heappop(heap)
            self._settle(slot, heap)
            found = top
            break
        if found is None:
            return None
        fingerprint = found[2]
        if self._all_priorities_dirty and found[4] not in self._new:
            self._new_priorities[found[4]] = -found[0]  # re-scored in bulk: the flush writes only queued ones
        entries[fingerprint] = -found[4]
        self._leased[found[4]] = -found[0]
        self._queued -= 1
        return FrontierEntry(fingerprint, -found[0], found[3], self._load(found[4]))

    def done(self, fingerprint: str) -> None:
        # The request is no longer needed: a done row is just a seen fingerprint.
        self._require_db()
        known = self._entries.get(fingerprint)
        if known is None:
            row_id = self._next_id
            self._next_id += 1
            self._new[row_id] = [fingerprint, 0.0, "", DONE, None, None]
            self._entries[fingerprint] = _DONE_MARK
            return
        if known == _DONE_MARK:
            return
        if isinstance(known, tuple):
            self._queued -= 1
            self._stale += 1
            row_id = known[4]
        else:
            row_id = -known
            self._leased.pop(row_id, None)
        self._entries[fingerprint] = _DONE_MARK
        self._logged_request.pop(row_id, None)
        pending = self._new.get(row_id)
        if pending is not None:
            pending[3] = DONE
            pending[4] = pending[5] = None
        else:
            self._new_priorities.pop(row_id, None)
            self._new_requests.pop(row_id, None)
            self._dones.append(row_id)

    def quarantine(self, entry: FrontierEntry, reason: str) -> None:
        # Done, so never handed out again; the entry itself is kept for a human to look at.
        self.done(entry.fingerprint)
        self._require_db().execute(
            "INSERT OR REPLACE INTO malformed(fp, reason, request, at) VALUES(?, ?, ?, ?)",
            (entry.fingerprint, reason, encode_request(entry.request), time.time()),
        )

    def release(self, entry: FrontierEntry) -> bool:
        self._require_db()
        fingerprint = entry.fingerprint
        known = self._entries.get(fingerprint)
        if type(known) is not int or known >= 0:
            return False
        row_id = -known
        self._leased.pop(row_id, None)
        queued = (-entry.priority, self._tiebreak(fingerprint), fingerprint, self._slot_name(entry.slot), row_id)
        self._entries[fingerprint] = queued
        self._enqueue(queued)
        self._queued += 1
        self._record(row_id, entry.priority, entry.request)
        return True

    def seen(self, fingerprint: str) -> bool:
        """True once a fingerprint was leased or fetched (it will not be queued again)."""
        known = self._entries.get(fingerprint)
        return known is not None and type(known) is not tuple

    def __len__(self) -> int:
        return self._queued

    # -- re-scoring -------------------------------------------------------
    def queued_sample(self, limit: int, after: str = "") -> list[FrontierEntry]:
        """Up to ``limit`` queued entries after ``after`` in the order they were first queued."""
        self.flush()  # the scan reads the file: write what is pending first
        db = self._require_db()
        known = self._entries.get(after) if after else None
        cursor = known[4] if type(known) is tuple else (-known if isinstance(known, int) and known < 0 else 0)
        logged = self._logged_request
        out: list[FrontierEntry] = []
        while len(out) < limit:
            rows = db.execute(
                "SELECT id, fp, slot, request FROM urls WHERE state = 0 AND id > ? ORDER BY id LIMIT ?",
                (cursor, limit),
            ).fetchall()
            if not rows:
                break
            for row_id, fp, slot, request in rows:
                known = self._entries.get(fp)
                if type(known) is tuple and len(out) < limit:  # queued, not leased
                    if row_id in logged:  # changed since it was first queued: the newest one
                        request = db.execute("SELECT request FROM request_log WHERE seq = ?",
                                             (logged[row_id],)).fetchone()[0]
                    out.append(FrontierEntry(fp, -known[0], slot, decode_request(request)))
            cursor = rows[-1][0]
        return out

    def queued_priorities(self) -> tuple[list[str], list[float]]:
        """The fingerprints and priorities of *all* queued entries, from memory (no I/O, no JSON).

        For whole-queue re-scoring: a caller that keeps what it needs per fingerprint (the
        ``online`` link model keeps each queued link's hashed ids) scores them all and writes the
        new priorities back with one bulk :meth:`update_priorities` (requests None).  Order is
        unspecified; leased and fetched fingerprints are left out.
        """
        fingerprints: list[str] = []
        priorities: list[float] = []
        add_fp, add_priority = fingerprints.append, priorities.append
        for value in self._entries.values():
            if type(value) is tuple:
                add_fp(value[2])
                add_priority(-value[0])
        return fingerprints, priorities

    def update_priorities(self, updates: Iterable[tuple[str, float, dict[str, Any] | None]]) -> int:
        """New priorities (up or down) of queued entries; a request of None keeps the stored one."""
        self._require_db()
        updates = updates if isinstance(updates, list) else list(updates)
        entries = self._entries
        record = self._record
        changed = 0
        if len(updates) * 32 < self._queued:
            for fingerprint, priority, request in updates:
                known = entries.get(fingerprint)
                if type(known) is tuple and -known[0] != priority:
                    self._replace(known, priority)
                    record(known[4], priority, request)
                    changed += 1
            return changed
        pending = self._new
        # Many at once (re-scoring the whole queue in a few calls): replace the entries, rebuild the
        # heaps once before the next pop, and write every queued priority at the next flush.  The
        # heaps are dropped first, so the replaced entries are freed as they go (no second copy).
        if not self._heaps_invalid:
            self._slot_heaps = {}
            self._best = []
            self._slot_top = {}
            self._parked = {}
            self._heaps_invalid = True
        for fingerprint, priority, request in updates:
            known = entries.get(fingerprint)
            if type(known) is tuple and -known[0] != priority:
                entries[fingerprint] = (-priority, known[1], known[2], known[3], known[4])  # the stored key string
                if request is not None or (pending and known[4] in pending):  # unwritten rows take it along
                    record(known[4], priority, request)
                changed += 1
        if changed:
            self._all_priorities_dirty = True
        return changed

    # -- counters ---------------------------------------------------------
    def increment(self, counter: str, amount: float = 1) -> None:
        self._pending_counters[counter] = self._pending_counters.get(counter, 0) + amount

    def counters(self) -> dict[str, float]:
        stored = dict(self._require_db().execute("SELECT name, value FROM counters").fetchall())
        for name, value in self._pending_counters.items():
            stored[name] = stored.get(name, 0) + value
        return stored
