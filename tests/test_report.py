"""`scrapy report` on hand-made run directories, and the page in a real headless Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from geofocus.reporting import ReportError, build_report
from tests.metrics_logs import addr, page, tree_log, u, write_run

ROOT = Path(__file__).resolve().parent.parent
SCRAPY = [sys.executable, "-m", "scrapy.cmdline"]
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists(
    "/usr/bin/chromium") else None)
OLDENBURG_BBOX = (8.12, 53.08, 8.32, 53.21)


def scrapy_report(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([*SCRAPY, "report", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def distance_log() -> list[dict]:
    pages = tree_log()
    pages[2] = dict(pages[2], relevant=True,
                    addresses=[addr("Bahnhofstraße", "3", lat=53.145, lon=8.20)])
    return pages


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    return [write_run(base / "bfs", tree_log(), strategy="bfs"),
            write_run(base / "distance", distance_log(), strategy="distance")]


@pytest.fixture(scope="module")
def report(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    result = scrapy_report(*runs, "-o", out)
    assert result.returncode == 0, result.stderr
    assert f"report written to {out / 'index.html'}" in result.stdout
    return out


class References(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.refs.append(value)
            if name == "style" or (tag == "link" and name == "rel"):
                self.refs.append(f"{tag}:{name}:{value}")

    def handle_data(self, data):
        self.text.append(data)


def parse(path: Path) -> References:
    refs = References()
    refs.feed(path.read_text(encoding="utf-8"))
    return refs


def test_report_files_exist(report):
    for name in ("index.html", "harvest.png", "relevant.png", "distances.png", "map.png",
                 "series.png", "addresses.geojson", "metrics.json"):
        assert (report / name).stat().st_size > 0, name
    for name in ("harvest.png", "relevant.png", "distances.png", "map.png"):
        assert (report / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_page_references_only_files_that_exist(report):
    refs = parse(report / "index.html").refs
    assert {"harvest.png", "map.png", "addresses.geojson"} <= set(refs)
    for ref in refs:
        parts = urlsplit(ref)
        assert not parts.scheme and not parts.netloc, f"remote or absolute reference {ref}"
        assert (report / parts.path).is_file(), f"{ref} does not exist"
    html = (report / "index.html").read_text()
    assert not re.search(r"@import|url\(|//fonts\.|cdn", html, re.I)


def test_geojson_has_one_point_per_distinct_address(report):
    data = json.loads((report / "addresses.geojson").read_text())
    assert data["type"] == "FeatureCollection"
    features = data["features"]
    # tree_log has 3 distinct addresses, distance_log adds Bahnhofstraße 3
    assert len(features) == 4
    min_lon, min_lat, max_lon, max_lat = OLDENBURG_BBOX
    for feature in features:
        assert feature["type"] == "Feature"
        geometry = feature["geometry"]
        assert geometry["type"] == "Point"
        lon, lat = geometry["coordinates"]
        assert min_lon <= lon <= max_lon and min_lat <= lat <= max_lat
        props = feature["properties"]
        assert {"street", "house_number", "postcode", "city", "urls",
                "first_seen"} <= set(props)
        assert props["urls"] and all(x.startswith("http://") for x in props["urls"])
    haaren = next(f for f in features if f["properties"]["street"] == "Haarenstraße")
    assert haaren["properties"]["urls"] == [u("A"), u("F")]
    assert set(haaren["properties"]["runs"]) == {"bfs (bfs)", "distance (distance)"}


def test_page_shows_runs_metrics_and_not_available_reasons(report):
    text = " ".join(parse(report / "index.html").text)
    assert "bfs (bfs)" in text and "distance (distance)" in text
    assert "40.0 %" in text and "50.0 %" in text  # harvest rates 4/10 and 5/10
    assert "1.25" in text  # distance's harvest rate relative to bfs's
    assert "not available: one crawling node only" in text
    assert "no ground truth given" in text
    metrics = json.loads((report / "metrics.json").read_text())
    bfs = metrics["runs"][0]
    assert bfs["ahlers_boll"]["bridge_distances"] == {"0": 1, "1": 1}
    assert bfs["ahlers_boll"]["tail_lengths"] == {"1": 1, "2": 1}
    assert metrics["gao"][0]["geo_centrality"] == pytest.approx(0.443)


def test_truth_adds_precision_and_recall(runs, tmp_path):
    truth = tmp_path / "truth.jsonl"
    lines = [{"url": p["url"], "relevant": p["relevant"],
              "grade": "relevant" if p["relevant"] else "none", "addresses": []}
             for p in tree_log()]
    lines.append({"url": "http://www.never-fetched.de/", "relevant": True, "grade": "relevant",
                  "addresses": []})
    truth.write_text("\n".join(json.dumps(x) for x in lines))
    build_report([runs[0]], tmp_path / "out", truth_path=truth)
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    strict = metrics["runs"][0]["tsikrika"]["strict"]
    assert strict["precision"] == pytest.approx(0.4)
    assert strict["recall"] == pytest.approx(0.8)
    assert "strict precision" in (tmp_path / "out" / "index.html").read_text()


def test_bad_run_dirs_give_clear_errors_not_tracebacks(runs, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = scrapy_report(empty, tmp_path / "missing", "-o", tmp_path / "out")
    assert result.returncode == 1
    assert "no crawl.jsonl" in result.stderr and "no such run directory" in result.stderr
    assert "Traceback" not in result.stderr
    # one usable run is enough; the others become notes
    notes = build_report([runs[0], empty], tmp_path / "out").notes
    assert any(n.startswith("skipped: ") and "no crawl.jsonl" in n for n in notes)
    with pytest.raises(ReportError, match="no such truth file"):
        build_report([runs[0]], tmp_path / "out", truth_path=tmp_path / "nope")


def test_run_without_pages_or_metadata_still_reports(tmp_path):
    run = tmp_path / "bare"
    run.mkdir()
    (run / "crawl.jsonl").write_text("")
    notes = " ".join(build_report([run], tmp_path / "out").notes)
    assert "no run.json" in notes and "no pages" in notes
    assert json.loads((tmp_path / "out" / "addresses.geojson").read_text())["features"] == []


# -- the page in a real browser ----------------------------------------------------------

def chromium(url: str, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    assert CHROMIUM is not None, "chromium is not installed (make install installs it with apt-get)"
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr",
         "--v=0", "--window-size=1280,2000", *extra, url],
        capture_output=True, text=True, timeout=90)


def render_and_check(index: Path, tmp_path: Path, screenshot: Path) -> None:
    """Open the page from disk in headless Chromium: no console error, every image loaded,
    and a screenshot that shows the charts (the first two run colours) and the map."""
    url = index.resolve().as_uri()
    dom = chromium(url, tmp_path, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert 'data-images="ok"' in dom.stdout, "an image of the report did not load"
    assert "geofocus crawl report" in dom.stdout
    console = [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
    assert not console, console
    shot = chromium(url, tmp_path, f"--screenshot={screenshot}")
    assert shot.returncode == 0 and screenshot.is_file(), shot.stderr[-2000:]

    from PIL import Image

    image = Image.open(screenshot).convert("RGB")
    assert image.size == (1280, 2000)
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 200  # charts, not a blank page
    counts = {rgb: n for n, rgb in colours}
    blue, red = (0x1F, 0x77, 0xB4), (0xD6, 0x27, 0x28)  # the first two runs' lines and bars
    assert counts.get(blue, 0) > 100 and counts.get(red, 0) > 100
    # the bottom of the page (the map and its points) is not blank either
    tall = chromium(url, tmp_path, f"--screenshot={screenshot.with_suffix('.full.png')}",
                    "--window-size=1280,4000")
    assert tall.returncode == 0
    lower = Image.open(screenshot.with_suffix(".full.png")).convert("RGB").crop(
        (0, 2000, 1280, 4000))
    assert len(lower.getcolors(maxcolors=1 << 20) or []) > 100


def test_report_renders_in_headless_chromium(report, tmp_path):
    render_and_check(report / "index.html", tmp_path, tmp_path / "report.png")


def test_collaborative_crawl_gets_overlap_overhead_and_geo_focus(tmp_path):
    ol, hb = addr("Markt", "1"), addr("Markt", "1", "28195", "Bremen", 53.07, 8.80)
    n1 = [page(u("1"), None, True, [ol], node="n1"), page(u("2"), u("1"), True, [hb], node="n1"),
          page(u("3"), u("1"), node="n1")]
    n2 = [page(u("4"), None, True, [hb], node="n2"), page(u("3"), u("1"), node="n2")]
    r1 = write_run(tmp_path / "n1", n1, node="n1", crawl_id="c", cities=["Oldenburg"])
    r2 = write_run(tmp_path / "n2", n2, node="n2", crawl_id="c", cities=["Bremen"])
    (r1 / "stats.json").write_text(json.dumps({"geofocus/partition/sent": 7,
                                               "geofocus/filtered/tld": 3}))
    (r2 / "stats.json").write_text(json.dumps({"geofocus/partition/sent/n1": 2,
                                               "geofocus/partition/sent/general": 1}))
    result = build_report([r1, r2], tmp_path / "out")
    metrics = json.loads((result.out_dir / "metrics.json").read_text())
    [crawl] = metrics["gao"]
    assert crawl["crawl"] == "crawl c" and crawl["nodes"] == ["n1", "n2"]
    assert crawl["overlap"] == pytest.approx(1 / 5)  # page 3 fetched by both nodes
    assert crawl["communication_overhead"] == pytest.approx(10 / 5)
    assert crawl["geo_focus"] == {"n1": 0.5, "n2": 1.0}
    assert crawl["locality_linked"] == 0.0  # the one linked pair (1, 2) spans two cities
    html = (result.out_dir / "index.html").read_text()
    assert "Filtered URLs" in html and "n1: 50.0 %" in html


def test_geo_focus_from_the_regions_default_node_plan(tmp_path):
    """us-top100 runs of the paper's time-zone nodes: the report knows who owns which city."""
    ny = addr("Broadway", "1", "10004", "New York", 40.70, -74.01)
    la = addr("Main Street", "100", "90012", "Los Angeles", 34.05, -118.24)
    east = [page(u("1", "www.ny.com"), None, True, [ny], node="eastern"),
            page(u("2", "www.ny.com"), u("1", "www.ny.com"), True, [la], node="eastern")]
    west = [page(u("3", "www.la.com"), None, True, [la], node="pacific")]
    runs = [write_run(tmp_path / "e", east, region="us-top100", node="eastern", crawl_id="x"),
            write_run(tmp_path / "w", west, region="us-top100", node="pacific", crawl_id="x")]
    result = build_report(runs, tmp_path / "out")
    [crawl] = json.loads((result.out_dir / "metrics.json").read_text())["gao"]
    assert crawl["geo_focus"] == {"eastern": 0.5, "pacific": 1.0}
    assert (result.out_dir / "map.png").stat().st_size > 0


def test_runs_with_the_same_name_keep_apart(tmp_path):
    a = write_run(tmp_path / "a" / "run", tree_log(), strategy="bfs")
    b = write_run(tmp_path / "b" / "run", distance_log(), strategy="bfs")
    result = build_report([a, b], tmp_path / "out")
    assert [r.label for r in result.runs] == ["bfs (run)", "bfs (run) #2"]
    features = json.loads((tmp_path / "out" / "addresses.geojson").read_text())["features"]
    bahnhof = next(f for f in features if f["properties"]["street"] == "Bahnhofstraße")
    assert bahnhof["properties"]["runs"] == ["bfs (run) #2"]
