"""End-to-end crawls through real Scrapy (``scrapy crawl geo``) on a hand-made web."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest

from tests.crawling import ROOT, MiniSite, crawl_command, crawl_env, crawl_log, page, run_crawl

ADDRESS = "Schloßplatz 12<br>26122 Oldenburg (Oldb)"

WEB = {
    "http://portal.de/": page(
        "Portal",
        [
            "http://bridge.de/",
            "http://cafe.de/kontakt",
            "http://files.de/doc",
            "http://foreign.fr/",
            "http://trap.de/a/a/a/a",
            "http://english.de/",
            "http://portal.de/privat/intern",
            "http://loop.de/a",
            "http://[bad-url/",
            "http://binary.de/",
        ],
    ),
    "http://loop.de/a": {"status": 301, "headers": {"Location": "http://loop.de/b"}},
    "http://loop.de/b": {"status": 301, "headers": {"Location": "http://loop.de/a"}},
    # A binary body that claims to be HTML in a charset that does not exist.
    "http://binary.de/": {"body": "\x00\x01\ufffe PK\x03\x04 " * 200, "type": "text/html; charset=no-such-charset"},
    "http://portal.de/robots.txt": {"body": "User-agent: *\nDisallow: /privat\n", "type": "text/plain"},
    "http://portal.de/privat/intern": page("Intern", address="Markt 1, 26122 Oldenburg"),
    "http://cafe.de/kontakt": page("Cafe", ["http://cafe.de/team", "http://shop.de/"], address=ADDRESS),
    "http://cafe.de/team": page("Team"),
    "http://shop.de/": page("Shop"),
    "http://bridge.de/": page("Bridge", ["http://bridge.de/deep"]),
    "http://bridge.de/deep": page("Deep", ["http://far.de/"]),
    "http://far.de/": page("Far", address="Achternstraße 5, 26122 Oldenburg"),
    "http://files.de/doc": {"body": "%PDF-1.4 binary", "type": "application/pdf"},
    "http://foreign.fr/": page("Bonjour"),
    "http://trap.de/a/a/a/a": page("Trap"),
    "http://english.de/": page("Hello", lang="en"),
}


@pytest.fixture
def web(tmp_path):
    site = MiniSite(tmp_path, WEB)
    yield site
    site.stop()


def stats_of(run_dir):
    return json.loads((run_dir / "stats.json").read_text())


def urls(log):
    return [r["url"] for r in log]


def test_distance_crawl_follows_priorities_and_filters(web, tmp_path):
    run_dir = tmp_path / "run"
    result = run_crawl(
        run_dir, "http://portal.de/", web.proxy, "-a", "strategy=distance",
        "-s", "CONCURRENT_REQUESTS=1", "-O", str(tmp_path / "pages.jsonl"),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    log = crawl_log(run_dir)
    order = urls(log)
    assert set(order) == {
        "http://portal.de/", "http://bridge.de/", "http://cafe.de/kontakt", "http://cafe.de/team",
        "http://shop.de/", "http://bridge.de/deep", "http://far.de/", "http://binary.de/",
    }
    # Links of the relevant page (0.5) come before the page two bridges away (0.125), found
    # earlier. (Scrapy pops the next URL while the previous page is still being parsed, so
    # neighbouring levels may swap by one page; two levels apart may not.)
    assert order.index("http://cafe.de/team") < order.index("http://far.de/")
    assert order.index("http://shop.de/") < order.index("http://far.de/")
    assert order[-1] == "http://far.de/"
    by_url = {r["url"]: r for r in log}
    assert by_url["http://cafe.de/team"]["priority"] == 0.5
    assert by_url["http://bridge.de/deep"]["priority"] == 0.25
    assert by_url["http://far.de/"]["relevant"] is True
    assert by_url["http://far.de/"]["seed_dist"] == 3 and by_url["http://far.de/"]["dist"] == 0
    assert by_url["http://bridge.de/deep"]["dist"] == 2

    assert by_url["http://binary.de/"]["relevant"] is False  # evaluated, not a crash
    stats = stats_of(run_dir)
    assert stats["geofocus/fetched"] == 8 and stats["geofocus/relevant"] == 2
    assert stats["geofocus/failed/IgnoreRequest"] >= 1  # the redirect loop gave up, counted
    assert stats["geofocus/filtered/tld/fr"] == 1
    assert stats["geofocus/filtered/trap/repeated_segment"] == 1
    assert stats["geofocus/filtered/language/en"] == 1
    assert stats["geofocus/filtered/content_type/application"] == 1
    # The TLD and trap filters act before any request is sent; robots.txt is obeyed.
    assert not any("foreign.fr" in u or "trap.de" in u or "/privat" in u for u in web.requests())
    assert "http://portal.de/robots.txt" in web.requests()

    items = [json.loads(line) for line in (tmp_path / "pages.jsonl").read_text().splitlines()]
    assert sorted(i["url"] for i in items) == ["http://cafe.de/kontakt", "http://far.de/"]
    cafe = next(i for i in items if i["url"] == "http://cafe.de/kontakt")
    assert cafe["addresses"][0]["postcode"] == "26122" and cafe["parent"] == "http://portal.de/"


def test_bfs_crawls_by_seed_distance(web, tmp_path):
    run_dir = tmp_path / "run"
    result = run_crawl(run_dir, "http://portal.de/", web.proxy, "-a", "strategy=bfs", "-s", "CONCURRENT_REQUESTS=1")
    assert result.returncode == 0, result.stderr[-3000:]
    seed_dists = [r["seed_dist"] for r in crawl_log(run_dir)]
    assert seed_dists == sorted(seed_dists)
    assert seed_dists[-1] == 3


def test_page_budget_stops_the_crawl(web, tmp_path):
    run_dir = tmp_path / "run"
    result = run_crawl(
        run_dir, "http://portal.de/", web.proxy, "-s", "GEOFOCUS_MAX_PAGES=3", "-s", "CONCURRENT_REQUESTS=1"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert 3 <= len(crawl_log(run_dir)) <= 4
    assert stats_of(run_dir)["finish_reason"] == "budget_reached"


def test_run_description_names_the_node_and_the_cities_it_owns(web, tmp_path):
    run_dir = tmp_path / "run"
    result = run_crawl(
        run_dir, "http://portal.de/", web.proxy, "-s", "GEOFOCUS_MAX_PAGES=2", "-s", "GEOFOCUS_NODE=default"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    description = json.loads((run_dir / "run.json").read_text())
    assert description["node"] == "default" and description["strategy"] == "online"
    assert description["assignment"] == {"default": ["Oldenburg"]}
    assert description["seeds"] == ["http://portal.de/"]


def test_unknown_region_stops_at_once_with_the_list_of_regions(tmp_path):
    result = run_crawl(tmp_path / "run", "http://portal.de/", None, region="atlantis", timeout=60)
    assert result.returncode == 2
    assert "unknown region 'atlantis'" in result.stderr and "oldenburg" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "run" / "crawl.jsonl").exists()


def test_missing_seeds_file_is_a_clear_error(tmp_path):
    result = run_crawl(tmp_path / "run", str(tmp_path / "nope.txt"), None, timeout=60)
    assert result.returncode == 2 and "does not exist" in result.stderr


def test_stopped_crawl_resumes_without_refetching_or_losing_pages(web, tmp_path):
    run_dir = tmp_path / "run"
    first = run_crawl(
        run_dir, "http://portal.de/", web.proxy, "-s", "CONCURRENT_REQUESTS=1", "-s", "CLOSESPIDER_PAGECOUNT=3"
    )
    assert first.returncode == 0, first.stderr[-3000:]
    fetched_first = urls(crawl_log(run_dir))
    assert 1 <= len(fetched_first) < 8
    second = run_crawl(run_dir, "http://portal.de/", web.proxy, "-s", "CONCURRENT_REQUESTS=1")
    assert second.returncode == 0, second.stderr[-3000:]
    fetched = urls(crawl_log(run_dir))
    assert len(fetched) == len(set(fetched)) == 8
    assert stats_of(run_dir)["geofocus/fetched"] == 8  # the totals continue across runs


def chain_web(n: int = 300) -> dict:
    pages = {}
    for i in range(n):
        links = [f"http://h{j % 17}.de/p{j}" for j in (2 * i + 1, 2 * i + 2) if j < n]
        pages[f"http://h{i % 17}.de/p{i}"] = page(f"Page {i}", links)
    return pages


def test_killed_crawl_resumes_losing_nothing(tmp_path):
    site = MiniSite(tmp_path, chain_web())
    run_dir = tmp_path / "run"
    try:
        proc = subprocess.Popen(
            crawl_command(run_dir, "http://h0.de/p0", "-s", "CONCURRENT_REQUESTS=4", "-s", "DOWNLOAD_DELAY=0.02"),
            cwd=ROOT, env=crawl_env(site.proxy), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.time() + 60
        while len(crawl_log(run_dir)) < 60 and time.time() < deadline and proc.poll() is None:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        before_kill = len(crawl_log(run_dir))
        assert 60 <= before_kill < 300
        result = run_crawl(run_dir, "http://h0.de/p0", site.proxy, "-s", "CONCURRENT_REQUESTS=4")
        assert result.returncode == 0, result.stderr[-3000:]
    finally:
        site.stop()
    fetched = urls(crawl_log(run_dir))
    assert set(fetched) == set(chain_web())  # nothing lost
    refetched = len(fetched) - len(set(fetched))
    assert refetched <= 20  # only pages in flight (or in the last uncommitted 0.2 s) at the kill
