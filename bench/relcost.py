"""What a relevant page costs beyond any page, in the parts that grow with the harvest.

    PYTHONPATH=TREE python bench/relcost.py RUN_DIR [RUN_DIR ...] [--reps 3] [--json OUT]

RUN_DIRs are finished crawls (``bench/speed.py`` keeps none: copy one while it runs, or
``scrapy crawl geo -s GEOFOCUS_RUN_DIR=...``).  For each run, with the code of the tree on
PYTHONPATH, in this one process (CPU time, best of ``--reps``):

- the crawl log: serialising each crawl.jsonl record as ``CrawlLog.page_evaluated`` does,
  relevant and other pages apart;
- items.jsonl: each relevant page's item (a PageItem rebuilt from its line) through
  ``CrawlLog.item_scraped``;
- the series: ``CrawlSeries``'s address keys (twice per relevant page: page and item);
- the report: ``build_report`` as the live view runs it (``live=60``, after a first build) and as the
  final one (``live=0``), with the CPU of its stages.

Differences between two runs (``online`` against ``distance``) divided by the difference in
relevant pages give the marginal cost of a relevant page in each part.
"""

from __future__ import annotations

import argparse
import collections
import functools
import io
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def best(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def stage_timer(acc: collections.Counter) -> None:
    """Wrap the report's stages with CPU timers (in this process only)."""
    import geofocus.reporting.build as build
    from geofocus.reporting import charts, webmap

    def wrap(module: Any, name: str, label: str) -> None:
        fn = getattr(module, name)

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                acc[label] += time.process_time() - start
        setattr(module, name, timed)

    wrap(build, "load_run", "load_run")
    wrap(charts, "line_chart", "line charts")
    wrap(charts, "series_chart", "series chart")
    wrap(charts, "distance_charts", "distance charts")
    wrap(charts, "address_map", "map.png")
    wrap(webmap, "write_map", "map.html")
    wrap(build, "_gao", "gao tables")
    wrap(build, "collect_addresses", "collect_addresses")


def measure(run_dir: Path, reps: int) -> dict[str, Any]:
    from itemadapter import ItemAdapter  # noqa: F401  (imported before timing)
    from scrapy.utils.test import get_crawler

    from geofocus.extensions.crawllog import CrawlLog
    from geofocus.items import PageItem
    from geofocus.metrics.addresses import address_key
    from geofocus.reporting import build_report

    records = [json.loads(line) for line in (run_dir / "crawl.jsonl").read_text(encoding="utf-8").splitlines()]
    relevant = [r for r in records if r["relevant"]]
    other = [r for r in records if not r["relevant"]]
    item_lines_text = (run_dir / "items.jsonl").read_text(encoding="utf-8").splitlines()
    items = [PageItem(**json.loads(line)) for line in item_lines_text]
    log = CrawlLog.from_crawler(get_crawler(settings_dict={"GEOFOCUS_CRAWL_LOG_ENABLED": True}))
    sink = io.StringIO()

    from geofocus.extensions import crawllog
    encoder = getattr(crawllog, "_LINE_ENCODER", None)  # None: a tree from before session 11

    def lines(recs: list[dict]) -> None:
        for record in recs:  # what page_evaluated writes, once the record is made
            sink.write((encoder.encode(record) if encoder else json.dumps(record, ensure_ascii=False)) + "\n")
        sink.seek(0)
        sink.truncate()

    def item_lines() -> None:
        log.items = sink
        for item in items:
            log.item_scraped(item, spider=None)
        sink.seek(0)
        sink.truncate()

    def keys() -> None:
        for r in relevant:
            for _ in range(2):
                for address in r["addresses"]:
                    address_key(address)

    out: dict[str, Any] = {
        "run": str(run_dir), "pages": len(records), "relevant": len(relevant), "items": len(items),
        "ms_per_page": {
            "crawl line, relevant": 1e3 * best(lambda: lines(relevant), reps) / max(1, len(relevant)),
            "crawl line, other": 1e3 * best(lambda: lines(other), reps) / max(1, len(other)),
            "items.jsonl line": 1e3 * best(item_lines, reps) / max(1, len(items)),
            "series address keys": 1e3 * best(keys, reps) / max(1, len(relevant)),
        },
    }
    acc: collections.Counter = collections.Counter()
    stage_timer(acc)
    import folium  # noqa: F401  (imports out of the timing)
    import matplotlib.pyplot  # noqa: F401
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report"
        build_report([run_dir], report, live=0)
        for live in (60.0, 0.0):
            totals = []
            acc.clear()
            for _ in range(reps):
                start = time.process_time()
                build_report([run_dir], report, live=live)
                totals.append(time.process_time() - start)
            out[f"report build s (live={live:g})"] = {"total": min(totals), "mean": sum(totals) / reps,
                                                      **{k: v / reps for k, v in acc.most_common()}}
        shutil.rmtree(report, ignore_errors=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    results = [measure(Path(run), args.reps) for run in args.runs]
    for r in results:
        print(json.dumps(r, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps({"argv": sys.argv, "results": results}, indent=1))


if __name__ == "__main__":
    main()
