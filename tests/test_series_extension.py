"""The series extension in a real Scrapy crawl of a local HTTP server.

The spider here stands in for the crawl loop only in keeping its counters (the stats
``geofocus/fetched``, ``geofocus/relevant``, ``geofocus/frontier/size``), which is what the
extension reads.
"""

from __future__ import annotations

import json
import logging

import pytest
import pytest_twisted
import scrapy
from scrapy.crawler import CrawlerRunner
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from geofocus.extensions.series import CrawlSeries
from tests.crawling import chain_site

PAGES = 23


@pytest.fixture
def site():
    with chain_site(PAGES) as url:
        yield url


class CountingSpider(scrapy.Spider):
    name = "counting"

    def __init__(self, start: str = "", **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [start]

    def parse(self, response):
        stats = self.crawler.stats
        n = int(response.url.rsplit("/", 1)[-1])
        stats.inc_value("geofocus/fetched")
        stats.set_value("geofocus/frontier/size", PAGES - n - 1)
        if n % 3 == 0:
            stats.inc_value("geofocus/relevant")
            # the same address on pages 0 and 3, so 23 pages give 4 distinct addresses
            yield {"url": response.url, "addresses": [
                {"street": "Markt", "house_number": str(n // 6), "postcode": "26122",
                 "city": "Oldenburg"}]}
        yield from response.follow_all(css="a")


def settings(run_dir, every=5):
    return {
        "GEOFOCUS_RUN_DIR": str(run_dir),
        "GEOFOCUS_SERIES_EVERY": every,
        "EXTENSIONS": {"geofocus.extensions.series.CrawlSeries": 600},
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
        "CONCURRENT_REQUESTS": 1,
    }


@pytest_twisted.ensureDeferred
async def test_series_lines_and_summary(site, tmp_path, caplog):
    runner = CrawlerRunner(settings(tmp_path))
    with caplog.at_level(logging.INFO, logger="geofocus.extensions.series"):
        await runner.crawl(CountingSpider, start=f"{site}/p/0")
    lines = [json.loads(x) for x in (tmp_path / "series.jsonl").read_text().splitlines()]
    # every 5 pages: at 5, 10, 15, 20 (23 pages in all)
    assert [x["fetched"] for x in lines] == [5, 10, 15, 20]
    assert set(lines[0]) == {"fetched", "relevant", "harvest_rate", "frontier_size",
                             "pages_per_second", "time"}
    for line in lines:
        expected_relevant = len([n for n in range(line["fetched"]) if n % 3 == 0])
        assert line["relevant"] == expected_relevant
        assert line["harvest_rate"] == pytest.approx(expected_relevant / line["fetched"])
        assert line["frontier_size"] == PAGES - line["fetched"]
        assert line["pages_per_second"] > 0
    assert lines == sorted(lines, key=lambda x: x["time"])
    summary = [r.getMessage() for r in caplog.records if "Crawl finished" in r.getMessage()]
    assert len(summary) == 1
    assert "23 pages, 8 relevant (harvest rate 34.8 %)" in summary[0]
    assert "4 distinct addresses" in summary[0]
    assert str(tmp_path) in summary[0]


def test_zero_disables_the_extension(tmp_path):
    crawler = get_crawler(CountingSpider, settings(tmp_path, every=0))
    with pytest.raises(NotConfigured):
        CrawlSeries.from_crawler(crawler)


def test_project_settings_register_the_extension():
    from scrapy.utils.project import get_project_settings

    assert "geofocus.extensions.series.CrawlSeries" in get_project_settings().getdict("EXTENSIONS")
