"""``scrapy crawl geo`` on simweb writing to a real PostGIS: rows equal crawl.jsonl, the spatial
queries answer what the log says, resumed and shared crawls write each page once, and a
PostgreSQL restart mid-crawl loses nothing."""

from __future__ import annotations

import math
import re
import subprocess
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from geofocus.postgis.rows import address_key
from tests.crawling import ROOT, SCRAPY, crawl_command, crawl_env, crawl_log, run_crawl
from tests.pgutil import query
from tests.redisutil import unique_crawl_id
from tests.simweb_server import running_simweb
from tests.test_postgis import PER_POSTCODE_QUERY, SHARED_ADDRESSES_QUERY

NEAR = """
SELECT DISTINCT p.url
FROM pages p JOIN addresses a ON a.page_url = p.url
WHERE p.relevant AND ST_DWithin(a.geom::geography, ST_SetSRID(ST_MakePoint(%s, %s), 4326)::geography, %s)
"""


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with running_simweb(tmp_path_factory.mktemp("simweb"), pages=3000, seed=1) as server:
        yield server


def settings(dsn: str, budget: int, *extra: str) -> list[str]:
    return ["-a", "strategy=bfs", "-s", f"GEOFOCUS_MAX_PAGES={budget}", "-s", f"GEOFOCUS_POSTGIS_DSN={dsn}",
            "-s", "GEOFOCUS_POSTGIS_FLUSH_INTERVAL=0.2", *extra]


def metres(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance (haversine, mean Earth radius)."""
    (lat1, lon1), (lat2, lon2) = (tuple(map(math.radians, p)) for p in (a, b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(math.sqrt(h))


def latest(logs: list[list[dict]]) -> dict[str, dict]:
    pages: dict[str, dict] = {}
    for log in logs:
        for record in log:
            pages[record["url"]] = record
    return pages


def assert_rows_equal_logs(dsn: str, *logs: list[dict]) -> dict[str, dict]:
    pages = latest(list(logs))
    rows = query(dsn, "SELECT url, status, relevant, depth, parent FROM pages")
    assert len(rows) == len(pages)
    assert {r[0]: r[1:] for r in rows} == {
        u: (r["status"], r["relevant"], r["depth"], r["parent"]) for u, r in pages.items()}
    per_page = dict(query(dsn, "SELECT page_url, count(*) FROM addresses GROUP BY page_url"))
    assert per_page == {u: len(r["addresses"]) for u, r in pages.items() if r["addresses"]}
    return pages


def test_crawl_writes_every_page_and_address_and_the_queries_answer_what_the_log_says(web, tmp_path, pg_dsn):
    run_dir = tmp_path / "run"
    result = run_crawl(run_dir, str(web.seeds_file), web.proxy_url, *settings(pg_dsn, 150), timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    log = crawl_log(run_dir)
    assert len(log) >= 150
    pages = assert_rows_equal_logs(pg_dsn, log)
    relevant = [r for r in pages.values() if r["relevant"]]
    assert len(relevant) >= 10
    assert query(pg_dsn, "SELECT count(DISTINCT run_id), min(region) FROM pages") == [(1, "oldenburg")]
    # the stats dump (stats.json is written before the writer's last batch at close)
    assert f"'geofocus/postgis/pages': {len(log)}," in result.stderr
    assert not (run_dir / "postgis-spool.jsonl").exists()
    password = pg_dsn.split(":")[2].split("@")[0]
    assert password not in result.stderr + result.stdout

    # within 2 km of the first address found, per the log's coordinates (haversine; the database
    # measures on the spheroid, so pages within 0.5 % of the radius may go either way)
    points = [(a["lat"], a["lon"], r["url"]) for r in relevant for a in r["addresses"] if a.get("lat") is not None]
    centre = points[0][:2]
    expected = {u for lat, lon, u in points if metres(centre, (lat, lon)) <= 2000}
    border = {u for lat, lon, u in points if abs(metres(centre, (lat, lon)) - 2000) < 10}
    found = {r[0] for r in query(pg_dsn, NEAR, (centre[1], centre[0], 2000))}
    assert found - border == expected - border
    assert 0 < len(expected) < len(relevant) or len({u for *_, u in points}) == len(expected)
    far = {r[0] for r in query(pg_dsn, NEAR, (centre[1] + 1.0, centre[0], 2000))}
    assert far == {u for lat, lon, u in points if metres((centre[0], centre[1] + 1.0), (lat, lon)) <= 2000}

    per_postcode = Counter()
    for record in pages.values():
        for postcode in {a.get("postcode") for a in record["addresses"]}:
            per_postcode[postcode] += 1
    assert {r[0]: r[1] for r in query(pg_dsn, PER_POSTCODE_QUERY)} == dict(per_postcode)
    by_key = defaultdict(set)
    for record in pages.values():
        for a in record["addresses"]:
            by_key[address_key(a)].add(record["url"])
    shared = sorted(len(v) for v in by_key.values() if len(v) > 1)
    assert sorted(r[3] for r in query(pg_dsn, SHARED_ADDRESSES_QUERY)) == shared


def test_a_resumed_crawl_writes_each_page_once(web, tmp_path, pg_dsn):
    run_dir = tmp_path / "run"
    for budget in (40, 100):
        result = run_crawl(run_dir, str(web.seeds_file), web.proxy_url, *settings(pg_dsn, budget), timeout=300)
        assert result.returncode == 0, result.stderr[-3000:]
    log = crawl_log(run_dir)
    assert len(log) >= 100
    assert len({r["url"] for r in log}) == len(log)
    assert_rows_equal_logs(pg_dsn, log)


def test_two_redis_workers_write_each_page_once(web, tmp_path, pg_dsn, redis_server):
    crawl_id = unique_crawl_id("pg")
    procs = []
    for name in ("w1", "w2"):
        cmd = crawl_command(tmp_path / name, str(web.seeds_file), *settings(pg_dsn, 120),
                            "-s", f"GEOFOCUS_REDIS_URL={redis_server.url}", "-s", f"GEOFOCUS_CRAWL_ID={crawl_id}",
                            "-s", "GEOFOCUS_REDIS_IDLE_TIMEOUT=5")
        procs.append(subprocess.Popen(cmd, cwd=ROOT, env=crawl_env(web.proxy_url), stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True))
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-3000:]
    logs = [crawl_log(tmp_path / name) for name in ("w1", "w2")]
    assert all(logs), "both workers fetched pages"
    pages = assert_rows_equal_logs(pg_dsn, *logs)
    assert len(pages) >= 120
    assert query(pg_dsn, "SELECT count(DISTINCT run_id) FROM pages") == [(1,)]  # the crawl id


def wait_for(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def start_crawl(web, run_dir: Path, dsn: str, budget: int) -> subprocess.Popen:
    cmd = crawl_command(run_dir, str(web.seeds_file), *settings(
        dsn, budget, "-s", "GEOFOCUS_POSTGIS_BUFFER=20", "-s", "GEOFOCUS_POSTGIS_BATCH=10",
        "-s", "GEOFOCUS_POSTGIS_RETRY_INTERVAL=0.5", "-s", "GEOFOCUS_POSTGIS_TIMEOUT=1",
        "-s", "GEOFOCUS_POSTGIS_CLOSE_TIMEOUT=2", "-s", "CONCURRENT_REQUESTS=4", "-s", "DOWNLOAD_DELAY=0.02"))
    return subprocess.Popen(cmd, cwd=ROOT, env=crawl_env(web.proxy_url), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_postgres_restarted_mid_crawl_loses_nothing(web, tmp_path, pg_cluster):
    dsn = pg_cluster.new_database()
    run_dir = tmp_path / "run"
    proc = start_crawl(web, run_dir, dsn, 200)
    try:
        wait_for(lambda: lines(run_dir / "crawl.jsonl") >= 30, 120, "the first pages")
        pg_cluster.stop()
        down_at = lines(run_dir / "crawl.jsonl")
        # more pages than the buffer holds arrive while it is down: they go to the spool
        wait_for(lambda: (run_dir / "postgis-spool.jsonl").exists()
                 and lines(run_dir / "crawl.jsonl") >= down_at + 40, 120, "the spool")
        assert proc.poll() is None, "the crawl goes on while PostgreSQL is away"
        pg_cluster.start()
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    log = crawl_log(run_dir)
    assert len(log) >= 200
    assert_rows_equal_logs(dsn, log)
    assert not (run_dir / "postgis-spool.jsonl").exists()
    assert re.search(r"'geofocus/postgis/spooled': [1-9]", err) and re.search(
        r"'geofocus/postgis/unspooled': [1-9]", err
    )
    assert err.count("is unavailable") == 1 and "is back" in err and "Traceback" not in err
    assert pg_cluster.password not in err


def test_postgres_gone_at_close_leaves_a_spool_that_postgis_load_writes(web, tmp_path, pg_cluster):
    dsn = pg_cluster.new_database()
    run_dir = tmp_path / "run"
    proc = start_crawl(web, run_dir, dsn, 60)
    try:
        wait_for(lambda: lines(run_dir / "crawl.jsonl") >= 20, 120, "the first pages")
        pg_cluster.stop()
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    assert "did not come back before the crawl closed" in err and "Traceback" not in err
    spooled = lines(run_dir / "postgis-spool.jsonl")
    log = crawl_log(run_dir)
    pg_cluster.start()
    written = query(dsn, "SELECT count(*) FROM pages")[0][0]
    assert spooled > 0 and written + spooled >= len(log)
    load = subprocess.run([*SCRAPY, "postgis-load", str(run_dir), "--dsn", dsn], cwd=ROOT, env=crawl_env(None),
                          capture_output=True, text=True, timeout=120)
    assert load.returncode == 0, load.stderr
    assert_rows_equal_logs(dsn, log)
    assert not (run_dir / "postgis-spool.jsonl").exists()
