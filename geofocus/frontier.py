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
import operator
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
import weakref
import zlib
from array import array
from bisect import insort
from collections.abc import Collection, Iterable
from itertools import repeat
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import orjson

logger = logging.getLogger(__name__)

_orjson_loads = orjson.loads

QUEUED, LEASED, DONE = 0, 1, 2  # states of a row (LEASED only in files of earlier versions)


class FrontierEntry:
    """One queued URL: its fingerprint, priority, download slot and serialised request.

    ``encoded`` may carry the request already encoded as compact JSON (what
    :func:`encode_request_bytes` gives): a backend that stores JSON stores it as
    is instead of encoding ``request`` a second time.  Left out of comparisons.

    An entry a backend hands out may carry its request still encoded (the stored
    JSON text): ``request`` decodes it at its first reading (a malformed one reads
    as the ``MALFORMED_KEY`` dict of :func:`decode_request`), so a pop does not pay
    for a decoding nobody asks for.  Such an entry's ``encoded`` is None: a request
    changed after the pop is encoded anew if the entry is pushed again.
    """

    __slots__ = ("fingerprint", "priority", "slot", "_request", "_raw", "encoded")

    def __init__(self, fingerprint: str, priority: float, slot: str, request: dict[str, Any] | None,
                 encoded: bytes | None = None):
        self.fingerprint = fingerprint
        self.priority = priority
        self.slot = slot
        self._request = request
        self._raw: bytes | None = None
        self.encoded = encoded

    @classmethod
    def stored(cls, fingerprint: str, priority: float, slot: str, raw: bytes | None) -> FrontierEntry:
        """An entry whose request is the stored JSON ``raw``, decoded when first read (None: ``{}``)."""
        entry = cls(fingerprint, priority, slot, None if raw else {})
        entry._raw = raw
        return entry

    @property
    def request(self) -> dict[str, Any]:
        request = self._request
        if request is None:
            raw = self._raw
            if raw is None:
                request = {}
            else:
                # ``decode_request`` inlined for the usual case (a JSON object orjson reads); it handles the rest
                try:
                    request = _orjson_loads(raw)
                except orjson.JSONDecodeError:
                    request = decode_request(raw)
                else:
                    if request.__class__ is not dict:
                        request = decode_request(raw)
            self._request = request
            self._raw = None
        return request

    @request.setter
    def request(self, value: dict[str, Any]) -> None:
        self._request = value
        self._raw = None

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, FrontierEntry)
        return (self.fingerprint, self.priority, self.slot, self.request) == (
            other.fingerprint, other.priority, other.slot, other.request)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it replaces

    def __repr__(self) -> str:
        return (f"FrontierEntry(fingerprint={self.fingerprint!r}, priority={self.priority!r}, "
                f"slot={self.slot!r}, request={self.request!r})")


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
        # without ``OPT_NON_STR_KEYS`` first: that option costs orjson about 40 % more on every dict
        return orjson.dumps(request)
    except TypeError:  # (orjson.JSONEncodeError is one) a key that is not a string, an int beyond 64 bits
        pass
    try:
        return orjson.dumps(request, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # e.g. an int beyond 64 bits: the slow path
        return encode_request(request).encode()


#: The file layout (version 2).  Rows are written in batches: every flush appends one record for the
#: URLs first seen since the previous one (row ids ``first_id`` .. ``first_id + count - 1``), as packed
#: little-endian arrays and concatenated text, in two tables: ``batches`` (the small arrays a
#: compaction rewrites: priorities float64, states uint8) and ``batch_requests`` (written once:
#: the fingerprints concatenated with their lengths in characters, int32; slot ids, int32, names in
#: ``slots``; the requests, each compact JSON text, concatenated with their lengths in bytes, int32).
#:
#: Layout version 3 keeps the requests out of SQLite: a record whose ``request_offsets`` is set (int64, one per
#: row) has its requests in the *payload file* ``<path>-requests-<n>`` (``n`` is ``meta.requests_file``), the
#: row's request at its offset with its length, and an empty ``requests``; ``request_sum`` is the Adler-32 of
#: its requests (the rows with a length, in row order), checked at open for a record with bytes beyond
#: ``meta.synced_end`` (the payload file is fsync'ed up to there: at close and when it is rewritten), so
#: requests that a power loss kept from the disk are found and set aside, not read as garbage.  The payload
#: file is append-only between rewrites; a rewrite (when most of it is fetched rows' requests) writes
#: ``n + 1`` (the live requests, fsync'ed, in a thread; then what was appended meanwhile), points every record
#: at it in one transaction (a record with requests beyond the fsync'ed part with their sum), then deletes
#: ``n``.  A record without offsets (written by version 2) keeps its requests in ``requests``; the first open by
#: version 3 appends them to the payload file, fsyncs it and points the record at them (one transaction).
#: Plain data only: nothing in the file is loaded as code.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS batches (first_id INTEGER PRIMARY KEY, count INTEGER NOT NULL,
    priorities BLOB NOT NULL, states BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS batch_requests (first_id INTEGER PRIMARY KEY, fingerprints TEXT NOT NULL,
    fingerprint_lengths BLOB NOT NULL, slots BLOB NOT NULL, request_lengths BLOB NOT NULL, requests BLOB NOT NULL,
    request_offsets BLOB, request_sum INTEGER);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS slots (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value REAL NOT NULL);
CREATE TABLE IF NOT EXISTS malformed (fp TEXT PRIMARY KEY, reason TEXT NOT NULL, request TEXT, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, ids BLOB NOT NULL, priorities BLOB);
CREATE TABLE IF NOT EXISTS request_log (seq INTEGER PRIMARY KEY, id INTEGER NOT NULL, request BLOB NOT NULL);
"""

#: The payload file of a frontier file: its name plus this and the generation.
_PAYLOAD_SUFFIX = "-requests-"

#: Array types of the file (little-endian whatever the machine).
_F8, _I4, _I8, _U1 = np.dtype("<f8"), np.dtype("<i4"), np.dtype("<i8"), np.dtype("<u1")

#: State of a row id that no URL has (only in files migrated from a layout with gaps in the ids).
_ABSENT = 3

#: Kinds of a journal record: row ids that were fetched, or row ids with their new priorities.
_J_DONE, _J_PRIORITY = 2, 0

#: Layout version 1 (one ``urls`` row per URL; its journal and request log refer to ``urls.id``):
#: read at open and rewritten as batch records in one transaction.
_V1_TABLE = "urls"

#: Layout version 0 (fp-keyed table plus a payload table): first converted to version 1.
_OLD_LAYOUT_MIGRATION = """
CREATE TABLE IF NOT EXISTS urls (id INTEGER PRIMARY KEY, fp TEXT NOT NULL, priority REAL NOT NULL,
    slot TEXT NOT NULL, state INTEGER NOT NULL, request BLOB);
INSERT INTO urls(fp, priority, slot, state, request)
    SELECT f.fp, f.priority, f.slot, CASE f.state WHEN 1 THEN 0 ELSE f.state END, p.request
    FROM frontier f LEFT JOIN payloads p ON p.id = f.payload;
DROP TABLE frontier;
DROP TABLE payloads;
"""

#: Rows per batch record when a whole queue is written at once (a migration).
_BATCH_ROWS = 65_536

#: Row ids per journal record when a whole queue's priorities are written (1.6 MB a record).
_JOURNAL_CHUNK = 100_000


#: Where a queued row is in the order: in its slot's hot heap, in its slot's cold array, neither.
_NOWHERE, _HOT, _COLD = 0, 1, 2
#: Slot thresholds: every key is below the first (all hot), none below the second (all cold).
_INF_KEY = 1 << 200
_MINUS_KEY = -1
#: Keys: a priority's IEEE bits (as uint64) turned into a number that grows as the priority falls.
_SIGN, _LOW63, _M32 = 1 << 63, (1 << 63) - 1, (1 << 32) - 1
#: Every row's tiebreak has its top bit set (31 random bits below it), so a row's key has bit 63 set and a
#: slot's pending registration (``K << 64 | slot id``, tiebreak 0) sorts ahead of every row of the slot.
_TIE_HIGH = 1 << 31
_KEY_FLAG = 1 << 63
_heappush, _heappop, _heapreplace = heapq.heappush, heapq.heappop, heapq.heapreplace
_new_entry = object.__new__


#: A row's wide fields in memory (``SqliteFrontier._rows``): priority, where its request is in the payload file (offset,
#: length), tiebreak, slot id, and the length of its request in its batch record.
_ROW = np.dtype([("prio", "<f8"), ("poff", "<i8"), ("tie", "<u4"), ("slot", "<i4"), ("plen", "<i4"), ("disk", "<i4")])

_first, _second, _third = operator.itemgetter(0), operator.itemgetter(1), operator.itemgetter(2)

_orjson_dumps = orjson.dumps
#: Popped rows remembered for ``done`` (a crawl has a few dozen in flight).
_LEASED_MAX = 4096


def _index_dict() -> dict[str, int]:
    """An empty dict for fingerprint -> row id whose table stores each key's hash.

    A dict that has only ever held ``str`` keys keeps a compact table without the hashes, so every slot a
    lookup probes costs a read of that slot's key string to compare hashes: at a million fingerprints, one
    or two cache misses per lookup of a new fingerprint (every push of a new URL).  One non-string key,
    inserted and deleted at once, makes it the general table (8 bytes more per entry) for good: a probe
    compares the stored hash and reads a key only when the hashes are equal."""
    index: dict[Any, int] = {None: 0}
    del index[None]
    return index


def _unique(values: np.ndarray) -> np.ndarray:
    """The sorted distinct values (np.unique hashes in numpy 2.x: much slower on a million ids)."""
    values = np.sort(values)
    return values[np.r_[True, values[1:] != values[:-1]]] if len(values) else values


def _extend_sorted(items: list[int], keys: list[int]) -> None:
    """Append sorted ``keys`` to the sorted list ``items`` (a refill's keys are all worse than what a hot list
    holds; sorted anew should that not hold)."""
    items.extend(keys)
    if len(items) > len(keys) and keys and items[-len(keys) - 1] > keys[0]:
        items.sort()


def _int64_bytes(values: array) -> bytes:
    """An ``array("q")`` as little-endian int64."""
    if sys.byteorder == "big":
        values = array("q", values)
        values.byteswap()
    return values.tobytes()


def _view(arr: Any) -> Any:
    """A memoryview of a numpy array: element access as Python numbers, no numpy scalars."""
    return memoryview(arr)


class _PayloadRewrite:
    """A rewrite of the payload file in flight: the live rows as of ``snap_end`` (the old file's length then),
    sorted by their old offsets, their offsets in the new file (``live_end`` bytes in all), and the copying
    thread's error, if any."""

    def __init__(self, rows: np.ndarray, old_offsets: np.ndarray, lengths: np.ndarray, new_offsets: np.ndarray,
                 snap_end: int, live_end: int, file: Any):
        self.rows, self.old_offsets, self.lengths, self.new_offsets = rows, old_offsets, lengths, new_offsets
        self.snap_end, self.live_end, self.file = snap_end, live_end, file
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None


def _copy_runs(src_fd: int, dst: Any, starts: Any, stops: Any, window: int = 1 << 24) -> None:
    """Append the bytes ``starts[k]:stops[k]`` of file ``src_fd``, for each k in order, to the file object ``dst``
    (reads of up to ``window`` bytes, each spanning as many runs as fit)."""
    dst.seek(0, os.SEEK_END)
    out = bytearray()
    i, n = 0, len(starts)
    while i < n:
        start = starts[i]
        j = i
        while j < n and stops[j] - start <= window:
            j += 1
        if j == i:  # one run longer than the window: in pieces
            j, pieces = i + 1, range(start, stops[i], window)
            bounds = [(pos, min(pos + window, stops[i])) for pos in pieces]
        else:
            bounds = [(start, stops[j - 1])]
        for lo, hi in bounds:
            block = os.pread(src_fd, hi - lo, lo)
            if len(block) != hi - lo:
                raise OSError(f"payload file: a short read at {lo} ({len(block)} of {hi - lo} bytes)")
            if len(bounds) > 1:
                out += block
            else:
                with memoryview(block) as view:
                    for k in range(i, j):
                        out += view[starts[k] - lo:stops[k] - lo]
            if len(out) >= window:
                dst.write(out)
                out = bytearray()
        i = j
    dst.write(out)


def _rewrite_payloads(rewrite: _PayloadRewrite, src_fd: int, offsets: np.ndarray, lengths: np.ndarray,
                      durable: bool) -> None:
    """(the rewrite's thread) Copy the requests at ``offsets``/``lengths`` of ``src_fd`` one after the other into
    the new payload file and, for a named one, fsync it.  Only reads the old file below the snapshot's end,
    which the frontier's thread does not write; an error is kept for :meth:`SqliteFrontier._finish_rewrite`."""
    try:
        if len(offsets):
            breaks = np.flatnonzero(offsets[1:] != offsets[:-1] + lengths[:-1]) + 1
            firsts, lasts = np.r_[0, breaks], np.r_[breaks, len(offsets)] - 1
            _copy_runs(src_fd, rewrite.file, offsets[firsts].tolist(), (offsets[lasts] + lengths[lasts]).tolist())
        rewrite.file.flush()
        if durable:
            os.fsync(rewrite.file.fileno())
    except BaseException as exc:  # noqa: BLE001 (raised in the frontier's thread)
        rewrite.error = exc


class _Checkpointer:
    """Checkpoints a frontier file's WAL every ``interval`` seconds from a thread and a connection of its own
    (``PASSIVE``: it never blocks the crawl's connection, whose automatic checkpoints are off).  A checkpoint
    copies the WAL into the database file with two fsyncs; run by the commit that fills the WAL, it held the
    crawl's thread for 50-250 ms.  Durability is the WAL's either way: a committed flush survives a kill -9
    whether or not it was checkpointed."""

    def __init__(self, path: str, interval: float, owner: weakref.ref[Any]):
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(path, interval, owner), name="frontier-checkpoint",
                                        daemon=True)
        self._thread.start()

    def _run(self, path: str, interval: float, owner: weakref.ref[Any]) -> None:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA synchronous=NORMAL")
            while not self._stop.wait(interval) and owner() is not None:  # (a frontier dropped unclosed: stop)
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # e.g. the disk full: the WAL grows until a later one succeeds
                    logger.warning("Frontier %s: a WAL checkpoint failed: %s", path, exc)
        finally:
            db.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


class SqliteFrontier:
    """The embedded frontier: the order in memory, the durable state in one SQLite file.

    Memory holds one row per known fingerprint (a dict from fingerprint to row id, and per-row
    numpy arrays: priority, tiebreak, slot id, state, and where the row's request lies in the
    payload cache), not a Python object per URL.  The order is, per download slot (host), a small
    *hot* list of its best queued rows, sorted (a pop takes the first: no sift; a push into it is a
    binary search), and an unsorted *cold* array of the rest (every hot row of a
    slot is better than every cold one of it; the slot's threshold says where they part), plus a heap
    of the slots' best hot rows, with lazy deletion (a superseded registration is dropped when it comes up, or
    all of them at once when they outnumber the slots).  A hot row's live item is in a list indexed by row id
    (None for the other rows); the slots' hot lists and registrations are in lists indexed by slot id: no
    dict look-ups by integer on a pop.  An item is one Python int that sorts like
    (-priority, tiebreak, row) (a slot's registration is its best row's item itself), so a comparison
    reads one object.  A push worse than its slot's threshold is an
    append to the cold array; a slot whose hot heap runs empty takes its next best rows from the
    cold array (about a quarter of them, by one numpy sort or partition; all of them when they are
    few); a hot heap that grows beyond ``hot_max`` keeps its ``hot_keep`` best and sends the rest
    back.  Re-scoring in bulk writes the priority array in one vectorised assignment and leaves the
    order to be rebuilt at the next pop: every slot is registered at its best priority and refilled
    only when that registration comes up.  About 210 bytes of memory per known URL (its fingerprint
    string and dict entry most of it; 8 its place in the list of hot items), about 60 bytes more per hot row.
    A pop is O(log) in the hot rows and passes over busy slots exactly (the best entry of a host
    that is not busy, however deep; a busy slot waits aside until a pop finds it free).  Ties in
    priority are broken by a hash of the fingerprint mixed with a per-run random (or ``seed``-given)
    mask, so equal priorities are not served in discovery order.

    Requests are encoded once (a ``FrontierEntry.encoded`` given by the caller is stored as is) and
    kept out of memory and out of SQLite: in the *payload file* next to the SQLite file
    (``<path>-requests-<n>``), append-only, rewritten with the live requests only when most of it is
    fetched rows' requests; a pop reads its request with one ``pread`` (1.5 against 7 us for a database
    query at a million queued).  The file costs disk, not memory: about the size of the requests not
    yet fetched, up to twice that; the rewrite's copy and fsync run in a thread of their own (the crawl's
    thread goes on with the old file meanwhile) and are committed by a later :meth:`flush`.  A popped entry
    carries its request as the stored JSON text, decoded at the first reading of ``entry.request``.  A new
    SQLite file gets 16 KiB pages.

    Durability: the files (layout version 3, see ``_SCHEMA``) are written append-only between
    compactions.  Each :meth:`flush` writes the new requests to the payload file, then appends one
    *batch record* for the URLs first seen since the previous flush (their fingerprints, slots,
    priorities, states, and where their requests are in the payload file, as packed arrays: a few
    blobs, not a row per URL); every later change is appended, never updated in place: fetched row ids
    and new priorities as packed arrays in ``journal`` (one record per kind and flush), a changed
    request (a better parent, a retry) as a row of ``request_log``.  All changes since the last
    :meth:`flush` are kept in memory and written in one transaction by :meth:`flush` (the scheduler
    flushes every few pages and on a timer): a kill -9 loses at most that much, which the crawl redoes
    (WAL, ``synchronous=NORMAL``: a committed flush survives the process being killed; the WAL is
    checkpointed by a thread of the frontier, :class:`_Checkpointer`, not by the commits).  An OS crash
    or power loss may lose the last flushes, never corrupt the file: the payload file is fsync'ed at
    :meth:`close` and when it is rewritten, and a record written since is checked against the Adler-32
    of its requests at :meth:`open` (queued URLs whose requests the disk lost are handed out as
    malformed entries, which the scheduler sets aside).  :meth:`open` loads the batch records and
    replays the journal and the request log over them; :meth:`close`, and a flush once the journal
    and the request log hold more than ``compact_after`` entries (default twice the rows, at least one
    million), compact them in one transaction: every record's priorities and states are rewritten (9
    bytes a row), a record whose stored requests are mostly of fetched rows is rewritten with the live
    ones only, the request log keeps only the newest request of each other live row, and the journal
    is emptied.  A pop writes nothing: an entry leased but not done at a stop is queued again at the
    next :meth:`open`.  A file of layout 2 (the requests inside the records) has them moved to the payload file at
    its first :meth:`open`; one of
    layout 1 (one ``urls`` row per URL) is read at :meth:`open` and rewritten as batch records in one
    transaction (a kill during it leaves the old file as it was).
    """

    #: A slot's hot list is cut back to ``hot_keep`` rows once it holds more than ``hot_max``.
    hot_max = 256
    hot_keep = 64
    #: A slot takes at least ``refill_min`` (all, below twice that) and at most ``refill_max`` rows from
    #: its cold array at a time, about a quarter of it in between.
    refill_min = 32
    refill_max = 1024
    #: The hot heaps are rebuilt from their live items once they hold this many stale items more than live ones.
    stale_slack = 100_000
    #: The heap of slots is rid of superseded registrations once it holds more than twice the slots plus this.
    best_slack = 1024
    #: The payload file is rewritten (live requests only) once it holds this many bytes of garbage and
    #: more garbage than live requests.
    cache_compact_min = 1 << 28
    #: Page size of a new SQLite file.
    page_size = 16384
    #: Seconds between the checkpoints of the WAL that a thread of the frontier runs (0: SQLite's automatic
    #: checkpoints, in the crawl's thread, at the commit that fills the WAL past 1,000 pages).
    checkpoint_interval = 1.0

    # Every attribute of an instance in a slot (a fixed place in the object: the crawl's hot paths read a few dozen
    # a URL; with more than 30 of them in its ``__dict__`` each read was a look-up in a dict of its own);
    # ``__dict__`` kept for the tunables above, which a caller may set per instance.
    __slots__ = ("_batch_count", "_batch_first", "_batch_v3", "_best", "_bulk_priorities", "_cache_end", "_cache_fd",
        "_cache_file", "_cache_tail", "_capacity", "_checkpointer", "_cold", "_db", "_dirty_priorities",
        "_dirty_requests", "_disk_np", "_dones", "_fps", "_garbage", "_has_absent", "_heaps", "_hot", "_incl",
        "_incl_np", "_index", "_journal_ids", "_leased", "_listed", "_logged_request", "_logged_total",
        "_meta_dirty", "_names", "_next_id", "_next_seq", "_order_invalid", "_parked", "_payload_gen", "_pbits",
        "_pbits_np", "_pending_counters", "_plen", "_plen_np", "_poff", "_poff_np", "_prio", "_prio_np", "_queued",
        "_rewrite", "_rows", "_slot", "_slot_ids", "_slot_moved", "_slot_np", "_slot_top", "_slots_written",
        "_stale", "_stale_limit", "_state", "_state_np", "_synced_end", "_thr", "_tie", "_tie_mask", "_tie_np",
        "_where", "_where_np", "_written", "cache_mb", "compact_after", "lookahead", "path", "__dict__",
        "__weakref__")

    def __init__(
        self, path: str | Path, cache_mb: int = 8, lookahead: int = 64, seed: int | None = None,
        compact_after: int | None = None,
    ):
        self.path = str(path)
        # Kept for compatibility: busy hosts are passed over exactly, without a lookahead limit.
        self.lookahead = lookahead
        self.cache_mb = cache_mb
        self.compact_after = compact_after
        self._tie_mask = random.Random(seed).getrandbits(32)
        self._db: sqlite3.Connection | None = None
        self._cache_file: Any = None
        self._cache_fd = -1
        # The payload file: its generation (None: an unlinked temporary file, for ":memory:"), the length
        # known to be on disk (fsync'ed), and whether ``meta`` must be written with the next transaction.
        self._payload_gen: int | None = None
        self._synced_end = 0
        self._meta_dirty = False
        self._pending_counters: dict[str, float] = {}
        self._rewrite: _PayloadRewrite | None = None  # a rewrite of the payload file in flight
        self._checkpointer: _Checkpointer | None = None
        self._reset_memory()

    # -- memory -------------------------------------------------------------
    def _reset_memory(self, capacity: int = 1024) -> None:
        self._index: dict[str, int] = _index_dict()  # fingerprint -> row id (row ids start at 1)
        self._fps: list[str | None] = [None]  # row id -> fingerprint
        # fingerprint -> row id of the rows popped and not yet done (a shortcut for ``done``: a small dict stays in the
        # CPU cache, the index of a million does not; emptied when it grows beyond ``_LEASED_MAX``)
        self._leased: dict[str, int] = {}
        # the last ``queued_priorities`` (rows, a copy of the fingerprints) or ``queued_priority_array`` (rows, None)
        self._listed: tuple[np.ndarray, list[str] | None] | None = None
        self._capacity = 0
        self._grow(capacity)
        self._slot_ids: dict[str, int] = {}
        self._names: list[str] = []  # slot id -> slot name
        self._cold: list[array] = []  # slot id -> row ids of its cold rows (and stale ones)
        self._thr: list[int] = []  # slot id -> the key parting its hot rows from its cold ones
        # (``_hot``, row id -> its live heap item or None, is a list made by ``_grow``: indexed by row, not a dict)
        self._heaps: list[list[int]] = []  # slot id -> its hot rows' keys, sorted (and stale ones)
        self._slot_top: list[int | None] = []  # slot id -> its live registration in ``_best``, or None
        self._best: list[int] = []  # heap of the slots' registrations
        self._parked: dict[str, int] = {}  # slot name -> its registration, found busy at a pop
        self._stale = 0  # stale items in the hot heaps (at least; some are dropped uncounted)
        # the hot heaps are rebuilt when ``_stale`` passes the live items + ``stale_slack``: checked (the live items
        # counted) each time ``_stale`` passes this limit, which the check then moves there
        self._stale_limit = 0
        self._slot_moved = False  # a release moved a row to another slot: cold arrays may repeat a row
        self._order_invalid = False  # priorities were changed in bulk: rebuild the order before the next pop
        self._queued = 0
        self._next_id = 1
        self._written = 1  # rows below this id are in the file; the flush inserts the others
        # Changes of written rows not yet flushed.
        self._dirty_priorities: set[int] = set()
        self._bulk_priorities: list[np.ndarray] = []
        self._dirty_requests: set[int] = set()
        self._dones = array("q")  # row ids fetched since the last flush
        self._logged_request: dict[int, int] = {}  # row id -> seq of its newest request in request_log
        self._journal_ids = 0  # row ids in journal records (what a compaction removes)
        self._next_seq = 1
        # The payload cache: bytes up to ``_cache_end`` are in the file, the rest in ``_cache_tail``.
        self._cache_end = 0
        self._cache_tail = bytearray()
        self._garbage = 0  # bytes of the cache no queued or leased row refers to
        # The batch records in the file: first row id and row count of each, in row id order.
        self._batch_first: list[int] = []
        self._batch_count: list[int] = []
        self._batch_v3: list[bool] = []  # the record keeps its requests in the payload file
        self._slots_written = 0  # slot names in the file's ``slots`` table
        self._has_absent = False  # row ids without a URL (a migrated file with gaps)
        self._logged_total = 0  # rows of the request log in the file (newest or superseded)

    def _grow(self, need: int) -> None:
        capacity = max(self._capacity, 1024)
        while capacity <= need:
            capacity += capacity // 2
        if capacity == self._capacity:
            return
        old = self._capacity

        # One record of 32 bytes per row (``_ROW``) for the wide per-row fields, side by side: a pop or a done reads
        # and writes several fields of one random row, which are then one cache line instead of one line per array
        # (at 1,000,000 rows each array is 4-12 MB).  The one-byte fields stay arrays of their own (1 MB a million:
        # they stay in the cache, and numpy scans and resets them whole, which a stride of 32 bytes would slow).
        rows = np.zeros(capacity, dtype=_ROW)
        if old:
            rows[:old] = self._rows[:old]
        self._rows: np.ndarray = rows
        self._prio_np = rows["prio"]
        self._tie_np = rows["tie"]
        self._slot_np = rows["slot"]
        self._poff_np = rows["poff"]
        self._plen_np = rows["plen"]
        self._disk_np = rows["disk"]  # length of the row's request in its batch record

        def grown(name: str, fill: int) -> np.ndarray:
            arr = np.full(capacity, fill, dtype=np.uint8)
            if old:
                arr[:old] = getattr(self, name)[:old]
            return arr

        # row id -> the row's live heap item (its key) while it is hot, else None: a list indexed by row (a pop
        # reads it two or three times; a list item is one pointer read, a dict of 200,000 int keys several misses)
        if old:
            self._hot.extend([None] * (capacity - old))
        else:
            self._hot: list[int | None] = [None] * capacity
        self._state_np = grown("_state_np", DONE)
        self._where_np = grown("_where_np", _NOWHERE)
        self._incl_np = grown("_incl_np", 0)
        # Element access from Python through memoryviews (no numpy scalars on the hot path).
        self._prio: Any = _view(self._prio_np)
        self._pbits_np = self._prio_np.view(np.uint64)  # the priorities' IEEE bits (for the keys)
        self._pbits: Any = _view(self._pbits_np)
        self._tie: Any = _view(self._tie_np)
        self._slot: Any = _view(self._slot_np)
        self._state: Any = _view(self._state_np)
        self._where: Any = _view(self._where_np)
        self._incl: Any = _view(self._incl_np)
        self._poff: Any = _view(self._poff_np)
        self._plen: Any = _view(self._plen_np)
        self._capacity = capacity

    def _slot_id(self, slot: str) -> int:
        sid = self._slot_ids.get(slot)
        if sid is None:
            sid = self._slot_ids[slot] = len(self._names)
            self._names.append(slot)
            self._cold.append(array("q"))
            self._thr.append(_INF_KEY)
            self._heaps.append([])
            self._slot_top.append(None)
        return sid

    def _tiebreak(self, fingerprint: str) -> int:
        return (zlib.crc32(fingerprint.encode()) ^ self._tie_mask) | _TIE_HIGH

    def _new_row(self, fingerprint: str) -> int:
        row = self._next_id
        self._next_id = row + 1
        if row >= self._capacity:
            self._grow(row)
        self._index[fingerprint] = row
        self._fps.append(fingerprint)
        return row

    # -- the payload cache ----------------------------------------------------
    def _store(self, row: int, data: bytes) -> None:
        old = self._plen[row]
        if old:
            self._garbage += old
        tail = self._cache_tail
        self._poff[row] = self._cache_end + len(tail)
        self._plen[row] = len(data)
        tail += data

    def _payload(self, row: int) -> bytes | None:
        length = self._plen[row]
        if not length:
            return None
        offset = self._poff[row]
        end = self._cache_end
        if offset >= end:
            return bytes(self._cache_tail[offset - end:offset - end + length])
        return os.pread(self._cache_fd, length, offset)

    def _write_cache(self) -> None:
        if self._cache_tail:
            fd = self._cache_file.fileno()
            view = memoryview(self._cache_tail)
            offset, written = self._cache_end, 0
            while written < len(view):
                written += os.pwrite(fd, view[written:], offset + written)
            view.release()
            self._cache_end += len(self._cache_tail)
            self._cache_tail = bytearray()

    def _append_cache(self, data: bytes) -> None:
        """Write ``data`` at the end of the payload cache file (after what the tail held)."""
        self._write_cache()
        view = memoryview(data)
        offset, written = self._cache_end, 0
        while written < len(view):
            written += os.pwrite(self._cache_fd, view[written:], offset + written)
        view.release()
        self._cache_end += len(data)

    def _cache_dir(self) -> str | None:
        return None if self.path == ":memory:" else str(Path(self.path).parent)

    def _payload_path(self, generation: int) -> Path:
        return Path(f"{self.path}{_PAYLOAD_SUFFIX}{generation}")

    def _open_cache(self, db: sqlite3.Connection) -> None:
        """Open the payload file the file's ``meta`` names (a new one if no record refers to one yet), and
        delete any other generation (left by a rewrite killed before or after its commit)."""
        if self.path == ":memory:":
            self._cache_file = tempfile.TemporaryFile(prefix="frontier-payloads-")
            self._cache_fd = self._cache_file.fileno()
            self._payload_gen = None
            self._synced_end = 0
            return
        meta = dict(db.execute("SELECT name, value FROM meta"))
        fresh = "requests_file" not in meta
        generation = 0 if fresh else int(meta["requests_file"])
        path = self._payload_path(generation)
        directory, prefix = path.parent, Path(self.path).name + _PAYLOAD_SUFFIX
        for other in directory.iterdir():
            if other.name.startswith(prefix) and other.name[len(prefix):].isdigit() and other != path:
                other.unlink()
        if not fresh and not path.exists():
            raise ValueError(f"frontier file {self.path}: its payload file {path.name} is missing")
        self._cache_file = open(path, "w+b" if fresh else "r+b")  # noqa: SIM115 (kept open until close)
        self._cache_fd = self._cache_file.fileno()
        self._cache_end = os.fstat(self._cache_fd).st_size
        self._payload_gen = generation
        self._synced_end = 0 if fresh else int(meta.get("synced_end", 0))
        self._meta_dirty = fresh

    def _write_meta(self, db: sqlite3.Connection) -> None:
        """(in a transaction) Name the payload file in ``meta`` (with the first record that refers to it)."""
        if self._meta_dirty and self._payload_gen is not None:
            db.executemany("INSERT OR REPLACE INTO meta(name, value) VALUES(?, ?)",
                           [("requests_file", self._payload_gen), ("synced_end", self._synced_end)])
        self._meta_dirty = False

    def _payload_sum(self, offsets: np.ndarray, lengths: np.ndarray) -> int:
        """Adler-32 of the requests at these places of the payload cache, in this order (a short read, a
        request a power loss kept from the disk, gives another sum)."""
        offsets, lengths = offsets.astype(np.int64), lengths.astype(np.int64)
        # one read (or slice of the unwritten tail) per run of requests that lie one after the other
        breaks = np.flatnonzero(offsets[1:] != offsets[:-1] + lengths[:-1]) + 1
        firsts, lasts = np.r_[0, breaks], np.r_[breaks, len(offsets)] - 1
        value = 1
        for start, stop in zip(offsets[firsts].tolist(), (offsets[lasts] + lengths[lasts]).tolist(), strict=True):
            if stop > self._cache_end and start < self._cache_end:
                self._write_cache()  # a run across the end of the file: all of it in the file
            cache_end = self._cache_end
            if start >= cache_end:
                with memoryview(self._cache_tail) as view:
                    value = zlib.adler32(view[start - cache_end:stop - cache_end], value)
                continue
            while start < stop:
                size = min(stop - start, 1 << 24)
                value = zlib.adler32(os.pread(self._cache_fd, size, start), value)
                start += size
        return value

    def _record_requests(self, first: int, end: int) -> tuple[np.ndarray, bytes, int]:
        """Rows ``first`` .. ``end - 1``'s requests as a layout 3 record refers to them: (their lengths, 0 for
        a fetched row; their offsets in the payload file; the Adler-32 of them)."""
        state = self._state_np[first:end]
        lengths = np.where(state == DONE, 0, self._plen_np[first:end]).astype(_I4)
        offsets = np.where(lengths > 0, self._poff_np[first:end], 0).astype(_I8)
        keep = np.flatnonzero(lengths > 0)
        total = self._payload_sum(offsets[keep], lengths[keep]) if len(keep) else 1
        return lengths, offsets.tobytes(), total

    def _start_rewrite(self) -> None:
        """Start rewriting the payload file with the live requests only (when most of it is garbage).

        The copy of the requests live now and its fsync run in a thread of their own (:func:`_rewrite_payloads`),
        so the crawl's thread does not wait for a few hundred MB to reach the disk; meanwhile the frontier goes
        on with the old file (reads, appends).  A later :meth:`flush` (or :meth:`close`) finds the copy done and
        commits it (:meth:`_finish_rewrite`)."""
        self._write_cache()
        n = self._next_id
        rows = np.flatnonzero((self._state_np[:n] != DONE) & (self._plen_np[:n] > 0))
        rows = rows[np.argsort(self._poff_np[rows], kind="stable")]
        offsets, lengths = self._poff_np[rows], self._plen_np[rows].astype(np.int64)
        new_offsets = np.zeros(len(rows), dtype=np.int64)
        if len(rows):
            new_offsets[1:] = np.cumsum(lengths[:-1])
        new_file: Any
        if self._payload_gen is None:
            new_file = tempfile.TemporaryFile(prefix="frontier-payloads-", dir=self._cache_dir())
        else:
            new_file = open(self._payload_path(self._payload_gen + 1), "w+b")  # noqa: SIM115
        rewrite = _PayloadRewrite(rows, offsets, lengths, new_offsets, self._cache_end, int(lengths.sum()), new_file)
        rewrite.thread = threading.Thread(
            target=_rewrite_payloads, args=(rewrite, self._cache_fd, offsets, lengths, self._payload_gen is not None),
            name="frontier-payload-rewrite", daemon=True)
        self._rewrite = rewrite
        rewrite.thread.start()

    def _finish_rewrite(self, wait: bool = False) -> None:
        """Commit a payload rewrite whose copy is done (with ``wait``, wait for it): the requests appended to the
        old file since the copy began are copied after it as they are (not fsync'ed, like any flush's appends:
        their records keep their sums), then one transaction points every layout 3 record at the new file
        (:meth:`_repoint_records`) and names it in ``meta``; only then is the old one deleted (a kill before
        the commit leaves the old one in use, after it the new one).  An error of the copy is raised here."""
        rewrite = self._rewrite
        if rewrite is None or (rewrite.thread is not None and rewrite.thread.is_alive() and not wait):
            return
        if rewrite.thread is not None:
            rewrite.thread.join()
        self._rewrite = None
        new_file, generation = rewrite.file, self._payload_gen
        try:
            if rewrite.error is not None:
                raise rewrite.error
            self._write_cache()
            delta_end = self._cache_end
            _copy_runs(self._cache_fd, new_file, [rewrite.snap_end], [delta_end])
            new_file.flush()
        except BaseException:
            new_file.close()
            if generation is not None:
                self._payload_path(generation + 1).unlink(missing_ok=True)
            raise
        n = self._next_id
        poff = self._poff_np
        before = poff[:n].copy()
        later = np.flatnonzero(before >= rewrite.snap_end)  # appended since the copy began (new, changed)
        kept = before[rewrite.rows] == rewrite.old_offsets  # still where the copy found them
        poff[later] += rewrite.live_end - rewrite.snap_end
        poff[rewrite.rows[kept]] = rewrite.new_offsets[kept]
        old_file = self._cache_file
        self._cache_file, self._cache_fd = new_file, new_file.fileno()
        self._cache_end = rewrite.live_end + delta_end - rewrite.snap_end
        if generation is not None:
            # A written row whose request changed since the copy began, and whose newest request the request
            # log holds (or the next flush writes there), keeps its record at the copy of its previous one:
            # below the fsync'ed end, so its record needs no sum and a power loss cannot take its older rows.
            record_offsets, record_lengths = poff[:n].copy(), self._plen_np[:n].copy()
            changed = rewrite.rows[~kept]
            logged = self._logged_request.keys() | self._dirty_requests
            if len(changed) and logged:
                mask = np.fromiter((row in logged for row in changed.tolist()), dtype=bool, count=len(changed))
                record_offsets[changed[mask]] = rewrite.new_offsets[~kept][mask]
                record_lengths[changed[mask]] = rewrite.lengths[~kept][mask]
            try:
                self._repoint_records(generation + 1, rewrite.live_end, record_offsets, record_lengths)
            except BaseException:
                poff[:n] = before
                self._cache_file, self._cache_fd, self._cache_end = old_file, old_file.fileno(), delta_end
                new_file.close()
                self._payload_path(generation + 1).unlink(missing_ok=True)
                raise
            self._payload_path(generation).unlink()
            self._payload_gen = generation + 1
            self._synced_end = rewrite.live_end
        old_file.close()
        live = (self._state_np[:n] != DONE)
        self._garbage = self._cache_end + len(self._cache_tail) - int(self._plen_np[:n][live].sum())

    def _repoint_records(self, generation: int, synced_end: int, places: np.ndarray, sizes: np.ndarray) -> None:
        """(one transaction) Every layout 3 record at its rows' requests at ``places`` (``sizes`` bytes) in payload
        file ``generation``, which is on disk up to ``synced_end``: a record with requests beyond that gets their
        sum (checked at open, as a flush's record is), the others none."""
        db = self._require_db()
        updates = []
        for first, count, v3 in zip(self._batch_first, self._batch_count, self._batch_v3, strict=True):
            if v3:
                end = first + count
                lengths = np.where(self._state_np[first:end] == DONE, 0, sizes[first:end]).astype(_I4)
                offsets = np.where(lengths > 0, places[first:end], 0).astype(_I8)
                keep = np.flatnonzero(lengths > 0)
                total = None
                if len(keep) and int((offsets[keep] + lengths[keep]).max()) > synced_end:
                    total = self._payload_sum(offsets[keep], lengths[keep])
                updates.append((lengths.tobytes(), offsets.tobytes(), total, first))
        db.execute("BEGIN")
        try:
            db.executemany("UPDATE batch_requests SET request_lengths = ?, request_offsets = ?, request_sum = ? "
                           "WHERE first_id = ?", updates)
            db.executemany("INSERT OR REPLACE INTO meta(name, value) VALUES(?, ?)",
                           [("requests_file", generation), ("synced_end", synced_end)])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        for lengths_blob, _, _, first in updates:
            lengths = np.frombuffer(lengths_blob, dtype=_I4)
            self._disk_np[first:first + len(lengths)] = lengths

    # -- life cycle -------------------------------------------------------
    def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        # A new file gets 16 KiB pages (fewer WAL frames and B-tree pages per record than 4 KiB); a file of
        # earlier versions keeps its page size.
        db.execute(f"PRAGMA page_size={self.page_size}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(f"PRAGMA cache_size=-{self.cache_mb * 1024}")
        db.execute("PRAGMA temp_store=MEMORY")
        db.executescript(_SCHEMA)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if {"frontier", "payloads"} <= tables:
            db.executescript("BEGIN;" + _OLD_LAYOUT_MIGRATION + "COMMIT;")
            tables.add(_V1_TABLE)
        if _V1_TABLE in tables and db.execute("SELECT 1 FROM batches LIMIT 1").fetchone():
            # An older version opened a file this one had migrated, and added rows of its own: neither set
            # of rows is dropped silently.
            db.close()
            raise ValueError(f"frontier file {self.path} holds rows in both the batch layout and the earlier "
                             "'urls' table (opened by an older version after this one?); move one of them aside")
        if self._cache_file is not None:
            self._cache_file.close()
            self._cache_file = None
        try:
            if _V1_TABLE in tables:
                self._load_v1(db)
            else:
                self._load_batches(db)
            self._replay(db)
            if _V1_TABLE in tables:
                self._migrate_v1(db)
                logger.info("Frontier: %s converted to the current layout", self.path)
        except BaseException:
            db.close()
            raise
        self._order_invalid = self._queued > 0
        self._db = db
        if self._checkpointer is not None:  # opened again without a close
            self._checkpointer.stop()
            self._checkpointer = None
        if self.path != ":memory:" and self.checkpoint_interval > 0:
            db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints come from the checkpointer's thread
            self._checkpointer = _Checkpointer(self.path, self.checkpoint_interval, weakref.ref(self))

    def _load_v1(self, db: sqlite3.Connection) -> None:
        """Rows of a version 1 file (one ``urls`` row per URL) into memory and the payload cache."""
        max_id = db.execute("SELECT MAX(id) FROM urls").fetchone()[0] or 0
        self._reset_memory(max_id + 1)
        self._open_cache(db)
        fps = self._fps = [None] * (max_id + 1)
        index = self._index
        slot_id = self._slot_id
        crc = zlib.crc32
        mask = self._tie_mask
        tail = self._cache_tail
        cursor = db.execute("SELECT id, fp, priority, slot, state, request FROM urls ORDER BY id")
        while True:
            chunk = cursor.fetchmany(8192)
            if not chunk:
                break
            ids_t, fp_t, prio_t, slot_t, state_t, request_t = zip(*chunk, strict=True)
            ids = np.array(ids_t, dtype=np.int64)
            queued = np.array(state_t, dtype=np.int64) == QUEUED
            self._state_np[ids] = np.where(queued, QUEUED, DONE)
            self._prio_np[ids] = np.array(prio_t, dtype=np.float64)
            self._slot_np[ids] = [slot_id(s) for s in slot_t]
            self._tie_np[ids] = [(crc(fp.encode()) ^ mask) | _TIE_HIGH for fp in fp_t]
            index.update(zip(fp_t, ids_t, strict=True))
            for row_id, fp in zip(ids_t, fp_t, strict=True):
                fps[row_id] = fp
            positions = np.flatnonzero(queued).tolist()
            data = [request_t[k] for k in positions]
            data = [r.encode() if type(r) is str else r for r in data]
            lengths = np.array([0 if d is None else len(d) for d in data], dtype=np.int64)
            rows = ids[positions]
            self._poff_np[rows] = self._cache_end + len(tail) + np.cumsum(lengths) - lengths
            self._plen_np[rows] = lengths
            tail += b"".join([d for d in data if d])
            if len(tail) > 1 << 24:
                self._write_cache()
                tail = self._cache_tail
        self._write_cache()
        self._next_id = self._written = max_id + 1

    def _load_batches(self, db: sqlite3.Connection) -> None:
        """The batch records into memory: arrays, fingerprints, and where their requests are in the payload file
        (a record of layout 2 has them in SQLite: they are appended to the payload file)."""
        end_id = db.execute("SELECT MAX(first_id + count) FROM batches").fetchone()[0] or 1
        self._reset_memory(end_id)
        self._open_cache(db)
        for sid, name in db.execute("SELECT id, name FROM slots ORDER BY id"):
            if self._slot_id(name) != sid:
                raise ValueError(f"frontier file {self.path}: slot ids are not numbered 0, 1, 2, ...")
        self._slots_written = len(self._names)
        fps = self._fps = [None] * end_id
        index = self._index
        crc = zlib.crc32
        expected = 1
        lost: list[tuple[int, int]] = []  # records whose requests are not in the payload file as written
        file_end = self._cache_end
        records = db.execute(
            "SELECT b.first_id, b.count, b.priorities, b.states, r.fingerprints, r.fingerprint_lengths, r.slots, "
            "r.request_lengths, r.requests, r.request_offsets, r.request_sum "
            "FROM batches b JOIN batch_requests r USING (first_id) ORDER BY first_id")
        for first, count, prios, states, text, fp_lengths, slots, request_lengths, requests, offsets, total in records:
            end = first + count
            if isinstance(text, bytes):
                text = text.decode("utf-8")
            state = np.frombuffer(states, dtype=_U1)
            fp_ends = np.cumsum(np.frombuffer(fp_lengths, dtype=_I4), dtype=np.int64)
            lengths = np.frombuffer(request_lengths, dtype=_I4)
            slot_ids = np.frombuffer(slots, dtype=_I4)
            if (first != expected or not (len(state) == len(fp_ends) == len(lengths) == len(slot_ids) == count)
                    or len(prios) != 8 * count or (count and int(fp_ends[-1]) != len(text))
                    or (offsets is None and int(lengths.sum()) != len(requests))
                    or (offsets is not None and (len(offsets) != 8 * count or len(requests)))
                    or (count and int(slot_ids.max()) >= len(self._names))):
                raise ValueError(f"frontier file {self.path}: batch record {first} is inconsistent")
            expected = end
            self._state_np[first:end] = np.where(state == QUEUED, QUEUED, DONE)
            self._prio_np[first:end] = np.frombuffer(prios, dtype=_F8)
            self._slot_np[first:end] = slot_ids
            bounds = fp_ends.tolist()
            names = [text[i:j] for i, j in zip([0, *bounds[:-1]], bounds, strict=True)]
            if (state == _ABSENT).any():
                self._has_absent = True
                for k in np.flatnonzero(state != _ABSENT).tolist():
                    fps[first + k] = names[k]
                    index[names[k]] = first + k
            else:
                fps[first:end] = names
                index.update(zip(names, range(first, end), strict=True))
            self._tie_np[first:end] = np.array([crc(name.encode()) for name in names], dtype=np.uint32)
            self._plen_np[first:end] = lengths
            self._disk_np[first:end] = lengths
            if offsets is None:  # layout 2: the requests are in the record
                self._poff_np[first:end] = self._cache_end + np.cumsum(lengths, dtype=np.int64) - lengths
                self._append_cache(requests)
            else:
                places = np.frombuffer(offsets, dtype=_I8)
                self._poff_np[first:end] = places
                keep = np.flatnonzero(lengths > 0)
                if len(keep):
                    stops = places[keep] + lengths[keep]
                    if (int(stops.max()) > file_end or int(places[keep].min()) < 0 or (
                            total is not None and int(stops.max()) > self._synced_end
                            and self._payload_sum(places[keep], lengths[keep]) != total)):
                        lost.append((first, end))
            self._batch_first.append(first)
            self._batch_count.append(count)
            self._batch_v3.append(offsets is not None)
        self._tie_np[:end_id] ^= np.uint32(self._tie_mask)
        self._tie_np[:end_id] |= np.uint32(_TIE_HIGH)
        if lost:
            self._set_lost_requests_aside(db, lost)
        if not all(self._batch_v3):
            self._move_requests_out(db)
        self._next_id = self._written = end_id
        queued = self._state_np[:end_id] == QUEUED
        self._garbage = self._cache_end + len(self._cache_tail) - int(self._plen_np[:end_id][queued].sum())

    def _move_requests_out(self, db: sqlite3.Connection) -> None:
        """Records of layout 2 (their requests inside them, just appended to the payload file) point at those
        places once the payload file is fsync'ed, in one transaction: a later open does not append them again.
        (Before the journal and the request log are replayed: the records keep the requests they were written
        with.)"""
        if self._payload_gen is None:
            return
        self._write_cache()
        os.fsync(self._cache_fd)
        updates = []
        for k, (first, count, v3) in enumerate(zip(self._batch_first, self._batch_count, self._batch_v3, strict=True)):
            if not v3:
                end = first + count
                lengths = self._disk_np[first:end].astype(_I4)
                offsets = np.where(lengths > 0, self._poff_np[first:end], 0).astype(_I8)
                updates.append((lengths.tobytes(), offsets.tobytes(), first))
                self._batch_v3[k] = True
        db.execute("BEGIN")
        try:
            db.executemany("UPDATE batch_requests SET request_lengths = ?, requests = x'', request_offsets = ?, "
                           "request_sum = NULL WHERE first_id = ?", updates)
            db.executemany("INSERT OR REPLACE INTO meta(name, value) VALUES(?, ?)",
                           [("requests_file", self._payload_gen), ("synced_end", self._cache_end)])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._synced_end = self._cache_end
        self._meta_dirty = False

    def _set_lost_requests_aside(self, db: sqlite3.Connection, records: list[tuple[int, int]]) -> None:
        """Queued rows of records whose requests did not reach the payload file (the machine went down before
        they reached the disk) get a request that says so: the scheduler sets them aside (counted as
        malformed) instead of reading garbage.  The records are pointed at it at once (after an fsync), so
        that a later open, which checks nothing below the fsync'ed end, does not read the lost places."""
        marker = encode_request_bytes({MALFORMED_KEY: "request lost: the frontier's payload file does not hold it "
                                                      "as written (a crash before it reached the disk?)", "raw": ""})
        n = 0
        for first, end in records:
            for row in (np.flatnonzero(self._state_np[first:end] == QUEUED) + first).tolist():
                self._poff[row] = self._cache_end + len(self._cache_tail)
                self._plen[row] = len(marker)
                self._cache_tail += marker
                n += 1
        self._write_cache()
        os.fsync(self._cache_fd)
        updates = []
        for first, end in records:
            queued = self._state_np[first:end] == QUEUED
            lengths = np.where(queued, self._plen_np[first:end], 0).astype(_I4)
            offsets = np.where(queued, self._poff_np[first:end], 0).astype(_I8)
            self._disk_np[first:end] = lengths
            updates.append((lengths.tobytes(), offsets.tobytes(), first))
        db.execute("BEGIN")
        try:
            db.executemany("UPDATE batch_requests SET request_lengths = ?, request_offsets = ?, request_sum = NULL "
                           "WHERE first_id = ?", updates)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        logger.warning("Frontier %s: the requests of %d queued URLs were lost (the payload file does not hold "
                       "them as written); they are set aside as malformed", self.path, n)

    def _replay(self, db: sqlite3.Connection) -> None:
        """The journal and the request log over the rows just loaded (the changes since they were written)."""
        n = self._next_id
        state, prio = self._state_np, self._prio_np
        journal_ids = 0
        for kind, ids_blob, priorities_blob in db.execute("SELECT kind, ids, priorities FROM journal ORDER BY seq"):
            ids = np.frombuffer(ids_blob, dtype=_I8)
            journal_ids += len(ids)
            if kind == _J_DONE:
                ids = _unique(ids[(ids > 0) & (ids < n)])
                ids = ids[state[ids] != DONE]
                self._garbage += int(self._plen_np[ids].sum())
                state[ids] = DONE
            else:
                priorities = np.frombuffer(priorities_blob, dtype=_F8)
                m = min(len(ids), len(priorities))
                ids, priorities = ids[:m], priorities[:m]
                valid = (ids > 0) & (ids < n)
                prio[ids[valid]] = priorities[valid]
        logged: dict[int, tuple[int, bytes]] = {}
        total = 0
        for seq, row_id, request in db.execute("SELECT seq, id, request FROM request_log ORDER BY seq"):
            logged[row_id] = (seq, request)
            total += 1
        self._logged_request = {}
        for row_id, (seq, request) in logged.items():
            if 0 < row_id < n and state[row_id] != DONE:
                self._store(row_id, request.encode() if isinstance(request, str) else request)
                self._logged_request[row_id] = seq
        self._write_cache()
        self._logged_total = total
        self._queued = int(np.count_nonzero(state[:n] == QUEUED))
        self._journal_ids = journal_ids
        self._next_seq = max(
            db.execute("SELECT MAX(seq) FROM journal").fetchone()[0] or 0,
            db.execute("SELECT MAX(seq) FROM request_log").fetchone()[0] or 0,
        ) + 1

    def _migrate_v1(self, db: sqlite3.Connection) -> None:
        """Write the rows just loaded from a version 1 file as batch records and drop the old tables (one
        transaction: a kill during it leaves the version 1 file as it was)."""
        n = self._next_id
        self._has_absent = any(fp is None for fp in self._fps[1:n])
        records = []
        self._write_cache()
        db.execute("BEGIN")
        try:
            self._insert_slots(db)
            self._write_meta(db)
            for first in range(1, n, _BATCH_ROWS):
                end = min(n, first + _BATCH_ROWS)
                lengths, meta, data = self._batch_record(first, end)
                self._insert_record(db, meta, data)
                records.append((first, end, lengths))
            db.execute("DROP TABLE urls")
            db.execute("DELETE FROM journal")
            db.execute("DELETE FROM request_log")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        for first, end, lengths in records:
            self._batch_first.append(first)
            self._batch_count.append(end - first)
            self._batch_v3.append(True)
            self._disk_np[first:end] = lengths
        self._slots_written = len(self._names)
        self._journal_ids = 0
        self._logged_request = {}
        self._logged_total = 0

    def _insert_slots(self, db: sqlite3.Connection) -> None:
        names = self._names
        if len(names) > self._slots_written:
            db.executemany("INSERT INTO slots(id, name) VALUES(?, ?)",
                           zip(range(self._slots_written, len(names)), names[self._slots_written:], strict=True))

    def _batch_record(self, first: int, end: int) -> tuple[np.ndarray, tuple[Any, ...], tuple[Any, ...]]:
        """Rows ``first`` .. ``end - 1`` as a batch record (layout 3): (their stored request lengths, the ``batches``
        row, the ``batch_requests`` row).  A fetched row is stored without its request.  The requests stay in the
        payload file, which must hold them (``_write_cache``) before the record is committed."""
        state = self._state_np[first:end]
        done = state == DONE
        states = np.where(done, DONE, QUEUED).astype(_U1)
        fps = self._fps[first:end]
        if self._has_absent and None in fps:
            states[[k for k, fp in enumerate(fps) if fp is None]] = _ABSENT
            fps = [fp or "" for fp in fps]
        fp_lengths = np.fromiter(map(len, fps), dtype=_I4, count=len(fps))  # type: ignore[arg-type]
        lengths, offsets, total = self._record_requests(first, end)
        meta = (first, end - first, self._prio_np[first:end].astype(_F8).tobytes(), states.tobytes())
        data = (first, "".join(fps), fp_lengths.tobytes(),  # type: ignore[arg-type]
                self._slot_np[first:end].astype(_I4).tobytes(), lengths.tobytes(), b"", offsets, total)
        return lengths, meta, data

    def _insert_record(self, db: sqlite3.Connection, meta: tuple[Any, ...], data: tuple[Any, ...]) -> None:
        db.execute("INSERT INTO batches(first_id, count, priorities, states) VALUES(?, ?, ?, ?)", meta)
        db.execute("INSERT INTO batch_requests(first_id, fingerprints, fingerprint_lengths, slots, request_lengths, "
                   "requests, request_offsets, request_sum) VALUES(?, ?, ?, ?, ?, ?, ?, ?)", data)

    def close(self) -> None:
        if self._db is not None:
            self._finish_rewrite(wait=True)
            self.flush()
            self.compact()
            self._sync_payloads()
            if self._checkpointer is not None:
                self._checkpointer.stop()
                self._checkpointer = None
            self._db.close()  # the last connection: checkpoints the WAL
            self._db = None
            if self._cache_file is not None:
                self._cache_file.close()
                self._cache_file = None
            self._reset_memory()

    def _sync_payloads(self) -> None:
        """fsync the payload file and record how far it is on disk (the next open checks no record below)."""
        db = self._require_db()
        if self._payload_gen is None or self._meta_dirty:
            return
        self._write_cache()
        end = self._cache_end
        if end == self._synced_end:
            return
        os.fsync(self._cache_fd)
        db.execute("INSERT OR REPLACE INTO meta(name, value) VALUES('synced_end', ?)", (end,))
        self._synced_end = end

    def flush(self) -> None:
        db = self._require_db()
        written, n = self._written, self._next_id
        if not (n > written or self._dones or self._dirty_priorities or self._bulk_priorities
                or self._dirty_requests or self._pending_counters):
            if len(self._cache_tail) > 1 << 22:
                self._write_cache()
            if self._rewrite is not None:
                self._finish_rewrite()
            return
        batch = None
        if n > written:  # the rows first seen since the last flush: one batch record
            batch = self._batch_record(written, n)
            self._write_cache()  # its requests are in the payload file before the record is committed
        records: list[tuple[int, int, bytes, bytes | None]] = []
        seq = self._next_seq
        journal_ids = 0
        changed = self._bulk_priorities
        if self._dirty_priorities:
            changed = [*changed, np.fromiter(self._dirty_priorities, dtype=np.int64, count=len(self._dirty_priorities))]
        bulk: Iterable[tuple[int, int, bytes, bytes]] = ()
        if changed:
            ids = _unique(np.concatenate(changed) if len(changed) > 1 else changed[0])
            ids = ids[(ids < written) & (self._state_np[ids] != DONE)]
            if len(ids):
                bulk = [(seq + k // _JOURNAL_CHUNK, _J_PRIORITY, ids[k:k + _JOURNAL_CHUNK].astype(_I8).tobytes(),
                         self._prio_np[ids[k:k + _JOURNAL_CHUNK]].astype(_F8).tobytes())
                        for k in range(0, len(ids), _JOURNAL_CHUNK)]
                seq += len(bulk)
                journal_ids += len(ids)
        if self._dones:
            records.append((seq, _J_DONE, _int64_bytes(self._dones), None))
            seq += 1
            journal_ids += len(self._dones)
        logged = []
        for row_id in sorted(self._dirty_requests):
            if self._state[row_id] != DONE:
                logged.append((seq, row_id, self._payload(row_id)))
                seq += 1
        db.execute("BEGIN")
        try:
            if batch is not None:
                self._insert_slots(db)
                self._write_meta(db)
                self._insert_record(db, batch[1], batch[2])
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
        if batch is not None:
            self._batch_first.append(written)
            self._batch_count.append(n - written)
            self._batch_v3.append(True)
            self._disk_np[written:n] = batch[0]
            self._slots_written = len(self._names)
        for s, row_id, _ in logged:
            self._logged_request[row_id] = s
        self._logged_total += len(logged)
        self._next_seq = seq
        self._journal_ids += journal_ids
        self._written = n
        self._dirty_priorities = set()
        self._bulk_priorities = []
        self._dirty_requests = set()
        self._dones = array("q")
        self._pending_counters.clear()
        if len(self._cache_tail) > 1 << 20:
            self._write_cache()
        if self._rewrite is not None:
            self._finish_rewrite()
        elif (self._garbage > self.cache_compact_min
                and self._garbage > self._cache_end + len(self._cache_tail) - self._garbage):
            self._start_rewrite()
        limit = self.compact_after if self.compact_after is not None else max(1_000_000, 2 * len(self._index))
        if self._journal_ids + self._logged_total > limit:
            self.compact()

    def compact(self) -> None:
        """Fold the journal and the request log into the batch records (one transaction; :meth:`flush` first).

        Every record's priorities and states are rewritten (9 bytes a row); a record whose stored requests
        are mostly of fetched rows is rewritten with the live ones only (their newest requests, which makes
        their request log entries superfluous: it refers to them in the payload file, as layout 3 does, also
        if it held its requests itself); the request log keeps the newest request of the other live rows
        that have one, and the journal is emptied."""
        db = self._require_db()
        if (self._next_id > self._written or self._dones or self._dirty_priorities or self._bulk_priorities
                or self._dirty_requests):
            self.flush()
        n = self._next_id
        state, disk = self._state_np, self._disk_np
        rewrite: list[int] = []
        if self._batch_first:
            starts = np.array(self._batch_first, dtype=np.int64)
            sizes = disk[:n].astype(np.int64)
            dead = np.add.reduceat(np.where(state[:n] == DONE, sizes, 0), starts)
            stored = np.add.reduceat(sizes, starts)
            rewrite = np.flatnonzero((dead > 0) & (2 * dead > stored)).tolist()
        if not self._journal_ids and self._logged_total == len(self._logged_request) and not rewrite:
            return
        metas = []
        for first, count in zip(self._batch_first, self._batch_count, strict=True):
            end = first + count
            states = np.where(state[first:end] == DONE, DONE, QUEUED).astype(_U1)
            if self._has_absent:
                fps = self._fps[first:end]
                if None in fps:
                    states[[k for k, fp in enumerate(fps) if fp is None]] = _ABSENT
            metas.append((self._prio_np[first:end].astype(_F8).tobytes(), states.tobytes(), first))
        rewritten = []
        for k in rewrite:
            first = self._batch_first[k]
            end = first + self._batch_count[k]
            rewritten.append((first, end, *self._record_requests(first, end)))
        if rewritten:
            self._write_cache()
        logged = self._logged_request
        if rewritten:  # the rewritten records hold these rows' newest requests
            bounds = np.array([r[0] for r in rewritten], dtype=np.int64)
            ends = np.array([r[1] for r in rewritten], dtype=np.int64)
            rows = np.fromiter(logged, dtype=np.int64, count=len(logged))
            at = np.searchsorted(bounds, rows, side="right") - 1
            inside = (at >= 0) & (rows < ends[np.maximum(at, 0)])
            logged = {row: logged[row] for row in rows[~inside].tolist()}
        keep = set(logged.values())
        stale = [(seq,) for (seq,) in db.execute("SELECT seq FROM request_log") if seq not in keep]
        db.execute("BEGIN")
        try:
            db.executemany("UPDATE batches SET priorities = ?, states = ? WHERE first_id = ?", metas)
            if rewritten:
                self._write_meta(db)
            db.executemany("UPDATE batch_requests SET request_lengths = ?, requests = x'', request_offsets = ?, "
                           "request_sum = ? WHERE first_id = ?",
                           [(lengths.tobytes(), offsets, total, first)
                            for first, _, lengths, offsets, total in rewritten])
            db.executemany("DELETE FROM request_log WHERE seq = ?", stale)
            db.execute("DELETE FROM journal")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        for k in rewrite:
            self._batch_v3[k] = True
        for first, end, lengths, _, _ in rewritten:
            disk[first:end] = lengths
        self._logged_request = logged
        self._logged_total = len(logged)
        self._journal_ids = 0

    def _require_db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("frontier is not open")
        return self._db

    # -- the in-memory order ------------------------------------------------
    # A row's key is one Python int that sorts like (-priority, tiebreak, row): ``K << 64 | tie << 32 | row``
    # with K the priority's IEEE bits turned round (see ``_key``) and the tiebreak's top bit set; a slot's
    # registration in the heap of slots is its best hot row's key itself, the very int object at the top of
    # its hot heap (the slot is ``slot[row]``), so a pop checks it by identity and registers the slot's
    # next row without building a new int.  A slot not yet refilled is registered as ``K << 64 | slot id``
    # (tiebreak 0: ahead of every row of it; told apart from a row's key by bit 63).  One int object per
    # heap item: a comparison reads one object, not a tuple and a float.
    def _key(self, row: int) -> int:
        bits = self._pbits[row]
        high = _LOW63 - bits if bits < _SIGN else bits if bits > _SIGN else _LOW63  # -0.0 is 0.0
        return (high << 64) | (self._tie[row] << 32) | row

    def _register(self, sid: int, key: int) -> None:
        if self._slot_top[sid] is not key:
            self._slot_top[sid] = key
            _heappush(self._best, key)

    def _to_hot(self, row: int, key: int, sid: int) -> None:
        self._hot[row] = key
        self._where[row] = _HOT
        heap = self._heaps[sid]
        insort(heap, key)
        if len(heap) > self.hot_max:
            self._spill(sid, heap)
            return
        if heap[0] is key:
            self._slot_top[sid] = key
            best = self._best
            _heappush(best, key)
            if len(best) > 2 * len(self._names) + self.best_slack:
                self._drop_superseded()

    def _drop_superseded(self) -> None:
        """Take the registrations a later one of their slot superseded out of the heap of slots (in place).

        A push that becomes its slot's best registers the slot anew; the old registration stays in the heap until a
        pop meets it at the top, which for one worse than the best rows may be never: they would pile up (a deeper
        heap, an extra step for a pop now and then).  At most one registration per slot is live."""
        best, slot, slot_top = self._best, self._slot, self._slot_top
        best[:] = [key for key in best
                   if slot_top[slot[key & _M32] if key & _KEY_FLAG else key & _M32] is key]
        heapq.heapify(best)

    def _to_cold(self, row: int, sid: int, key: int) -> None:
        self._where[row] = _COLD
        if not self._incl[row]:
            self._incl[row] = 1
            self._cold[sid].append(row)
        if self._thr[sid] == _MINUS_KEY:
            self._register_pending(sid, key)

    def _register_pending(self, sid: int, key: int) -> None:
        """Keep the registration of a slot not yet refilled ahead of every row of it."""
        registration = ((key >> 64) << 64) | sid
        top = self._slot_top[sid]
        if top is None or registration < top:
            self._slot_top[sid] = registration
            heapq.heappush(self._best, registration)

    def _place(self, row: int, sid: int) -> None:
        """Put a queued row (its priority just set) where it belongs in its slot's order."""
        if self._order_invalid:
            return
        bits = self._pbits[row]
        key = ((_LOW63 - bits if bits < _SIGN else bits if bits > _SIGN else _LOW63) << 64
               | self._tie[row] << 32 | row)
        if key < self._thr[sid]:
            self._to_hot(row, key, sid)
        else:
            self._to_cold(row, sid, key)

    def _unplace(self, row: int) -> None:
        """Take a queued row out of the order (its heap item, if any, goes stale)."""
        if self._order_invalid:
            return
        if self._where[row] == _HOT:
            self._hot[row] = None
            self._stale += 1
            if self._stale > self._stale_limit:
                # rebuilt once the stale items outnumber the live ones by ``stale_slack``
                self._stale_limit = int(np.count_nonzero(self._where_np[:self._next_id] == _HOT)) + self.stale_slack
                if self._stale > self._stale_limit:
                    self._rebuild_hot()
        self._where[row] = _NOWHERE

    def _spill(self, sid: int, heap: list[int]) -> None:
        """Cut a slot's hot heap back to its ``hot_keep`` best rows; the others go cold."""
        hot = self._hot
        valid = [key for key in heap if hot[key & _M32] is key]
        self._stale = max(0, self._stale - (len(heap) - len(valid)))
        valid.sort()
        if len(valid) > self.hot_keep:
            keep = valid[:self.hot_keep]
            for key in valid[self.hot_keep:]:
                row = key & _M32
                hot[row] = None
                self._to_cold(row, sid, key)
            self._thr[sid] = keep[-1]
            valid = keep
        heap[:] = valid  # sorted
        if valid:
            self._register(sid, valid[0])

    def _keys(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The high and low 64 bits of the rows' keys (uint64 arrays)."""
        bits = self._pbits_np[rows]
        bits = np.where(bits == np.uint64(_SIGN), np.uint64(0), bits)  # -0.0 is 0.0
        high = np.where(bits < np.uint64(_SIGN), np.uint64(_LOW63) - bits, bits)
        low = (self._tie_np[rows].astype(np.uint64) << np.uint64(32)) | rows.astype(np.uint64)
        return high, low

    def _refill(self, sid: int) -> None:
        """Move the best rows of a slot's cold array into its hot heap (after those it has)."""
        cold = self._cold[sid]
        if not cold:
            self._thr[sid] = _INF_KEY
            return
        if len(cold) < 2 * self.refill_min:  # a few rows: all of them, without numpy's per-call cost
            self._refill_all(sid, cold)
            return
        rows = np.frombuffer(cold, dtype=np.int64)  # the array is replaced below, never appended to again
        if self._slot_moved:
            rows = rows[self._slot_np[rows] == sid]
        self._incl_np[rows] = 0
        rows = rows[self._where_np[rows] == _COLD]
        if self._slot_moved:
            rows = _unique(rows)
        n = len(rows)
        if n == 0:
            self._cold[sid] = array("q")
            self._thr[sid] = _INF_KEY
            return
        k = n if n < 2 * self.refill_min else max(self.refill_min, min(self.refill_max, n // 4))
        high, low = self._keys(rows)
        if n > 8 * self.refill_max:
            # A large slot: pick the k best with a partition (linear), then sort only those.
            kth = high[np.argpartition(high, k - 1)[k - 1]]
            better, equal = high < kth, high == kth
            tied = np.flatnonzero(equal)
            tied = tied[np.argsort(low[tied], kind="stable")]
            need = k - int(np.count_nonzero(better))
            pick = np.concatenate((np.flatnonzero(better), tied[:need]))
            rest = np.concatenate((rows[~(better | equal)], rows[tied[need:]]))
            rows, high, low = rows[pick], high[pick], low[pick]
        else:
            rest = None
        order = np.lexsort((low, high))
        if rest is None and k < n:
            rest = rows[order[k:]]
            order = order[:k]
        take = rows[order]
        keys = [(h << 64) | lo for h, lo in zip(high[order].tolist(), low[order].tolist(), strict=True)]
        hot = self._hot
        for row, key in zip(take.tolist(), keys, strict=True):
            hot[row] = key
        self._where_np[take] = _HOT
        _extend_sorted(self._heaps[sid], keys)
        new = array("q")
        if rest is not None and len(rest):
            new.frombytes(rest.tobytes())
            self._incl_np[rest] = 1
            self._thr[sid] = keys[-1]
        else:
            self._thr[sid] = _INF_KEY
        self._cold[sid] = new

    def _refill_all(self, sid: int, cold: array) -> None:
        where, incl, slot = self._where, self._incl, self._slot
        moved = self._slot_moved
        keys = []
        key_of = self._key
        for row in dict.fromkeys(cold) if moved else cold:
            if moved and slot[row] != sid:
                continue
            incl[row] = 0
            if where[row] == _COLD:
                where[row] = _HOT
                keys.append(key_of(row))
        keys.sort()
        hot = self._hot
        for key in keys:
            hot[key & _M32] = key
        _extend_sorted(self._heaps[sid], keys)
        self._cold[sid] = array("q")
        self._thr[sid] = _INF_KEY

    def _settle(self, sid: int) -> None:
        """Drop stale items off the top of a slot's heap, refill it if empty, register its best."""
        hot = self._hot
        heap = self._heaps[sid]
        while heap and hot[heap[0] & _M32] is not heap[0]:
            del heap[0]
        if not heap:
            self._refill(sid)  # extends ``heap``
            if not heap:
                self._slot_top[sid] = None
                return
        self._register(sid, heap[0])

    def _rebuild_hot(self) -> None:
        """The hot heaps anew from the live items (when stale ones pile up)."""
        slots = len(self._names)
        heaps: list[list[int]] = [[] for _ in range(slots)]
        slot, hot = self._slot, self._hot
        for row in np.flatnonzero(self._where_np[:self._next_id] == _HOT).tolist():
            key = hot[row]
            if key is not None:  # (None: a row ``_unplace`` is taking out right now)
                heaps[slot[row]].append(key)
        # the slots to settle: those with hot rows or a heap before, and those not yet refilled
        settle = [sid for sid in range(slots)
                  if heaps[sid] or self._heaps[sid] or self._thr[sid] == _MINUS_KEY]
        self._heaps = heaps
        self._stale = 0
        self._stale_limit = 0
        self._slot_top = [None] * slots
        self._best = []
        self._parked = {}
        for sid in settle:
            heaps[sid].sort()
            self._settle(sid)

    def _rebuild_order(self) -> None:
        """The whole order anew from the arrays (at open, after a bulk re-scoring)."""
        n = self._next_id
        queued = np.flatnonzero(self._state_np[:n] == QUEUED)
        self._where_np[:n] = _NOWHERE
        self._incl_np[:n] = 0
        slots = self._slot_np[queued]
        if len(self._names) <= 1 << 16:
            slots = slots.astype(np.uint16)  # a stable sort of 16-bit keys is a radix sort
        order = np.argsort(slots, kind="stable")
        queued, slots = queued[order], slots[order]
        self._cold = [array("q") for _ in self._names]
        self._thr = [_INF_KEY] * len(self._names)
        hot = self._hot  # emptied and refilled in place: the old items' array is freed before the new one is made
        hot.clear()
        hot.extend(itertools.repeat(None, self._capacity))
        for heap in self._heaps:  # emptied in place (2,000 new lists could set off a full garbage collection)
            heap.clear()
        self._slot_top = [None] * len(self._names)
        self._best = []
        self._parked = {}
        self._stale = 0
        self._stale_limit = 0
        self._slot_moved = False
        self._order_invalid = False
        if not len(queued):
            return
        self._where_np[queued] = _COLD
        self._incl_np[queued] = 1
        starts = np.r_[0, np.flatnonzero(np.diff(slots)) + 1]
        # Each slot is registered with its best priority (ahead of its best row's exact key) and takes
        # its hot rows from its cold array only when that registration comes up at a pop.
        high, _ = self._keys(queued)
        best = np.minimum.reduceat(high, starts).tolist()
        bounds = zip(slots[starts].tolist(), starts.tolist(), np.r_[starts[1:], len(queued)].tolist(), best,
                     strict=True)
        for sid, start, end, top in bounds:
            cold = array("q")
            cold.frombytes(queued[start:end].tobytes())
            self._cold[sid] = cold
            self._thr[sid] = _MINUS_KEY
            registration = (top << 64) | sid
            self._slot_top[sid] = registration
            self._best.append(registration)
        heapq.heapify(self._best)

    # -- queue ------------------------------------------------------------
    def pushable(self, fingerprint: str, priority: float) -> bool:
        """Would :meth:`push` at this priority queue or raise it?  (No I/O: callers drop links early.)"""
        row = self._index.get(fingerprint)
        if row is None:
            return True
        return self._state[row] == QUEUED and priority > self._prio[row]

    def push(self, entry: FrontierEntry) -> str:
        if self._db is None:
            self._require_db()
        fingerprint = entry.fingerprint
        new = self._next_id
        # one look-up: a new fingerprint gets the next row id here (undone below if the request cannot be encoded)
        row = self._index.setdefault(fingerprint, new)
        priority = entry.priority
        if row == new:
            data = entry.encoded
            if data is None:
                request = entry._request
                if request is None:
                    request = entry.request
                try:
                    data = _orjson_dumps(request)
                except TypeError:
                    try:
                        data = encode_request_bytes(request)
                    except BaseException:
                        del self._index[fingerprint]
                        raise
            self._next_id = row + 1
            if row >= self._capacity:
                self._grow(row)
            self._fps.append(fingerprint)
            sid = self._slot_ids.get(entry.slot)
            if sid is None:
                sid = self._slot_id(entry.slot)
            tie = (zlib.crc32(fingerprint.encode()) ^ self._tie_mask) | _TIE_HIGH
            tail = self._cache_tail
            self._prio[row] = priority
            self._tie[row] = tie
            self._slot[row] = sid
            self._poff[row] = self._cache_end + len(tail)
            self._plen[row] = len(data)
            self._state[row] = QUEUED
            tail += data
            self._queued += 1
            if not self._order_invalid:
                bits = self._pbits[row]
                key = ((_LOW63 - bits if bits < _SIGN else bits if bits > _SIGN else _LOW63) << 64
                       | tie << 32 | row)
                if key < self._thr[sid]:
                    self._to_hot(row, key, sid)
                else:
                    self._where[row] = _COLD
                    self._incl[row] = 1
                    self._cold[sid].append(row)
                    if self._thr[sid] == _MINUS_KEY:
                        self._register_pending(sid, key)
            return PushResult.NEW
        if self._state[row] != QUEUED or priority <= self._prio[row]:
            return PushResult.REJECTED
        self._set_priority(row, priority)
        encoded = entry.encoded
        self._set_request(row, encoded if encoded is not None else encode_request_bytes(entry.request))
        return PushResult.RAISED

    def _set_priority(self, row: int, priority: float) -> None:
        self._unplace(row)
        self._prio[row] = priority
        self._place(row, self._slot[row])
        if row < self._written:
            self._dirty_priorities.add(row)

    def _set_request(self, row: int, data: bytes) -> None:
        self._store(row, data)
        if row < self._written:
            self._dirty_requests.add(row)

    def pop(self, busy_slots: Collection[str] = ()) -> FrontierEntry | None:
        if self._db is None:
            self._require_db()
        if self._order_invalid:
            self._rebuild_order()
        best = self._best
        hot = self._hot
        slot_top = self._slot_top
        parked = self._parked
        names = self._names
        # A busy slot's registration waits aside until a pop finds the slot free again (a pop then
        # costs O(log slots) however many busy slots are better than the best free one).  The usual
        # case, every parked slot still busy, is one subset test in C.
        if parked and not (busy_slots.__class__ is set and parked.keys() <= busy_slots):
            for name in [name for name in parked if name not in busy_slots] if busy_slots else list(parked):
                _heappush(best, parked.pop(name))
        heaps = self._heaps
        slot = self._slot
        while best:
            registration = best[0]
            row = registration & _M32
            sid = slot[row] if registration & _KEY_FLAG else row  # a pending registration holds the slot id
            if slot_top[sid] is not registration:
                _heappop(best)  # superseded by a later registration of the slot
                continue
            heap = heaps[sid]
            if not heap or heap[0] is not registration or hot[row] is not registration:
                # a slot not yet refilled (its rows come out of its cold array now), or its registered best
                # went stale (done, re-scored): register its live best
                _heappop(best)
                slot_top[sid] = None
                self._settle(sid)
                continue
            if busy_slots and names[sid] in busy_slots:
                parked[names[sid]] = _heappop(best)
                continue
            del heap[0]
            hot[row] = None
            # The slot's next live row takes its registration's place (one sift of the slots' heap).
            while heap and hot[heap[0] & _M32] is not heap[0]:
                del heap[0]
            if not heap:
                self._refill(sid)  # extends ``heap``
            if heap:
                registration = slot_top[sid] = heap[0]
                _heapreplace(best, registration)
            else:
                _heappop(best)
                slot_top[sid] = None
            break
        else:
            return None
        self._where[row] = _NOWHERE
        self._state[row] = LEASED
        self._queued -= 1
        fingerprint: Any = self._fps[row]
        leased = self._leased
        if len(leased) >= _LEASED_MAX:
            leased.clear()
        leased[fingerprint] = row
        # Built without a call of ``__init__`` (a pop makes one per URL): every slot set here.
        entry = _new_entry(FrontierEntry)
        entry.fingerprint = fingerprint
        entry.priority = self._prio[row]
        length = self._plen[row]
        offset = self._poff[row]
        entry.slot = names[sid]
        entry.encoded = None
        if not length:
            entry._request = {}
            entry._raw = None
            return entry
        entry._request = None
        end = self._cache_end
        if offset >= end:
            entry._raw = bytes(self._cache_tail[offset - end:offset - end + length])
        else:
            entry._raw = os.pread(self._cache_fd, length, offset)
        # The request stays JSON text until someone reads it (the scheduler does at once).
        return entry

    def done(self, fingerprint: str) -> None:
        # The request is no longer needed: a done row is just a seen fingerprint.
        if self._db is None:
            self._require_db()
        row = self._leased.pop(fingerprint, None)
        if row is None:
            row = self._index.get(fingerprint)
        if row is None:
            row = self._new_row(fingerprint)
            self._prio[row] = 0.0
            self._slot[row] = self._slot_id("")
            self._state[row] = DONE
            self._plen[row] = 0
            return
        state = self._state[row]
        if state == DONE:
            return
        if state == QUEUED:
            self._queued -= 1
            self._unplace(row)
        self._state[row] = DONE
        self._garbage += self._plen[row]
        if row < self._written:
            if self._logged_request:
                self._logged_request.pop(row, None)
            if self._dirty_priorities:
                self._dirty_priorities.discard(row)
            if self._dirty_requests:
                self._dirty_requests.discard(row)
            self._dones.append(row)

    def quarantine(self, entry: FrontierEntry, reason: str) -> None:
        # Done, so never handed out again; the entry itself is kept for a human to look at.
        self.done(entry.fingerprint)
        self._require_db().execute(
            "INSERT OR REPLACE INTO malformed(fp, reason, request, at) VALUES(?, ?, ?, ?)",
            (entry.fingerprint, reason, encode_request(entry.request), time.time()),
        )

    def release(self, entry: FrontierEntry) -> bool:
        self._require_db()
        row = self._index.get(entry.fingerprint)
        if row is None or self._state[row] != LEASED:
            return False
        sid = self._slot_id(entry.slot)
        if sid != self._slot[row]:
            self._slot[row] = sid
            self._incl[row] = 0
            self._slot_moved = True
        self._state[row] = QUEUED
        self._queued += 1
        self._prio[row] = entry.priority
        self._place(row, sid)
        if row < self._written:
            self._dirty_priorities.add(row)
        encoded = entry.encoded
        self._set_request(row, encoded if encoded is not None else encode_request_bytes(entry.request))
        return True

    def seen(self, fingerprint: str) -> bool:
        """True once a fingerprint was leased or fetched (it will not be queued again)."""
        row = self._index.get(fingerprint)
        return row is not None and self._state[row] != QUEUED

    def __len__(self) -> int:
        return self._queued

    # -- re-scoring -------------------------------------------------------
    def queued_sample(self, limit: int, after: str = "") -> list[FrontierEntry]:
        """Up to ``limit`` queued entries after ``after`` in the order they were first queued."""
        self._require_db()
        row = self._index.get(after) if after else None
        cursor = row if row is not None and self._state[row] != DONE else 0
        out: list[FrontierEntry] = []
        n = self._next_id
        start = cursor + 1
        window = max(limit * 4, 4096)
        while len(out) < limit and start < n:
            end = min(n, start + window)
            rows = np.flatnonzero(self._state_np[start:end] == QUEUED) + start
            for r in rows[:limit - len(out)].tolist():
                fp: Any = self._fps[r]
                out.append(FrontierEntry.stored(fp, self._prio[r], self._names[self._slot[r]], self._payload(r)))
            start = end
            window *= 2
        return out

    def queued_priorities(self) -> tuple[list[str], list[float]]:
        """The fingerprints and priorities of *all* queued entries, from memory (no I/O, no JSON).

        For whole-queue re-scoring: a caller that keeps what it needs per fingerprint (the
        ``online`` link model keeps each queued link's hashed ids) scores them all and writes the
        new priorities back with one bulk :meth:`update_priorities` (requests None).  Order is
        unspecified; leased and fetched fingerprints are left out.
        """
        rows = np.flatnonzero(self._state_np[:self._next_id] == QUEUED)
        if not len(rows):
            self._listed = None
            return [], []
        fingerprints = self._listed_fingerprints(rows)
        self._listed = (rows, fingerprints[:])  # a copy: the caller's list is the caller's
        return fingerprints, self._prio_np[rows].tolist()

    def _listed_fingerprints(self, rows: np.ndarray) -> list[str]:
        """The fingerprints of ``rows``, the row ids turned into Python ints a slice at a time (a million at once
        are 40 MB while they exist)."""
        fingerprints: list[str] = []
        get = self._fps.__getitem__
        for start in range(0, len(rows), 1 << 16):
            fingerprints.extend(map(get, rows[start:start + (1 << 16)].tolist()))  # type: ignore[arg-type]
        return fingerprints

    def queued_priority_array(self) -> tuple[list[str], np.ndarray]:
        """:meth:`queued_priorities` with the priorities as a float64 array, for :meth:`update_listed`: the
        scheduler's whole-queue re-scoring, which then builds no list of a million floats or update tuples
        (about 100 MB at 1,000,000 queued while they exist) and no copy of the listing."""
        rows = np.flatnonzero(self._state_np[:self._next_id] == QUEUED)
        self._listed = (rows, None) if len(rows) else None
        return self._listed_fingerprints(rows), self._prio_np[rows]

    def update_listed(self, priorities: Any) -> int:
        """New priorities of the entries the last :meth:`queued_priority_array` (or :meth:`queued_priorities`)
        listed: one per listed entry, in its order (a float sequence or array; NaN keeps an entry's priority).
        As :meth:`update_priorities`: entries leased or fetched since the listing are left alone, and the count of
        priorities that changed is returned.  A listing serves one update (so does an :meth:`update_priorities`
        in between)."""
        self._require_db()
        listed, self._listed = self._listed, None
        new = np.asarray(priorities, dtype=np.float64)
        if listed is None:
            if len(new):
                raise ValueError("update_listed: no listing to update (queued_priority_array first)")
            return 0
        rows = listed[0]
        if new.shape != rows.shape:
            raise ValueError(f"update_listed: {len(new)} priorities for a listing of {len(rows)}")
        keep = self._state_np[rows] == QUEUED
        keep &= new == new  # not NaN
        keep &= self._prio_np[rows] != new
        return self._set_bulk(rows[keep], new[keep])

    def _set_bulk(self, rows: np.ndarray, new: np.ndarray) -> int:
        """Write new priorities of queued rows (distinct, each changed) at once; the order is rebuilt before the
        next pop."""
        if not len(rows):
            return 0
        self._prio_np[rows] = new
        self._bulk_priorities.append(rows)
        if not self._order_invalid:
            self._order_invalid = True
            # the heaps let go now, emptied in place (the hot list is emptied by the rebuild)
            for heap in self._heaps:
                heap.clear()
            self._best = []
            self._slot_top = [None] * len(self._names)
            self._parked = {}
        return len(rows)

    def update_priorities(self, updates: Iterable[tuple[str, float, dict[str, Any] | None]]) -> int:
        """New priorities (up or down) of queued entries; a request of None keeps the stored one."""
        self._require_db()
        updates = updates if isinstance(updates, list) else list(updates)
        listed, self._listed = self._listed, None  # a listing serves one update
        if not updates:
            return 0
        if len(updates) * 32 < self._queued:
            return self._update_each(updates)
        # Many at once (re-scoring the whole queue in a few calls): one vectorised write into the
        # priority array, and the order rebuilt once before the next pop.
        get = self._index.get
        n = len(updates)
        if listed is not None and listed[1] is not None and list(map(_first, updates)) == listed[1]:
            # the fingerprints :meth:`queued_priorities` listed, in its order (one list comparison in C, at once
            # when they are the very string objects): their rows without a dict look-up each, which would be
            # most of the whole-queue re-scoring of the scheduler
            rows = listed[0]
        else:
            # (no list of the fingerprints: the look-ups take them from the updates as they go)
            rows = np.fromiter(map(get, map(_first, updates), repeat(0)), dtype=np.int64, count=n)
        new = np.fromiter(map(_second, updates), dtype=np.float64, count=n)
        with_requests = operator.countOf(map(_third, updates), None) != n
        valid = (rows > 0) & (self._state_np[rows] == QUEUED)
        rows, new = rows[valid], new[valid]
        if len(rows) and np.bincount(rows).max() > 1:  # a fingerprint twice: one after the other
            return self._update_each(updates)
        changed = self._prio_np[rows] != new
        rows, new = rows[changed], new[changed]
        if not len(rows):
            return 0
        if with_requests:
            changed_rows = set(rows.tolist())
            for fp, _, request in updates:
                if request is not None:
                    row = get(fp)
                    if row is not None and row in changed_rows:
                        self._set_request(row, encode_request_bytes(request))
        return self._set_bulk(rows, new)

    def _update_each(self, updates: list[tuple[str, float, dict[str, Any] | None]]) -> int:
        get = self._index.get
        changed = 0
        for fingerprint, priority, request in updates:
            row = get(fingerprint)
            if row is None or self._state[row] != QUEUED or self._prio[row] == priority:
                continue
            self._set_priority(row, priority)
            if request is not None:
                self._set_request(row, encode_request_bytes(request))
            changed += 1
        return changed

    # -- counters ---------------------------------------------------------
    def increment(self, counter: str, amount: float = 1) -> None:
        self._pending_counters[counter] = self._pending_counters.get(counter, 0) + amount

    def counters(self) -> dict[str, float]:
        stored = dict(self._require_db().execute("SELECT name, value FROM counters").fetchall())
        for name, value in self._pending_counters.items():
            stored[name] = stored.get(name, 0) + value
        return stored

    def cache_bytes(self) -> int:
        """Size of the payload cache file (requests of queued rows, plus garbage until it is rewritten)."""
        return self._cache_end + len(self._cache_tail)
