"""Partition policies of Gao et al. on small hand-made pages, against a hand-made region set."""

import pytest

from geofocus.partition import (
    CityMentions,
    GeoIPTable,
    Link,
    Page,
    Partitioner,
    PartitionError,
    plan_for_region,
)
from geofocus.regions.pack import region_from_dict


def city(name, state, pop, tz, aliases=()):
    return {"name": name, "state": state, "population": pop, "timezone": tz, "aliases": list(aliases)}


REGION = region_from_dict({
    "name": "us-mini", "country": "US", "languages": ["en"], "tlds": ["com"],
    "cities": [
        city("Los Angeles", "CA", 3820914, "Pacific", ["LA", "L.A."]),
        city("Glendale", "AZ", 248325, "Mountain"),
        city("Glendale", "CA", 196543, "Pacific"),
        city("Boston", "MA", 675647, "Eastern"),
        city("Chicago", "IL", 2746388, "Central"),
        city("Honolulu", "HI", 350964, "Hawaii"),
    ],
})
ONE_CITY = region_from_dict({"name": "one", "country": "DE", "languages": ["de"], "tlds": ["de"],
                             "cities": [{"name": "Oldenburg"}]})


@pytest.fixture
def plan():
    return plan_for_region(REGION)


@pytest.fixture
def gaz():
    return CityMentions(REGION)


def test_node_plan_follows_the_time_zone_split(plan):
    assert plan.nodes == ("general", "eastern", "pacific", "mountain", "central", "hawaii-alaska")
    nodes = {(k.name, k.state): n for k, n in plan.city_node.items()}
    assert nodes[("Boston", "MA")] == "eastern" and nodes[("Glendale", "AZ")] == "mountain"
    assert plan_for_region(ONE_CITY).nodes == ("default",)


@pytest.mark.parametrize("text", ["Best tacos in LA tonight", "Downtown L.A. events",
                                  "Welcome to Los Angeles"])
def test_aliases_name_the_same_city(gaz, text):
    assert [k.name for _, k in gaz.mentions(text)] == ["Los Angeles"]


def test_lower_case_la_is_not_los_angeles(gaz):
    assert gaz.mentions("la vie en rose, ou la la") == []


def test_ambiguous_bare_name_means_the_most_populous_city(gaz):
    assert gaz.resolve("Glendale").state == "AZ"
    assert gaz.resolve("Glendale", "CA").state == "CA"
    assert gaz.city_in_url("http://www.glendale-news.com/").state == "AZ"


def test_content_policy_prefers_city_state_pairs_and_state_evidence(gaz, plan):
    p = Partitioner("content", plan, gaz)
    page = Page("http://x.com/", "Our shop: 100 Brand Blvd, Glendale, CA 91203. Glendale is nice. "
                "California sun.")
    assert p.page_city(page).state == "CA"
    # a bare ambiguous name: population share decides (AZ), unless the page talks about CA
    assert gaz.best_content_city("Glendale news").state == "AZ"
    assert gaz.best_content_city("Glendale news from California, California and CA").state == "CA"
    links = [Link("http://a.com/"), Link("http://b.com/")]
    assert p.assign(page, links) == ["pacific", "pacific"]  # policy A: all links go together
    assert p.assign(Page("http://y.com/", "no city here"), links) == ["general", "general"]


def test_url_and_anchor_policies_decide_per_link(gaz, plan):
    url = Partitioner("url", plan, gaz)
    links = [Link("http://www.boston-dining.com/menu"), Link("http://chicago.example.com/"),
             Link("http://example.com/la/")]
    assert url.assign(Page("http://p.com/"), links) == ["eastern", "central", "general"]
    anchor = Partitioner("anchor", plan, gaz)
    links = [Link("http://a.com/", "Hotels", "Trips to Boston and Chicago: Hotels in Honolulu"),
             Link("http://b.com/", "L.A. guide", "Chicago people like the L.A. guide")]
    assert anchor.assign(Page("http://p.com/"), links) == ["hawaii-alaska", "pacific"]


def test_hash_and_host_policies(plan):
    host = Partitioner("host", plan)
    nodes = host.assign(Page("http://p.com/"), [Link(f"http://shop.com/{i}") for i in range(20)])
    assert len(set(nodes)) == 1  # one host, one node: politeness holds across workers
    hashed = Partitioner("hash", plan).assign(Page("http://p.com/"),
                                              [Link(f"http://shop.com/{i}") for i in range(60)])
    assert len(set(hashed)) == len(plan.nodes)


def test_classification_learns_from_addressed_pages(gaz, plan):
    p = Partitioner("classification", plan, gaz)
    for i in range(3):
        p.page_city(Page("u", f"surf beach waikiki luau island {i}", addresses=[{"city": "Honolulu"}]))
        p.page_city(Page("u", f"snow lake wind deep dish pizza {i}", addresses=[{"city": "Chicago"}]))
    assert plan.node_of(p.page_city(Page("u", "a luau on the beach"))) == "hawaii-alaska"
    assert plan.node_of(p.page_city(Page("u", "deep dish pizza and wind"))) == "central"


def test_ip_policy_needs_a_geoip_database_and_uses_it(tmp_path, gaz, plan):
    with pytest.raises(PartitionError, match="GEOFOCUS_GEOIP_DB"):
        GeoIPTable("")
    with pytest.raises(PartitionError, match="does not exist"):
        GeoIPTable(tmp_path / "missing.csv")
    db = tmp_path / "geoip.csv"
    db.write_text("# network,city,state\n10.0.0.0/8,Chicago,IL\n10.1.0.0/16,Boston,MA\n")
    p = Partitioner("ip", plan, gaz, GeoIPTable(db))
    assert p.assign(Page("u", ip="10.1.2.3"), [Link("http://a.com/")]) == ["eastern"]
    assert p.assign(Page("u", ip="10.9.2.3"), [Link("http://a.com/")]) == ["central"]
    assert p.assign(Page("u", ip="192.0.2.1"), [Link("http://a.com/")]) == ["general"]


def test_unknown_policy_is_a_clear_error(plan):
    with pytest.raises(PartitionError, match="choose one of"):
        Partitioner("zip", plan)


def test_crawl_without_geoip_database_stops_with_one_line(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-m", "scrapy.cmdline", "crawl", "geo", "-a", "region=oldenburg",
                          "-a", "seeds=http://www.example.com/", "-s", "GEOFOCUS_PARTITION=ip",
                          "-s", f"GEOFOCUS_RUN_DIR={tmp_path}"],
                         cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "error: GEOFOCUS_PARTITION=ip needs a GeoIP database" in out.stderr
    assert "Traceback" not in out.stderr


def test_us_top100_pack_gives_the_papers_node_plan():
    from collections import Counter

    from geofocus.regions import load_region

    region = load_region("us-top100")
    plan = plan_for_region(region)
    assert plan.nodes[0] == "general"
    # Table 1: Eastern 33, Pacific 22, Mountain 10, Central 33, Hawaii-Aleutian and Alaska 2
    assert Counter(plan.city_node.values()) == {"eastern": 33, "pacific": 22, "mountain": 10,
                                                "central": 33, "hawaii-alaska": 2}
    gaz = CityMentions(region)
    assert (gaz.resolve("Glendale").state, gaz.resolve("Arlington").state) == ("AZ", "TX")
    assert [k.name for _, k in gaz.mentions("Lakers tickets in L.A.")] == ["Los Angeles"]


def test_partition_middleware_routes_links_and_counts_them():
    from scrapy import Request, Spider
    from scrapy.exceptions import NotConfigured
    from scrapy.http import HtmlResponse
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from geofocus.context import CrawlContext, set_crawl_context
    from geofocus.pagemeta import PageMeta
    from geofocus.spidermiddlewares.partition import PartitionMiddleware

    with pytest.raises(NotConfigured):
        build_from_crawler(PartitionMiddleware, get_crawler(Spider, {"GEOFOCUS_REDIS_URL": "redis://x/0"}))
    crawler = get_crawler(Spider, {"GEOFOCUS_NODE": "pacific", "GEOFOCUS_PARTITION": "content"})
    crawler.spider = spider = crawler._create_spider("geo")
    set_crawl_context(crawler, CrawlContext.from_settings(crawler.settings, region=REGION))
    crawler.stats.open_spider()
    mw = build_from_crawler(PartitionMiddleware, crawler)
    page = HtmlResponse("http://shop.com/", body=b"<html><body>Boston, MA. 1 Main St, Boston, MA"
                        b" <a href='/a'>a</a></body></html>", encoding="utf-8",
                        request=Request("http://shop.com/"))
    out = list(mw.process_spider_output(page, [Request("http://shop.com/a"), Request("http://x.com/"),
                                               {"item": 1}], spider))
    assert [PageMeta.of(o).node for o in out if isinstance(o, Request)] == ["eastern", "eastern"]
    assert out[-1] == {"item": 1}
    assert crawler.stats.get_value("geofocus/partition/sent/eastern") == 2
    assert crawler.stats.get_value("geofocus/partition/kept") is None
