"""Stats calls: Scrapy's MemoryStatsCollector against geofocus's GeoStatsCollector, CPU us per call.

    python bench/stats.py --json bench/results/stats.json

The two collectors alternate in one process (rounds of ``--calls`` calls each); the figure is CPU time
from rusage per call of ``inc_value`` and of ``get_value``, and the ratio of the two collectors.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scrapy.statscollectors import MemoryStatsCollector  # noqa: E402
from scrapy.utils.test import get_crawler  # noqa: E402

from geofocus.stats import GeoStatsCollector  # noqa: E402


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def per_call_us(stats, method: str, calls: int) -> float:
    call = getattr(stats, method)
    keys = [f"component/key{i % 40}" for i in range(calls)]
    start = cpu()
    for key in keys:
        call(key)
    return (cpu() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    crawler = get_crawler()
    figures: dict[str, dict[str, list[float]]] = {}
    for _ in range(args.rounds):
        for cls in (MemoryStatsCollector, GeoStatsCollector):
            stats = cls(crawler)
            for method in ("inc_value", "get_value"):
                figures.setdefault(cls.__name__, {}).setdefault(method, []).append(
                    per_call_us(stats, method, args.calls))
    result = {name: {method: min(values) for method, values in methods.items()} for name, methods in figures.items()}
    for method in ("inc_value", "get_value"):
        scrapy_us, geo_us = result["MemoryStatsCollector"][method], result["GeoStatsCollector"][method]
        print(f"{method:10s} Scrapy {scrapy_us:6.3f} us  geofocus {geo_us:6.3f} us  ({scrapy_us / geo_us:.1f}x)")
    if args.json:
        Path(args.json).write_text(json.dumps({"cpu_us_per_call": result, "calls": args.calls,
                                               "rounds": args.rounds}, indent=1) + "\n")


if __name__ == "__main__":
    main()
