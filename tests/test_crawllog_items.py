"""items.jsonl lines (geofocus/extensions/crawllog.py) for item types other than PageItem: each line
must be ``json.dumps(ItemAdapter(item).asdict(), ensure_ascii=False, default=str)``, nested items,
sets, dates and all, whatever shortcut the writer takes."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any

import scrapy
from itemadapter import ItemAdapter
from scrapy.utils.test import get_crawler

from geofocus.extensions.crawllog import CrawlLog


class Shop(scrapy.Item):
    name = scrapy.Field()
    where = scrapy.Field()


@dataclass
class Where:
    street: str
    seen: datetime.date


@dataclass
class Page:
    url: str
    shops: list[Any] = field(default_factory=list)
    extra: Any = None


def test_item_lines_are_itemadapter_asdict_dumps(tmp_path):
    crawler = get_crawler(settings_dict={"GEOFOCUS_CRAWL_LOG_ENABLED": True})
    log = CrawlLog.from_crawler(crawler)
    items = [
        Page("http://a.de/ß", [Shop(name="Bäcker", where=Where("Lange Straße 1", datetime.date(2024, 5, 1)))],
             extra={"tags": ("x", "y"), "when": datetime.datetime(2024, 1, 2, 3, 4), "n": 1.5}),
        Page("http://b.de/", [{"nested": Where("Markt 2", datetime.date(2023, 1, 1))}, ["a", Shop(name="x")]],
             extra=frozenset({"only"})),
        {"url": "http://c.de/", "shop": Shop(name="y", where={"s": "東京"}), "none": None},
        Shop(name="z", where=[Where("Damm 3", datetime.date(2022, 2, 2))]),
        Page("http://d.de/", extra=ItemAdapter(Shop(name="inner"))),
    ]
    with open(tmp_path / "items.jsonl", "w", encoding="utf-8") as stream:
        log.items = stream
        for item in items:
            log.item_scraped(item, spider=None)
        log.item_scraped(object(), spider=None)  # not an item: no line
        log.items = None
    lines = (tmp_path / "items.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines == [json.dumps(ItemAdapter(i).asdict(), ensure_ascii=False, default=str) for i in items]
    assert '"where": {"street": "Lange Straße 1", "seen": "2024-05-01"}' in lines[0]  # nested dataclass: a dict
