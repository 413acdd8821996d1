"""The report of two real short crawls (bfs and distance) of simweb, with its ground truth."""

from __future__ import annotations

import json
import subprocess

import pytest
from test_report import parse, render_and_check, scrapy_report

from tests.crawling import ROOT, crawl_command, crawl_env, crawl_log
from tests.simweb_server import running_simweb

PAGES = 200  # per crawl
BBOX = (8.12, 53.08, 8.32, 53.21)  # the oldenburg pack's bounding box


@pytest.fixture(scope="module")
def simweb(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("simweb")
    with running_simweb(tmp / "web", pages=5000) as server:
        yield {"proxy": server.proxy_url, "seeds": server.seeds_file,
               "truth": server.truth_file, "tmp": tmp}


@pytest.fixture(scope="module")
def crawls(simweb):
    """The two crawls run side by side (each mostly waits on the network)."""
    procs = {}
    for strategy in ("bfs", "distance"):
        run_dir = simweb["tmp"] / strategy
        cmd = crawl_command(run_dir, str(simweb["seeds"]), "-a", f"strategy={strategy}",
                            "-s", f"GEOFOCUS_MAX_PAGES={PAGES}", "-s", "GEOFOCUS_SERIES_EVERY=50",
                            "-s", "LOG_LEVEL=WARNING")
        procs[run_dir] = subprocess.Popen(cmd, cwd=ROOT, env=crawl_env(simweb["proxy"]),
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                          text=True)
    for proc in procs.values():
        _, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err[-3000:]
    return list(procs)


def truth_grades(path) -> dict[str, str]:
    from geofocus.metrics.truth import match_key

    grades = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        grades[match_key(record["url"])] = record["grade"]
    return grades


def test_report_of_two_simweb_crawls(simweb, crawls, tmp_path):
    out = tmp_path / "report"
    result = scrapy_report(*crawls, "-o", out, "--truth", simweb["truth"])
    assert result.returncode == 0, result.stderr
    metrics = json.loads((out / "metrics.json").read_text())
    assert [r["strategy"] for r in metrics["runs"]] == ["bfs", "distance"]

    from geofocus.metrics.truth import match_key

    grades = truth_grades(simweb["truth"])
    relevant_in_web = sum(1 for g in grades.values() if g == "relevant")
    for run_dir, row in zip(crawls, metrics["runs"], strict=True):
        log = crawl_log(run_dir)
        assert row["fetched"] == len(log) >= PAGES * 0.9
        assert row["relevant"] == sum(1 for p in log if p["relevant"])
        fetched = {match_key(p["url"]) for p in log}
        hits = sum(1 for u in fetched if grades.get(u) == "relevant")
        strict = row["tsikrika"]["strict"]
        assert strict["precision"] == pytest.approx(hits / len(fetched))
        assert strict["recall"] == pytest.approx(hits / relevant_in_web)
        assert row["ahlers_boll"]["harvest_rate"] == pytest.approx(row["relevant"] / len(log))

    geojson = json.loads((out / "addresses.geojson").read_text())
    assert geojson["type"] == "FeatureCollection" and geojson["features"]
    assert len(geojson["features"]) == metrics["distinct_addresses"]
    for feature in geojson["features"]:
        assert feature["type"] == "Feature" and feature["properties"]["urls"]
        if feature["geometry"] is not None:
            lon, lat = feature["geometry"]["coordinates"]
            assert feature["geometry"]["type"] == "Point"
            assert BBOX[0] - 0.1 <= lon <= BBOX[2] + 0.1 and BBOX[1] - 0.1 <= lat <= BBOX[3] + 0.1
    for ref in parse(out / "index.html").refs:
        assert (out / ref).is_file(), ref
    render_and_check(out / "index.html", tmp_path, tmp_path / "report.png")
