"""What the scheduler and the extensions learn of the downloader (geofocus/downloadslots.py)."""

from types import SimpleNamespace

from scrapy import Spider
from scrapy.utils.test import get_crawler

from geofocus.downloadslots import busy_slots, requests_in_flight


def slot(active, concurrency):
    return SimpleNamespace(active=set(range(active)), concurrency=concurrency)


def test_a_slot_is_busy_when_its_active_requests_fill_its_concurrency():
    crawler = get_crawler(Spider)
    crawler.engine = SimpleNamespace(downloader=SimpleNamespace(slots={
        "full.de": slot(1, 1), "room.de": slot(1, 2), "over.de": slot(3, 2), "idle.de": slot(0, 1),
    }), _slot=SimpleNamespace(inprogress={"r1", "r2"}))
    assert busy_slots(crawler) == {"full.de", "over.de"}
    assert requests_in_flight(crawler) == 2


def test_without_a_running_engine_nothing_is_busy_or_in_flight():
    crawler = get_crawler(Spider)  # crawler.engine raises RuntimeError until the crawl starts
    assert busy_slots(crawler) == set() and requests_in_flight(crawler) == 0
