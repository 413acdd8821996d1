"""Tsikrika et al. precision/recall/F1 against a hand-made simweb truth file."""

import json

import pytest

from geofocus.metrics import NotAvailable
from geofocus.metrics.truth import (
    TruthError,
    effectiveness,
    geoparser_agreement,
    load_truth,
    match_key,
)
from tests.metrics_logs import page


@pytest.fixture
def truth_file(tmp_path):
    lines = [
        {"url": "http://www.a.de/", "relevant": True, "grade": "relevant", "addresses": []},
        {"url": "http://www.a.de/kontakt.html", "relevant": True, "grade": "relevant",
         "addresses": []},
        {"url": "http://www.b.de/news", "relevant": False, "grade": "partial", "addresses": []},
        {"url": "http://www.b.de/other", "relevant": False, "grade": "none", "addresses": []},
        {"url": "http://www.c.de/impressum", "relevant": True, "grade": "relevant",
         "addresses": []},
    ]
    path = tmp_path / "truth.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\nnot json\n")
    return path


FETCHED = ["http://WWW.A.DE/index.html", "http://www.b.de/news/", "http://www.b.de/other",
           "http://www.unknown.de/x", "http://www.a.de/#top"]  # the last is the first again


def test_strict_precision_recall_f1(truth_file):
    truth = load_truth(truth_file)
    assert truth.pages == 5 and truth.skipped == 1
    e = effectiveness(FETCHED, truth, lenient=False)
    assert e.fetched == 4 and e.relevant_fetched == 1 and e.relevant_total == 3
    assert e.precision == pytest.approx(1 / 4)
    assert e.recall == pytest.approx(1 / 3)
    assert e.f1 == pytest.approx(2 * (1 / 4) * (1 / 3) / (1 / 4 + 1 / 3))


def test_lenient_counts_partial_pages(truth_file):
    e = effectiveness(FETCHED, load_truth(truth_file), lenient=True)
    assert (e.precision, e.recall, e.f1) == (pytest.approx(0.5), pytest.approx(0.5),
                                             pytest.approx(0.5))


def test_nothing_fetched_is_not_a_number(truth_file):
    e = effectiveness([], load_truth(truth_file))
    assert isinstance(e.precision, NotAvailable) and isinstance(e.f1, NotAvailable)
    assert e.recall == 0


def test_geoparser_agreement(truth_file):
    pages = [page("http://www.a.de/", None, True), page("http://www.b.de/news", None, True),
             page("http://www.c.de/impressum", None, False)]
    agreement = geoparser_agreement(pages, load_truth(truth_file))
    assert agreement["precision"] == pytest.approx(0.5)
    assert agreement["recall"] == pytest.approx(0.5)


def test_missing_or_empty_truth_file_is_a_clear_error(tmp_path):
    with pytest.raises(TruthError, match="no such truth file"):
        load_truth(tmp_path / "nope.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(TruthError, match="no truth lines"):
        load_truth(tmp_path / "empty.jsonl")


def test_match_key_normalises_both_sides():
    assert match_key("HTTP://Www.A.de:80/x/index.html#f") == match_key("http://www.a.de/x/")
    assert match_key("http://a.de/x?b=1") != match_key("http://a.de/x")
