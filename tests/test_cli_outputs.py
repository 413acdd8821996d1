"""What a crawl gives its user, through the real command line: the CSV and GeoJSON exports (from
the crawl's feed, its own report and ``scrapy report``), the live report watched in headless
Chromium while the crawl runs, the interactive map offline, the Prometheus endpoint, and the
scrapy sub-commands outside the repository.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.cdp import Browser
from tests.crawling import ROOT, SCRAPY, MiniSite, crawl_command, crawl_env, crawl_log, page, run_crawl

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

# Streets of the oldenburg pack (placed at the street) and streets it does not know
# (placed at their postcode's centroid).
KNOWN = ["Schloßplatz", "Lange Straße", "Achternstraße", "Haarenstraße", "Staulinie", "Markt"]
UNKNOWN = ["Birkenweg", "Am Kiefernhain", "Tulpenstieg", "Holunderpfad"]


def address_web(n_hosts: int = 20) -> dict:
    """A portal linking firms; each firm's contact page has one distinct address; plus filler pages."""
    web: dict = {}
    firms = []
    for i in range(n_hosts):
        street = (KNOWN + UNKNOWN)[i % 10]
        host = f"http://firma{i}.de/"
        firms.append(host)
        web[host] = page(f"Firma {i}", [f"{host}kontakt", *(f"{host}seite{j}" for j in range(4))])
        web[f"{host}kontakt"] = page("Kontakt", address=f"{street} {i + 1}, 2612{1 + i % 3} Oldenburg")
        for j in range(4):
            web[f"{host}seite{j}"] = page(f"Seite {j}", [f"{host}seite{(j + 1) % 4}"])
    web["http://portal.de/"] = page("Portal", firms)
    return web


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    s = MiniSite(tmp_path_factory.mktemp("addresses"), address_web())
    yield s
    s.stop()


@pytest.fixture(scope="module")
def crawled(site, tmp_path_factory):
    """One finished crawl of the address web, with a CSV feed."""
    tmp = tmp_path_factory.mktemp("crawled")
    run_dir, feed = tmp / "run", tmp / "addresses.csv"
    result = run_crawl(run_dir, "http://portal.de/", site.proxy, "-o", str(feed), "-s", "GEOFOCUS_LIVE_REPORT=True")
    assert result.returncode == 0, result.stderr[-3000:]
    return run_dir, feed


def addresses_in_log(run_dir: Path) -> list[tuple[str, dict]]:
    return [(r["url"], a) for r in crawl_log(run_dir) for a in r.get("addresses") or []]


def chromium(url: str, tmp_path: Path, *extra: str, timeout: float = 90) -> subprocess.CompletedProcess:
    assert CHROMIUM is not None, "chromium is not installed: make install installs it (tools/system-packages.txt)"
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'chromium-profile'}", "--enable-logging=stderr", "--v=0",
         *extra, url],
        capture_output=True, text=True, timeout=timeout)


# -- exports ---------------------------------------------------------------------------------------

def test_csv_feed_has_one_row_per_address_with_iso_times(crawled):
    run_dir, feed = crawled
    rows = list(csv.DictReader(feed.open(encoding="utf-8")))
    expected = addresses_in_log(run_dir)
    assert len(expected) == 20
    assert sorted((r["url"], r["street"], r["house_number"]) for r in rows) == \
        sorted((u, a["street"], a["house_number"]) for u, a in expected)
    for row in rows:
        assert list(row) == ["url", "street", "house_number", "postcode", "city", "country", "lat", "lon",
                             "precision", "fetched_at"]
        assert ISO.match(row["fetched_at"]), row
        assert row["precision"] in ("street", "postcode"), row
        assert 53.0 < float(row["lat"]) < 53.3 and 8.0 < float(row["lon"]) < 8.4
        assert "{" not in "".join(row.values())


def test_crawl_and_scrapy_report_write_csv_and_geojson(crawled, tmp_path):
    run_dir, _ = crawled
    expected = addresses_in_log(run_dir)
    out = tmp_path / "out"
    result = subprocess.run([*SCRAPY, "report", str(run_dir), "-o", str(out)], cwd=ROOT, env=crawl_env(None),
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-2000:]
    for folder in (run_dir / "report", out):  # the crawl's own report, and scrapy report's
        rows = list(csv.DictReader((folder / "addresses.csv").open(encoding="utf-8")))
        assert len(rows) == len(expected)
        assert all(ISO.match(r["fetched_at"]) for r in rows)
        features = json.loads((folder / "addresses.geojson").read_text())["features"]
        assert len(features) == 20
        assert all(f["geometry"]["type"] == "Point" for f in features)
    final = (run_dir / "report" / "index.html").read_text()
    assert 'data-live="0"' in final and 'http-equiv="refresh"' not in final


def test_report_states_the_precision_split(crawled):
    run_dir, _ = crawled
    features = json.loads((run_dir / "report" / "addresses.geojson").read_text())["features"]
    street = sum(f["properties"]["precision"] == "street" for f in features)
    postcode = sum(f["properties"]["precision"] == "postcode" for f in features)
    assert street == 12 and postcode == 8  # 6 of 10 streets are in the pack, two rounds
    index = (run_dir / "report" / "index.html").read_text()
    assert f"20 distinct address(es): {street} at their street, {postcode} at their postcode&#x27;s centroid" in index


# -- the map, offline, in a real browser -----------------------------------------------------------

def test_map_shows_every_address_offline_in_chromium(crawled, tmp_path):
    run_dir, _ = crawled
    map_html = run_dir / "report" / "map.html"
    text = map_html.read_text()
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=\"http", text), "the map loads code from the network"
    # offline: no host name resolves
    dom = chromium(map_html.resolve().as_uri(), tmp_path, "--host-resolver-rules=MAP * ~NOTFOUND",
                   "--window-size=1000,700", "--virtual-time-budget=5000", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    errors = [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
    assert not errors, errors
    html = dom.stdout
    single = len(re.findall(r'class="[^"]*geofocus-address', html))
    clustered = sum(int(n) for n in re.findall(r'marker-cluster[^"]*"[^>]*>\s*<div>\s*<span>(\d+)</span>', html))
    assert single + clustered == 20, (single, clustered)
    assert "precision-street" in html and "precision-postcode" in html
    assert 'data-markers="20"' in html


# -- the live view -----------------------------------------------------------------------------------

def pages_shown(html: str) -> int:
    m = re.search(r'id="live" data-live="(\d)" data-pages="(\d+)"', html)
    assert m, html[:2000]
    return int(m.group(2))


def test_live_report_reloads_in_chromium_and_shows_more_pages(site, tmp_path):
    run_dir = tmp_path / "run"
    command = crawl_command(run_dir, "http://portal.de/", "-s", "CONCURRENT_REQUESTS=1", "-s", "DOWNLOAD_DELAY=0.25",
                            "-s", "GEOFOCUS_LIVE_REPORT=True",
                            "-s", "GEOFOCUS_LIVE_REPORT_PAGES=5", "-s", "GEOFOCUS_LIVE_REPORT_INTERVAL=1")
    proc = subprocess.Popen(command, cwd=ROOT, env=crawl_env(site.proxy), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    index = run_dir / "report" / "index.html"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (index.is_file() and 'data-live="1"' in index.read_text()):
            time.sleep(0.2)
        first = index.read_text()
        assert 'data-live="1"' in first and '<meta http-equiv="refresh" content="1">' in first
        # One browser keeps the page open; the page reloads itself and shows more pages later.
        assert CHROMIUM is not None, "chromium is not installed: make install installs it"
        browser = Browser(CHROMIUM, index.resolve().as_uri(), tmp_path / "profile")
        try:
            shown = []
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and (len(set(shown)) < 2):
                value = browser.evaluate("(document.getElementById('live') || {dataset: {}}).dataset.pages")
                if value is not None:
                    shown.append(int(value))
                time.sleep(0.5)
            has_map = browser.evaluate("!!document.querySelector('iframe.map')")
        finally:
            browser.close()
        assert len(set(shown)) >= 2 and shown[-1] > shown[0], shown
        assert has_map
    finally:
        _, stderr = proc.communicate(timeout=180)
    assert proc.returncode == 0, stderr[-2000:]
    final = index.read_text()
    assert 'data-live="0"' in final and pages_shown(final) == len(crawl_log(run_dir))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_prometheus_endpoint_serves_the_progress_figures(site, tmp_path):
    port = free_port()
    command = crawl_command(tmp_path / "run", "http://portal.de/", "-s", "CONCURRENT_REQUESTS=1",
                            "-s", "DOWNLOAD_DELAY=0.1", "-s", f"GEOFOCUS_PROMETHEUS_PORT={port}",
                            "-s", "GEOFOCUS_MAX_PAGES=40")
    proc = subprocess.Popen(command, cwd=ROOT, env=crawl_env(site.proxy), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    seen: list[float] = []
    try:
        deadline = time.monotonic() + 90
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2).read().decode()
            except OSError:
                time.sleep(0.2)
                continue
            m = re.search(r"^geofocus_pages_fetched (\S+)$", body, re.M)
            assert m and "geofocus_harvest_rate" in body and "geofocus_page_budget 40.0" in body
            seen.append(float(m.group(1)))
            time.sleep(0.3)
    finally:
        _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr[-2000:]
    assert len(seen) >= 2 and seen[-1] > seen[0], seen


# -- sub-commands wherever the package is installed -------------------------------------------------

def test_scrapy_commands_work_outside_the_repository(tmp_path):
    egg = tmp_path / "egg"
    egg.mkdir()
    built = subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(egg)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**crawl_env(None), "PYTHONPATH": f"{ROOT}:{egg}"}
    env.pop("SCRAPY_SETTINGS_MODULE", None)

    def scrapy(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=elsewhere, env=env,
                              capture_output=True, text=True, timeout=120)

    listed = scrapy("region", "list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("oldenburg\t")
    for command in ("simweb", "train"):
        helped = scrapy(command, "-h")
        assert helped.returncode == 0 and f"scrapy {command}" in helped.stdout, helped.stderr
    wrong = scrapy("report", str(tmp_path), "-o", str(tmp_path / "out"), "-s", "GEOFOCUS_DECAY=abc")
    assert wrong.returncode == 2
    assert wrong.stderr.strip() == "report: error: GEOFOCUS_DECAY=abc: not allowed; must be a number > 0 and <= 1"


@pytest.mark.parametrize(
    "command",
    [
        ["report", "/nonexistent", "-o", "/tmp/x"],
        ["train", "/nonexistent", "-o", "/tmp/m"],
        ["region", "list"],
        ["simweb", "--pages", "200"],
    ],
)
def test_sub_commands_check_settings(command):
    result = subprocess.run([*SCRAPY, *command, "-s", "GEOFOCUS_MAX_PAGES=-5"], cwd=ROOT, env=crawl_env(None),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == \
        f"{command[0]}: error: GEOFOCUS_MAX_PAGES=-5: not allowed; must be a whole number >= 0"
