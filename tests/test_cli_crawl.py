"""The user's crawl through the real command line (``scrapy crawl geo`` in a subprocess):
settings checked at start, honest exit codes with one line saying why, the page budget,
safe resumes, progress lines.  Each test asserts the exit code and the message a user sees.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading

import pytest

from tests.crawling import ROOT, SCRAPY, MiniSite, crawl_env, crawl_log, page, run_crawl

ADDRESS = "Schloßplatz 12, 26122 Oldenburg"


def grid_web(n: int = 120) -> dict:
    """n pages on 6 hosts, every page linking to the next 8; every 5th carries an address."""
    urls = [f"http://h{i % 6}.de/p{i}" for i in range(n)]
    web = {}
    for i, url in enumerate(urls):
        web[url] = page(f"Seite {i}", urls[i + 1:i + 9], address=ADDRESS if i % 5 == 0 else "")
    return web


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    site = MiniSite(tmp_path_factory.mktemp("grid"), grid_web())
    yield site
    site.stop()


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("crawl: error:")]


def scrapy_crawl(*args: str, proxy: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    command = [*SCRAPY, "crawl", "geo", *args]
    return subprocess.run(command, cwd=ROOT, env=crawl_env(proxy), capture_output=True, text=True,
                          timeout=timeout)


# -- settings and arguments: exit code 2, one line, before any request ---------------------------

@pytest.mark.parametrize("setting, allowed", [
    ("GEOFOCUS_DECAY=2.0", "must be a number > 0 and <= 1"),
    ("GEOFOCUS_DECAY=abc", "must be a number > 0 and <= 1"),
    ("GEOFOCUS_MAX_PAGES=abc", "must be a whole number >= 0"),
    ("GEOFOCUS_STRATEGY=best", "must be one of adaptive, distance, bfs, online, classifier"),
    ("GEOFOCUS_ALLOW_PRIVATE=maybe", "must be True or False"),
])
def test_a_wrong_setting_stops_before_any_request(grid, tmp_path, setting, allowed):
    before = len(grid.requests())
    result = run_crawl(tmp_path / "run", "http://h0.de/p0", grid.proxy, "-s", setting)
    assert result.returncode == 2
    assert error_lines(result.stderr) == [f"crawl: error: {setting}: not allowed; {allowed}"]
    assert "Traceback" not in result.stderr
    assert len(grid.requests()) == before
    assert not (tmp_path / "run").exists()


def test_no_region_is_an_error_naming_the_packs(tmp_path):
    result = scrapy_crawl("-a", "seeds=http://a.de/", "-s", f"GEOFOCUS_RUN_DIR={tmp_path / 'run'}")
    assert result.returncode == 2
    assert error_lines(result.stderr) == [
        "crawl: error: give the region: -a region=NAME (one of oldenburg, us-top100; "
        "scrapy region list describes them)"]


def test_non_http_seeds_are_skipped_with_one_warning_each(grid, tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("mailto:info@example.de\nftp://files.example.de/x\nhttp://h0.de/p0\n")
    result = run_crawl(tmp_path / "run", str(seeds), grid.proxy, "-s", "GEOFOCUS_MAX_PAGES=3")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stderr.count("Skipping seed 'mailto:info@example.de': not an http(s) URL") == 1
    assert result.stderr.count("Skipping seed 'ftp://files.example.de/x'") == 1
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["seeds"] == ["http://h0.de/p0"]


def test_only_junk_seeds_is_an_error(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("mailto:info@example.de\njavascript:void(0)\n")
    result = run_crawl(tmp_path / "run", str(seeds), None)
    assert result.returncode == 2
    assert error_lines(result.stderr) == [
        f"crawl: error: no usable seeds in {str(seeds)!r}: give http(s) URLs, one per line or comma-separated"]


# -- honest ends: exit code 1 and why -------------------------------------------------------------

def _no_traceback(result):
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout


def test_dns_failure_of_every_seed_exits_1(tmp_path):
    result = run_crawl(tmp_path / "run", "http://no-such-host.invalid/", None, "-s", "RETRY_TIMES=0")
    assert result.returncode == 1
    assert error_lines(result.stderr) == [
        "crawl: error: no page fetched: the seed failed: DNS lookup failed for no-such-host.invalid "
        "(no network, or no such host)"]
    _no_traceback(result)


def test_refused_proxy_exits_1(tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proxy = f"http://127.0.0.1:{port}"
    result = run_crawl(tmp_path / "run", "http://www.example.de/,http://www.example2.de/", proxy,
                       "-s", "RETRY_TIMES=0")
    assert result.returncode == 1
    assert error_lines(result.stderr) == [
        f"crawl: error: no page fetched: all 2 seeds failed: 2 connection refused by the proxy {proxy}"]
    _no_traceback(result)


def test_stalled_proxy_says_it_is_waiting_then_exits_1(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    proxy = f"http://127.0.0.1:{server.getsockname()[1]}"
    try:
        result = run_crawl(tmp_path / "run", "http://www.example.de/", proxy, "-s", "RETRY_TIMES=0",
                           "-s", "DOWNLOAD_TIMEOUT=3", "-s", "GEOFOCUS_PROGRESS_INTERVAL=1",
                           "-s", "ROBOTSTXT_OBEY=False")
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()
    assert result.returncode == 1
    assert f"waiting for the first answer through the proxy {proxy}" in result.stderr
    assert error_lines(result.stderr) == [
        f"crawl: error: no page fetched: the seed failed: no answer from the proxy {proxy} within DOWNLOAD_TIMEOUT"]
    _no_traceback(result)


def test_seeds_all_filtered_exits_1(grid, tmp_path):
    result = run_crawl(tmp_path / "run", "http://www.example.fr/", grid.proxy)
    assert result.returncode == 1
    assert error_lines(result.stderr) == ["crawl: error: no page fetched: the seed failed: filtered (tld/fr)"]
    _no_traceback(result)


def test_robots_txt_disallowing_the_seeds_exits_1(tmp_path):
    site = MiniSite(tmp_path, {"http://closed.de/robots.txt": {"body": "User-agent: *\nDisallow: /\n",
                                                               "type": "text/plain"},
                               "http://closed.de/": page("Geschlossen")})
    try:
        result = run_crawl(tmp_path / "run", "http://closed.de/", site.proxy)
    finally:
        site.stop()
    assert result.returncode == 1
    assert error_lines(result.stderr) == ["crawl: error: no page fetched: the seed failed: robots.txt disallows them"]
    _no_traceback(result)


# -- the budget, resumes, progress ----------------------------------------------------------------

def fetched_pages(run_dir) -> list[str]:
    return [r["url"] for r in crawl_log(run_dir)]


def test_budget_is_exact_and_stays_finished_on_resume(grid, tmp_path):
    run_dir = tmp_path / "run"
    extra = ("-s", "GEOFOCUS_MAX_PAGES=50", "-s", "CONCURRENT_REQUESTS=32", "-s", "GEOFOCUS_PROGRESS_INTERVAL=0.2")
    first = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, *extra)
    assert first.returncode == 0, first.stderr[-2000:]
    assert len(fetched_pages(run_dir)) == 50
    progress = [line for line in first.stderr.splitlines() if "Progress:" in line]
    assert progress and re.search(r"budget \d+ % of 50 \(ETA ", progress[-1]), progress
    requests_before = len(grid.requests())
    again = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, *extra)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "crawl: the page budget is used up: 50 pages of GEOFOCUS_MAX_PAGES=50 already fetched; " \
           "raise it to continue this crawl" in again.stdout
    assert len(fetched_pages(run_dir)) == 50
    assert len(grid.requests()) == requests_before


def test_resume_keeps_every_item_and_refuses_to_truncate_the_feed(grid, tmp_path):
    run_dir, feed = tmp_path / "run", tmp_path / "pages.jsonl"
    first = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, "-s", "GEOFOCUS_MAX_PAGES=30", "-O", str(feed))
    assert first.returncode == 0, first.stderr[-2000:]
    first_items = feed.read_text().splitlines()
    assert first_items
    refused = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, "-s", "GEOFOCUS_MAX_PAGES=60", "-O", str(feed))
    assert refused.returncode == 2
    assert error_lines(refused.stderr) == [
        f"crawl: error: -O {feed} would overwrite what this crawl already wrote; resume with -o {feed} "
        f"to append (every item is also in {run_dir / 'items.jsonl'})"]
    assert feed.read_text().splitlines() == first_items
    second = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, "-s", "GEOFOCUS_MAX_PAGES=60", "-o", str(feed))
    assert second.returncode == 0, second.stderr[-2000:]
    relevant = [r["url"] for r in crawl_log(run_dir) if r["relevant"]]
    fed = [json.loads(line)["url"] for line in feed.read_text().splitlines()]
    kept = [json.loads(line)["url"] for line in (run_dir / "items.jsonl").read_text().splitlines()]
    assert sorted(fed) == sorted(relevant) == sorted(kept)
    assert len(relevant) > len(first_items)
    # the rate of the resumed run's progress counts only its own pages
    for line in second.stderr.splitlines():
        m = re.search(r"Progress: (\d+) pages \(\+(\d+) in", line)
        if m:
            assert int(m.group(2)) <= 30


def test_resume_with_contradicting_arguments_is_refused_unless_forced(grid, tmp_path):
    run_dir = tmp_path / "run"
    first = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, "-a", "strategy=adaptive", "-s", "GEOFOCUS_MAX_PAGES=10")
    assert first.returncode == 0, first.stderr[-2000:]
    refused = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, "-a", "strategy=bfs", "-s", "GEOFOCUS_MAX_PAGES=20")
    assert refused.returncode == 2
    assert error_lines(refused.stderr) == [
        f"crawl: error: {run_dir} is a crawl to resume, but -a strategy=bfs but the run has strategy adaptive "
        "(use another GEOFOCUS_RUN_DIR, or -a resume=force to change it)"]
    refused = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, "-s", "GEOFOCUS_DECAY=0.7")
    assert refused.returncode == 2 and "GEOFOCUS_DECAY=0.7 but the run has decay 0.5" in refused.stderr
    assert len(crawl_log(run_dir)) == 10
    forced = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, "-a", "strategy=bfs", "-a", "resume=force",
                       "-s", "GEOFOCUS_MAX_PAGES=20")
    assert forced.returncode == 0, forced.stderr[-2000:]
    run = json.loads((run_dir / "run.json").read_text())
    assert run["strategy"] == "bfs"
    assert [(c["key"], c["old"], c["new"]) for c in run["changes"]] == [("strategy", "adaptive", "bfs")]
    # the same command without the strategy resumes the run's own strategy
    same = run_crawl(run_dir, "http://h0.de/p0", grid.proxy, "-s", "GEOFOCUS_MAX_PAGES=25")
    assert same.returncode == 0, same.stderr[-2000:]
    assert json.loads((run_dir / "run.json").read_text())["strategy"] == "bfs"
    assert len(crawl_log(run_dir)) == 25
