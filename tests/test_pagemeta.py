"""The page state (geofocus/pagemeta.py) and the crawl context (geofocus/context.py)."""

import json
from pathlib import Path

import pytest
from scrapy import Request, Spider
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from geofocus.context import CrawlContext, crawl_context, set_crawl_context
from geofocus.pagemeta import FINGERPRINT_META, META_KEY, PageMeta, wire_meta
from geofocus.rundir import get_run_dir
from geofocus.serialize import request_from_json_dict, request_to_json_dict
from geofocus.spiders.geo import GeoSpider
from tests.conftest import project_settings

# A link's meta["geofocus"] as crawls before the PageMeta class stored it (SQLite and Redis frontiers).
STORED = {
    "link": {"url": "http://neu.de/kontakt", "source_url": "http://a.de/", "anchor": "Kontakt", "title": "",
             "context": "Impressum"},
    "dist": 2, "seed_dist": 3, "score": 0.25, "parent": "http://a.de/", "path": [["anchor:kontakt"], []],
    "prediction": None, "priority": 0.25, "node": "eastern",
}


def test_stored_dict_reads_back_field_by_field_and_writes_the_same_dict():
    page = PageMeta.from_dict(json.loads(json.dumps(STORED)))
    assert (page.dist, page.seed_dist, page.score, page.priority, page.node) == (2, 3, 0.25, 0.25, "eastern")
    assert page.link["anchor"] == "Kontakt" and page.path == [["anchor:kontakt"], []] and not page.seed
    # None is "not set": the wire form leaves it out, and reading a missing key gives None again
    assert page.to_dict() == {k: v for k, v in STORED.items() if v is not None}
    assert PageMeta.from_dict(page.to_dict()) == page


def test_to_dict_writes_the_set_fields_in_wire_order():
    """``to_dict`` spelt out field by field: the fields that are not None (``seed`` only when true), in the order of
    ``_FIELDS``, then ``extra``; checked against the plain formula over every subset pattern of set fields."""
    import random

    from geofocus.pagemeta import _FIELDS

    values = {"link": {"url": "http://a.de/"}, "seed": True, "dist": 0, "seed_dist": 4, "score": 0.0,
              "parent": "http://a.de/", "path": [], "prediction": 0.5, "priority": 1.0, "score_t": 0.1,
              "score_v": 0.2, "explore": 0, "node": "n", "relevant": False, "addresses": []}
    assert set(values) == set(_FIELDS)
    rng = random.Random(3)
    for k in range(300):
        chosen = {name: value for name, value in values.items() if rng.random() < 0.5}
        if k % 3 == 0 and "seed" in chosen:
            chosen["seed"] = False
        page = PageMeta(**chosen, extra={"z": 1} if k % 2 else {})
        plain = {name: getattr(page, name) for name in _FIELDS if getattr(page, name) is not None}
        if not page.seed:
            plain.pop("seed")
        plain.update(page.extra)
        assert page.to_dict() == plain and list(page.to_dict()) == list(plain)


def test_unknown_keys_survive_a_round_trip():
    page = PageMeta.from_dict({"priority": 0.5, "future_field": [1, 2]})
    assert page.extra == {"future_field": [1, 2]}
    assert page.to_dict() == {"priority": 0.5, "future_field": [1, 2]}


def test_seed_page_and_page_distance():
    seed = PageMeta.seed_page()
    assert seed.to_dict() == {"seed": True, "dist": 0, "seed_dist": 0, "score": 1.0, "priority": 1.0}
    assert seed.page_distance == 0
    assert PageMeta(dist=3).page_distance == 3
    assert PageMeta(dist=3, relevant=True).page_distance == 0  # a relevant page restarts the distance
    assert PageMeta().page_distance == 0 and PageMeta().seed_distance == 0


def test_of_converts_a_carried_dict_in_place_and_ignores_what_is_not_a_page_state():
    request = Request("http://a.de/", meta={META_KEY: dict(STORED)})
    page = PageMeta.of(request)
    assert isinstance(request.meta[META_KEY], PageMeta) and PageMeta.of(request) is page
    response = HtmlResponse("http://a.de/", body=b"", request=request)
    assert PageMeta.of(response) is page  # a response reads its request's state
    assert PageMeta.of(Request("http://b.de/")) is None
    assert PageMeta.of(Request("http://b.de/", meta={META_KEY: "not a dict"})) is None
    assert PageMeta.of(HtmlResponse("http://c.de/", body=b"")) is None  # no request
    fresh = Request("http://d.de/")
    assert PageMeta.ensure(fresh) is fresh.meta[META_KEY] and fresh.meta[META_KEY] == PageMeta()


def test_serialised_request_carries_the_wire_dict_and_leaves_the_request_alone():
    page = PageMeta(link={"url": "http://n.de/"}, score=0.5, priority=0.75, geoparse=(True, [], None))
    request = Request("http://n.de/", meta={META_KEY: page, FINGERPRINT_META: ("http://n.de/", "ab")})
    data = request_to_json_dict(request, None)
    assert data["meta"][META_KEY] == {"link": {"url": "http://n.de/"}, "score": 0.5, "priority": 0.75}
    json.dumps(data)  # JSON-able; the geoparse verdict is never stored
    assert request.meta[META_KEY] is page
    rebuilt = request_from_json_dict(data, None)
    assert PageMeta.of(rebuilt) == PageMeta(link={"url": "http://n.de/"}, score=0.5, priority=0.75)
    assert wire_meta({"depth": 1}) == {"depth": 1}


def test_context_from_settings_alone_and_its_run_dir(tmp_path):
    crawler = get_crawler(Spider, {"GEOFOCUS_RUN_DIR": str(tmp_path / "run"), "GEOFOCUS_DECAY": 0.25})
    context = crawl_context(crawler)
    assert crawl_context(crawler) is context  # built once
    assert (context.region, context.seeds, context.decay) == (None, (), 0.25)
    assert context.strategy == "online" and context.depth == 3  # geofocus/defaults.py
    assert not (tmp_path / "run").exists()  # created on first use only
    assert get_run_dir(crawler) == tmp_path / "run" and (tmp_path / "run").is_dir()


def test_default_run_dir_is_named_after_the_region_and_fixed_for_the_crawl(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    crawler = get_crawler(Spider, {})
    set_crawl_context(crawler, CrawlContext.from_settings(crawler.settings, region_name="oldenburg"))
    first = get_run_dir(crawler)
    assert first.parent == Path("runs") and first.name.startswith("oldenburg-")
    assert get_run_dir(crawler) == first


def test_geo_spider_registers_the_context_of_its_arguments(tmp_path):
    crawler = get_crawler(GeoSpider, project_settings(GEOFOCUS_RUN_DIR=str(tmp_path), GEOFOCUS_STRATEGY="bfs"))
    spider = GeoSpider.from_crawler(crawler, region="oldenburg", seeds="http://a.de/,b.de", resume="force")
    context = crawl_context(crawler)
    assert spider.context is context
    assert context.region.name == "oldenburg" and context.region_name == "oldenburg"
    assert context.seeds == ("http://a.de/", "http://b.de/") and context.strategy == "bfs"
    assert context.resume_force
    other = get_crawler(GeoSpider, project_settings(GEOFOCUS_RUN_DIR=str(tmp_path)))
    GeoSpider.from_crawler(other, region="oldenburg", seeds="http://a.de/", strategy="distance")
    assert crawl_context(other).strategy == "distance" and not crawl_context(other).resume_force


@pytest.mark.parametrize("strategy, bound", [("bfs", 1 / 5), ("distance", 0.5**3), ("adaptive", 1.0)])
def test_link_priority_bound_reads_the_parent_state(strategy, bound):
    from geofocus.spidermiddlewares.decay import link_priority_bound

    parent = PageMeta.from_dict({"dist": 2, "seed_dist": 3})
    assert link_priority_bound(parent, strategy, 0.5) == pytest.approx(bound)
