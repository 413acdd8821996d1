"""A Redis that loses the crawl (restart without persistence, FLUSHALL, another server) is noticed.

Real redis-servers: a worker must never carry on silently in an emptied
Redis (that loses the queued URLs, fetches pages twice and breaks the
crawl-wide budget).  It stops with one line that says what happened and how
to recover, and writes nothing into the emptied Redis; a worker restarted
with its run directory refuses to start.
"""

import signal
import time

import pytest

from geofocus.frontier import FrontierEntry
from geofocus.redis.frontier import RedisFrontier
from geofocus.redis.generation import STATE_FILE, CrawlLostError
from tests.redisutil import RedisServer, unique_crawl_id


def entry(i, priority=0.5):
    url = f"http://h{i % 7}.de/p{i}"
    return FrontierEntry(f"fp{i:05d}", priority, url.split("/")[2], {"url": url, "meta": {}})


def opened(server, crawl, run_dir=None, **kw):
    f = RedisFrontier(server.client(), crawl, flush_interval=0.1, pop_wait=2.0, batch=8,
                      url=server.url, run_dir=run_dir, **kw)
    f.open()
    return f


def wait_lost(f, timeout=15.0):
    end = time.monotonic() + timeout
    while not f.lost and time.monotonic() < end:
        f.flush()
        time.sleep(0.05)
    return f.lost


def start_crawl(server, crawl, run_dir):
    f = opened(server, crawl, run_dir)
    for i in range(60):
        f.push(entry(i))
    f.sync()
    for _ in range(5):
        e = f.pop()
        f.done(e.fingerprint)
    f.increment("geofocus/fetched", 5)
    f.sync()
    return f


def crawl_keys(server, crawl):
    return sorted(k.decode() for k in server.client().scan_iter(match=f"geofocus:{crawl}:*"))


def test_restart_without_persistence_stops_the_worker_with_one_line(volatile_redis, tmp_path, caplog):
    crawl = unique_crawl_id("wipe")
    f = start_crawl(volatile_redis, crawl, tmp_path)
    assert (tmp_path / STATE_FILE).exists()
    volatile_redis.stop(signal.SIGKILL)
    # meanwhile the worker goes on from its local batch and buffers what it learns
    for i in range(100, 120):
        f.push(entry(i, 0.9))
    e = f.pop()
    f.done(e.fingerprint)
    volatile_redis.start()  # empty: no AOF, no RDB
    message = wait_lost(f)
    assert message, "the worker did not notice that Redis lost the crawl"
    assert "\n" not in message
    assert "restarted without its data" in message and "GEOFOCUS_CRAWL_ID" in message
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.getMessage() for r in errors] == [message] and not any(r.exc_info for r in errors)
    assert f.pop() is None
    f.close()
    # nothing was written into the emptied Redis: no partial crawl that would look alive
    assert crawl_keys(volatile_redis, crawl) == []
    # the same worker restarted with its run directory refuses to start
    with pytest.raises(CrawlLostError) as info:
        opened(volatile_redis, crawl, tmp_path)
    assert "took part in it" in str(info.value)
    assert crawl_keys(volatile_redis, crawl) == []


def test_flushall_while_redis_runs_is_noticed(redis_server, tmp_path):
    crawl = unique_crawl_id("flush")
    f = start_crawl(redis_server, crawl, tmp_path)
    other = opened(redis_server, crawl)  # a second worker without a run directory
    redis_server.client().flushall()
    f.push(entry(500, 0.9))
    other.push(entry(501, 0.9))
    assert "keys were deleted" in wait_lost(f)
    assert wait_lost(other)
    f.close()
    other.close()
    assert crawl_keys(redis_server, crawl) == []


def test_another_server_with_the_same_crawl_id_is_noticed(tmp_path):
    crawl = unique_crawl_id("swap")
    first, second = RedisServer().start(), RedisServer().start()
    try:
        f = start_crawl(first, crawl, tmp_path / "a")
        opened(second, crawl).close()  # another crawl of the same name on the other server
        assert "another generation" in str(pytest.raises(CrawlLostError, opened, second, crawl, tmp_path / "a").value)
        f.close()
    finally:
        first.cleanup()
        second.cleanup()


def test_restart_with_persistence_keeps_the_crawl_going(redis_server, tmp_path):
    crawl = unique_crawl_id("aof")
    f = start_crawl(redis_server, crawl, tmp_path)
    redis_server.restart(down_for=0.5)  # AOF on: the data and the generation survive
    f.push(entry(900, 0.9))
    assert f.sync(15)
    time.sleep(0.5)
    assert f.lost is None and f.healthy
    got = []
    while (e := f.pop()) is not None:
        got.append(e.fingerprint)
        f.done(e.fingerprint)
        if not f._batch:
            f.sync()
    assert len(got) == 56  # 60 + 1 pushed, 5 fetched before the restart
    f.close()
