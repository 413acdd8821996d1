"""Scrapy's own scheduler test cases, run against GeoScheduler.

The cases and their data come from Scrapy's ``tests/test_scheduler.py``
(source, commit and licence in ``tests/data/scrapy_scheduler_cases.json``);
the harness is re-written for GeoScheduler: Scrapy's "on disk" variants
become a scheduler closed and reopened on the same run directory, Scrapy's
downloader stand-in becomes ``_Downloader`` below (slots with active
requests), and the integration case is a real crawl through Scrapy.
Five of Scrapy's seven cases apply; the other two test the on-disk format
and a setting check of Scrapy's own priority-queue classes.  Each case runs
against both frontier backends (SQLite and a shared Redis crawl).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy import Request, Spider
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.test import get_crawler

from geofocus import signals as geo_signals
from geofocus.pagemeta import PageMeta
from geofocus.scheduler import GeoScheduler
from tests.conftest import project_settings
from tests.crawling import ROOT, MiniSite, crawl_env
from tests.redisutil import shared_server, unique_crawl_id

CASES = json.loads((Path(__file__).parent / "data" / "scrapy_scheduler_cases.json").read_text())


class _Downloader:
    """Download slots with their active requests; a slot with one active request is busy."""

    def __init__(self) -> None:
        self.slots: dict[str, SimpleNamespace] = {}

    def slot_key(self, request: Request) -> str:
        return request.meta.get("download_slot") or urlparse_cached(request).hostname or ""

    def start(self, key: str) -> None:
        self.slots.setdefault(key, SimpleNamespace(active=[], concurrency=1)).active.append(1)


class SchedulerFactory:
    """Schedulers on one run directory; with ``redis_settings`` on one shared Redis crawl (a
    reopened scheduler rejoins it)."""

    def __init__(self, run_dir: Path, redis_settings: dict | None = None):
        self.run_dir = run_dir
        self.redis_settings = redis_settings or {}
        self.open: list[GeoScheduler] = []

    def __call__(self, **settings) -> GeoScheduler:
        crawler = get_crawler(Spider, project_settings(
            GEOFOCUS_RUN_DIR=str(self.run_dir), **{**self.redis_settings, **settings}))
        crawler.engine = SimpleNamespace(downloader=_Downloader())
        crawler.stats.open_spider()
        spider = Spider.from_crawler(crawler, name="spider")
        crawler.spider = spider
        scheduler = GeoScheduler.from_crawler(crawler)
        scheduler.open(spider)
        self.open.append(scheduler)
        return scheduler

    def close(self, scheduler: GeoScheduler) -> None:
        scheduler.close("finished")
        self.open.remove(scheduler)


@pytest.fixture(params=["sqlite", "redis"])
def factory(request, tmp_path):
    """Every case against both frontier backends: the embedded one and a shared Redis crawl."""
    redis_settings = None
    if request.param == "redis":
        server = shared_server()
        # pop may wait for one sync cycle (the local batch is refilled in the background)
        redis_settings = {"GEOFOCUS_REDIS_URL": server.url, "GEOFOCUS_CRAWL_ID": unique_crawl_id("contract"),
                          "GEOFOCUS_REDIS_POP_WAIT": 5.0, "GEOFOCUS_REDIS_FLUSH_INTERVAL": 0.1}
    made = SchedulerFactory(tmp_path / "run", redis_settings)
    yield made
    for scheduler in list(made.open):
        made.close(scheduler)


@pytest.fixture(params=["in_memory", "reopened"])
def scheduler_after(request, factory):
    """``scheduler_after(setup)``: a scheduler set up by ``setup``, then (for "reopened") closed and reopened."""

    def make(setup):
        scheduler = factory()
        setup(scheduler)
        if request.param == "reopened":
            factory.close(scheduler)
            scheduler = factory()
        return scheduler

    return make


def drain(scheduler):
    out = []
    while scheduler.has_pending_requests():
        request = scheduler.next_request()
        assert request is not None
        out.append(request)
    return out


def test_length(factory, scheduler_after):
    def setup(scheduler):
        assert not scheduler.has_pending_requests() and len(scheduler) == 0
        for url in CASES["urls"]:
            scheduler.enqueue_request(Request(url))

    scheduler = scheduler_after(setup)
    assert scheduler.has_pending_requests()
    assert len(scheduler) == len(CASES["urls"])


def test_dequeue(scheduler_after):
    scheduler = scheduler_after(lambda s: [s.enqueue_request(Request(u)) for u in CASES["urls"]])
    assert {r.url for r in drain(scheduler)} == set(CASES["urls"])


def test_dequeue_priorities(scheduler_after):
    def setup(scheduler):
        for url, priority in CASES["priorities"]:
            scheduler.enqueue_request(Request(url, priority=priority))

    scheduler = scheduler_after(setup)
    got = [r.priority for r in drain(scheduler)]
    assert got == sorted((p for _, p in CASES["priorities"]), reverse=True)


def test_downloader_aware_fairness(scheduler_after):
    def setup(scheduler):
        for url, slot in CASES["urls_with_slots"]:
            scheduler.enqueue_request(Request(url, meta={"download_slot": slot}))

    scheduler = scheduler_after(setup)
    downloader = scheduler.crawler.engine.downloader
    dequeued = []
    while scheduler.has_pending_requests():
        request = scheduler.next_request()
        if request is None:  # every slot busy: the downloader finishes its requests
            downloader.slots.clear()
            continue
        key = downloader.slot_key(request)
        dequeued.append(key)
        downloader.start(key)
    slots = {s for _, s in CASES["urls_with_slots"]}
    assert sorted(dequeued) == sorted(s for _, s in CASES["urls_with_slots"])
    # each round serves every slot once before any slot twice
    rounds = [dequeued[i : i + len(slots)] for i in range(0, len(dequeued), len(slots))]
    assert all(len(r) == len(set(r)) for r in rounds), dequeued


def test_dont_filter_requests_are_never_dropped_as_duplicates(factory):
    scheduler = factory()
    url = "http://foo.com/a"
    for _ in range(CASES["repeated_start_urls"]):
        assert scheduler.enqueue_request(Request(url, dont_filter=True)) is True
    assert scheduler.enqueue_request(Request(url)) is False  # without it: a duplicate
    assert [r.url for r in drain(scheduler)] == [url] * CASES["repeated_start_urls"]


def test_rescoring_reprioritises_queued_requests_from_the_first_pass(factory):
    """geofocus's own case: the link model re-scores queued URLs every RESCORE_EVERY pops; the
    first sample already holds them (no empty warm-up) and the stat counts changed priorities."""
    scheduler = factory(GEOFOCUS_RESCORE_EVERY=1, GEOFOCUS_RESCORE_BATCH=50, GEOFOCUS_REDIS_BATCH=4)
    for n in range(20):
        url = f"http://h{n}.de/"
        scheduler.enqueue_request(Request(url, meta={"geofocus": {"priority": (n + 1) / 40, "n": n}}))

    order: list[int] = []
    asked_after: list[int] = []

    def rescore(pages):  # the link model now likes n=3 best; the others keep their priority
        asked_after.append(len(order))
        return [0.99 if p.extra.get("n") == 3 else p.priority for p in pages]

    scheduler.crawler.signals.connect(rescore, geo_signals.rescore_requested)
    while scheduler.has_pending_requests():
        request = scheduler.next_request()
        assert request is not None
        order.append(PageMeta.of(request).extra["n"])
    scheduler.flush()
    assert sorted(order) == list(range(20))
    assert asked_after[0] == 1  # the first re-scoring, after the first pop, had URLs to score
    assert scheduler.stats.get_value("geofocus/frontier/rescored") == 1
    # without re-scoring n=3 would come 17th; a shared frontier serves what it leased ahead first
    assert order.index(3) <= 1 + 2 * 4, order


SPIDER = '''
import scrapy

class StartUrlsSpider(scrapy.Spider):
    name = "start_urls"
    start_urls = [URL] * REPEAT

    def parse(self, response):
        pass
'''


def test_six_identical_start_urls_give_six_responses(tmp_path):
    url = "http://six.de/page"
    site = MiniSite(tmp_path, {url: "<html><body>six</body></html>"})
    spider_file = tmp_path / "start_urls.py"
    spider_file.write_text(SPIDER.replace("URL", repr(url)).replace("REPEAT", str(CASES["repeated_start_urls"])))
    try:
        result = subprocess.run(
            [sys.executable, "-m", "scrapy.cmdline", "runspider", str(spider_file),
             "-s", f"GEOFOCUS_RUN_DIR={tmp_path / 'run'}", "-s", "GEOFOCUS_ALLOW_PRIVATE=True",
             # a plain spider: the scheduler and its page-finished marker, none of the geo components
             "-s", 'SPIDER_MIDDLEWARES={"geofocus.spidermiddlewares.finish.PageFinishedMiddleware": 10}',
             "-s", "DOWNLOADER_MIDDLEWARES={}", "-s", "EXTENSIONS={}", "-s", "LOG_LEVEL=INFO"],
            cwd=ROOT, env=crawl_env(site.proxy), capture_output=True, text=True, timeout=120,
        )
    finally:
        site.stop()
    assert result.returncode == 0, result.stderr[-3000:]
    assert site.requests().count(url) == CASES["repeated_start_urls"], result.stderr[-3000:]
    assert "'downloader/response_count': 6" in result.stderr or "'downloader/response_count': 7" in result.stderr
