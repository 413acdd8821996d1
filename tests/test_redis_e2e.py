"""End to end: `scrapy crawl geo` workers sharing one Redis frontier against a small real site.

Three workers crawl simweb together under one crawl-wide page budget (no
page twice, every queued URL fetched or still queued, pooled link models,
a harvest rate well above the web's share of relevant pages).  On a small
local site: three workers while one is killed with SIGKILL mid-crawl and
Redis is restarted once (every page fetched, none twice except the killed
worker's expired leases, the relevant pages of a single-process crawl); and
a host partition over two nodes.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from tests.redisutil import unique_crawl_id
from tests.tinysite import TinySite

ROOT = Path(__file__).resolve().parent.parent
SCRAPY = [sys.executable, "-m", "scrapy.cmdline"]


def start_worker(site, run_dir, redis_url=None, crawl_id=None, extra=()):
    args = [*SCRAPY, "crawl", "geo", "-a", "region=oldenburg", "-a", f"seeds={site.url(0)}",
            "-s", "GEOFOCUS_ALLOW_PRIVATE=1", "-s", "ROBOTSTXT_OBEY=0", "-s", f"GEOFOCUS_RUN_DIR={run_dir}",
            "-s", "LOG_LEVEL=INFO", *extra]
    if redis_url:
        args += ["-s", f"GEOFOCUS_REDIS_URL={redis_url}", "-s", f"GEOFOCUS_CRAWL_ID={crawl_id}",
                 "-s", "GEOFOCUS_REDIS_LEASE_TTL=3", "-s", "GEOFOCUS_REDIS_IDLE_TIMEOUT=20",
                 "-s", "GEOFOCUS_REDIS_FLUSH_INTERVAL=0.3", "-s", "GEOFOCUS_MODEL_SYNC_INTERVAL=0.5"]
    log = open(Path(str(run_dir) + ".log"), "w")
    return subprocess.Popen(args, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def fetched(run_dir):
    path = Path(run_dir) / "crawl.jsonl"
    if not path.exists():
        return []
    text = path.read_text()
    lines = text.splitlines()
    rows = []
    for i, line in enumerate(lines):
        try:
            rows.append(json.loads(line))
        except ValueError:
            # only the last line may be cut: that of a worker killed (or read) while writing it
            if i == len(lines) - 1 and not text.endswith("\n"):
                continue
            raise AssertionError(f"{path}, line {i + 1} is not a JSON row: {line[:200]!r}") from None
    return rows


def kill_after(victim, run_dir, pages, timeout):
    """SIGKILL ``victim`` once its crawl log has ``pages`` lines; returns its rows and the kill time."""
    end = time.monotonic() + timeout
    while len(fetched(run_dir)) < pages and time.monotonic() < end and victim.poll() is None:
        time.sleep(0.1)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    return fetched(run_dir), time.time()


def wait_opened(logs, timeout=90):
    """Until every worker has opened the shared frontier (on a busy machine a worker may take
    many seconds to start; one that starts while Redis restarts stops at once with exit 2)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(Path(log).exists() and "Redis frontier: crawl" in Path(log).read_text() for log in logs):
            return
        time.sleep(0.2)
    raise AssertionError("workers did not open the Redis frontier in time")


def wait_all(procs, timeout=90):
    end = time.monotonic() + timeout
    for p in procs:
        p.wait(max(1, end - time.monotonic()))
        assert p.returncode == 0, f"worker exited with {p.returncode}"


@pytest.fixture
def site(tmp_path):
    s = TinySite(tmp_path / "www", pages=150, delay=0.1)
    yield s
    s.stop()


def test_worker_killed_and_redis_restarted_mid_crawl(tmp_path, site, redis_server):
    single = start_worker(site, tmp_path / "single")
    crawl = unique_crawl_id("e2e-faults")
    procs = [start_worker(site, tmp_path / f"w{i}", redis_server.url, crawl) for i in range(3)]
    wait_opened([tmp_path / f"w{i}.log" for i in range(3)])
    # kill one worker once it has fetched some pages
    killed_rows, _ = kill_after(procs[0], tmp_path / "w0", pages=5, timeout=40)
    redis_server.restart(down_for=1.0)
    wait_all(procs[1:])
    wait_all([single])

    survivors = [r for i in (1, 2) for r in fetched(tmp_path / f"w{i}")]
    all_rows = killed_rows + survivors
    urls = [r["url"] for r in all_rows]
    assert set(urls) == site.urls  # nothing lost
    survivor_urls = [r["url"] for r in survivors]
    assert len(survivor_urls) == len(set(survivor_urls))  # no double fetch among the living
    # a page fetched twice was leased by the killed worker (its lease expired)
    twice = {u for u in urls if urls.count(u) > 1}
    assert twice <= {r["url"] for r in killed_rows}
    single_relevant = {r["url"] for r in fetched(tmp_path / "single") if r["relevant"]}
    assert {r["url"] for r in all_rows if r["relevant"]} == single_relevant
    client = redis.Redis.from_url(redis_server.url)
    assert client.zcard(f"geofocus:{crawl}:leases") == 0
    assert any("lost Redis" in (tmp_path / f"w{i}.log").read_text() for i in (1, 2))
    # every URL ever queued was fetched (or is still queued): none lost in Redis either
    stats = {k.decode(): int(v) for k, v in client.hgetall(f"geofocus:{crawl}:stats").items()}
    queued = sum(client.zcard(k) for k in client.scan_iter(match=f"geofocus:{crawl}:q:*"))
    assert stats["push/new"] == stats["done/queued"] + queued == site.pages


def test_host_partition_sends_each_host_to_one_node(tmp_path, site, redis_server):
    """Two nodes, GEOFOCUS_PARTITION=host: every page of a host is fetched by the node that owns it."""
    from geofocus.partition import NodePlan

    crawl = unique_crawl_id("e2e-nodes")
    nodes = ["n0", "n1"]
    procs = [start_worker(site, tmp_path / node, redis_server.url, crawl, extra=[
        "-s", f"GEOFOCUS_NODE={node}", "-s", "GEOFOCUS_PARTITION=host", "-s", "GEOFOCUS_NODES=n0,n1"])
        for node in nodes]
    wait_all(procs)
    plan = NodePlan(tuple(nodes), "n0")
    seed = site.url(0)
    seen = []
    for node in nodes:
        for row in fetched(tmp_path / node):
            seen.append(row["url"])
            if row["url"] != seed:  # the seed is queued by whichever worker pushes it first
                assert plan.by_hash(row["url"].split("/")[2].split(":")[0]) == node
    assert sorted(seen) == sorted(site.urls)
    logs = "".join((tmp_path / f"{node}.log").read_text() for node in nodes)
    assert "'geofocus/partition/sent/n1'" in logs and "'geofocus/partition/sent/n0'" in logs


def test_three_workers_on_simweb_share_one_budget(tmp_path, redis_server):
    """Three workers crawl one region of simweb through its proxy under one crawl-wide budget."""
    from tests.simweb_server import running_simweb

    budget = 200
    with running_simweb(tmp_path / "web", pages=5000) as sw:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "http_proxy": sw.proxy_url}

        def worker(name):
            args = [*SCRAPY, "crawl", "geo", "-a", "region=oldenburg", "-a", f"seeds={sw.seeds_file}",
                    "-s", f"GEOFOCUS_RUN_DIR={tmp_path / name}", "-s", f"GEOFOCUS_MAX_PAGES={budget}",
                    "-s", "CONCURRENT_REQUESTS=8",
                    "-s", f"GEOFOCUS_REDIS_URL={redis_server.url}", "-s", "GEOFOCUS_CRAWL_ID=sim",
                    "-s", "GEOFOCUS_REDIS_FLUSH_INTERVAL=0.3", "-s", "GEOFOCUS_MODEL_SYNC_INTERVAL=0.5"]
            log = open(tmp_path / f"{name}.log", "w")
            return subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)

        wait_all([worker(f"w{i}") for i in range(3)], timeout=150)
        truth = [json.loads(line) for line in sw.truth_file.read_text().splitlines()]
    rows = [r for i in range(3) for r in fetched(tmp_path / f"w{i}")]
    urls = [r["url"] for r in rows]
    assert len(urls) == len(set(urls))  # never fetched twice
    assert budget <= len(urls) < budget * 1.5  # one budget for the crawl, not one per worker
    assert sum(1 for i in range(3) if fetched(tmp_path / f"w{i}")) == 3
    client = redis.Redis.from_url(redis_server.url)
    stats = {k.decode(): int(v) for k, v in client.hgetall("geofocus:sim:stats").items()}
    queued = sum(client.zcard(k) for k in client.scan_iter(match="geofocus:sim:q:*"))
    assert client.zcard("geofocus:sim:leases") == 0  # closing workers gave their leases back
    # every URL ever queued was fetched or is still queued
    assert stats["push/new"] == stats["done/queued"] + queued
    # the link models were pooled: every worker's examples in Redis, merged into the others' models
    assert sum(int(v) for v in client.hvals("geofocus:sim:model:docs")) >= len(rows)
    assert any("geofocus/prediction/pool/examples_merged" in (tmp_path / f"w{i}.log").read_text()
               for i in range(3))
    # The shared crawl stays on the region: at least twice the web's share of relevant pages (4 %;
    # 16-27 % measured).  Not compared with one process: at 200 pages every strategy, breadth-first
    # included, harvests about 20 %, and which of two such crawls gets more is a matter of timing
    # (a process that waits for the CPU sees more links before each pop: 0.18 against 0.31 seen).
    base_rate = sum(1 for page in truth if page["relevant"]) / len(truth)
    shared_rate = sum(r["relevant"] for r in rows) / len(rows)
    assert shared_rate >= 2 * base_rate, (shared_rate, base_rate)


def test_simweb_crawl_survives_a_killed_worker_and_a_redis_restart(tmp_path, redis_server):
    """Three workers on simweb; one is killed with SIGKILL mid-crawl and Redis restarts once."""
    from tests.simweb_server import running_simweb

    budget = 300
    crawl = unique_crawl_id("sim-faults")
    with running_simweb(tmp_path / "web", pages=5000) as sw:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "http_proxy": sw.proxy_url}

        def worker(name):
            args = [*SCRAPY, "crawl", "geo", "-a", "region=oldenburg", "-a", f"seeds={sw.seeds_file}",
                    "-s", f"GEOFOCUS_RUN_DIR={tmp_path / name}", "-s", f"GEOFOCUS_MAX_PAGES={budget}",
                    "-s", "CONCURRENT_REQUESTS=8", "-s", "DOWNLOAD_DELAY=0.05",
                    "-s", f"GEOFOCUS_REDIS_URL={redis_server.url}", "-s", f"GEOFOCUS_CRAWL_ID={crawl}",
                    "-s", "GEOFOCUS_REDIS_LEASE_TTL=3", "-s", "GEOFOCUS_REDIS_IDLE_TIMEOUT=20",
                    "-s", "GEOFOCUS_REDIS_FLUSH_INTERVAL=0.3"]
            log = open(tmp_path / f"{name}.log", "w")
            return subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)

        procs = [worker(f"w{i}") for i in range(3)]
        wait_opened([tmp_path / f"w{i}.log" for i in range(3)])
        killed, killed_at = kill_after(procs[0], tmp_path / "w0", pages=30, timeout=60)
        assert killed, "the victim fetched pages before it was killed"
        redis_server.restart(down_for=1.0)
        wait_all(procs[1:], timeout=150)

    survivors = [r for i in (1, 2) for r in fetched(tmp_path / f"w{i}")]
    survivor_urls = [r["url"] for r in survivors]
    assert survivors and len(survivor_urls) == len(set(survivor_urls))  # no double fetch among the living
    urls = [r["url"] for r in killed + survivors]
    twice = {u for u in urls if urls.count(u) > 1}
    assert twice <= {r["url"] for r in killed}  # only the dead worker's expired leases came back
    assert budget <= len(urls) < budget * 1.5
    assert any("lost Redis" in (tmp_path / f"w{i}.log").read_text() for i in (1, 2))
    client = redis.Redis.from_url(redis_server.url)
    # The budget may end the crawl before the dead worker's leases expire: those that remain are
    # all one worker's, not renewed since the kill (TTL 3 s), so they expire and go back to the
    # queue when any worker next runs.
    leases = client.zrange(f"geofocus:{crawl}:leases", 0, -1, withscores=True)
    owners = {client.hget(f"geofocus:{crawl}:lease", fp).split(b"\t")[0] for fp, _ in leases}
    assert len(owners) <= 1
    assert all(deadline <= (killed_at + 3 + 0.5) * 1000 for _, deadline in leases)
    stats = {k.decode(): int(v) for k, v in client.hgetall(f"geofocus:{crawl}:stats").items()}
    queued = sum(client.zcard(k) for k in client.scan_iter(match=f"geofocus:{crawl}:q:*"))
    # every URL ever queued is fetched, queued, or held by the dead worker's expired lease
    assert stats["push/new"] == stats["done/queued"] + queued + len(leases)
    assert any(r["relevant"] for r in survivors)


def test_redis_restarted_without_persistence_stops_the_workers_with_one_line(tmp_path, volatile_redis):
    """Redis (no AOF, no RDB) is killed mid-crawl and comes back empty: the two workers must not go on
    in the emptied Redis (that lost 22 % of the links, fetched pages twice and overshot the budget by
    a third, silently); they stop with one line saying what happened and how to recover, exit
    non-zero, and a worker restarted with its run directory refuses to start."""
    site = TinySite(tmp_path / "www", pages=400, delay=0.1)
    crawl = unique_crawl_id("e2e-wipe")
    extra = ["-s", "CONCURRENT_REQUESTS=4", "-s", "GEOFOCUS_REDIS_MAX_HELD=16", "-s", "GEOFOCUS_REDIS_BATCH=8"]
    try:
        procs = [start_worker(site, tmp_path / f"w{i}", volatile_redis.url, crawl, extra) for i in range(2)]
        wait_opened([tmp_path / f"w{i}.log" for i in range(2)])
        end = time.monotonic() + 60
        while sum(len(fetched(tmp_path / f"w{i}")) for i in range(2)) < 20 and time.monotonic() < end:
            time.sleep(0.1)
        volatile_redis.stop(signal.SIGKILL)
        at_wipe = sum(len(fetched(tmp_path / f"w{i}")) for i in range(2))
        volatile_redis.start()  # empty
        for p in procs:
            p.wait(60)
        codes = [p.returncode for p in procs]
        after = sum(len(fetched(tmp_path / f"w{i}")) for i in range(2))
        logs = [(tmp_path / f"w{i}.log").read_text() for i in range(2)]
        restarted = start_worker(site, tmp_path / "w0", volatile_redis.url, crawl, extra)
        restarted.wait(60)
    finally:
        site.stop()
    assert after < site.pages, "the crawl finished before Redis was wiped: nothing was tested"
    assert codes == [1, 1]
    for log in logs:
        lost = [line for line in log.splitlines() if "is lost on" in line]
        assert len(lost) == 1 and "ERROR" in lost[0], lost
        assert "restarted without its data" in lost[0] and "To recover:" in lost[0]
        assert "Traceback" not in log
        assert "redis_crawl_lost" in log
    # the workers stopped soon: at most what each held locally (leased batch + in flight)
    assert after - at_wipe <= 2 * (16 + 4)
    # nothing of the crawl re-created in the emptied Redis (frontier, counters, link model)
    client = redis.Redis.from_url(volatile_redis.url)
    assert list(client.scan_iter(match=f"geofocus:{crawl}:*")) == []
    assert restarted.returncode == 2
    log = (tmp_path / "w0.log").read_text()
    assert "is lost on" in log.splitlines()[-1] and "Traceback" not in log
