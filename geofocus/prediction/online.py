"""Online logistic link model on hashed features, with host yield (the ``online`` strategy).

Pure Python + numpy, no Scrapy.  Where ``model.BridgeNaiveBayes`` is the
paper's naive Bayes, this is the discriminative alternative measured in
docs/prediction.md:

* **Features** are integer ids in [0, 2**bits): the CRC-32 of each term of
  ``features.link_terms`` (host, path, anchor, title and context words, the
  domain switch), taken modulo 2**bits (default 2**20 buckets).  A link's
  static ids are computed once, when it is found, and travel with its request
  (JSON: a list of ints).  At scoring time a few *dynamic* ids are added, from
  facts that change while the link waits in the frontier: its bridge distance
  bucket (``dist:k``) and the yield of its target host so far (``hy:f:r``,
  fetched and relevant pages of the host, bucketed; see ``host_ids``).
* **Learner**: for each depth d = 1..n one logistic regression
  p(geoRel_d | x) = sigmoid(b_d + sum of w_d[i] over the link's ids i), trained
  online with AdaGrad (per-weight step ``lr / sqrt(sum of squared gradients)``),
  one step per example: the page d links behind a link is relevant or not,
  exactly the examples the naive Bayes learns from.
* **Prediction** = sum_d decay**d p_d / sum_d decay**d over the depths that have
  examples (the paper's fusion over depths), and the link's priority is that
  prediction itself: the bridge distance enters as a learned feature instead of
  the fixed ``score + prediction * (1 - score)``.
* **Scoring many links at once** (``score_many``): the ids of N links are one
  CSR (indptr, indices) matrix and every depth's logits come from one
  sparse (links x ids) by dense (ids x depths) matrix product (scipy); a
  frontier can re-score all its queued links after each model update in one
  vectorised call (``score_queued``).

The model (weights, AdaGrad state, example counts and the host table) is saved
as an ``.npz`` file of plain arrays (``np.load(..., allow_pickle=False)``),
never pickle.
"""

from __future__ import annotations

import json
import math
import os
import struct
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Iterable, Sequence
from itertools import compress
from pathlib import Path

import numpy as np

__all__ = ["FORMAT", "OnlineLinkModel", "QueuedLinks", "term_ids"]

FORMAT = "geofocus/online-logistic"
VERSION = 1

# bits -> {term: id}: one dict per width, keyed by the term itself (no key tuple to build).
_ID_CACHES: dict[int, dict[str, int]] = {}
# Up to this many ids (all links of a batch together) scoring gathers the weights; beyond it one
# scipy sparse product (the gather would copy ids x depths floats: 12 bytes each at depth 3).
_GATHER_MAX_IDS = 50_000
_ID_CACHE_MAX = 500_000
# Up to this many ids a whole queue is summed by ``_positional_sums`` (numpy only) unless scipy is
# loaded already: importing scipy.sparse costs ~0.2 s of CPU, as much as ~100 passes over a queue of
# 14,000 links cost more this way (1.2x scipy's time at 14,000 links, 1.4x at 40,000).  A crawl whose
# queue grows past it imports scipy then (docs/performance.md, Session 10).
_POSITIONAL_MAX_IDS = 1_000_000


def term_ids(terms: Iterable[str], bits: int = 20) -> list[int]:
    """Sorted distinct hashed ids of ``terms`` in [0, 2**bits) (CRC-32: stable across processes)."""
    cache = _ID_CACHES.get(bits)
    if cache is None:
        cache = _ID_CACHES[bits] = {}
    get = cache.get
    out: set[int] = set()
    add = out.add
    for t in terms:
        i = get(t)
        if i is None:
            if len(cache) >= _ID_CACHE_MAX:
                cache.clear()
            i = cache[t] = zlib.crc32(t.encode("utf-8", "surrogatepass")) & ((1 << bits) - 1)
        add(i)
    return sorted(out)


def _bucket_fetched(n: int) -> int:
    return 0 if n == 0 else 1 if n < 3 else 2 if n < 10 else 3


def _bucket_relevant(n: int) -> int:
    return 0 if n == 0 else 1 if n < 2 else 2


class OnlineLinkModel:
    """Per-depth online logistic regression over hashed link features (see the module docstring)."""

    def __init__(self, depth: int = 3, bits: int = 20, lr: float = 0.3, bias_lr: float = 0.05) -> None:
        if not isinstance(depth, int) or depth < 1:
            raise ValueError(f"depth must be an integer >= 1, got {depth!r}")
        if not isinstance(bits, int) or not 8 <= bits <= 24:
            raise ValueError(f"bits must be an integer in 8..24, got {bits!r}")
        if not lr > 0:
            raise ValueError(f"lr must be > 0, got {lr!r}")
        self.depth = depth
        self.bits = bits
        self.lr = float(lr)
        self.bias_lr = float(bias_lr)
        size = 1 << bits
        # One row per feature id, one column per depth: a frontier's (links x ids) sparse
        # matrix times this matrix gives every link's logits at every depth at once.
        self.weights = np.zeros((size, depth), dtype=np.float32)
        self._g2 = np.zeros((size, depth), dtype=np.float32)
        self.bias = np.zeros(depth, dtype=np.float64)
        self.docs = np.zeros((depth, 2), dtype=np.int64)  # [negative, positive] examples per depth
        # Host yield: host -> [fetched, relevant] pages so far.
        self.hosts: dict[str, list[int]] = {}
        self._dyn_cache: dict[str, int] = {}
        self._decay_weights: dict[tuple, tuple[np.ndarray, bool]] = {}
        self._trained: tuple[bool, ...] | None = None  # depths with examples; None: count again
        # The dynamic ids by value: dist:0..dist:6, and hy:f:r by [f][r] (see dynamic_ids).
        self._dist_ids = [self._dyn(f"dist:{k}") for k in range(7)]
        self._hy_ids = [[self._dyn(f"hy:{f}:{r}") for r in range(3)] for f in range(4)]

    # -- features -------------------------------------------------------------

    def ids(self, terms: Iterable[str]) -> list[int]:
        """Static ids of a link's terms (``features.link_terms``) for this model's bits."""
        return term_ids(terms, self.bits)

    def _dyn(self, name: str) -> int:
        i = self._dyn_cache.get(name)
        if i is None:
            i = self._dyn_cache[name] = term_ids((name,), self.bits)[0]
        return i

    def dynamic_ids(self, dist: int | None, host: str | None) -> list[int]:
        """Ids of the facts that change while a link waits: bridge distance and host yield."""
        out = []
        if dist is not None:
            d = min(int(dist), 6)
            out.append(self._dist_ids[d] if d >= 0 else self._dyn(f"dist:{d}"))
        if host:
            out.append(self._host_yield_id(host))
        return out

    def _host_yield_id(self, host: str) -> int:
        """The id of ``hy:f:r``: the host's fetched and relevant pages so far, bucketed."""
        stats = self.hosts.get(host)
        if stats is None:
            return self._hy_ids[0][0]
        fetched, relevant = stats
        return self._hy_ids[_bucket_fetched(fetched)][_bucket_relevant(relevant)]

    def _host_yield_ids(self, host_names: Sequence[str]) -> list[int]:
        """``[self._host_yield_id(h) for h in host_names]``, the buckets inline: a whole-queue pass
        looks up every host its queue ever named."""
        get = self.hosts.get
        table = self._hy_ids
        unseen = table[0][0]
        out: list[int] = []
        append = out.append
        for host in host_names:
            stats = get(host)
            if stats is None:
                append(unseen)
                continue
            fetched, relevant = stats
            append(table[0 if fetched == 0 else 1 if fetched < 3 else 2 if fetched < 10 else 3]
                   [0 if relevant == 0 else 1 if relevant < 2 else 2])
        return out

    def observe_host(self, host: str, relevant: bool) -> None:
        """Count a fetched page of ``host`` (after learning from it)."""
        stats = self.hosts.get(host)
        if stats is None:
            stats = self.hosts[host] = [0, 0]
        stats[0] += 1
        stats[1] += bool(relevant)

    # -- learning -------------------------------------------------------------

    def learn(self, ids: Sequence[int], depth: int, label: bool) -> None:
        """One AdaGrad step on an example: the page ``depth`` links behind a link with ``ids`` is ``label``."""
        if not 1 <= depth <= self.depth:
            raise ValueError(f"depth must be in 1..{self.depth}, got {depth!r}")
        d = depth - 1
        # The distinct ids in order (what np.unique gives, at a fifth of its cost on a link's ids).
        idx = np.array(sorted(set(ids)), dtype=np.int64)
        if idx.size and (idx[0] < 0 or idx[-1] >= self.weights.shape[0]):
            raise ValueError("feature id out of range")
        # The depth's column as a 1-d view: indexing it costs a tenth of weights[idx, d].
        weights = self.weights[:, d]
        z = self.bias[d] + float(weights[idx].sum())
        g = _sigmoid(z) - (1.0 if label else 0.0)
        if idx.size:
            g2s = self._g2[:, d]
            g2 = g2s[idx] + g * g
            g2s[idx] = g2
            weights[idx] -= self.lr * g / np.sqrt(g2 + 1e-6)
        self.bias[d] -= self.bias_lr * g
        if self._trained is not None and not self._trained[d]:
            self._trained = None  # this depth's first example: the fusion weights change
        self.docs[d, 1 if label else 0] += 1

    def learn_path(self, id_lists: Sequence[Sequence[int]], label: bool) -> int:
        """``learn(id_lists[k], k + 1, label)`` for k = 0, 1, ..., in one vectorised step.

        The same arithmetic on the same float32 values as one ``learn`` per example (each depth
        reads and writes only its own column and bias, so the order of the depths does not
        matter), with a third of the numpy calls: a fetched page is one example per depth.
        Returns how many leading examples were learned: an example with an id out of range
        (ValueError in ``learn``) is not, nor are those after it.
        """
        size = self.weights.shape[0]
        depth = self.depth
        rows: list[list[int]] = []
        for ids in id_lists[:depth]:
            idx = sorted(set(ids))
            if idx and (idx[0] < 0 or idx[-1] >= size):
                break
            rows.append(idx)
        if not rows:
            return 0
        if len(rows) == 1:
            self.learn(rows[0], 1, label)
            return 1
        lengths = [len(idx) for idx in rows]
        # Positions in the flattened (ids x depths) arrays: id i at depth index d is i * depth + d.
        flat = np.array([i * depth + d for d, idx in enumerate(rows) for i in idx], dtype=np.int64)
        weights = self.weights.reshape(-1)
        g2s = self._g2.reshape(-1)
        values = weights[flat]
        y = 1.0 if label else 0.0
        bias = self.bias.tolist()  # Python floats: the same float64 values, without numpy scalars
        gs: list[float] = []
        start = 0
        for d, n in enumerate(lengths):
            # float32 sum of the depth's weights, as learn's weights[idx, d].sum()
            z = bias[d] + float(_sum(values[start : start + n]))  # = values[...].sum()
            gs.append(_sigmoid(z) - y)
            start += n
        if flat.size:
            # learn's float32 steps: g2 + g*g, then w - (lr*g) / sqrt(g2 + 1e-6), elementwise; g*g and
            # lr*g per depth as one float32 array (the same conversions), repeated over the depth's ids
            per_id = np.array([[g * g for g in gs], [self.lr * g for g in gs]], dtype=np.float32).repeat(
                lengths, axis=1)
            g2 = g2s[flat] + per_id[0]
            g2s[flat] = g2
            weights[flat] = values - per_id[1] / np.sqrt(g2 + 1e-6)
        k = len(gs)
        # bias[d] -= bias_lr * g for each depth d < k: the same float64 products and differences
        self.bias[:k] = [bias[d] - self.bias_lr * g for d, g in enumerate(gs)]
        if self._trained is not None and not all(self._trained[:k]):
            self._trained = None  # a depth's first example: the fusion weights change
        self.docs[:k, 1 if label else 0] += 1
        return len(rows)

    def has_examples(self) -> bool:
        """``examples() > 0`` from the depths known to have examples (kept between calls), without a sum."""
        trained = self._trained
        if trained is None:
            trained = self._trained = tuple(bool(x) for x in self.docs.sum(axis=1))
        return any(trained)

    def examples(self, depth: int | None = None) -> int:
        if depth is None:
            return int(self.docs.sum())
        return int(self.docs[depth - 1].sum())

    # -- querying -------------------------------------------------------------

    def probabilities(self, ids: Sequence[int]) -> list[float]:
        """[p(geoRel_1 | ids), ..., p(geoRel_n | ids)]."""
        idx = np.asarray(ids, dtype=np.int64)
        z = self.bias + self.weights[idx].sum(axis=0)
        return [_sigmoid(float(x)) for x in z]

    def _mix(self, decay: float) -> np.ndarray:
        """Fusion weights over depths: decay**d for depths with examples, normalised; zeros if none."""
        return self._mix_any(decay)[0]

    def _mix_any(self, decay: float) -> tuple[np.ndarray, bool]:
        """``_mix(decay)`` and whether any of its weights is non-zero (``mix.any()``)."""
        trained = self._trained
        if trained is None:
            trained = self._trained = tuple(bool(x) for x in self.docs.sum(axis=1))
        key = (decay, trained)
        found = self._decay_weights.get(key)
        if found is None:
            w = np.array([decay ** (d + 1) if trained[d] else 0.0 for d in range(self.depth)], dtype=np.float64)
            total = w.sum()
            mix = w / total if total > 0 else w
            found = self._decay_weights[key] = (mix, bool(mix.any()))
        return found

    def prediction(self, ids: Sequence[int], decay: float = 0.5) -> float:
        """sum_d decay**d p_d / sum_d decay**d over the depths with examples; 0 before any example."""
        mix = self._mix(decay)
        if not mix.any():
            return 0.0
        z = self.bias + self.weights[ids].sum(axis=0) if len(ids) else self.bias
        return float((1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))) @ mix)

    def score_many(self, id_lists: Sequence[Sequence[int]], decay: float = 0.5) -> np.ndarray:
        """Predictions of many links at once (one gather + bincount per depth); float64 array."""
        n = len(id_lists)
        lengths = np.fromiter((len(x) for x in id_lists), dtype=np.int64, count=n)
        indices = np.fromiter((i for x in id_lists for i in x), dtype=np.int64, count=int(lengths.sum()))
        return self.score_csr(lengths, indices, decay)

    def score_csr(self, lengths: np.ndarray, indices: np.ndarray, decay: float = 0.5) -> np.ndarray:
        """Predictions of links given as row lengths + concatenated ids (the layout a frontier can keep)."""
        n = len(lengths)
        mix, nonzero = self._mix_any(decay)
        if n == 0 or not nonzero:
            return np.zeros(n, dtype=np.float64)
        return self._fuse(self._logits(lengths, indices), mix)

    def _logits(self, lengths: np.ndarray, indices: np.ndarray) -> np.ndarray:
        """(links x depths) logits: one sparse (links x ids) by dense (ids x depths) product."""
        n = len(lengths)
        indices = np.asarray(indices)
        if len(indices) <= _GATHER_MAX_IDS:
            # A page's links: a gather and a segmented sum cost a tenth of building a scipy matrix.
            if not len(indices):
                return np.tile(self.bias, (n, 1))
            lengths = np.asarray(lengths, dtype=np.int64)
            starts = np.cumsum(lengths) - lengths
            # take: the rows of weights[indices] at a third of the cost of fancy indexing
            rows = self.weights.take(indices, axis=0)
            if lengths.all():  # the usual batch: every link has ids
                sums = np.add.reduceat(rows, starts, axis=0)
            else:
                sums = np.add.reduceat(rows, np.minimum(starts, len(indices) - 1), axis=0)
                sums[lengths == 0] = 0.0  # reduceat gives an empty row its next element
            sums = sums.astype(np.float64)
            sums += self.bias
            return sums
        if len(indices) <= _POSITIONAL_MAX_IDS and "scipy.sparse" not in sys.modules:
            # A small queue without importing scipy (~0.2 s of CPU): scipy's sums, bit for bit.
            return _positional_sums(self.weights, lengths, indices).astype(np.float64) + self.bias
        import scipy.sparse

        if indices.dtype not in (np.int32, np.int64):
            indices = indices.astype(np.int32)  # ids < 2**24: int32 halves the memory traffic
        indptr = np.zeros(n + 1, dtype=np.int64 if len(indices) >= 2**31 else indices.dtype)
        np.cumsum(lengths, out=indptr[1:])
        matrix = scipy.sparse.csr_matrix(
            (np.ones(len(indices), dtype=np.float32), indices, indptr), shape=(n, self.weights.shape[0])
        )
        return np.asarray(matrix @ self.weights, dtype=np.float64) + self.bias

    @staticmethod
    def _fuse(logits: np.ndarray, mix: np.ndarray) -> np.ndarray:
        """sum_d mix_d sigmoid(logit_d) per row."""
        # (1.0 / (1.0 + np.exp(-np.clip(logits, -30, 30)))) @ mix, the same float64 operations
        # in the same order, in one buffer: the clip as maximum then minimum (what the clip ufunc
        # computes, NaN included) without np.clip's Python wrapper.
        x = np.maximum(logits, -30.0)
        np.minimum(x, 30.0, out=x)
        np.negative(x, out=x)
        np.exp(x, out=x)
        np.add(x, 1.0, out=x)
        np.divide(1.0, x, out=x)
        return x @ mix

    def score_queued(
        self,
        lengths: np.ndarray,
        indices: np.ndarray,
        dists: np.ndarray,
        host_codes: np.ndarray,
        host_names: Sequence[str],
        decay: float = 0.5,
    ) -> np.ndarray:
        """Predictions of a whole frontier in one vectorised pass: the interface for a frontier.

        Row r is a queued link: its static ids are ``indices[sum(lengths[:r]) : sum(lengths[:r+1])]``
        (the ``meta["geofocus"]["path"][0]`` it was queued with), ``dists[r]`` its bridge
        distance (-1: none) and ``host_codes[r]`` its target host as an index into
        ``host_names`` (-1: none).  The dynamic ids (distance bucket, host yield) are looked
        up per distinct host, not per row, so the cost is one gather + bincount per depth.
        """
        n = len(lengths)
        mix = self._mix(decay)
        if n == 0 or not mix.any():
            return np.zeros(n, dtype=np.float64)
        dists = np.asarray(dists, dtype=np.int64)
        host_codes = np.asarray(host_codes, dtype=np.int64)
        dist_table = np.array([self._dyn(f"dist:{k}") for k in range(7)], dtype=np.int64)
        host_table = np.array(self._host_yield_ids(host_names) or [0], dtype=np.int64)
        has_dist = dists >= 0
        has_host = host_codes >= 0
        dist_ids = dist_table[np.clip(dists, 0, 6)]
        host_ids = host_table[np.clip(host_codes, 0, None)]
        logits = self._logits(lengths, indices)
        logits += np.where(has_dist[:, None], self.weights.take(dist_ids, axis=0), 0.0)
        logits += np.where(has_host[:, None], self.weights.take(host_ids, axis=0), 0.0)
        return self._fuse(logits, mix)

    def top_features(self, depth: int = 1, k: int = 20) -> list[tuple[int, float]]:
        """The ``k`` hashed ids with the largest weights at ``depth`` (for reports)."""
        w = self.weights[:, depth - 1]
        top = np.argsort(-w)[:k]
        return [(int(i), float(w[i])) for i in top]

    # -- persistence ----------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model as .npz of plain arrays (only the non-zero weights), atomically."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # the rows any(axis=1) names, column by column: a fifth of its time on the (2**bits x depth) table
        touched = self._g2[:, 0] != 0
        for d in range(1, self.depth):
            touched |= self._g2[:, d] != 0
        nz = np.flatnonzero(touched)
        header = {"format": FORMAT, "version": VERSION, "depth": self.depth, "bits": self.bits,
                  "lr": self.lr, "bias_lr": self.bias_lr}
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp.npz", dir=path.parent)
        os.close(fd)
        arrays = {
            "header": np.array(json.dumps(header)),
            "columns": nz.astype(np.int64),
            "weights": self.weights[nz],
            "g2": self._g2[nz],
            "bias": self.bias,
            "docs": self.docs,
            "hosts": np.array(json.dumps(self.hosts)),
        }
        try:
            # What np.savez_compressed writes (one .npy member per array), deflated at level 1, not 6:
            # the float32 weights hardly compress at any level (the file is within 1 % of level 6's
            # size) and level 6 took 1.6x the CPU (0.10 s against 0.06 s at 60,000 ids).
            with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
                for name, value in arrays.items():
                    with zf.open(name + ".npy", "w", force_zip64=True) as f:
                        np.lib.format.write_array(f, value, allow_pickle=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> OnlineLinkModel:
        """Read a model saved by ``save``; ValueError if the file is not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                if not isinstance(header, dict) or header.get("format") != FORMAT:
                    raise ValueError(f"not a {FORMAT} model")
                if header.get("version") != VERSION:
                    raise ValueError(f"unsupported model version {header.get('version')!r}")
                model = cls(int(header["depth"]), int(header["bits"]), float(header["lr"]),
                            float(header.get("bias_lr", 0.05)))
                cols = data["columns"]
                if cols.size and (cols.min() < 0 or cols.max() >= (1 << model.bits)):
                    raise ValueError("feature column out of range")
                shape = (cols.size, model.depth)
                if data["weights"].shape != shape or data["g2"].shape != shape:
                    raise ValueError("weights do not match the header")
                model.weights[cols] = data["weights"]
                model._g2[cols] = data["g2"]
                model.bias[:] = data["bias"]
                model.docs[:] = data["docs"]
                model._trained = None
                hosts = json.loads(str(data["hosts"]))
                if not isinstance(hosts, dict):
                    raise ValueError("bad host table")
                model.hosts = {str(h): [int(v[0]), int(v[1])] for h, v in hosts.items()}
        except (OSError, KeyError, TypeError, IndexError, EOFError, zipfile.BadZipFile, json.JSONDecodeError) as e:
            raise ValueError(f"{path}: not a {FORMAT} model ({e})") from e
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from e
        return model

    def __repr__(self) -> str:
        return (f"OnlineLinkModel(depth={self.depth}, bits={self.bits}, lr={self.lr}, "
                f"examples={self.docs.sum(axis=1).tolist()}, hosts={len(self.hosts)})")


class QueuedLinks:
    """The features of a frontier's queued links, by fingerprint, for whole-queue re-scoring.

    One ``bytes`` per link: int32 ``[dist, host code, found, *static ids]`` (dist -1: none; the
    host as an index into ``host_names``, -1: none; ``found`` the bits of the float32 priority
    the link was given when it was found), about 100 + 4 x (ids) bytes of memory per queued
    link with the dict slot.  ``rescore`` takes the frontier's queued fingerprints and
    priorities, keeps the records of those still queued (the others were fetched, or refused
    as duplicates), turns them into the CSR layout of ``OnlineLinkModel.score_queued`` with a
    few numpy operations, and answers the new priorities (NaN: keep).

    The new priority is ``(1 - found_weight) x`` the current model's prediction ``+
    found_weight x`` the priority the link was found with.  The model learns only from the
    pages it chose, so re-ranking the whole queue by the current model alone narrows the crawl
    onto what it already likes: in process (docs/prediction.md, "Keeping the first opinion")
    that made whole-queue re-scoring lose to no re-scoring on the us-top100 web, and keeping
    0.3 of the first opinion won on both webs tried (in process; within the noise of real
    3,000-fetch crawls).
    """

    HEADER = 3  # int32 words before a record's ids

    def __init__(self, found_weight: float = 0.0) -> None:
        if not 0.0 <= found_weight <= 1.0:
            raise ValueError(f"found_weight must be in [0, 1], got {found_weight!r}")
        self.found_weight = float(found_weight)
        self._records: dict[str, bytes] = {}
        self._record_bytes = 0  # sum of len() over the records: nbytes() without walking them
        self._hosts: dict[str, int] = {}
        self.host_names: list[str] = []
        self.last_scored = 0  # rows of the last ``rescore`` that had features

    def __len__(self) -> int:
        return len(self._records)

    def add(self, fingerprint: str, ids: Sequence[int], dist: int | None, host: str | None,
            found: float = 0.0) -> None:
        """Record (or replace) a queued link's features and the priority it was found with."""
        code = -1
        if host:
            code = self._hosts.get(host, -1)
            if code < 0:
                code = self._hosts[host] = len(self.host_names)
                self.host_names.append(host)
        # one struct pack instead of numpy: a tenth of the cost for a record of 30 words ("f": the
        # float32 bits of ``found``, read back with ``view(np.float32)``)
        record = struct.pack(f"=iif{len(ids)}i", -1 if dist is None else dist, code, found, *ids)
        old = self._records.get(fingerprint)
        if old is not None:
            self._record_bytes -= len(old)
        self._records[fingerprint] = record
        self._record_bytes += len(record)

    def dist(self, fingerprint: str) -> int | None:
        """The bridge distance a queued link was recorded with (None: no record, or none recorded)."""
        record = self._records.get(fingerprint)
        if record is None:
            return None
        dist: int = _DIST_WORD.unpack_from(record)[0]
        return dist if dist >= 0 else None

    def nbytes(self) -> int:
        """Memory of the records: the bytes objects and the dict (the host table and the
        fingerprint strings, which the frontier holds anyway, not counted).  O(1): a bytes object's
        ``sys.getsizeof`` is its length plus a fixed header (that of ``b""``), and the lengths are
        kept as a running sum."""
        return self._record_bytes + len(self._records) * _BYTES_HEADER + sys.getsizeof(self._records)

    def rescore(
        self, model: OnlineLinkModel, fingerprints: Sequence[str], priorities: Sequence[float],
        decay: float = 0.5, min_change: float = 0.0,
    ) -> np.ndarray:
        """New priorities of ``fingerprints`` (NaN: no record, or moved less than ``min_change``)."""
        n = len(fingerprints)
        out = np.full(n, np.nan)
        found = list(map(self._records.get, fingerprints))
        # The rows with a record, by C iterators (a record is never empty: its header is 12 bytes,
        # so "has a record" is the truth of ``found``): a third of the comprehensions' time.
        rows = list(compress(range(n), found))
        blobs: list[bytes] = list(compress(found, found))  # type: ignore[arg-type]
        # forget links no longer queued
        self._records = dict(zip(compress(fingerprints, found), blobs, strict=True))
        self.last_scored = len(blobs)
        lengths = np.fromiter(map(len, blobs), dtype=np.int64, count=len(blobs))
        self._record_bytes = int(lengths.sum())
        if len(self._records) != len(blobs):  # a fingerprint listed twice: one record, counted once
            self._record_bytes = sum(map(len, self._records.values()))
        if not blobs or not model.has_examples():
            return out
        words = np.frombuffer(b"".join(blobs), dtype=np.int32)
        sizes = lengths // 4
        starts = np.cumsum(sizes) - sizes
        header = np.zeros(len(words), dtype=bool)
        for k in range(self.HEADER):
            header[starts + k] = True
        preds = model.score_queued(sizes - self.HEADER, words[~header], words[starts], words[starts + 1],
                                   self.host_names, decay)
        if self.found_weight:
            found = words[starts + 2].view(np.float32).astype(np.float64)
            preds = (1.0 - self.found_weight) * preds + self.found_weight * found
        row_index = np.asarray(rows, dtype=np.int64)
        old = np.asarray(priorities, dtype=np.float64)[row_index]
        moved = np.abs(preds - old) >= min_change
        out[row_index[moved]] = preds[moved]
        return out


def _positional_sums(weights: np.ndarray, lengths: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """float32 (links x depths) sums of each link's weight rows, the same as scipy's CSR product
    ``csr_matrix((ones, indices, indptr)) @ weights``: scipy adds a row's ids one after the other
    to a zero, in order (csr_matvecs), and so does this, one id position at a time for all the
    links that have one (links sorted by length, longest first, so that they are a prefix)."""
    n = len(lengths)
    lengths = np.asarray(lengths, dtype=np.int64)
    acc = np.zeros((n, weights.shape[1]), dtype=np.float32)
    if n == 0:
        return acc
    starts = np.cumsum(lengths) - lengths
    order = np.argsort(-lengths, kind="stable")
    sorted_lengths = lengths[order]
    sorted_starts = starts[order]
    longest = int(sorted_lengths[0])
    # links with more than k ids, for each position k
    counts = np.searchsorted(-sorted_lengths, -np.arange(longest), side="left")
    take = weights.take
    with np.errstate(all="ignore"):  # as quiet as scipy's C loop about inf and NaN
        for k in range(longest):
            c = int(counts[k])
            acc[:c] += take(indices[sorted_starts[:c] + k], axis=0)
    out = np.empty_like(acc)
    out[order] = acc
    return out


_BYTES_HEADER = sys.getsizeof(b"")  # sys.getsizeof(b) == _BYTES_HEADER + len(b) for a bytes object b
_DIST_WORD = struct.Struct("=i")  # a record's first word: ``add``'s dist (-1: none)

_sum = np.add.reduce  # what ndarray.sum calls (same defaults), without its Python wrapper


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)
