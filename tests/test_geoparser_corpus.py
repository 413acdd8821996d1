"""Precision and recall of the geoparser on the labelled corpus (tests/data)."""

from __future__ import annotations

import json
import re
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


REALTEXT = DATA / "realtext"
# Licences that allow the snippets to be copied here (with the notices in realtext/LICENSES.md).
ALLOWED_LICENCES = {"MIT", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "CC0-1.0", "CC-BY-4.0", "ODbL-1.0", "ISC"}


def _real_text_cases(part: str = "*"):
    return [case for path in sorted(REALTEXT.glob(f"{part}_snippets.txt")) for case in read_corpus(path)]


def _header(case) -> dict[str, str]:
    return dict(field.split("=", 1) for field in case.note.split())


def test_real_text_cases_name_source_commit_and_licence():
    """Every excerpt of tests/data/realtext names its repository file and lines; every source has a
    commit and a licence that allows copying, and its notice is in LICENSES.md."""
    sources = json.loads((REALTEXT / "sources.json").read_text(encoding="utf-8"))
    notices = (REALTEXT / "LICENSES.md").read_text(encoding="utf-8")
    for key, source in sources.items():
        assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]), key
        assert source["licence"] in ALLOWED_LICENCES, key
        assert f"## {source['repo']} ({source['licence']})" in notices, key
    cases = _real_text_cases()
    assert len(cases) >= 120
    for case in cases:
        header = _header(case)
        assert header["src"] in sources, case.source
        assert header["path"] and re.fullmatch(r"\d+-\d+", header["lines"]), case.source
    assert {c.region for c in cases} == {"oldenburg", "us-top100"}
    assert len({_header(c)["format"] for c in cases}) >= 8
    assert sum(not c.expected for c in cases) >= 5  # snippets without any address
    assert sum(bool(c.expected) and not c.relevant for c in cases) >= 40  # addresses outside the region


def test_real_text_development_part_does_not_regress():
    """The development part of the real-text corpus, per region, at least at the level reached when
    the corpus was built (tests/data/realtext/README.md has the figures and the issue's targets,
    which are not met yet: precision >= 0.97, recall >= 0.95, relevance accuracy >= 0.97).
    The held-out part is not asserted here, so that nobody tunes the parser to it."""
    floors = {"oldenburg": (1.0, 0.95, 1.0), "us-top100": (1.0, 0.97, 0.95)}
    cases = _real_text_cases("dev") + _real_text_cases("dev2")
    for region, (precision, recall, accuracy) in floors.items():
        scores = evaluate([c for c in cases if c.region == region])
        report = "\n".join(scores.errors)
        assert scores.precision >= precision and scores.recall >= recall and scores.accuracy >= accuracy, report
