"""crawl-admin (status, push-seeds, clear) and the link-model pool, against a real redis-server."""

import json
import os
import subprocess
import sys
from pathlib import Path

from geofocus.frontier import FrontierEntry
from geofocus.redis.frontier import RedisFrontier
from geofocus.redis.modelstore import FORMAT, RedisModelPool
from tests.redisutil import unique_crawl_id

ROOT = Path(__file__).resolve().parent.parent


def admin(server, *args):
    out = subprocess.run([sys.executable, "-m", "scrapy.cmdline", "crawl-admin", *args,
                          "-s", f"GEOFOCUS_REDIS_URL={server.url}"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    return out


def test_status_push_seeds_and_clear(shared_redis, tmp_path):
    crawl = unique_crawl_id("admin")
    f = RedisFrontier(shared_redis.client(), crawl, node="east", flush_interval=0.1)
    f.open()
    f.push(FrontierEntry("fp1", 0.5, "a.de", {"url": "http://a.de/"}))
    f.push(FrontierEntry("fp2", 0.7, "b.de", {"url": "http://b.de/"}))
    f.increment("geofocus/fetched", 3)
    f.sync()
    assert f.pop().fingerprint == "fp2"  # leases both (one prefetched)
    f.done("fp2")
    f.sync()

    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://www.example.com/\n# a comment\nwww.example.org\nhttp://[bad\n")
    out = admin(shared_redis, "push-seeds", crawl, str(seeds))
    assert out.returncode == 0, out.stderr
    assert "pushed 2 seed URLs" in out.stdout and "1 skipped" in out.stdout

    out = admin(shared_redis, "status", crawl)
    assert out.returncode == 0, out.stderr
    status = json.loads(out.stdout)
    assert status["seen"] == 1 and status["start_urls"] == 2
    assert status["counters"] == {"geofocus/fetched": 3.0}
    assert status["leases"] + status["queued"] == 1
    assert list(status["workers_last_seen_s"]) == [f.worker_id]
    assert status["generation"] == f.generation and status["malformed_set_aside"] == 0
    f.close()
    status = json.loads(admin(shared_redis, "status", crawl).stdout)
    assert status["queues"] == {"east": 1} and status["leases"] == 0  # closing keeps the crawl

    out = admin(shared_redis, "clear", crawl)
    assert out.returncode != 0 and "--yes" in out.stderr + out.stdout  # never by accident
    out = admin(shared_redis, "clear", crawl, "--yes")
    assert out.returncode == 0 and "deleted" in out.stdout
    assert list(shared_redis.client().scan_iter(match=f"geofocus:{crawl}:*")) == []


def test_unreachable_redis_is_one_line(tmp_path):
    out = subprocess.run([sys.executable, "-m", "scrapy.cmdline", "crawl-admin", "status", "x",
                          "-s", "GEOFOCUS_REDIS_URL=redis://127.0.0.1:1/0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "cannot reach Redis" in out.stderr and "Traceback" not in out.stderr


def model_delta(depth, docs, terms):
    return {"format": FORMAT, "version": 1, "depth": depth, "alpha": 1.0, "docs": docs, "terms": terms}


def test_link_model_counts_pool_across_workers(shared_redis):
    base = f"geofocus:{unique_crawl_id('model')}"
    a = RedisModelPool(shared_redis.client(), base, depth=2)
    b = RedisModelPool(shared_redis.client(), base, depth=2)
    got_a = a.exchange(model_delta(2, [[1, 2], [0, 1]], {"anchor:kontakt": [0, 2, 0, 1]}))
    assert got_a["terms"] == {}  # nothing from others yet
    got_b = b.exchange(model_delta(2, [[3, 0], [0, 0]], {"host:shop": [3, 0, 0, 0]}))
    assert got_b["docs"] == [[1, 2], [0, 1]] and got_b["terms"] == {"anchor:kontakt": [0, 2, 0, 1]}
    got_a = a.exchange(None)
    assert got_a["docs"] == [[3, 0], [0, 0]] and got_a["terms"] == {"host:shop": [3, 0, 0, 0]}
    assert a.exchange(None)["terms"] == {}  # each count arrives once
    pooled = a.pooled()
    assert pooled["docs"] == [[4, 2], [0, 1]]
    assert pooled["terms"] == {"anchor:kontakt": [0, 2, 0, 1], "host:shop": [3, 0, 0, 0]}


def test_crawl_with_unreachable_redis_stops_with_one_line():
    out = subprocess.run([sys.executable, "-m", "scrapy.cmdline", "crawl", "geo", "-a", "region=oldenburg",
                          "-a", "seeds=http://www.example.com/", "-s", "GEOFOCUS_CRAWL_ID=x",
                          "-s", "GEOFOCUS_REDIS_URL=redis://:secret@127.0.0.1:1/0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "error: cannot reach Redis at redis://:***@127.0.0.1:1/0" in out.stderr
    assert "Traceback" not in out.stderr and "secret" not in out.stderr

