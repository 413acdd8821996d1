"""The scheduler inside a real crawler: priorities, re-prioritisation, JSON round trips, politeness."""

from __future__ import annotations

import json

import pytest
from scrapy import Request
from scrapy.utils.test import get_crawler

from geofocus.scheduler import GeoScheduler
from geofocus.spiders.geo import GeoSpider
from tests.conftest import project_settings
from tests.frontierfile import stored_rows


@pytest.fixture
def scheduler(tmp_path):
    crawler = get_crawler(GeoSpider, project_settings(GEOFOCUS_RUN_DIR=str(tmp_path / "run")))
    crawler.spider = GeoSpider.from_crawler(crawler, region="oldenburg", seeds="http://a.de/")
    crawler.stats.open_spider()
    sched = GeoScheduler.from_crawler(crawler)
    sched.open(crawler.spider)
    yield sched
    sched.close("finished")


def link(url, priority, **extra):
    return Request(url, callback=None, meta={"geofocus": {"priority": priority, **extra}})


def test_pops_best_priority_first_and_rebuilds_the_request(scheduler):
    scheduler.enqueue_request(link("http://a.de/low", 0.125))
    scheduler.enqueue_request(link("http://b.de/high", 0.5, link={"anchor": "Kontakt"}))
    request = scheduler.next_request()
    assert request.url == "http://b.de/high"
    assert request.meta["geofocus"]["link"] == {"anchor": "Kontakt"}
    assert scheduler.next_request().url == "http://a.de/low"
    assert scheduler.next_request() is None
    assert not scheduler.has_pending_requests()


def test_found_again_from_a_better_parent_moves_up(scheduler):
    scheduler.enqueue_request(link("http://a.de/x", 0.125))
    scheduler.enqueue_request(link("http://b.de/y", 0.25))
    assert scheduler.enqueue_request(link("http://a.de/x", 0.5)) is True
    assert scheduler.enqueue_request(link("http://a.de/x", 0.25)) is False
    scheduler.flush()
    assert scheduler.stats.get_value("geofocus/frontier/reprioritised") == 1
    first = scheduler.next_request()
    assert first.url == "http://a.de/x" and first.meta["geofocus"]["priority"] == 0.5
    assert len(scheduler) == 1


def test_requests_are_stored_as_json_not_pickle(scheduler, tmp_path):
    scheduler.enqueue_request(link("http://a.de/ü", 0.5).replace(headers={"Referer": "http://a.de/"}))
    scheduler.frontier.flush()
    (row,) = stored_rows(tmp_path / "run" / "frontier.sqlite").values()  # the file as stored
    stored = json.loads(row["request"])
    assert stored["url"] == "http://a.de/%C3%BC"
    assert stored["headers"]["Referer"] == ["http://a.de/"]
    assert scheduler.next_request().headers["Referer"] == b"http://a.de/"


def test_retry_of_a_leased_request_goes_back_to_the_queue(scheduler):
    scheduler.enqueue_request(link("http://a.de/x", 0.5))
    popped = scheduler.next_request()
    retry = popped.replace(dont_filter=True)
    retry.meta["retry_times"] = 1
    assert scheduler.enqueue_request(retry) is True
    assert scheduler.next_request().url == "http://a.de/x"


def test_unserialisable_meta_values_are_dropped_not_pickled(scheduler):
    request = link("http://a.de/x", 0.5)
    request.meta["handle"] = object()
    assert scheduler.enqueue_request(request) is True
    popped = scheduler.next_request()
    assert "handle" not in popped.meta and popped.meta["geofocus"]["priority"] == 0.5


def test_meta_with_keys_that_are_not_strings_is_stored_with_string_keys(scheduler):
    # orjson is tried without OPT_NON_STR_KEYS first (faster); such a dict still goes in as before
    request = link("http://a.de/x", 0.5)
    request.meta["by_id"] = {7: "seven", "8": [1, {9: True}]}
    assert scheduler.enqueue_request(request) is True
    popped = scheduler.next_request()
    assert popped.meta["by_id"] == {"7": "seven", "8": [1, {"9": True}]}
    assert popped.meta["geofocus"]["priority"] == 0.5


def test_dont_filter_duplicate_of_a_page_in_flight_is_fetched_and_finished_under_its_own_key(scheduler, tmp_path):
    scheduler.enqueue_request(link("http://a.de/x", 0.5))
    first = scheduler.next_request()
    again = link("http://a.de/x", 0.5).replace(dont_filter=True)
    assert scheduler.enqueue_request(again) is True
    second = scheduler.next_request()
    assert second.url == "http://a.de/x" and scheduler.next_request() is None
    scheduler.request_finished(first, scheduler.spider)
    scheduler.request_finished(second, scheduler.spider)
    assert scheduler.enqueue_request(link("http://a.de/x", 1.0)) is False  # fetched: never queued again
    scheduler.close("finished")
    reopened = GeoScheduler.from_crawler(scheduler.crawler)
    reopened.open(scheduler.spider)
    assert len(reopened) == 0 and reopened.next_request() is None
    reopened.close("finished")
    scheduler.open(scheduler.spider)  # the fixture closes it


def test_requests_without_a_geofocus_priority_are_ordered_by_request_priority(scheduler):
    for url, priority in [("http://a.de/low", -3), ("http://a.de/top", 7), ("http://a.de/mid", 0)]:
        scheduler.enqueue_request(Request(url, priority=priority))
    assert [scheduler.next_request().url for _ in range(3)] == ["http://a.de/top", "http://a.de/mid", "http://a.de/low"]


def test_the_direct_payload_and_host_are_those_of_the_general_path(scheduler):
    """``_entry_for`` builds a plain GET request's payload directly and takes an http(s) URL's plain host without
    urllib: the same dict (keys in the same order) as ``request_to_json_dict`` + ``_compact``, the same host as
    ``urlparse_cached(request).hostname``, for the spider's links and for every kind of request that takes the
    general path."""
    from scrapy.http import FormRequest
    from scrapy.utils.httpobj import urlparse_cached

    from geofocus.pagemeta import FINGERPRINT_META, PageMeta
    from geofocus.scheduler import _compact, _host, _payload
    from geofocus.serialize import request_to_json_dict

    spider = scheduler.spider
    page = PageMeta(link={"url": "http://a.de/x", "anchor": "Kontakt"}, priority=0.25, dist=2, parent="http://a.de/",
                    path=[["host:a", "anchor:kontakt"]])
    requests = [
        Request("http://a.de/x", callback=spider.parse, errback=spider.errback,
                meta={"geofocus": page, FINGERPRINT_META: ("http://a.de/x", "fp"), "verbatim_url": True, "depth": 2},
                headers={"Referer": "http://a.de/"}),
        Request("http://a.de/x", callback=spider.parse, meta={"geofocus": {"priority": 0.5}, "verbatim_url": True}),
        Request("https://WWW.Example.COM:8443/a?b#c"),
        Request("http://user:pw@a.de/"),
        Request("http://[::1]:8080/x"),
        Request("https://a.de"),
        Request("https://a.de?q=1"),
        Request("http://xn--mnchen-3ya.de/#top", errback=spider.errback),
        Request("ftp://a.de/file"),
        Request("http://a.de/", cookies=[]),
        Request("http://a.de/", cookies={"a": "b"}),
        Request("http://a.de/", flags=["f"]),
        Request("http://a.de/", cb_kwargs={"k": 1}),
        Request("http://a.de/", priority=3),
        Request("http://a.de/", dont_filter=True),
        Request("http://a.de/", method="POST", body=b"x=1"),
        Request("http://a.de/", encoding="latin-1"),
        FormRequest("http://a.de/", formdata={"a": "b"}),
        link("http://a.de/y", 0.5),
        Request("http://WWW.A.de/x"), Request("http://www.a.de/x"), Request("http://a.de#x"), Request("http://a.de?x/y"),
        Request("http://a.de/", headers={"Referer": "http://a.de/"}, meta={}),
    ]
    for request in requests:
        general = request_to_json_dict(request, spider)
        _compact(general)
        direct = _payload(request, spider)
        assert direct == general and list(direct) == list(general), request
        for _ in range(2):  # the second time from the table of hosts met before
            assert _host(request) == (urlparse_cached(request).hostname or ""), request.url
