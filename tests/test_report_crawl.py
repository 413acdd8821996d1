"""Real crawls (``scrapy crawl geo``) through a proxy, then ``scrapy report`` on their runs.

The web here is a small hand-made one (tests/minisite.py); it checks that the series
extension agrees with the crawl log of the real crawl loop and that the report reads real
run directories.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from test_report import parse, scrapy_report

from tests.crawling import ROOT, MiniSite, crawl_command, crawl_env, crawl_log, page

STREETS = ["Achternstraße", "Haarenstraße", "Lange Straße", "Staustraße", "Heiligengeiststraße",
           "Gaststraße", "Bergstraße", "Kurwickstraße", "Markt", "Schloßplatz", "Damm",
           "Mühlenstraße"]
SITES = 6


def small_web() -> dict:
    """A portal linking 6 firms. Each firm: home -> "Über uns" -> contact page with an
    address; home -> news (-> archive for odd firms). Each contact page links a dead-end
    directions page (a tail of length 1) and a partner's home page (a bridge) whose branch
    page has an address too; the branch page links jobs -> jobs archive (a tail of length 2).
    """
    web = {"http://portal.de/": page("Portal", [f"http://www.firma{i}.de/" for i in range(SITES)])}
    for i in range(SITES):
        firm, partner = f"http://www.firma{i}.de", f"http://www.partner{i}.de"
        web[f"{firm}/"] = page(f"Firma {i}", [f"{firm}/ueber", f"{firm}/news"])
        web[f"{firm}/ueber"] = page("Über uns", [f"{firm}/kontakt"])
        web[f"{firm}/news"] = page("Neuigkeiten", [f"{firm}/archiv"] if i % 2 else [])
        if i % 2:
            web[f"{firm}/archiv"] = page("Archiv")
        web[f"{firm}/kontakt"] = page(
            "Kontakt", [f"{firm}/anfahrt", f"{partner}/"],
            address=f"{STREETS[2 * i]} {i + 1}<br>2612{i % 3 + 1} Oldenburg")
        web[f"{firm}/anfahrt"] = page("Anfahrt mit Bus und Bahn")
        web[f"{partner}/"] = page("Partner", [f"{partner}/filiale"])
        web[f"{partner}/filiale"] = page(
            "Filiale", [f"{partner}/jobs"],
            address=f"{STREETS[2 * i + 1]} {i + 10}<br>2612{i % 3 + 1} Oldenburg")
        web[f"{partner}/jobs"] = page("Jobs", [f"{partner}/jobs/archiv"])
        web[f"{partner}/jobs/archiv"] = page("Alte Stellen")
    return web


@pytest.fixture(scope="module")
def crawls(tmp_path_factory):
    """bfs and distance crawls of the small web, side by side."""
    tmp = tmp_path_factory.mktemp("crawls")
    site = MiniSite(tmp, small_web())
    try:
        procs = {}
        for strategy in ("bfs", "distance"):
            cmd = crawl_command(tmp / strategy, "http://portal.de/", "-a", f"strategy={strategy}",
                                "-s", "GEOFOCUS_SERIES_EVERY=5")
            procs[tmp / strategy] = subprocess.Popen(cmd, cwd=ROOT, env=crawl_env(site.proxy),
                                                     stdout=subprocess.DEVNULL,
                                                     stderr=subprocess.PIPE, text=True)
        runs = []
        for run_dir, proc in procs.items():
            _, log = proc.communicate(timeout=120)
            assert proc.returncode == 0, log[-3000:]
            runs.append((run_dir, log))
    finally:
        site.stop()
    return runs


def test_series_agrees_with_the_crawl_log(crawls):
    for run_dir, log in crawls:
        pages = crawl_log(run_dir)
        assert len(pages) == len(small_web())
        lines = [json.loads(x) for x in (run_dir / "series.jsonl").read_text().splitlines()]
        assert len(lines) == len(pages) // 5
        for line in lines:
            assert line["fetched"] % 5 == 0
            prefix = pages[: line["fetched"]]
            assert line["relevant"] == sum(1 for p in prefix if p["relevant"])
            assert line["harvest_rate"] == pytest.approx(line["relevant"] / line["fetched"])
        relevant = sum(1 for p in pages if p["relevant"])
        assert (f"Crawl finished (finished): {len(pages)} pages, {relevant} relevant" in log)
        assert f"{2 * SITES} distinct addresses" in log and str(run_dir) in log


def test_report_of_two_real_crawls(crawls, tmp_path):
    out = tmp_path / "report"
    result = scrapy_report(*(run_dir for run_dir, _ in crawls), "-o", out)
    assert result.returncode == 0, result.stderr
    metrics = json.loads((out / "metrics.json").read_text())
    assert [r["strategy"] for r in metrics["runs"]] == ["bfs", "distance"]
    for row in metrics["runs"]:
        assert row["relevant"] == 2 * SITES and row["distinct_addresses"] == 2 * SITES
        ab = row["ahlers_boll"]
        assert ab["bridge_distances"] == {"1": SITES}  # contact -> partner -> branch
        assert ab["relevant_without_relevant_ancestor"] == SITES  # the contact pages
        assert ab["tail_lengths"] == {"1": SITES, "2": SITES}  # directions; jobs -> archive
        assert ab["seed_distances"] == {"3": SITES, "5": SITES}
    geojson = json.loads((out / "addresses.geojson").read_text())
    assert len(geojson["features"]) == 2 * SITES
    for ref in parse(out / "index.html").refs:
        assert (out / ref).is_file(), ref


def test_items_jsonl_lines_are_the_items_as_itemadapter_serialises_them(crawls):
    """items.jsonl is written without ItemAdapter.asdict's copy: each line must still be the
    bytes of ``json.dumps(ItemAdapter(item).asdict(), ensure_ascii=False, default=str)``."""
    from itemadapter import ItemAdapter

    from geofocus.items import PageItem

    for run_dir, _ in crawls:
        lines = (run_dir / "items.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == 2 * SITES
        assert any("ß" in line for line in lines)  # written as itself, not \u00df
        for line in lines:
            item = PageItem(**json.loads(line))
            assert item.addresses
            assert line == json.dumps(ItemAdapter(item).asdict(), ensure_ascii=False, default=str)


def test_map_of_real_crawls_is_the_map_folium_markers_give(crawls, tmp_path):
    """map.html's markers are written from one folium prototype per precision: the page must be
    the one a folium element per marker gives, up to the random element ids."""
    from test_webmap import same_up_to_ids

    from geofocus.metrics.addresses import collect_addresses
    from geofocus.metrics.runlog import load_run
    from geofocus.reporting.build import _region_info
    from geofocus.reporting.webmap import write_map

    runs = [load_run(run_dir) for run_dir, _ in crawls]
    region = _region_info(runs)
    addresses = collect_addresses([(r.label, r.pages) for r in runs], region["fallback"])
    assert len(addresses) == 2 * SITES
    write_map(addresses, tmp_path / "fast.html", region["bbox"], title="t")
    write_map(addresses, tmp_path / "folium.html", region["bbox"], title="t", fast=False)
    fast, reference = ((tmp_path / f"{n}.html").read_text() for n in ("fast", "folium"))
    assert fast.count("L.circleMarker(") == 2 * SITES
    assert same_up_to_ids(fast, reference)
