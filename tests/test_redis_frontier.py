"""RedisFrontier behaviour beyond the shared suite: many workers, dead workers, Redis restarts."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from conftest import project_settings
from scrapy.utils.test import get_crawler

from geofocus.frontier import FrontierEntry
from geofocus.redis.connection import RedisUnavailableError, connect, redact
from geofocus.redis.frontier import RedisFrontier
from tests.redisutil import free_port, unique_crawl_id

ROOT = Path(__file__).resolve().parent.parent


def entry(i, priority=0.5, node=None, slot=None):
    url = f"http://h{i % 17}.de/p{i}"
    meta = {"geofocus": {"score": priority, **({"node": node} if node else {})}}
    return FrontierEntry(f"fp{i:05d}", priority, slot or url.split("/")[2], {"url": url, "meta": meta})


def frontier(server, crawl_id, **kw):
    kw.setdefault("flush_interval", 0.1)
    kw.setdefault("pop_wait", 2.0)
    kw.setdefault("batch", 8)
    f = RedisFrontier(server.client(), crawl_id, **kw)
    f.open()
    return f


def drain(f, timeout=10.0):
    out = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        e = f.pop()
        if e is None:
            f.sync()
            if len(f) == 0:
                break
            continue
        out.append(e.fingerprint)
        f.done(e.fingerprint)
    return out


def test_unreachable_redis_at_start_is_one_clear_line():
    url = f"redis://:secret@127.0.0.1:{free_port()}/0"
    with pytest.raises(RedisUnavailableError) as info:
        connect(url, timeout=1)
    message = str(info.value)
    assert "cannot reach Redis" in message and "\n" not in message
    assert "secret" not in message and "***" in message
    crawler = get_crawler(settings_dict=project_settings(GEOFOCUS_REDIS_URL=url, GEOFOCUS_CRAWL_ID="x"))
    with pytest.raises(RedisUnavailableError):
        RedisFrontier.from_crawler(crawler)


def test_missing_crawl_id_and_bad_url_are_clear_errors():
    crawler = get_crawler(settings_dict=project_settings(GEOFOCUS_REDIS_URL="redis://127.0.0.1:1/0"))
    with pytest.raises(RedisUnavailableError, match="GEOFOCUS_CRAWL_ID"):
        RedisFrontier.from_crawler(crawler)
    with pytest.raises(RedisUnavailableError, match="scheme"):
        connect("http://127.0.0.1:6379/")


def test_password_from_environment(monkeypatch):
    from tests.redisutil import RedisServer

    server = RedisServer(password="s3cret").start()
    try:
        bare = f"redis://127.0.0.1:{server.port}/0"
        monkeypatch.delenv("GEOFOCUS_REDIS_PASSWORD", raising=False)
        with pytest.raises(RedisUnavailableError, match="password"):
            connect(bare)
        monkeypatch.setenv("GEOFOCUS_REDIS_PASSWORD", "s3cret")
        assert connect(bare).ping()
        assert redact(server.url) == f"redis://:***@127.0.0.1:{server.port}/0"
    finally:
        server.cleanup()


def test_requests_are_stored_as_json_not_pickle(shared_redis):
    crawl = unique_crawl_id()
    f = frontier(shared_redis, crawl)
    f.push(entry(1))
    f.sync()
    raw = shared_redis.client().hget(f"geofocus:{crawl}:req", "fp00001")
    node, slot, payload = raw.split(b"\t", 2)
    assert not raw.startswith(b"\x80")  # the pickle protocol header
    assert json.loads(payload)["meta"]["geofocus"]["score"] == 0.5
    assert (node, slot) == (b"default", b"h1.de")
    f.close()


def test_two_workers_never_get_the_same_url(shared_redis):
    crawl = unique_crawl_id()
    a, b = frontier(shared_redis, crawl), frontier(shared_redis, crawl)
    for i in range(300):
        a.push(entry(i, priority=(i % 10) / 10))
    a.sync()
    b.sync()
    got = {"a": [], "b": []}

    def work(name, f):
        got[name] = drain(f)

    threads = [threading.Thread(target=work, args=n) for n in (("a", a), ("b", b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not set(got["a"]) & set(got["b"])
    assert sorted(got["a"] + got["b"]) == [f"fp{i:05d}" for i in range(300)]
    assert got["a"] and got["b"]  # both did work
    a.close()
    b.close()


def test_close_keeps_the_shared_crawl_and_returns_unused_leases(shared_redis):
    crawl = unique_crawl_id()
    a = frontier(shared_redis, crawl)
    for i in range(20):
        a.push(entry(i))
    first = a.pop()  # prefetches a batch of 8: 7 stay unused in this worker
    assert first is not None
    a.close()  # `first` was in flight: it goes back too
    b = frontier(shared_redis, crawl)
    assert len(b) == 20
    assert len(drain(b)) == 20
    b.close()
    assert shared_redis.client().exists(f"geofocus:{crawl}:counters", f"geofocus:{crawl}:stats")


WORKER = textwrap.dedent(
    """
    import sys, time, redis
    from geofocus.redis.frontier import RedisFrontier
    f = RedisFrontier(redis.Redis(port=int(sys.argv[1])), sys.argv[2], batch=8, lease_ttl=1.0,
                      flush_interval=0.1, pop_wait=2.0)
    f.open()
    taken = [f.pop() for _ in range(3)]
    print(" ".join(e.fingerprint for e in taken), flush=True)
    time.sleep(600)
    """
)


def test_leases_of_a_worker_killed_with_sigkill_expire_and_return(shared_redis):
    crawl = unique_crawl_id()
    a = frontier(shared_redis, crawl, lease_ttl=1.0)
    for i in range(30):
        a.push(entry(i))
    a.sync()
    with subprocess.Popen(
        [sys.executable, "-c", WORKER, str(shared_redis.port), crawl],
        stdout=subprocess.PIPE, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    ) as proc:
        try:
            taken = proc.stdout.readline().decode().split()
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    assert len(taken) == 3
    a.sync()
    # the dead worker holds its 3 popped entries plus the rest of its prefetched batch
    assert len(a) <= 30 - 8
    time.sleep(1.5)
    fetched = drain(a)
    assert sorted(fetched) == [f"fp{i:05d}" for i in range(30)]
    assert set(taken) <= set(fetched)
    assert a.remote_stats()["reclaimed"] >= 8
    a.close()


def test_redis_restart_mid_crawl_loses_nothing(redis_server, caplog):
    crawl = unique_crawl_id()
    f = frontier(redis_server, crawl, batch=16)
    for i in range(100):
        f.push(entry(i))
    fetched = []
    for _ in range(10):
        e = f.pop()
        fetched.append(e.fingerprint)
        f.done(e.fingerprint)
    f.increment("fetched", 10)
    f.sync()

    redis_server.stop(signal.SIGKILL)
    # the worker goes on from its local batch and buffers what it learns
    for i in range(100, 150):
        f.push(entry(i, priority=0.9))
    for _ in range(3):
        e = f.pop()
        assert e is not None
        fetched.append(e.fingerprint)
        f.done(e.fingerprint)
    f.increment("fetched", 3)
    f.flush()
    end = time.monotonic() + 5
    while f.healthy and time.monotonic() < end:
        time.sleep(0.05)
    assert not f.healthy
    redis_server.start()
    end = time.monotonic() + 15
    while not f.healthy and time.monotonic() < end:
        time.sleep(0.1)
    assert f.healthy
    assert any("lost Redis" in r.getMessage() for r in caplog.records)

    fetched += drain(f)
    assert len(fetched) == len(set(fetched))
    assert sorted(fetched) == [f"fp{i:05d}" for i in range(150)]
    assert f.counters() == {"fetched": 13}
    f.close()


def test_entries_go_to_the_queue_of_their_node_and_overlap_is_counted(shared_redis):
    crawl = unique_crawl_id()
    east = frontier(shared_redis, crawl, node="east")
    west = frontier(shared_redis, crawl, node="west")
    west.push(entry(1, node="east"))
    west.push(entry(2))
    west.sync()
    east.sync()
    assert west.pop().fingerprint == "fp00002"
    assert west.pop() is None
    assert east.pop().fingerprint == "fp00001"
    east.done("fp00001")
    west.done("fp00001")  # fetched by a second node
    east.sync()
    west.sync()
    stats = west.remote_stats()
    assert stats["seen"] == 1 and stats["overlap"] == 1
    east.close()
    west.close()


def test_seed_urls_from_a_redis_list(shared_redis):
    crawl = unique_crawl_id()
    f = frontier(shared_redis, crawl)
    shared_redis.client().rpush(f"geofocus:{crawl}:start_urls", "http://a.de/", "http://b.de/")
    assert f.take_seeds() == []  # asks the thread; never blocks
    f.sync()
    assert f.take_seeds() == ["http://a.de/", "http://b.de/"]
    f.close()


def test_retry_release_and_rescoring_reach_the_shared_queue(shared_redis):
    crawl = unique_crawl_id()
    f = frontier(shared_redis, crawl)  # prefetches batches of 8
    for i in range(30):
        f.push(entry(i, priority=0.2 + i / 100))
    e = f.pop()
    assert e.fingerprint == "fp00029"
    e.priority = 0.1  # a retry comes back at a lower priority
    assert f.release(e)
    assert not f.release(e)  # no longer held
    sample = f.queued_sample(50)  # the first sample of a pass waits for one cycle of the thread
    held = {x.fingerprint for x in f._batch}
    assert len(sample) >= 10 and not held & {x.fingerprint for x in sample}
    assert any(x.fingerprint == "fp00029" and x.priority == 0.1 for x in sample)
    lowest = min((x for x in sample if x.fingerprint != "fp00029"), key=lambda x: x.priority)
    assert f.update_priorities([(lowest.fingerprint, 0.99, lowest.request)]) == 1
    f.close()
    g = frontier(shared_redis, crawl)
    order = drain(g)
    assert sorted(order) == [f"fp{i:05d}" for i in range(30)]
    assert order[0] == lowest.fingerprint  # re-scored up to 0.99
    assert order[-1] == "fp00029"  # released at 0.1
    g.close()


def test_a_batch_full_of_busy_hosts_still_yields_another_host(shared_redis):
    crawl = unique_crawl_id()
    f = frontier(shared_redis, crawl)  # batch 8, at most 8 entries of one host per refill
    for i in range(40):
        f.push(FrontierEntry(f"big{i}", 0.9, "big.de", {"url": f"http://big.de/{i}"}))
    f.push(FrontierEntry("small", 0.1, "small.de", {"url": "http://small.de/"}))
    assert f.pop().slot == "big.de"
    f.sync()
    f.sync()
    assert len(f._batch) >= 8  # the local batch is full of entries of the busy host
    picked = f.pop(busy_slots={"big.de"})
    assert picked is not None and picked.fingerprint == "small"
    f.close()


def test_a_sample_pass_over_a_large_queue_visits_every_queued_entry(shared_redis):
    """Past 128 entries Redis stores the queue as a hash table: the pass is a real ZSCAN walk."""
    crawl = unique_crawl_id()
    f = frontier(shared_redis, crawl)
    for i in range(1000):
        f.push(entry(i, priority=0.1 + (i % 50) / 100))
    f.sync()
    sampled, after = [], ""
    while True:
        batch = f.queued_sample(100, after)
        assert len(batch) <= 100
        sampled += batch
        if len(batch) < 100:
            break
        after = batch[-1].fingerprint
    fps = {e.fingerprint for e in sampled}
    assert fps | f.prefetched() == {f"fp{i:05d}" for i in range(1000)}
    assert all(abs(e.priority - (0.1 + (int(e.fingerprint[2:]) % 50) / 100)) < 1e-9 for e in sampled)
    f.close()


def test_the_extension_finds_the_shared_frontier_through_the_scheduler(shared_redis, tmp_path):
    from types import SimpleNamespace

    from scrapy import Spider

    from geofocus.redis.extension import frontier_of
    from geofocus.scheduler import GeoScheduler

    def scheduler_for(**settings):
        crawler = get_crawler(Spider, project_settings(GEOFOCUS_RUN_DIR=str(tmp_path / "run"), **settings))
        crawler.engine = SimpleNamespace(downloader=SimpleNamespace(slots={}))
        crawler.stats.open_spider()
        spider = Spider.from_crawler(crawler, name="spider")
        crawler.spider = spider
        return crawler, spider, GeoScheduler.from_crawler(crawler)

    crawler, spider, scheduler = scheduler_for(GEOFOCUS_REDIS_URL=shared_redis.url,
                                               GEOFOCUS_CRAWL_ID=unique_crawl_id())
    assert frontier_of(crawler) is None  # not open yet
    scheduler.open(spider)
    assert isinstance(scheduler.frontier, RedisFrontier) and frontier_of(crawler) is scheduler.frontier
    scheduler.close("finished")
    assert frontier_of(crawler) is None
    crawler, spider, scheduler = scheduler_for()  # the embedded frontier is not shared
    scheduler.open(spider)
    assert frontier_of(crawler) is None
    scheduler.close("finished")


def test_a_fast_popping_worker_leases_more_per_round_trip_but_never_more_than_max_held(shared_redis):
    """Pops that outrun the refills make the worker lease more per round trip (fewer sync cycles
    than one per batch), never more than ``max_held`` at a time; a worker whose refills find the
    local batch still well stocked goes back to ``batch`` per refill.  Every entry once, best first."""
    crawl = unique_crawl_id()
    seed = frontier(shared_redis, crawl, flush_interval=5.0)  # its thread stays out of the way
    for i in range(3000):
        seed.push(FrontierEntry(f"fp{i:05d}", i / 3000, f"h{i % 500}.de", {"url": f"http://h{i % 500}.de/{i}"}))
    assert seed.sync()
    seed.close()
    f = frontier(shared_redis, crawl, batch=8, max_held=64, flush_interval=5.0)
    cycles = f._cycles
    order, most_held = [], 0
    while (e := f.pop()) is not None:
        order.append(e.fingerprint)
        most_held = max(most_held, len(f._batch) + len(f._inflight))
        f.done(e.fingerprint)
    assert sorted(order) == [f"fp{i:05d}" for i in range(3000)] and len(set(order)) == 3000
    assert most_held <= 64
    assert f._cycles - cycles < 3000 // 8 // 2  # 8 a refill would be at least 375 cycles
    # now slowly: each refill finds most of the last one unused, and the lease size falls back
    for i in range(200):
        f.push(FrontierEntry(f"slow{i:03d}", 0.5, f"s{i}.de", {"url": f"http://s{i}.de/"}))
    assert f.sync()
    for _ in range(150):  # a page at a time, a sync cycle after each
        e = f.pop()
        assert e is not None and e.fingerprint.startswith("slow")
        f.done(e.fingerprint)
        assert f.sync()
        if f._lease_size == 8:
            break
    assert f._lease_size == 8
    f.close()


def test_pushable_answers_like_push_without_io(shared_redis):
    """The scheduler drops links that ``pushable`` refuses before they become Requests: it must agree
    with ``push`` in every local state (new, queued lower or higher, leased, fetched, fetched by
    another worker before this one opened)."""
    crawl = unique_crawl_id()
    a = frontier(shared_redis, crawl)
    e = entry(1, priority=0.5)
    assert a.pushable(e.fingerprint, 0.1)
    assert a.push(e) == "new"
    for p in (0.4, 0.5, 0.6):
        assert a.pushable(e.fingerprint, p) == (p > 0.5)
    assert a.push(entry(1, priority=0.4)) == "rejected" and a.push(entry(1, priority=0.6)) == "raised"
    a.sync()
    leased = a.pop()
    assert leased is not None and leased.fingerprint == e.fingerprint
    assert not a.pushable(e.fingerprint, 1.0) and a.push(entry(1, priority=1.0)) == "rejected"
    a.done(e.fingerprint)
    assert not a.pushable(e.fingerprint, 1.0)
    a.sync()
    b = frontier(shared_redis, crawl)  # loads the seen-set at open
    assert not b.pushable(e.fingerprint, 1.0) and b.push(entry(1, priority=1.0)) == "rejected"
    assert b.pushable(entry(2).fingerprint, 0.0)
    a.close()
    b.close()
