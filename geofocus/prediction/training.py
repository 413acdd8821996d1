"""Offline training of the link model from earlier crawls' logs (RUN_DIR/crawl.jsonl).

Pure Python, no Scrapy; ``scrapy train`` (geofocus/commands/train.py) wraps it.
Each log line is a fetched page with at least "url", "parent" (url or null),
"relevant" (bool) and "link" (the context of the link the page was found by:
url, source_url, anchor, title, context).  The path of a page is rebuilt
through the parent chain within one run: the page's own link gives the depth-1
example, its parent's link the depth-2 example, and so on up to depth n, each
labelled with the page's relevance -- the same examples the crawl itself
learns from (see geofocus/spidermiddlewares/prediction.py).
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from geofocus.prediction.features import link_terms
from geofocus.prediction.model import BridgeNaiveBayes

logger = logging.getLogger(__name__)

CRAWL_LOG = "crawl.jsonl"


@dataclass
class LogStats:
    """What reading crawl logs found."""

    pages: int = 0
    skipped_lines: int = 0  # not JSON, or missing url / relevant
    pages_without_link: int = 0  # seeds and pages logged without a link context
    examples: dict[int, int] = field(default_factory=dict)
    positives: dict[int, int] = field(default_factory=dict)


def crawl_log_path(run: str | Path) -> Path:
    """RUN_DIR/crawl.jsonl for a run directory; the path itself for a file."""
    run = Path(run)
    return run / CRAWL_LOG if run.is_dir() else run


def read_crawl_log(path: str | Path, stats: LogStats | None = None) -> list[dict[str, Any]]:
    """The usable page records of one crawl log, in order; bad lines are counted and skipped."""
    stats = stats if stats is not None else LogStats()
    records: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                rec = None
            if (
                not isinstance(rec, dict)
                or not isinstance(rec.get("url"), str)
                or not isinstance(rec.get("relevant"), bool)
            ):
                stats.skipped_lines += 1
                logger.debug("%s:%d: skipped (not a page record)", path, lineno)
                continue
            records.append(rec)
    return records


def path_examples(
    records: Iterable[Mapping[str, Any]], depth: int, stats: LogStats | None = None
) -> Iterator[tuple[str, list[list[str]], bool]]:
    """(url, path, relevant) per page of one run; path = term lists of the last <= ``depth`` links.

    path[0] is the link that led to the page, path[1] the link that led to its
    parent, ...; the chain stops at a page without a link (a seed) or whose
    parent is not in the log.
    """
    stats = stats if stats is not None else LogStats()
    by_url: dict[str, Mapping[str, Any]] = {}
    records = list(records)
    for rec in records:
        by_url.setdefault(rec["url"], rec)
    terms_cache: dict[str, list[str]] = {}

    def terms_of(rec: Mapping[str, Any]) -> list[str] | None:
        link = rec.get("link")
        if not isinstance(link, Mapping):
            return None
        url = rec["url"]
        if url not in terms_cache:
            terms_cache[url] = link_terms(link)
        return terms_cache[url]

    for rec in records:
        stats.pages += 1
        path: list[list[str]] = []
        cur: Mapping[str, Any] | None = rec
        seen: set[str] = set()
        while cur is not None and len(path) < depth and cur["url"] not in seen:
            seen.add(cur["url"])  # a malformed log could hold a parent cycle
            terms = terms_of(cur)
            if terms is None:
                break
            path.append(terms)
            parent = cur.get("parent")
            cur = by_url.get(parent) if isinstance(parent, str) else None
        if not path:
            stats.pages_without_link += 1
            continue
        yield rec["url"], path, bool(rec["relevant"])


def train(
    runs: Iterable[str | Path],
    depth: int = 3,
    alpha: float = 1.0,
    model: BridgeNaiveBayes | None = None,
    holdout: float = 0.0,
) -> tuple[BridgeNaiveBayes, LogStats, list[tuple[list[list[str]], bool]]]:
    """A model of all pages of ``runs`` (each a run directory or crawl.jsonl file).

    With ``holdout`` > 0, pages whose URL hashes into that fraction are kept out
    of the model and returned (path, relevant) for evaluation instead.
    """
    model = model if model is not None else BridgeNaiveBayes(depth, alpha)
    stats = LogStats()
    held: list[tuple[list[list[str]], bool]] = []
    cut = int(holdout * 1000)
    for run in runs:
        records = read_crawl_log(crawl_log_path(run), stats)
        for url, path, label in path_examples(records, model.depth, stats):
            if cut and zlib.crc32(url.encode("utf-8", "replace")) % 1000 < cut:
                held.append((path, label))
                continue
            for k, terms in enumerate(path, start=1):
                model.learn(terms, k, label)
                stats.examples[k] = stats.examples.get(k, 0) + 1
                stats.positives[k] = stats.positives.get(k, 0) + int(label)
    return model, stats, held


def evaluate(
    model: BridgeNaiveBayes, held: list[tuple[list[list[str]], bool]], decay: float = 0.5
) -> dict[str, float | None]:
    """ROC AUC on held-out examples, per depth (``depth_<d>``) and of the combined prediction.

    ``depth_<d>`` scores p(geoRel_d) of path[d-1] against the page's label;
    ``prediction`` scores prediction(path[0]) against it.  None where the
    held-out pages hold only one class.
    """
    from sklearn.metrics import roc_auc_score

    def auc(labels: list[bool], scores: list[float]) -> float | None:
        if len(set(labels)) < 2:
            return None
        return float(roc_auc_score(labels, scores))

    out: dict[str, float | None] = {}
    for d in range(1, model.depth + 1):
        pairs = [(model.probabilities(p[d - 1])[d - 1], y) for p, y in held if len(p) >= d]
        out[f"depth_{d}"] = auc([y for _, y in pairs], [s for s, _ in pairs])
    out["prediction"] = auc([y for _, y in held], [model.prediction(p[0], decay) for p, _ in held])
    return out
