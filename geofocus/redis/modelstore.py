"""Pooling the link model's counts in Redis, so every worker learns from every worker's pages.

The naive-Bayes link model (geofocus.prediction.model.BridgeNaiveBayes) keeps
plain integer counts, so models add up.  Each worker ships the counts it
learned since the last exchange (``model.take_delta()``) and gets back what
the *other* workers added meanwhile, which it merges (``model.merge``)::

    others = pool.exchange(model.take_delta())     # off the reactor: deferToThread
    model.merge(others)

Redis layout (implementation detail): ``B:model:docs`` hash ``"<i>"`` ->
count (i = 2*(depth-1) + label) and ``B:model:terms`` hash ``"<i>\\x1f<term>"``
-> count, both updated with HINCRBY (atomic, so concurrent workers never lose
an increment).  Works on the model's ``to_dict`` format; no import of the model.
"""

from __future__ import annotations

import threading
from typing import Any

import redis

from geofocus.redis.keys import CrawlKeys

FORMAT = "geofocus/bridge-naive-bayes"
_SEP = "\x1f"


class RedisModelPool:
    """Additive link-model counts of crawl ``base`` shared through Redis (thread-safe, blocking)."""

    def __init__(self, client: redis.Redis, base: str, depth: int, alpha: float = 1.0) -> None:
        keys = CrawlKeys(base)
        self.client = client
        self.generation_key = keys.generation
        self._generation: bytes | str | None = None   # what redis-py's GET returns
        self.docs_key = keys.model_docs
        self.terms_key = keys.model_terms
        self.depth = depth
        self.alpha = alpha
        self._seen_docs: dict[str, int] = {}
        self._seen_terms: dict[str, int] = {}
        self._lock = threading.Lock()

    def add(self, delta: dict[str, Any]) -> None:
        """Add a ``to_dict``-format delta to the pool."""
        pipe = self.client.pipeline(transaction=True)
        self._queue_add(pipe, delta)
        pipe.execute()

    def _queue_add(self, pipe: Any, delta: dict[str, Any]) -> dict[str, int]:
        shipped: dict[str, int] = {}
        depth = min(self.depth, int(delta.get("depth", self.depth)))
        for d in range(depth):
            for c in (0, 1):
                k = int(delta["docs"][d][c])
                if k:
                    pipe.hincrby(self.docs_key, str(2 * d + c), k)
                    shipped[f"d{2 * d + c}"] = k
        for term, counts in delta.get("terms", {}).items():
            for i in range(2 * depth):
                k = int(counts[i])
                if k:
                    field = f"{i}{_SEP}{term}"
                    pipe.hincrby(self.terms_key, field, k)
                    shipped[field] = k
        return shipped

    def pooled(self) -> dict[str, Any]:
        """Every worker's counts, in ``to_dict`` format."""
        docs, terms = self._read()
        return self._as_model(docs, terms)

    def exchange(self, delta: dict[str, Any] | None) -> dict[str, Any]:
        """Ship ``delta``; return what other workers added since this pool's last exchange."""
        with self._lock:
            pipe = self.client.pipeline(transaction=True)
            # the crawl's generation (geofocus.redis.generation): a Redis that lost the crawl gets no
            # model counts either (the frontier reports the loss and the worker stops)
            pipe.watch(self.generation_key)
            current = pipe.get(self.generation_key)
            if self._generation is None:
                self._generation = current
            elif current != self._generation:
                pipe.reset()
                return self._as_model({}, {})
            pipe.multi()
            shipped = self._queue_add(pipe, delta) if delta else {}
            pipe.hgetall(self.docs_key)
            pipe.hgetall(self.terms_key)
            results = pipe.execute()
            docs = {k.decode(): int(v) for k, v in results[-2].items()}
            terms = {k.decode(): int(v) for k, v in results[-1].items()}
            new_docs: dict[str, int] = {}
            for field, value in docs.items():
                own = shipped.get(f"d{field}", 0)
                diff = value - self._seen_docs.get(field, 0) - own
                if diff > 0:
                    new_docs[field] = diff
            new_terms: dict[str, int] = {}
            for field, value in terms.items():
                diff = value - self._seen_terms.get(field, 0) - shipped.get(field, 0)
                if diff > 0:
                    new_terms[field] = diff
            self._seen_docs, self._seen_terms = docs, terms
            return self._as_model(new_docs, new_terms)

    def _read(self) -> tuple[dict[str, int], dict[str, int]]:
        pipe = self.client.pipeline(transaction=True)
        pipe.hgetall(self.docs_key)
        pipe.hgetall(self.terms_key)
        raw_docs, raw_terms = pipe.execute()
        return ({k.decode(): int(v) for k, v in raw_docs.items()},
                {k.decode(): int(v) for k, v in raw_terms.items()})

    def _as_model(self, docs: dict[str, int], terms: dict[str, int]) -> dict[str, Any]:
        n = 2 * self.depth
        out_docs = [[0, 0] for _ in range(self.depth)]
        for field, value in docs.items():
            i = int(field)
            if i < n:
                out_docs[i // 2][i % 2] = value
        out_terms: dict[str, list[int]] = {}
        for field, value in terms.items():
            idx, _, term = field.partition(_SEP)
            i = int(idx)
            if i < n:
                out_terms.setdefault(term, [0] * n)[i] = value
        return {"format": FORMAT, "version": 1, "depth": self.depth, "alpha": self.alpha,
                "docs": out_docs, "terms": out_terms}

