"""``scrapy train``: a link model from hand-made crawl logs."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from geofocus.prediction.features import link_terms
from geofocus.prediction.model import BridgeNaiveBayes
from geofocus.prediction.training import LogStats, path_examples, read_crawl_log, train

ROOT = Path(__file__).resolve().parent.parent
SCRAPY = Path(sys.executable).with_name("scrapy")


def link(url, source, anchor):
    return {"url": url, "source_url": source, "anchor": anchor, "title": "", "context": ""}


PORTAL, BRANCHEN, FIRMA = "http://portal.de/", "http://portal.de/branchen", "http://firma.de/"
KONTAKT, AGB, OTHER = "http://firma.de/kontakt", "http://firma.de/agb", "http://other.de/x"
L_BRANCHEN = link(BRANCHEN, PORTAL, "Branchen")
L_FIRMA = link(FIRMA, BRANCHEN, "Firma Müller")
L_KONTAKT = link(KONTAKT, FIRMA, "Kontakt")
L_AGB = link(AGB, FIRMA, "AGB")
L_OTHER = link(OTHER, FIRMA, "Anfahrt")


def page(url, parent, relevant, link_ctx):
    return {"url": url, "status": 200, "relevant": relevant, "parent": parent, "link": link_ctx,
            "score": 0.5, "priority": 0.5, "prediction": None, "dist": 1, "seed_dist": 1,
            "depth": 1, "time": 0.0, "addresses": [], "node": None}


@pytest.fixture
def runs(tmp_path):
    run1, run2 = tmp_path / "run1", tmp_path / "run2"
    run1.mkdir()
    run2.mkdir()
    lines1 = [
        json.dumps(page(PORTAL, None, False, None)),  # seed: no link
        json.dumps(page(BRANCHEN, PORTAL, False, L_BRANCHEN)),
        json.dumps(page(FIRMA, BRANCHEN, False, L_FIRMA)),
        json.dumps(page(KONTAKT, FIRMA, True, L_KONTAKT)),
        "not json {",
        json.dumps({"url": "http://x.de/", "relevant": "yes"}),  # bad relevant
        json.dumps(page(AGB, FIRMA, False, L_AGB)),
    ]
    (run1 / "crawl.jsonl").write_text("\n".join(lines1) + "\n")
    # The parent of OTHER is in run 1, not in run 2: paths never cross runs.
    (run2 / "crawl.jsonl").write_text(json.dumps(page(OTHER, FIRMA, True, L_OTHER)) + "\n")
    return run1, run2


def expected_model(depth=3):
    """The examples worked out by hand from the two logs."""
    m = BridgeNaiveBayes(depth)
    t = {k: link_terms(v) for k, v in
         {"b": L_BRANCHEN, "f": L_FIRMA, "k": L_KONTAKT, "a": L_AGB, "o": L_OTHER}.items()}  # fmt: skip
    # BRANCHEN: path [b] (the seed has no link)           -> d1 negative
    # FIRMA:    path [f, b]                                -> d1, d2 negative
    # KONTAKT:  path [k, f, b], relevant                   -> d1, d2, d3 positive
    # AGB:      path [a, f, b]                             -> d1, d2, d3 negative
    # OTHER:    path [o] (its parent is in another run)    -> d1 positive
    for path, label in (
        (["b"], False), (["f", "b"], False), (["k", "f", "b"], True), (["a", "f", "b"], False),
        (["o"], True),
    ):  # fmt: skip
        for d, key in enumerate(path[:depth], start=1):
            m.learn(t[key], d, label)
    return m


def test_paths_through_parent_chain(runs):
    stats = LogStats()
    records = read_crawl_log(runs[0] / "crawl.jsonl", stats)
    assert stats.skipped_lines == 2 and len(records) == 5
    got = {url: (path, rel) for url, path, rel in path_examples(records, 2, stats)}
    assert got[KONTAKT] == ([link_terms(L_KONTAKT), link_terms(L_FIRMA)], True)  # cut to depth 2
    assert got[BRANCHEN] == ([link_terms(L_BRANCHEN)], False)
    assert PORTAL not in got and stats.pages_without_link == 1


def test_train_builds_hand_computed_examples(runs):
    model, stats, held = train(runs, depth=3)
    assert stats.examples == {1: 5, 2: 3, 3: 2}
    assert stats.positives == {1: 2, 2: 1, 3: 1}
    assert held == []
    assert model.to_dict() == expected_model().to_dict()


def test_parent_cycle_terminates(tmp_path):
    a, b = "http://a.de/", "http://b.de/"
    log = tmp_path / "crawl.jsonl"
    log.write_text(
        json.dumps(page(a, b, True, link(a, b, "A"))) + "\n" + json.dumps(page(b, a, False, link(b, a, "B")))
    )
    model, stats, _ = train([log], depth=5)
    assert stats.examples == {1: 2, 2: 2}


def scrapy_train(*args, cwd=ROOT):
    return subprocess.run(
        [str(SCRAPY), "train", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_scrapy_train_command(runs, tmp_path):
    out = tmp_path / "models" / "model.json"
    proc = scrapy_train(*runs, "-o", out, "--depth", "3")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["pages"] == 6 and summary["skipped_lines"] == 2
    assert summary["examples"] == {"depth_1": 5, "depth_2": 3, "depth_3": 2}
    model = BridgeNaiveBayes.load(out)
    assert model.to_dict() == expected_model().to_dict()
    # --update adds the same examples again: all counts double.
    proc = scrapy_train(runs[0], runs[1], "-o", out, "--update")
    assert proc.returncode == 0, proc.stderr
    assert BridgeNaiveBayes.load(out).examples() == 2 * model.examples()


def test_scrapy_train_usage_errors(runs, tmp_path):
    assert scrapy_train(runs[0]).returncode == 2  # no -o
    proc = scrapy_train(tmp_path / "nowhere", "-o", tmp_path / "m.json")
    assert proc.returncode == 2 and "no crawl log" in proc.stderr
