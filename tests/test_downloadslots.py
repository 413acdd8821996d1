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


def test_busy_slots_of_scrapys_downloader_come_from_the_requests_it_is_downloading():
    """A broad crawl leaves thousands of idle slots behind; only the slots of active requests count."""
    from scrapy import Request
    from scrapy.core.downloader import Downloader, Slot

    crawler = get_crawler(Spider, {"CONCURRENT_REQUESTS_PER_DOMAIN": 2})
    downloader = Downloader(crawler)
    for i in range(3000):
        downloader.slots[f"idle{i}.de"] = Slot(2, 0, 0)
    for host, requests in (("full.de", 2), ("half.de", 1)):
        slot = downloader.slots[host] = Slot(2, 0, 0)
        for n in range(requests):
            request = Request(f"http://{host}/{n}", meta={"download_slot": host})
            slot.active.add(request)
            downloader.active.add(request)
    # on its way through the downloader middlewares: in ``active``, not yet in a slot
    downloader.active.add(Request("http://new.de/"))
    crawler.engine = SimpleNamespace(downloader=downloader, _slot=None)

    everything = {k for k, s in downloader.slots.items() if len(s.active) >= s.concurrency}
    assert busy_slots(crawler) == everything == {"full.de"}
