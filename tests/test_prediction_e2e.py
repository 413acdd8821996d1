"""End-to-end: ``scrapy crawl geo`` with the link prediction on a hand-made web (real Scrapy, real HTTP).

The web: a portal links to FIRMS firm home pages; each home links to its
"Kontakt" page (which carries an Oldenburg address) and to seven other pages
without one.  Every page of a firm is 2 links from the portal, so the decay
score cannot tell a contact page from the others; the link model can, once it
has seen a few.
"""

from __future__ import annotations

import json

import pytest

from geofocus.prediction.model import BridgeNaiveBayes
from tests.crawling import MiniSite, crawl_log, run_crawl

FIRMS = 30
OTHERS = ["AGB", "Jobs", "Produkte", "Presse", "Neuigkeiten", "Galerie", "Partner"]
ADDRESS = "Schloßplatz 12<br>26122 Oldenburg (Oldb)"
BUDGET = 120


def html(body: str, links: list[tuple[str, str]] = (), address: str = "") -> str:
    anchors = " ".join(f'<li><a href="{url}">{text}</a></li>' for url, text in links)
    addr = f"<address>{address}</address>" if address else ""
    return f'<html lang="de"><body><p>{body}</p>{addr}<ul>{anchors}</ul></body></html>'


def firm_web() -> dict[str, str]:
    web = {
        "http://portal.de/": html("Firmen in Oldenburg", [(f"http://firma{i}.de/", f"Firma {i}") for i in range(FIRMS)])
    }
    for i in range(FIRMS):
        home = f"http://firma{i}.de/"
        links = [(f"{home}{o.lower()}", o) for o in OTHERS]
        links.insert(i % (len(OTHERS) + 1), (f"{home}kontakt", "Kontakt"))
        web[home] = html(f"Willkommen bei Firma {i}", links)
        web[f"{home}kontakt"] = html("So erreichen Sie uns", address=ADDRESS)
        for o in OTHERS:
            web[f"{home}{o.lower()}"] = html(f"{o} der Firma {i}")
    return web


@pytest.fixture
def web(tmp_path):
    site = MiniSite(tmp_path, firm_web())
    yield site
    site.stop()


def crawl(run_dir, web, strategy, *extra):
    result = run_crawl(
        run_dir, "http://portal.de/", web.proxy, "-a", f"strategy={strategy}",
        "-s", "CONCURRENT_REQUESTS=2", "-s", "GEOFOCUS_RESCORE_EVERY=10", "-s", "ROBOTSTXT_OBEY=False", *extra,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def relevant_in_first(log, n):
    return sum(1 for rec in log[:n] if rec["relevant"])


def test_adaptive_finds_more_relevant_pages_than_distance(web, tmp_path):
    found = {}
    for strategy in ("distance", "adaptive"):
        run_dir = tmp_path / strategy
        crawl(run_dir, web, strategy, "-s", f"CLOSESPIDER_PAGECOUNT={BUDGET + 10}")
        log = crawl_log(run_dir)
        assert len(log) >= BUDGET
        found[strategy] = relevant_in_first(log, BUDGET)
        predictions = [rec["prediction"] for rec in log if rec.get("link")]
        assert len(predictions) >= BUDGET - 1  # every page but the seed came from a link
        if strategy == "adaptive":
            assert all(isinstance(p, float) for p in predictions)
            assert BridgeNaiveBayes.load(run_dir / "model.json").examples() > 0
        else:  # the baseline neither predicts nor learns
            assert all(p is None for p in predictions)
            assert not (run_dir / "model.json").exists()
    # Distance: the 1 + 30 pages of score >= 0.5 first, then a random 89 of the 240 firm
    # pages, an eighth of which are contact pages (about 11, rarely above 20).  Adaptive
    # learns "Kontakt" from the first few and takes nearly all 30.
    assert found["adaptive"] >= 24, found
    assert found["adaptive"] >= found["distance"] + 8, found


def test_resumed_crawl_keeps_its_model(web, tmp_path):
    run_dir = tmp_path / "run"
    crawl(run_dir, web, "adaptive", "-s", "CLOSESPIDER_PAGECOUNT=60")
    first = BridgeNaiveBayes.load(run_dir / "model.json")
    assert first.examples() > 0
    second = crawl(run_dir, web, "adaptive", "-s", "CLOSESPIDER_PAGECOUNT=40")
    assert f"link model loaded from {run_dir / 'model.json'}" in second.stderr
    resumed = BridgeNaiveBayes.load(run_dir / "model.json")
    # It went on learning from where it stopped: all earlier counts are still there.
    assert resumed.examples() > first.examples()
    for d in range(1, first.depth + 1):
        assert resumed.examples(d) >= first.examples(d)
    log = crawl_log(run_dir)
    assert len({rec["url"] for rec in log}) == len(log)


def test_warm_start_from_trained_model(web, tmp_path):
    """``scrapy train`` on one crawl's log gives a model that makes the next crawl find contacts first."""
    import subprocess
    import sys
    from pathlib import Path

    first = tmp_path / "first"
    crawl(first, web, "distance")  # the whole web: a training phase
    model = tmp_path / "model.json"
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy.cmdline", "train", str(first), "-o", str(model)],
        cwd=root, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(proc.stdout)
    assert summary["positives"]["depth_1"] == FIRMS
    warm = tmp_path / "warm"
    crawl(warm, web, "adaptive", "-s", f"GEOFOCUS_MODEL={model}", "-s", f"CLOSESPIDER_PAGECOUNT={1 + FIRMS + 40}")
    log = crawl_log(warm)
    # Each firm's contact page comes right after its home page, before any other firm page:
    # the first 1 + 2 * FIRMS fetches hold (nearly) all of them; without the model a
    # random 30 of the 240 firm pages would hold about 4.
    assert sum(rec["relevant"] for rec in log[: 1 + 2 * FIRMS]) >= FIRMS - 2
