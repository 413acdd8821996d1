"""Bridge page-aware naive Bayes link model (Ahlers & Boll 2009, sections 4.4-4.5).

Pure Python, no Scrapy.  For each prediction depth d = 1..n the model is a
multinomial naive Bayes over link terms (see ``features.link_terms``) with two
classes: the page d links behind the link is relevant (geoRel_d) or not.

Estimates per depth d, with smoothing ``alpha`` (1 by default)::

    p(c)      = (D_c + alpha) / (D_0 + D_1 + 2 alpha)        D_c: examples of class c (Laplace)
    p(t | c)  = (n_tc + alpha pi_c) / (N_c + alpha pi_c |V|)  n_tc: count of term t in class c,
                                                              N_c: all term counts of class c,
                                                              pi_c = N_c / (N_0 + N_1),
                                                              |V|: distinct terms seen at depth d
    p(geoRel_d | f) = p(1) prod_t p(t|1) / sum_c p(c) prod_t p(t|c)

Smoothing: Laplace's alpha pseudo-occurrences per term, split between the
classes in proportion to their term mass (pi_c), instead of alpha for each
class as in the paper.  Plain Laplace smoothing misbehaves on the skewed
classes of a crawl (far fewer relevant than irrelevant pages): a term seen
once, in an irrelevant link only, gets p(t|1) = alpha / (N_1 + alpha |V|) above
p(t|0) = (1 + alpha) / (N_0 + alpha |V|) as soon as N_0 >> N_1, i.e. counts as
evidence of relevance, and an untrained-for-relevance crawl chases the links
it has seen fail (on tests/test_prediction_e2e.py's web it found 0 contact
pages in 120 fetches where the distance strategy found 11).  With the split
pseudo-counts a term spread over the classes like all terms are is neutral
(ratio 1), a term seen only in irrelevant links is evidence against, and a
term never seen at depth d is exactly neutral, so the product needs only the
link's terms that occur in V_d.  With equal classes this is Laplace smoothing
with alpha / 2.  While a depth has examples of one class only, its terms tell
nothing and p(geoRel_d | f) is the smoothed prior p(1), the same for every link.

Neutral prior: a depth with no training example has p(geoRel_d | f) = 0.5 for
every link, and ``prediction`` gives such a depth no weight; with no examples
at all the prediction is 0, so that ``priority`` equals the decay score and an
untrained adaptive crawl ranks links exactly as the distance strategy does (a
constant 0.5 would lift every link half-way to 1 without telling links apart,
and would skew new requests against ones queued with a trained model).

Cost: ``learn`` is O(len(terms) * n) (dict updates).  A query is one dict
lookup per term: each term's per-depth log ratio is cached, computed with the
pseudo-counts a_c = alpha pi_c of the current cache epoch, which ends when an
a_c drifts by more than ``tolerance`` (default 0.1 %, relative; 0 = exact);
the prior and log(N_0 / N_1) are exact.  In a long crawl the class shares
settle, epochs grow long, and nearly every query is served from the cache.  Counts are plain
integers, so models add up (``merge``), workers can ship what they learned since the last
time (``take_delta``), and a model is saved as JSON.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["FORMAT", "BridgeNaiveBayes", "priority"]

FORMAT = "geofocus/bridge-naive-bayes"
VERSION = 1
NEUTRAL = 0.5


def priority(score: float, prediction: float | None) -> float:
    """priority(L) = score(L) + prediction(L) * (1 - score(L)); the score if there is no prediction."""
    if prediction is None:
        return score
    return score + prediction * (1.0 - score)


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


class BridgeNaiveBayes:
    """Per-depth naive Bayes p(geoRel_d | terms), d = 1..depth (see the module docstring)."""

    def __init__(
        self,
        depth: int = 3,
        alpha: float = 1.0,
        track_delta: bool = False,
        tolerance: float = 1e-3,
    ) -> None:
        if not isinstance(depth, int) or depth < 1:
            raise ValueError(f"depth must be an integer >= 1, got {depth!r}")
        if not alpha > 0:
            raise ValueError(f"alpha must be > 0, got {alpha!r}")
        if not tolerance >= 0:
            raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
        self.depth = depth
        self.alpha = float(alpha)
        self.tolerance = float(tolerance)
        # Per depth: examples [negative, positive], term counts [neg, pos].
        self._docs: list[list[int]] = [[0, 0] for _ in range(depth)]
        self._totals: list[list[int]] = [[0, 0] for _ in range(depth)]
        # term -> [n_t0(d=1), n_t1(d=1), n_t0(d=2), n_t1(d=2), ...]
        self._counts: dict[str, list[int]] = {}
        # Per-depth (prior log odds, a_0, a_1, log(N_0 / N_1)) or None for a
        # depth without examples; rebuilt lazily after learning.
        self._consts: list[tuple[float, float, float, float] | None] | None = None
        # Query cache.  term -> [w_1 .. w_n, k_1 .. k_n, epoch] with
        # w_d = log((n_t1 + a_1) / (n_t0 + a_0)) and k_d = 1.0 if t is in V_d.
        # The pseudo-counts a_c drift with every example; the cached w_d use the
        # a_c of the current epoch, which ends when some a_c has drifted by more
        # than ``tolerance`` (relative).  tolerance 0: exact, every update a new epoch.
        self._wcache: dict[str, list[float]] = {}
        self._epoch = 0
        self._epoch_pseudo: list[tuple[float, float]] = [(0.0, 0.0)] * depth
        # (the _epoch_pseudo list they were made from, blank cache entry, per-depth constants)
        self._epoch_rows: tuple[Any, list[float], list[tuple[int, int, int, float, float]]] | None = None
        self._decay_weights: dict[float, list[float]] = {}
        self._delta: BridgeNaiveBayes | None = (
            BridgeNaiveBayes(depth, alpha) if track_delta else None
        )

    # -- learning -------------------------------------------------------------

    def learn(self, terms: Iterable[str], depth: int, label: bool) -> None:
        """Add one example: the page ``depth`` links behind a link with ``terms`` is ``label``."""
        if not 1 <= depth <= self.depth:
            raise ValueError(f"depth must be in 1..{self.depth}, got {depth!r}")
        terms = list(terms)
        c = 1 if label else 0
        d = depth - 1
        self._docs[d][c] += 1
        self._consts = None
        # ``_add(t, d, c, 1)`` for each term, inline (a crawl learns up to n examples per page)
        counts_of = self._counts
        get = counts_of.get
        forget = self._wcache.pop
        i = 2 * d + c
        size = 2 * self.depth
        for t in terms:
            counts = get(t)
            if counts is None:
                counts = counts_of[t] = [0] * size
            counts[i] += 1
            forget(t, None)
        self._totals[d][c] += len(terms)
        if self._delta is not None:
            self._delta.learn(terms, depth, label)

    def _add(self, term: str, d: int, c: int, k: int) -> None:
        """Add ``k`` occurrences of ``term`` to class ``c`` at depth index ``d``."""
        counts = self._counts.get(term)
        if counts is None:
            counts = self._counts[term] = [0] * (2 * self.depth)
        counts[2 * d + c] += k
        self._totals[d][c] += k
        self._consts = None
        self._wcache.pop(term, None)

    def examples(self, depth: int | None = None) -> int:
        """Number of training examples (at ``depth``, or at all depths)."""
        if depth is None:
            return sum(a + b for a, b in self._docs)
        return sum(self._docs[depth - 1])

    @property
    def n_terms(self) -> int:
        """Distinct terms the model holds counts for (all depths)."""
        return len(self._counts)

    # -- querying -------------------------------------------------------------

    def _constants(self) -> list[tuple[float, float, float, float] | None]:
        """Per depth: (prior log odds, a_0, a_1, log(N_0 / N_1)); None without examples.

        a_c = alpha * pi_c is the pseudo-count of class c per term; a_1 = 0 when a
        class has no term yet (then the terms cannot tell the classes apart).
        Starts a new cache epoch when some a_c drifted beyond the tolerance.
        """
        a = self.alpha
        consts: list[tuple[float, float, float, float] | None] = []
        for d in range(self.depth):
            d0, d1 = self._docs[d]
            if d0 + d1 == 0:
                consts.append(None)
                continue
            prior = math.log(d1 + a) - math.log(d0 + a)
            n0, n1 = self._totals[d]
            if n0 == 0 or n1 == 0:
                consts.append((prior, 0.0, 0.0, 0.0))
                continue
            total = n0 + n1
            consts.append((prior, a * n0 / total, a * n1 / total, math.log(n0 / n1)))
        tol = self.tolerance
        for d, c in enumerate(consts):
            new = (c[1], c[2]) if c is not None else (0.0, 0.0)
            old = self._epoch_pseudo[d]
            if any(abs(x - y) > tol * y or (y == 0) != (x == 0) for x, y in zip(new, old, strict=True)):
                self._epoch += 1
                self._epoch_pseudo = [
                    (c[1], c[2]) if c is not None else (0.0, 0.0) for c in consts
                ]
                break
        self._consts = consts
        return consts

    def _term_weights(self, counts: list[int]) -> list[float]:
        """Cache entry of a term: [w_1 .. w_n, k_1 .. k_n, epoch] with the epoch's a_c."""
        # In a crawl's first thousands of pages the class shares drift past the tolerance after
        # nearly every page, so every term of a page's links is recomputed here: the per-epoch
        # constants come ready-made (``_epoch_rows``) instead of being unpacked per term.
        rows = self._epoch_rows
        if rows is None or rows[0] is not self._epoch_pseudo:
            rows = self._rebuild_epoch_rows()
        w = rows[1][:]
        log = math.log
        for d, i, k, a0, a1 in rows[2]:
            n0 = counts[i]
            n1 = counts[i + 1]
            if n0 or n1:
                w[k] = 1.0
                if a1:
                    w[d] = log((n1 + a1) / (n0 + a0))
        return w

    def _rebuild_epoch_rows(self) -> tuple[Any, list[float], list[tuple[int, int, int, float, float]]]:
        n = self.depth
        blank = [0.0] * (2 * n + 1)
        blank[2 * n] = self._epoch
        rows = (self._epoch_pseudo, blank,
                [(d, 2 * d, n + d, a0, a1) for d, (a0, a1) in enumerate(self._epoch_pseudo)])
        self._epoch_rows = rows
        return rows

    def probabilities(self, terms: Iterable[str]) -> list[float]:
        """[p(geoRel_1 | terms), ..., p(geoRel_n | terms)]; 0.5 for a depth without examples."""
        consts = self._consts if self._consts is not None else self._constants()
        epoch = self._epoch
        cache = self._wcache
        counts_of = self._counts.get
        get = cache.get
        rows: list[list[float]] = []
        append = rows.append
        for t in terms:
            w = get(t)
            if w is None or w[-1] != epoch:
                counts = counts_of(t)
                if counts is None:
                    continue  # never seen: no evidence either way (see the module docstring)
                w = cache[t] = self._term_weights(counts)
            append(w)
        n = self.depth
        sums = list(map(sum, zip(*rows, strict=True))) if rows else [0.0] * (2 * n + 1)
        out = []
        for d, c in enumerate(consts):
            if c is None:
                out.append(NEUTRAL)
            elif not c[2]:
                out.append(_sigmoid(c[0]))  # one class only: the prior
            else:
                # log p(1|f) / p(0|f) = prior log odds + sum over the terms t of V_d of
                # [log((n_t1 + a_1) / (n_t0 + a_0)) + log(N_0 / N_1)]; the factor
                # (1 + alpha |V| / N) of both classes' denominators cancels.
                out.append(_sigmoid(c[0] + sums[d] + sums[n + d] * c[3]))
        return out

    def prediction(self, terms: Iterable[str], decay: float = 0.5) -> float:
        """sum_d decay**d p_d / sum_d decay**d over the depths that have examples; 0 if none."""
        weights = self._decay_weights.get(decay)
        if weights is None:
            weights = self._decay_weights[decay] = [decay ** (d + 1) for d in range(self.depth)]
        docs = self._docs
        num = den = 0.0
        for d, p in enumerate(self.probabilities(terms)):
            neg, pos = docs[d]
            if neg or pos:
                num += weights[d] * p
                den += weights[d]
        return num / den if den > 0 else 0.0

    def top_terms(self, depth: int = 1, k: int = 20) -> list[tuple[str, float]]:
        """The ``k`` terms with the highest log odds log p(t|1)/p(t|0) at ``depth`` (for reports)."""
        d = depth - 1
        consts = self._consts if self._consts is not None else self._constants()
        c = consts[d]
        if c is None or not c[2]:
            return []
        _, a0, a1, shift = c
        i = 2 * d
        scored = [
            (t, math.log((n[i + 1] + a1) / (n[i] + a0)) + shift)
            for t, n in self._counts.items()
            if n[i] or n[i + 1]
        ]
        scored.sort(key=lambda x: (-x[1], x[0]))
        return scored[:k]

    # -- pooling --------------------------------------------------------------

    def merge(self, other: BridgeNaiveBayes | Mapping[str, Any]) -> None:
        """Add the counts of ``other`` (a model, or a dict as from ``to_dict``/``take_delta``).

        Depths of ``other`` beyond this model's depth are ignored.  Merged counts are
        not recorded as this model's own delta.
        """
        data = other.to_dict() if isinstance(other, BridgeNaiveBayes) else other
        self._check_format(data)
        m = min(self.depth, int(data["depth"]))
        for d in range(m):
            neg, pos = data["docs"][d]
            self._docs[d][0] += int(neg)
            self._docs[d][1] += int(pos)
        for term, counts in data["terms"].items():
            for d in range(m):
                for c in (0, 1):
                    k = int(counts[2 * d + c])
                    if k:
                        self._add(term, d, c, k)

    def take_delta(self) -> dict[str, Any]:
        """Counts learned since the last call (``to_dict`` format), then reset them.

        Requires ``track_delta=True``.  Adding every worker's deltas to one model
        gives the model of all their examples (counts are additive).
        """
        if self._delta is None:
            raise RuntimeError("take_delta() needs a model built with track_delta=True")
        data = self._delta.to_dict()
        self._delta = BridgeNaiveBayes(self.depth, self.alpha)
        return data

    def requeue_delta(self, delta: Mapping[str, Any]) -> None:
        """Put a delta from ``take_delta`` back (its shipping failed): the next delta includes it."""
        if self._delta is None:
            raise RuntimeError("requeue_delta() needs a model built with track_delta=True")
        self._delta.merge(delta)

    def resized(self, depth: int) -> BridgeNaiveBayes:
        """A copy with prediction depth ``depth`` (counts of depths 1..min kept, extra depths empty)."""
        model = BridgeNaiveBayes(
            depth, self.alpha, track_delta=self._delta is not None, tolerance=self.tolerance
        )
        model.merge(self)
        return model

    # -- persistence ----------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable counts: {"format", "version", "depth", "alpha", "docs", "terms"}."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "depth": self.depth,
            "alpha": self.alpha,
            "docs": [list(x) for x in self._docs],
            "terms": {t: list(c) for t, c in self._counts.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], track_delta: bool = False) -> BridgeNaiveBayes:
        cls._check_format(data)
        model = cls(int(data["depth"]), float(data["alpha"]), track_delta=track_delta)
        model.merge(data)
        return model

    @staticmethod
    def _check_format(data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} model")
        if data.get("version") != VERSION:
            raise ValueError(f"unsupported model version {data.get('version')!r}")
        depth = data.get("depth")
        docs = data.get("docs")
        terms = data.get("terms")
        if not isinstance(depth, int) or depth < 1:
            raise ValueError(f"bad model depth {depth!r}")
        if not isinstance(docs, Sequence) or len(docs) != depth:
            raise ValueError("model 'docs' must hold one [negative, positive] pair per depth")
        if not isinstance(terms, Mapping):
            raise ValueError("model 'terms' must be an object")
        for term, counts in terms.items():
            if not isinstance(counts, Sequence) or len(counts) != 2 * depth:
                raise ValueError(f"model counts of term {term!r} must have {2 * depth} entries")

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model as JSON, atomically (a reader never sees half a file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.to_dict(), f, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | os.PathLike[str], track_delta: bool = False) -> BridgeNaiveBayes:
        """Read a model saved by ``save``; ValueError if the file is not one."""
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not JSON: {e}") from e
        try:
            return cls.from_dict(data, track_delta=track_delta)
        except (ValueError, TypeError, KeyError) as e:
            raise ValueError(f"{path}: {e}") from e

    def __repr__(self) -> str:
        return (
            f"BridgeNaiveBayes(depth={self.depth}, alpha={self.alpha}, "
            f"examples={[sum(x) for x in self._docs]}, terms={len(self._counts)})"
        )
