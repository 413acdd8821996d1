"""The crawl frontier: a best-first queue of URLs with float priorities.

One global order by priority (higher first, ties broken at random), one entry
per URL fingerprint, and a life cycle per entry::

    push -> QUEUED --pop--> LEASED --done--> DONE
              ^  (push with a higher priority re-prioritises a QUEUED entry)
              +------ reopen / lease expiry (LEASED entries were in flight)

A DONE or LEASED fingerprint is never queued again, so a fetched URL is never
fetched twice.  The embedded backend (:class:`SqliteFrontier`) keeps all of
this in one SQLite file; the Redis backend implements the same protocol for
crawls shared by many workers.
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

logger = logging.getLogger(__name__)

QUEUED, LEASED, DONE = 0, 1, 2


@dataclass
class FrontierEntry:
    """One queued URL: its fingerprint, priority, download slot and serialised request."""

    fingerprint: str
    priority: float
    slot: str
    request: dict[str, Any]


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
        """Move a LEASED entry that cannot be read as a request aside (kept for inspection, never
        popped again, its lease released; the URL may be queued again by a good request)."""
        ...

    def release(self, entry: FrontierEntry) -> bool:
        """Put a LEASED entry back in the queue (a retry); False if it is not leased."""
        ...

    def queued_sample(self, limit: int, after: str = "") -> list[FrontierEntry]:
        """Up to ``limit`` queued entries after the cursor ``after`` (for re-scoring)."""
        ...

    def update_priorities(self, updates: Iterable[tuple[str, float, dict[str, Any]]]) -> int:
        """Set new priorities (up or down) of queued entries; returns how many changed."""
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
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raw = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
        return {MALFORMED_KEY: f"bad JSON ({exc})", "raw": raw[:10000]}
    if not isinstance(value, dict):
        return {MALFORMED_KEY: f"an entry must be a JSON object, not {type(value).__name__}",
                "raw": encode_request(value)[:10000]}
    return value


_SCHEMA = """
CREATE TABLE IF NOT EXISTS frontier (
    fp TEXT PRIMARY KEY,
    priority REAL NOT NULL,
    tiebreak REAL NOT NULL,
    slot TEXT NOT NULL,
    state INTEGER NOT NULL,
    payload INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS frontier_best ON frontier(priority DESC, tiebreak) WHERE state = 0;
CREATE TABLE IF NOT EXISTS payloads (id INTEGER PRIMARY KEY, request TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value REAL NOT NULL);
CREATE TABLE IF NOT EXISTS malformed (fp TEXT PRIMARY KEY, reason TEXT NOT NULL, request TEXT, at REAL NOT NULL);
"""


class SqliteFrontier:
    """The embedded frontier: queue, seen-set and counters in one SQLite file.

    Memory stays small whatever the queue length: entries live in the file
    (the page cache is bounded by ``cache_mb``).  The ordering table holds only
    fingerprints, priorities and states, so it stays small enough to be
    cached; serialised requests sit in a separate table written in append
    order and deleted once fetched, so a fetched URL costs only its
    fingerprint.  Changes are written in one transaction that is committed by
    :meth:`flush`; the scheduler flushes every few pages and on a timer, so a
    kill -9 loses at most that much, which the crawl redoes (pages whose
    ``done`` was not committed are still LEASED and go back to the queue).
    """

    def __init__(
        self, path: str | Path, cache_mb: int = 64, lookahead: int = 64, seed: int | None = None
    ):
        self.path = str(path)
        self.lookahead = lookahead
        self.cache_mb = cache_mb
        self._random = random.Random(seed)
        self._db: sqlite3.Connection | None = None
        self._queued = 0
        self._pending_counters: dict[str, float] = {}

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
        db.execute("BEGIN")
        recovered = db.execute("UPDATE frontier SET state = 0 WHERE state = 1").rowcount
        if recovered:
            logger.info("Frontier: %(n)d requests in flight at the last stop go back to the queue", {"n": recovered})
        self._queued = db.execute("SELECT COUNT(*) FROM frontier WHERE state = 0").fetchone()[0]
        self._db = db

    def close(self) -> None:
        if self._db is not None:
            self.flush()
            self._db.close()
            self._db = None

    def flush(self) -> None:
        db = self._require_db()
        if self._pending_counters:
            db.executemany(
                "INSERT INTO counters(name, value) VALUES(?, ?) "
                "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
                list(self._pending_counters.items()),
            )
            self._pending_counters.clear()
        db.execute("COMMIT")
        db.execute("BEGIN")

    def _require_db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("frontier is not open")
        return self._db

    def _store(self, request: dict[str, Any]) -> int:
        cursor = self._require_db().execute("INSERT INTO payloads(request) VALUES(?)", (encode_request(request),))
        return cursor.lastrowid  # type: ignore[return-value]

    def _replace(self, payload_id: int, request: dict[str, Any]) -> None:
        self._require_db().execute(
            "UPDATE payloads SET request = ? WHERE id = ?", (encode_request(request), payload_id)
        )

    def _load(self, payload_id: int) -> dict[str, Any]:
        row = self._require_db().execute("SELECT request FROM payloads WHERE id = ?", (payload_id,)).fetchone()
        return decode_request(row[0]) if row else {}

    # -- queue ------------------------------------------------------------
    def push(self, entry: FrontierEntry) -> str:
        db = self._require_db()
        known = db.execute(
            "SELECT state, priority, payload FROM frontier WHERE fp = ?", (entry.fingerprint,)
        ).fetchone()
        if known is None:
            db.execute(
                "INSERT INTO frontier(fp, priority, tiebreak, slot, state, payload) VALUES(?, ?, ?, ?, 0, ?)",
                (entry.fingerprint, entry.priority, self._random.random(), entry.slot, self._store(entry.request)),
            )
            self._queued += 1
            return PushResult.NEW
        state, priority, payload_id = known
        if state != QUEUED or entry.priority <= priority:
            return PushResult.REJECTED
        db.execute("UPDATE frontier SET priority = ? WHERE fp = ?", (entry.priority, entry.fingerprint))
        self._replace(payload_id, entry.request)
        return PushResult.RAISED

    def pop(self, busy_slots: Collection[str] = ()) -> FrontierEntry | None:
        db = self._require_db()
        if not self._queued:
            return None
        lookahead = self.lookahead if busy_slots else 1
        candidates = db.execute(
            "SELECT fp, priority, slot, payload FROM frontier WHERE state = 0 "
            "ORDER BY priority DESC, tiebreak LIMIT ?",
            (lookahead,),
        ).fetchall()
        row = next((c for c in candidates if c[2] not in busy_slots), None)
        if row is None and len(candidates) == lookahead:
            # The best `lookahead` entries all wait for busy hosts: ask the index for
            # the best entry of any other host instead of stalling the downloader.
            marks = ",".join("?" * len(busy_slots))
            row = db.execute(
                "SELECT fp, priority, slot, payload FROM frontier WHERE state = 0 "
                f"AND slot NOT IN ({marks}) ORDER BY priority DESC, tiebreak LIMIT 1",
                tuple(busy_slots),
            ).fetchone()
        if row is None:
            return None
        db.execute("UPDATE frontier SET state = 1 WHERE fp = ?", (row[0],))
        self._queued -= 1
        return FrontierEntry(row[0], row[1], row[2], self._load(row[3]))

    def done(self, fingerprint: str) -> None:
        # The request is no longer needed: a DONE row is just a seen fingerprint.
        db = self._require_db()
        row = db.execute("SELECT state, payload FROM frontier WHERE fp = ?", (fingerprint,)).fetchone()
        if row is None:
            db.execute(
                "INSERT INTO frontier(fp, priority, tiebreak, slot, state, payload) VALUES(?, 0, 0, '', 2, NULL)",
                (fingerprint,),
            )
            return
        state, payload_id = row
        if state == DONE:
            return
        db.execute("UPDATE frontier SET state = 2, payload = NULL WHERE fp = ?", (fingerprint,))
        if payload_id is not None:
            db.execute("DELETE FROM payloads WHERE id = ?", (payload_id,))
        if state == QUEUED:
            self._queued -= 1

    def quarantine(self, entry: FrontierEntry, reason: str) -> None:
        db = self._require_db()
        row = db.execute("DELETE FROM frontier WHERE fp = ? RETURNING state, payload", (entry.fingerprint,)).fetchone()
        if row is not None:
            if row[1] is not None:
                db.execute("DELETE FROM payloads WHERE id = ?", (row[1],))
            if row[0] == QUEUED:
                self._queued -= 1
        db.execute("INSERT OR REPLACE INTO malformed(fp, reason, request, at) VALUES(?, ?, ?, ?)",
                   (entry.fingerprint, reason, encode_request(entry.request), time.time()))

    def release(self, entry: FrontierEntry) -> bool:
        db = self._require_db()
        row = db.execute(
            "UPDATE frontier SET state = 0, priority = ? WHERE fp = ? AND state = 1 RETURNING payload",
            (entry.priority, entry.fingerprint),
        ).fetchone()
        if row is None:
            return False
        self._replace(row[0], entry.request)
        self._queued += 1
        return True

    def seen(self, fingerprint: str) -> bool:
        row = self._require_db().execute(
            "SELECT state FROM frontier WHERE fp = ?", (fingerprint,)
        ).fetchone()
        return row is not None and row[0] != QUEUED

    def __len__(self) -> int:
        return self._queued

    # -- re-scoring -------------------------------------------------------
    def queued_sample(self, limit: int, after: str = "") -> list[FrontierEntry]:
        rows = self._require_db().execute(
            "SELECT fp, priority, slot, payload FROM frontier WHERE state = 0 AND fp > ? ORDER BY fp LIMIT ?",
            (after, limit),
        ).fetchall()
        return [FrontierEntry(r[0], r[1], r[2], self._load(r[3])) for r in rows]

    def update_priorities(self, updates: Iterable[tuple[str, float, dict[str, Any]]]) -> int:
        changed = 0
        db = self._require_db()
        for fingerprint, priority, request in updates:
            row = db.execute(
                "UPDATE frontier SET priority = ? WHERE fp = ? AND state = 0 RETURNING payload",
                (priority, fingerprint),
            ).fetchone()
            if row is not None:
                self._replace(row[0], request)
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
