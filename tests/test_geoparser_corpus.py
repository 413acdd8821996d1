"""Precision and recall of the geoparser on the labelled corpus (tests/data)."""

from __future__ import annotations

from pathlib import Path

import pytest

from geofocus.geoparser.evaluate import evaluate, read_corpus

DATA = Path(__file__).resolve().parent / "data"
CORPORA = sorted(DATA.glob("geoparser_corpus_*.txt")) + sorted(DATA.glob("geoparser_heldout*.txt"))


@pytest.fixture(scope="module")
def cases():
    found = [case for path in CORPORA for case in read_corpus(path)]
    assert len(found) >= 300
    return found


def test_corpus_has_the_required_variety(cases):
    regions = {c.region for c in cases}
    assert {"oldenburg", "us-top100"} <= regions
    positives = [c for c in cases if c.relevant]
    confusables = [c for c in cases if not c.relevant and c.expected]  # real addresses outside the region
    negatives = [c for c in cases if not c.expected]
    assert len(positives) >= 150 and len(confusables) >= 50 and len(negatives) >= 60
    assert sum("<" in c.text for c in cases) >= 60  # HTML snippets, not only plain text


def test_precision_recall_and_relevance_accuracy(cases):
    scores = evaluate(cases)
    report = "\n".join(scores.errors)
    assert scores.precision >= 0.97, report
    assert scores.recall >= 0.95, report
    assert scores.accuracy >= 0.97, report


def test_held_out_cases_alone(cases):
    held_out = [c for c in cases if c.source.startswith("geoparser_heldout")]
    scores = evaluate(held_out)
    assert scores.precision >= 0.97 and scores.recall >= 0.95 and scores.accuracy >= 0.97, "\n".join(scores.errors)


def test_real_text_from_public_files():
    """Excerpts of public files nobody here wrote (tests/data/realtext), dev and held-out parts."""
    cases = [case for path in sorted((DATA / "realtext").glob("*_snippets.txt")) for case in read_corpus(path)]
    assert len(cases) >= 50 and {c.region for c in cases} == {"oldenburg", "us-top100"}
    for region in ("oldenburg", "us-top100"):
        scores = evaluate([c for c in cases if c.region == region])
        report = "\n".join(scores.errors)
        assert scores.precision >= 0.97 and scores.recall >= 0.95 and scores.accuracy >= 0.97, report
