"""Frontier benchmark: push / re-prioritise / pop operations per second and peak memory.

    python bench/frontier.py [--urls 1000000] [--json bench/results/frontier.json]

Pushes N new URLs (request payloads of realistic size, 2,000 hosts), then
re-prioritises N/10 of them, then pops N/10 with a few busy hosts, flushing
(committing) every 1,000 operations as a crawl does.  Peak memory is the
process's maximum resident set size, measured before and after the run.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geofocus.frontier import FrontierEntry, SqliteFrontier  # noqa: E402


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def payload(url: str, priority: float) -> dict:
    return {
        "url": url, "callback": "parse", "errback": "errback", "method": "GET", "headers": {}, "body": "",
        "cookies": {}, "encoding": "utf-8", "priority": 0, "dont_filter": False, "flags": [], "cb_kwargs": {},
        "meta": {"depth": 3, "geofocus": {
            "priority": priority, "score": 0.25, "dist": 2, "seed_dist": 5, "parent": url.rsplit("/", 1)[0],
            "link": {"url": url, "source_url": url.rsplit("/", 1)[0], "anchor": "Kontakt und Anfahrt",
                     "title": "", "context": "Hier finden Sie uns: Anfahrt"},
            "path": [["host:www", "host:cafe", "path:kontakt", "anchor:kontakt"], ["host:portal", "anchor:cafes"]],
        }},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    rng = random.Random(7)
    n = args.urls
    start_rss = peak_rss_mb()
    results: dict[str, float] = {"urls": n, "rss_start_mb": round(start_rss, 1)}
    with tempfile.TemporaryDirectory() as tmp:
        frontier = SqliteFrontier(Path(tmp) / "frontier.sqlite", seed=1)
        frontier.open()
        urls = [f"http://www.host{i % 2000}.de/seite/{i}" for i in range(n)]

        t0 = time.perf_counter()
        for i, url in enumerate(urls):
            p = rng.random() * 0.5
            frontier.push(FrontierEntry(url, p, url.split("/")[2], payload(url, p)))
            if i % 1000 == 999:
                frontier.flush()
        frontier.flush()
        results["push_per_s"] = round(n / (time.perf_counter() - t0))

        sample = rng.sample(urls, n // 10)
        t0 = time.perf_counter()
        for i, url in enumerate(sample):
            frontier.push(FrontierEntry(url, 0.5 + rng.random() * 0.5, url.split("/")[2], payload(url, 0.9)))
            if i % 1000 == 999:
                frontier.flush()
        frontier.flush()
        results["reprioritise_per_s"] = round(len(sample) / (time.perf_counter() - t0))

        busy = {f"www.host{i}.de" for i in range(8)}
        t0 = time.perf_counter()
        popped = 0
        for i in range(n // 10):
            entry = frontier.pop(busy)
            if entry is None:
                break
            frontier.done(entry.fingerprint)
            popped += 1
            if i % 1000 == 999:
                frontier.flush()
        frontier.flush()
        results["pop_done_per_s"] = round(popped / (time.perf_counter() - t0))
        results["queued_after"] = len(frontier)
        frontier.close()
        results["sqlite_file_mb"] = round((Path(tmp) / "frontier.sqlite").stat().st_size / 2**20, 1)
    results["rss_peak_mb"] = round(peak_rss_mb(), 1)
    # The URL list itself is the benchmark's, not the frontier's: report what the frontier adds.
    results["url_list_mb_estimate"] = round(n * 90 / 2**20, 1)
    for key, value in results.items():
        print(f"{key:>24}: {value}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
