"""Leases: a popped entry belongs to one worker until it is done, released, or its lease expires.

A worker's popped (and prefetched) entries are leased to it in ``B:leases``
(fingerprint -> deadline) and ``B:lease`` (fingerprint -> worker id and the
priority to queue it again at).  The worker renews them every ``ttl / 3``
while it lives; a worker killed with -9 stops renewing, and any worker moves
leases past their deadline back to their queue (``reclaim``).  A worker that
closes gives its unused leases back at once (``release``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from geofocus.frontier import FrontierEntry
from geofocus.redis.entries import request_value
from geofocus.redis.scripts import Scripts

logger = logging.getLogger(__name__)

#: Expired leases moved back per script call.
RECLAIM_CHUNK = 1000


class Leases:
    """One worker's side of the leases of crawl ``base`` (the scripts do the work in Redis)."""

    def __init__(self, scripts: Scripts, base: str, worker_id: str, ttl: float) -> None:
        self.scripts = scripts
        self.base = base
        self.worker_id = worker_id
        self.ttl = ttl
        self.last_renew = 0.0
        self.last_reclaim = 0.0

    def deadline_ms(self, now: float) -> int:
        """The deadline of a lease taken or renewed at ``now``."""
        return int((now + self.ttl) * 1000)

    def renew_due(self, now: float) -> bool:
        return now - self.last_renew >= self.ttl / 3

    def reclaim_due(self, now: float) -> bool:
        return now - self.last_reclaim >= min(5.0, self.ttl / 3)

    # -- queued in a cycle's pipeline ---------------------------------------------------
    def queue_renew(self, pipe: Any, fingerprints: list[str], now: float) -> None:
        self.scripts.call_chunked("renew", [self.base, self.worker_id, self.deadline_ms(now)],
                                  fingerprints, 1, client=pipe)

    def queue_reclaim(self, pipe: Any, now: float) -> None:
        self.scripts("reclaim", [self.base, int(now * 1000), RECLAIM_CHUNK], client=pipe)

    def queue_release(self, pipe: Any, entries: Iterable[tuple[str, FrontierEntry | None]]) -> None:
        """Give leases back: an entry's priority and request replace the stored ones (a retry);
        None keeps them (unused prefetches)."""
        args: list[Any] = []
        for fp, entry in entries:
            if entry is None:
                args += [fp, "", ""]
            else:
                args += [fp, repr(float(entry.priority)), request_value(entry.slot, entry.request, entry.encoded)]
        if args:
            self.scripts.call_chunked("release", [self.base, self.worker_id], args, 3, client=pipe)

    def sent(self, now: float, renewed: bool, reclaimed: bool) -> None:
        """Record what a cycle that went through did."""
        if renewed:
            self.last_renew = now
        if reclaimed:
            self.last_reclaim = now

    # -- at once (open, close) ------------------------------------------------------------
    def reclaim(self, client: Any, now: float) -> int:
        """Every expired lease back to its queue now; returns how many."""
        self.last_reclaim = now
        total = 0
        while True:
            n = int(self.scripts("reclaim", [self.base, int(now * 1000), RECLAIM_CHUNK], client=client))
            total += n
            if n < RECLAIM_CHUNK:
                break
        if total:
            logger.info("Redis frontier: %(n)d expired leases went back to the queue", {"n": total})
        return total
