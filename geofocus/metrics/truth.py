"""Tsikrika et al., section 5.3: precision, recall and F1 against ground truth.

The truth is simweb's ``--truth`` file: JSON lines {"url", "relevant", "grade":
"relevant"|"partial"|"none", "addresses"}. *Strict*: only grade "relevant" counts as
relevant; *lenient*: "relevant" and "partial". Precision is the share of fetched pages that
are relevant, recall the share of all relevant pages of the Web that were fetched.

URLs are matched after the crawler's own normalisation (:func:`geofocus.urlnorm.normalize_url`),
applied to both sides, so that the crawler's normalised URLs meet the generator's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from geofocus.metrics.base import NotAvailable, ratio, read_jsonl
from geofocus.urlnorm import InvalidURL, normalize_url

GRADES = ("relevant", "partial", "none")


class TruthError(ValueError):
    """The truth file is missing or has no usable line."""


def match_key(url: str) -> str:
    """The form under which crawl and truth URLs are compared."""
    try:
        return normalize_url(url)
    except InvalidURL:
        return url.strip()


@dataclass
class Truth:
    """The graded pages of a web. Only relevant and partial URLs are kept (the rest is
    counted), so a truth file of a million pages fits in memory."""

    grades: dict[str, str]
    pages: int
    skipped: int = 0

    def grade(self, url: str) -> str | None:
        """"relevant", "partial", "none" (listed or not: unlisted pages count as "none")."""
        return self.grades.get(match_key(url), "none")

    def count(self, lenient: bool) -> int:
        wanted = ("relevant", "partial") if lenient else ("relevant",)
        return sum(1 for g in self.grades.values() if g in wanted)


def _grade_of(record: Mapping[str, Any]) -> str:
    grade = record.get("grade")
    if grade in GRADES:
        return str(grade)
    return "relevant" if record.get("relevant") else "none"


def load_truth(path: str | Path) -> Truth:
    path = Path(path)
    if not path.is_file():
        raise TruthError(f"{path}: no such truth file (simweb writes one with --truth FILE)")
    grades: dict[str, str] = {}
    pages = skipped = 0
    for record in read_jsonl(path):
        if record is None or not isinstance(record.get("url"), str):
            skipped += 1
            continue
        pages += 1
        grade = _grade_of(record)
        if grade != "none":
            grades[match_key(record["url"])] = grade
    if not pages:
        raise TruthError(f"{path}: no truth lines ({{url, relevant, grade}} JSON lines)")
    return Truth(grades=grades, pages=pages, skipped=skipped)


@dataclass
class Effectiveness:
    precision: float | NotAvailable
    recall: float | NotAvailable
    f1: float | NotAvailable
    fetched: int
    relevant_fetched: int
    relevant_total: int


def effectiveness(urls: Iterable[str], truth: Truth, lenient: bool = False) -> Effectiveness:
    """Precision, recall and F1 of a crawl that fetched ``urls`` (duplicates count once)."""
    wanted = ("relevant", "partial") if lenient else ("relevant",)
    fetched = {match_key(u) for u in urls}
    hits = sum(1 for u in fetched if truth.grades.get(u) in wanted)
    total = truth.count(lenient)
    precision = ratio(hits, len(fetched), "no pages fetched")
    recall = ratio(hits, total, "the truth has no relevant page")
    if isinstance(precision, NotAvailable) or isinstance(recall, NotAvailable):
        f1: float | NotAvailable = NotAvailable("precision or recall not available")
    elif precision + recall == 0:
        f1 = 0.0
    else:
        f1 = 2 * precision * recall / (precision + recall)
    return Effectiveness(precision, recall, f1, len(fetched), hits, total)


def geoparser_agreement(pages: Iterable[Mapping[str, Any]], truth: Truth) -> dict[str, Any]:
    """How the crawler's own relevance verdicts compare with the truth on fetched pages.

    Returns precision and recall of the ``relevant`` flag against strict truth: a low value
    means the harvest-rate figures over- or under-state what the crawl found.
    """
    tp = fp = fn = 0
    seen: set[str] = set()
    for page in pages:
        key = match_key(str(page.get("url", "")))
        if key in seen:
            continue
        seen.add(key)
        said = bool(page.get("relevant"))
        true = truth.grades.get(key) == "relevant"
        tp += said and true
        fp += said and not true
        fn += true and not said
    return {
        "precision": ratio(tp, tp + fp, "the crawler marked no page relevant"),
        "recall": ratio(tp, tp + fn, "no truly relevant page was fetched"),
        "true_positives": tp,
        "false_positives": fp,
        "false_negatives": fn,
    }
