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


def test_requests_held_before_their_slot_count_for_their_hosts_slot():
    """Scrapy's robots.txt middleware holds a host's requests in the downloader's ``active`` set, outside any
    slot, until the host's robots.txt is in: they count for the host, or the scheduler would hand out every
    queued URL of a host with a slow robots.txt at once (they would fill CONCURRENT_REQUESTS while waiting)."""
    from scrapy import Request
    from scrapy.core.downloader import Downloader, Slot

    crawler = get_crawler(Spider, {"CONCURRENT_REQUESTS_PER_DOMAIN": 2})
    downloader = Downloader(crawler)
    # robots.txt of slow.de on its way (in the slot), one page of slow.de held until it is in
    slow = downloader.slots["slow.de"] = Slot(2, 0, 0)
    robots = Request("http://slow.de/robots.txt", meta={"download_slot": "slow.de"})
    slow.active.add(robots)
    downloader.active.add(robots)
    downloader.active.add(Request("http://slow.de/a"))
    # no slot yet: two requests of NEW.de (the host as Scrapy keys its slot: lower case), one of one.de
    downloader.active.add(Request("http://NEW.de/a"))
    downloader.active.add(Request("http://new.de:80/b"))
    downloader.active.add(Request("http://one.de/a"))
    # a page of half.de in its slot, and one whose response the middlewares are processing (out of the slot,
    # its key in meta): the download is over, the slot has room
    half = downloader.slots["half.de"] = Slot(2, 0, 0)
    page = Request("http://half.de/1", meta={"download_slot": "half.de"})
    half.active.add(page)
    downloader.active.add(page)
    downloader.active.add(Request("http://half.de/2", meta={"download_slot": "half.de"}))
    crawler.engine = SimpleNamespace(downloader=downloader, _slot=None)

    assert busy_slots(crawler) == {"slow.de", "new.de"}
