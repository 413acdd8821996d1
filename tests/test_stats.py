"""geofocus's stats collector (the project's STATS_CLASS) in a real Scrapy crawl of a local HTTP server."""

from __future__ import annotations

import pytest
import pytest_twisted
import scrapy
from scrapy.crawler import CrawlerRunner
from scrapy.settings import Settings

from geofocus.stats import GeoStatsCollector
from tests.crawling import chain_site

PAGES = 6


@pytest.fixture
def site():
    with chain_site(PAGES) as url:
        yield f"{url}/p/0"


class CountingSpider(scrapy.Spider):
    name = "counting"

    def __init__(self, start: str = "", **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [start]

    def parse(self, response):
        stats = self.crawler.stats
        stats.inc_value("test/pages")
        stats.inc_value("test/by_two", count=2, start=10)
        stats.max_value("test/max", int(response.url.rsplit("/", 1)[-1]))
        stats.min_value("test/min", int(response.url.rsplit("/", 1)[-1]))
        stats.set_value("test/last", response.url)
        yield from response.follow_all(css="a")


def project_settings(**overrides) -> Settings:
    settings = Settings()
    settings.setmodule("geofocus.settings", priority="project")
    settings.update({"ROBOTSTXT_OBEY": False, "SCHEDULER": "scrapy.core.scheduler.Scheduler",
                     "SPIDER_MIDDLEWARES": {}, "DOWNLOADER_MIDDLEWARES": {}, "EXTENSIONS": {},
                     "ITEM_PIPELINES": {}, "ADDONS": {}, "LOG_LEVEL": "WARNING", **overrides})
    return settings


def test_project_names_its_collector():
    assert project_settings()["STATS_CLASS"] == "geofocus.stats.GeoStatsCollector"


@pytest_twisted.ensureDeferred
async def test_stats_of_a_crawl_are_counted_and_kept(site):
    runner = CrawlerRunner(project_settings())
    crawler = runner.create_crawler(CountingSpider)
    await crawler.crawl(start=site)
    stats = crawler.stats
    assert isinstance(stats, GeoStatsCollector)
    assert stats.get_value("test/pages") == PAGES
    assert stats.get_value("test/by_two") == 10 + 2 * PAGES
    assert (stats.get_value("test/min"), stats.get_value("test/max")) == (0, PAGES - 1)
    assert stats.get_value("test/last").endswith(f"/p/{PAGES - 1}")
    # Scrapy's own components count through the same collector, and the closed crawl's stats are kept
    assert stats.get_value("downloader/response_status_count/200") == PAGES
    assert stats.get_value("finish_reason") == "finished"
    assert stats.spider_stats["counting"]["test/pages"] == PAGES


def test_callers_that_still_pass_spider_keep_working():
    from scrapy.utils.test import get_crawler

    crawler = get_crawler(CountingSpider, settings_dict={"STATS_CLASS": "geofocus.stats.GeoStatsCollector"})
    stats = GeoStatsCollector(crawler)
    stats.inc_value("a", spider=None)
    stats.inc_value("a", 3, spider=None)
    stats.set_value("b", "x", spider=None)
    assert stats.get_value("a", spider=None) == 4 and stats.get_stats(spider=None)["b"] == "x"
