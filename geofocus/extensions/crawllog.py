"""The crawl log: one JSON line per evaluated page in ``RUN_DIR/crawl.jsonl``.

Every line carries what made the page's priority (score, prediction, dist,
seed distance, parent, the link it was found by), so that every decision of
a crawl can be explained afterwards and replayed by ``scrapy train`` and
``scrapy report``.  ``RUN_DIR/run.json`` describes the crawl and ``RUN_DIR/stats.json`` holds its
``geofocus/*`` stats at the end of each run.  ``RUN_DIR/items.jsonl`` receives every item the crawl
yields, appended across resumes, whatever feed options the user gave (``-O`` truncates its feed).

A resumed crawl keeps its run.json; with ``-a resume=force`` a changed region, strategy, decay or
prediction depth replaces the old value and is recorded under "changes".
"""

from __future__ import annotations

import json
import logging
import time
from typing import IO, TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured

from geofocus import signals as geo_signals
from geofocus.context import crawl_context
from geofocus.pagemeta import PageMeta
from geofocus.partition import plan_for_region
from geofocus.rundir import get_run_dir

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from geofocus.regions import Region

logger = logging.getLogger(__name__)


def _item_value(value: Any) -> Any:
    """What an items.jsonl line holds for a value JSON has no type for: a nested item as its
    dict (what ``ItemAdapter.asdict`` makes of it), anything else as its ``str``."""
    if isinstance(value, ItemAdapter):
        return value.asdict()
    if ItemAdapter.is_item(value):
        return ItemAdapter(value).asdict()
    return str(value)


# One encoder each, built once (``json.dumps`` with options builds a new encoder per call).
# An item's line is the JSON of ``ItemAdapter(item).asdict()`` with ``default=str``: its fields
# are serialised as they are, and only values JSON cannot write go through _item_value, instead
# of copying every nested dict and asking ``is_item`` of every value (~0.08 ms a relevant page).
_ITEM_ENCODER = json.JSONEncoder(ensure_ascii=False, default=_item_value)
_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False)


def node_assignment(region: Region | None, nodes: str) -> dict[str, list[str]]:
    """node -> the cities it owns in this crawl's node plan (for geo-focus in reports)."""
    if region is None:
        return {}
    plan = plan_for_region(region, nodes)
    assignment: dict[str, list[str]] = {node: [] for node in plan.nodes}
    for city, node in plan.city_node.items():
        assignment.setdefault(node, []).append(city.name)
    return assignment


class CrawlLog:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.file: IO[str] | None = None
        self.items: IO[str] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlLog:
        if not crawler.settings.getbool("GEOFOCUS_CRAWL_LOG_ENABLED"):
            raise NotConfigured("GEOFOCUS_CRAWL_LOG_ENABLED is off")
        ext = cls(crawler)
        crawler.signals.connect(ext.spider_opened, signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signals.spider_closed)
        crawler.signals.connect(ext.page_evaluated, geo_signals.page_evaluated)
        crawler.signals.connect(ext.item_scraped, signals.item_scraped)
        return ext

    def item_scraped(self, item: Any, spider: Spider, **kwargs: Any) -> None:
        if self.items is None:
            return
        try:
            fields = dict(ItemAdapter(item).items())
        except TypeError:  # not an item type: nothing to keep
            return
        self.items.write(_ITEM_ENCODER.encode(fields) + "\n")

    def spider_opened(self, spider: Spider) -> None:
        context = crawl_context(self.crawler)
        run_dir = context.run_dir
        settings = self.crawler.settings
        run_file = run_dir / "run.json"
        description = {
            "region": context.region_name,
            "strategy": context.strategy,
            "decay": context.decay,
            "prediction_depth": context.depth,
            "started": time.time(),
            "seeds": list(context.seeds),
            "node": settings.get("GEOFOCUS_NODE") or None,
            "crawl_id": settings.get("GEOFOCUS_CRAWL_ID") or None,
        }
        if description["node"] or settings.get("GEOFOCUS_PARTITION"):
            description["assignment"] = node_assignment(context.region, settings.get("GEOFOCUS_NODES") or "")
        if run_file.exists():  # a resumed crawl keeps its original description
            try:
                old = json.loads(run_file.read_text())
                merged = {**description, **old, "resumed": time.time()}
                if context.resume_force:
                    changes = list(old.get("changes") or [])
                    for key in ("region", "strategy", "decay", "prediction_depth"):
                        if key in old and old[key] != description[key]:
                            changes.append({"time": time.time(), "key": key, "old": old[key],
                                            "new": description[key]})
                            merged[key] = description[key]
                            logger.warning("Resuming with %(key)s %(new)s instead of %(old)s (-a resume=force)",
                                           {"key": key, "new": description[key], "old": old[key]})
                    merged["changes"] = changes
                description = merged
            except ValueError:
                logger.warning("Replacing unreadable %(path)s", {"path": run_file})
        run_file.write_text(json.dumps(description, indent=2))
        self.file = open(run_dir / "crawl.jsonl", "a", encoding="utf-8", buffering=1)
        self.items = open(run_dir / "items.jsonl", "a", encoding="utf-8", buffering=1)
        logger.info("Crawl log: %(path)s", {"path": run_dir / "crawl.jsonl"}, extra={"spider": spider})

    def spider_closed(self, spider: Spider, reason: str) -> None:
        stats = {k: v for k, v in self.crawler.stats.get_stats().items() if k.startswith("geofocus/")}
        stats["finish_reason"] = reason
        (get_run_dir(self.crawler) / "stats.json").write_text(json.dumps(stats, indent=2, sort_keys=True))
        if self.file is not None:
            self.file.close()
            self.file = None
        if self.items is not None:
            self.items.close()
            self.items = None

    def page_evaluated(
        self, response: Response, relevant: bool, addresses: list[dict[str, Any]], spider: Spider
    ) -> None:
        if self.file is None:
            return
        record = page_record(self.crawler, response, relevant, addresses)
        record["link"] = (PageMeta.of(response) or PageMeta()).link
        self.file.write(_LINE_ENCODER.encode(record) + "\n")


def page_record(crawler: Crawler, response: Response, relevant: bool, addresses: list[dict[str, Any]]) -> dict:
    """An evaluated page as a crawl.jsonl record (without its link context), as the outputs store it."""
    page = PageMeta.of(response) or PageMeta()
    return {
        "url": response.url,
        "status": response.status,
        "relevant": relevant,
        "priority": page.priority,
        "score": page.score,
        "prediction": page.prediction,
        "dist": page.page_distance,
        "seed_dist": page.seed_dist if page.seed_dist is not None else 0,
        "depth": response.meta.get("depth", 0),
        "parent": page.parent,
        "time": round(time.time(), 3),
        "addresses": addresses,
        "node": crawler.settings.get("GEOFOCUS_NODE") or None,
    }
