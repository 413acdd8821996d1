"""scrapy-redis's conventions in a geofocus crawl: REDIS_URL/REDIS_PARAMS, the shared stats, ``<spider>:start_urls``.

geofocus keeps its own frontier (leases, float priorities); what scrapy-redis
users know works as they expect: ``-s REDIS_URL=...`` makes a shared crawl,
``REDIS_PARAMS`` reach the client, ``redis-cli rpush geo:start_urls URL``
seeds the running ``geo`` workers, and with ``GEOFOCUS_REDIS_SHARED_STATS``
every worker's stats (scrapy-redis's RedisStatsCollector, made atomic and
non-blocking) are the crawl's.
"""

import json
import os
import subprocess
import sys
import threading
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import project_settings
from scrapy import Spider
from scrapy.exceptions import UsageError
from scrapy.utils.test import get_crawler
from scrapy_redis.stats import RedisStatsCollector

from geofocus.redis import generation
from geofocus.redis.admin import crawl_status
from geofocus.redis.connection import RedisUnavailableError, check_settings, connect_from_settings
from geofocus.redis.frontier import RedisFrontier
from geofocus.redis.keys import CrawlKeys
from geofocus.redis.stats import SharedStatsCollector
from tests.redisutil import unique_crawl_id
from tests.tinysite import TinySite

ROOT = Path(__file__).resolve().parent.parent
SCRAPY = [sys.executable, "-m", "scrapy.cmdline"]


class GeoLike(Spider):
    name = "geo"


def crawler_with(**settings):
    return get_crawler(GeoLike, project_settings(**settings))


# -- REDIS_URL / REDIS_PARAMS -------------------------------------------------------------------

def test_redis_url_and_params_are_aliases_of_the_geofocus_settings(shared_redis):
    crawler = crawler_with(REDIS_URL=shared_redis.url, REDIS_PARAMS={"socket_timeout": 7, "client_name": "w1"},
                           GEOFOCUS_CRAWL_ID="alias")
    assert crawler.settings.get("GEOFOCUS_REDIS_URL") == shared_redis.url
    client = connect_from_settings(crawler.settings)
    kwargs = client.connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] == 7 and kwargs["client_name"] == "w1"
    assert client.client_getname() == "w1"
    # GEOFOCUS_REDIS_PARAMS wins over REDIS_PARAMS; GEOFOCUS_REDIS_URL over REDIS_URL
    crawler = crawler_with(REDIS_URL="redis://127.0.0.1:1/0", GEOFOCUS_REDIS_URL=shared_redis.url,
                           REDIS_PARAMS={"socket_timeout": 7}, GEOFOCUS_REDIS_PARAMS={"socket_timeout": 9})
    assert crawler.settings.get("GEOFOCUS_REDIS_URL") == shared_redis.url
    assert connect_from_settings(crawler.settings).connection_pool.connection_kwargs["socket_timeout"] == 9


def test_without_any_redis_url_the_crawl_is_not_shared():
    crawler = crawler_with()
    assert crawler.settings.get("GEOFOCUS_REDIS_URL") == ""
    assert not isinstance(crawler.stats, RedisStatsCollector)


@pytest.mark.parametrize("params, message", [
    ({"decode_responses": True}, "decode_responses must stay off"),
    ("{not json", "REDIS_PARAMS is not a JSON object"),
])
def test_bad_redis_params_are_one_line_errors(shared_redis, params, message):
    settings = crawler_with(REDIS_URL=shared_redis.url, REDIS_PARAMS=params, GEOFOCUS_CRAWL_ID="x").settings
    with pytest.raises(UsageError, match=message) as info:
        check_settings(settings)
    assert "\n" not in str(info.value)
    with pytest.raises(RedisUnavailableError):
        connect_from_settings(settings)


def test_the_crawl_command_checks_a_shared_crawl_named_by_redis_url():
    crawler = crawler_with(REDIS_URL="redis://127.0.0.1:1/0")
    with pytest.raises(UsageError, match="GEOFOCUS_CRAWL_ID is empty"):
        check_settings(crawler.settings)


# -- <spider>:start_urls ---------------------------------------------------------------------------

def test_workers_take_seeds_from_the_spiders_start_urls_list(shared_redis):
    crawl = unique_crawl_id("seeds")
    crawler = crawler_with(REDIS_URL=shared_redis.url, GEOFOCUS_CRAWL_ID=crawl,
                           REDIS_START_URLS_KEY=f"%(name)s:{crawl}:start_urls")
    f = RedisFrontier.from_crawler(crawler)
    assert f.seed_lists == [f"geofocus:{crawl}:start_urls", f"geo:{crawl}:start_urls"]
    f.open()
    try:
        client = shared_redis.client()
        client.rpush(f"geo:{crawl}:start_urls", "http://a.de/", "http://b.de/")
        client.rpush(f"geofocus:{crawl}:start_urls", "http://c.de/")
        f.take_seeds()
        f.sync()
        assert sorted(f.take_seeds()) == ["http://a.de/", "http://b.de/", "http://c.de/"]
        assert client.llen(f"geo:{crawl}:start_urls") == 0  # each seed goes to one worker
    finally:
        f.close()


# -- the shared stats collector --------------------------------------------------------------------

def stats_worker(server, crawl):
    crawler = crawler_with(REDIS_URL=server.url, GEOFOCUS_CRAWL_ID=crawl, GEOFOCUS_REDIS_SHARED_STATS=True,
                           GEOFOCUS_REDIS_FLUSH_INTERVAL=0.05)
    assert type(crawler.stats) is SharedStatsCollector and isinstance(crawler.stats, RedisStatsCollector)
    return crawler.stats


def test_shared_stats_add_up_every_workers_figures_without_losing_any(shared_redis):
    crawl = unique_crawl_id("stats")
    client = shared_redis.client()
    generation.join(client, CrawlKeys.of(crawl).base, crawl, None)  # the crawl exists (a frontier opened)
    a, b = stats_worker(shared_redis, crawl), stats_worker(shared_redis, crawl)
    for stats in (a, b):
        stats.open_spider()
    started = datetime(2026, 1, 1, tzinfo=UTC)
    a.set_value("start_time", started)

    def work(stats, n, size):
        for i in range(n):
            stats.inc_value("downloader/response_count")
            stats.inc_value("downloader/response_bytes", size)
            stats.max_value("memusage/max", size * 1000 + i)

    threads = [threading.Thread(target=work, args=(a, 3000, 10)), threading.Thread(target=work, args=(b, 2000, 20))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    b.inc_value("geofocus/fetched", 2.5)
    b.close_spider(reason="finished")
    a.close_spider(reason="finished")
    # each worker's view is the crawl's as of its last sync: a closed last, so it has everything
    assert a.get_value("downloader/response_count") == 5000
    assert 2000 <= b.get_value("downloader/response_count") <= 5000
    assert a.get_value("downloader/response_bytes") == 3000 * 10 + 2000 * 20
    assert a.get_value("memusage/max") == 20 * 1000 + 1999
    assert a.get_value("geofocus/fetched") == 2.5
    assert a.get_value("start_time") == started  # a value a worker set stays its own object
    status = crawl_status(client, CrawlKeys.of(crawl).base)
    assert status["scrapy_stats"]["downloader/response_count"] == 5000
    assert status["scrapy_stats"]["start_time"] == started.isoformat()
    # a worker that closes never deletes the crawl's stats (scrapy-redis does unless SCHEDULER_PERSIST)
    assert client.exists(CrawlKeys.of(crawl).scrapy_stats)


def test_shared_stats_write_nothing_into_a_redis_that_lost_the_crawl(shared_redis):
    crawl = unique_crawl_id("stats-lost")
    client = shared_redis.client()
    keys = CrawlKeys.of(crawl)
    generation.join(client, keys.base, crawl, None)
    stats = stats_worker(shared_redis, crawl)
    stats.inc_value("downloader/response_count")
    stats.sync()
    assert int(client.hget(keys.scrapy_stats, "downloader/response_count")) == 1
    client.delete(keys.scrapy_stats, keys.generation)  # FLUSHALL, as far as this crawl goes
    stats.inc_value("downloader/response_count")
    stats.sync()
    assert not client.exists(keys.scrapy_stats)
    assert stats.get_value("downloader/response_count") == 2  # the worker's view goes on


# -- one real crawl: REDIS_URL, seeds from geo:start_urls, crawl-wide stats in every worker ---------

def run_worker(site, run_dir, redis_url, crawl, seeds):
    args = [*SCRAPY, "crawl", "geo", "-a", "region=oldenburg", "-a", f"seeds={seeds}",
            "-s", "GEOFOCUS_ALLOW_PRIVATE=1", "-s", "ROBOTSTXT_OBEY=0", "-s", f"GEOFOCUS_RUN_DIR={run_dir}",
            "-s", "LOG_LEVEL=INFO", "-s", f"REDIS_URL={redis_url}", "-s", f"GEOFOCUS_CRAWL_ID={crawl}",
            "-s", "GEOFOCUS_REDIS_SHARED_STATS=True", "-s", "GEOFOCUS_REDIS_IDLE_TIMEOUT=2",
            "-s", "GEOFOCUS_REDIS_FLUSH_INTERVAL=0.3"]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=180,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads((Path(run_dir) / "stats.json").read_text()), out.stderr


def test_a_crawl_seeded_through_the_spider_list_shows_crawl_wide_stats_in_every_worker(tmp_path, shared_redis):
    site = TinySite(tmp_path / "www", pages=24)
    try:
        crawl = unique_crawl_id("scrapy-redis")
        missing = site.host(0) + "/no-such-page.html"  # the only -a seed: a 404, so the site comes from Redis
        shared_redis.client().rpush("geo:start_urls", site.url(0))
        first, _ = run_worker(site, tmp_path / "a", shared_redis.url, crawl, missing)
        assert first["geofocus/redis/seeds"] == 1
        fetched = [json.loads(line)["url"] for line in (tmp_path / "a" / "crawl.jsonl").read_text().splitlines()]
        assert set(fetched) == site.urls
        # a second worker of the same crawl finds nothing to do; its stats are still the crawl's
        second, _ = run_worker(site, tmp_path / "b", shared_redis.url, crawl, missing)
    finally:
        site.stop()
    dequeued = first["geofocus/scheduler/dequeued"]
    assert dequeued == site.pages + 1  # the pages and the 404
    # the second worker dequeued nothing itself: its stats show the first worker's requests
    assert second["geofocus/scheduler/dequeued"] == dequeued
    assert second["geofocus/failed/HttpError"] == 1
    status = crawl_status(shared_redis.client(), CrawlKeys.of(crawl).base)
    assert status["scrapy_stats"]["geofocus/scheduler/dequeued"] == dequeued
    assert status["scrapy_stats"]["downloader/response_count"] == dequeued


# -- packaging --------------------------------------------------------------------------------------

def test_an_installed_egg_carries_and_loads_the_lua_scripts(tmp_path):
    build = subprocess.run(
        [sys.executable, "setup.py", "-q", "egg_info", "-e", str(tmp_path), "build", "-b", str(tmp_path / "build"),
         "bdist_egg", "-b", str(tmp_path / "bdist"), "-d", str(tmp_path / "dist")],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-3000:]
    (egg,) = (tmp_path / "dist").glob("*.egg")
    lua = sorted(p.name for p in (ROOT / "geofocus" / "redis" / "lua").glob("*.lua"))
    with zipfile.ZipFile(egg) as z:
        assert sorted(Path(n).name for n in z.namelist() if n.startswith("geofocus/redis/lua/")) == lua
    # loaded from the zipped egg (as scrapyd runs it), not from the source tree
    probe = ("import geofocus.redis.scripts as s; assert '.egg' in s.__file__, s.__file__; "
             "print(all(s.source(n) for n in s.REQUIRES))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(egg)})
    assert out.returncode == 0 and out.stdout.strip() == "True", out.stderr[-2000:]
