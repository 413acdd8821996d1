"""Frontier benchmark: push / re-prioritise / pop / re-score rates, reopen time and peak memory.

    python bench/frontier.py [--urls 1000000] [--json bench/results/frontier.json] [--module FILE]

Pushes N new URLs (fingerprints as the scheduler makes them, request payloads
of realistic size, 2,000 hosts), then re-prioritises N/10 of them, then pops
and marks done N/10 with 8 busy hosts, then runs N/10 rounds of "pop one, mark
it done, push a new one" at about N queued (the steady state of a crawl), then
re-scores every queued URL (new priorities for all of them; the adaptive
strategy's re-scoring), then closes (a close compacts the journal) and reopens
the file (a resume).  ``--module FILE`` runs the same benchmark against another
copy of ``geofocus/frontier.py`` (an A/B against an older version kept out of
the tree).  Every
1,000 operations it flushes (commits), as a crawl does.  Rates are operations
per CPU second of this process (``time.process_time``: steadier than wall time
on a shared machine; they include building each entry, a SHA-1 and a payload
dict, a few microseconds); peak memory is its maximum resident set size.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geofocus.frontier import FrontierEntry, SqliteFrontier  # noqa: E402,F401

HOSTS = 2000


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def url_of(i: int) -> str:
    return f"http://www.host{i % HOSTS}.de/seite/{i}"


def fingerprint(url: str) -> str:
    return hashlib.sha1(b"GET\0" + url.encode() + b"\0\0").hexdigest()


def payload(url: str, priority: float) -> dict:
    """A request as the scheduler stores it (JSON-safe dict; default attributes left out)."""
    parent = url.rsplit("/", 1)[0]
    return {
        "url": url, "callback": "parse", "errback": "errback",
        "meta": {"depth": 3, "geofocus": {
            "priority": priority, "score": 0.25, "dist": 2, "seed_dist": 5, "parent": parent, "prediction": 0.1,
            "link": {"url": url, "source_url": parent, "anchor": "Kontakt und Anfahrt",
                     "title": "", "context": "Hier finden Sie uns: Anfahrt"},
            "path": [["host:www", "host:cafe", "path:kontakt", "anchor:kontakt"], ["host:portal", "anchor:cafes"]],
        }},
    }


def entry(i: int, priority: float) -> FrontierEntry:
    url = url_of(i)
    return FrontierEntry(fingerprint(url), priority, f"www.host{i % HOSTS}.de", payload(url, priority))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--json", default="")
    parser.add_argument("--module", default="", help="path of another frontier.py to measure instead")
    args = parser.parse_args()
    if args.module:
        import importlib.util

        spec = importlib.util.spec_from_file_location("frontier_under_test", args.module)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        globals()["FrontierEntry"] = module.FrontierEntry
        globals()["SqliteFrontier"] = module.SqliteFrontier
    rng = random.Random(7)
    n = args.urls
    tenth = max(n // 10, 1)
    results: dict[str, float] = {"urls": n, "rss_start_mb": round(peak_rss_mb(), 1)}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "frontier.sqlite"
        frontier = SqliteFrontier(path, seed=1)
        frontier.open()

        t0 = time.process_time()
        for i in range(n):
            frontier.push(entry(i, rng.random() * 0.5))
            if i % 1000 == 999:
                frontier.flush()
        frontier.flush()
        results["push_per_s"] = round(n / (time.process_time() - t0))
        results["rss_after_push_mb"] = round(peak_rss_mb(), 1)

        t0 = time.process_time()
        for k in range(tenth):
            frontier.push(entry(rng.randrange(n), 0.5 + rng.random() * 0.5))
            if k % 1000 == 999:
                frontier.flush()
        frontier.flush()
        results["reprioritise_per_s"] = round(tenth / (time.process_time() - t0))

        busy = {f"www.host{i}.de" for i in range(8)}
        t0 = time.process_time()
        popped = 0
        for k in range(tenth):
            popped_entry = frontier.pop(busy)
            if popped_entry is None:
                break
            frontier.done(popped_entry.fingerprint)
            popped += 1
            if k % 1000 == 999:
                frontier.flush()
        frontier.flush()
        results["pop_per_s"] = round(popped / (time.process_time() - t0))

        # Steady state: each round pops (and finishes) one URL and pushes a new one.
        t0 = time.process_time()
        next_id = n
        for k in range(tenth):
            popped_entry = frontier.pop(busy)
            if popped_entry is not None:
                frontier.done(popped_entry.fingerprint)
            frontier.push(entry(next_id, rng.random() * 0.5))
            next_id += 1
            if k % 1000 == 999:
                frontier.flush()
        frontier.flush()
        results["push_pop_per_s"] = round(2 * tenth / (time.process_time() - t0))
        results["rss_after_push_pop_mb"] = round(peak_rss_mb(), 1)
        queued = len(frontier)
        results["queued"] = queued

        # Re-score every queued URL: new priorities for all (requests unchanged), in chunks as a
        # re-scoring pass would send them; the first pop after it pays for the new order.
        rescore_s = 0.0
        changed = 0
        chunk = 100_000
        for start in range(0, next_id, chunk):
            updates = [(fingerprint(url_of(i)), rng.random(), None) for i in range(start, min(start + chunk, next_id))]
            t0 = time.process_time()
            changed += frontier.update_priorities(updates)
            rescore_s += time.process_time() - t0
        del updates
        t0 = time.process_time()
        best_before = frontier.pop()
        rescore_s += time.process_time() - t0
        t0 = time.process_time()
        frontier.flush()
        rescore_flush_s = time.process_time() - t0
        results["rescored"] = changed
        results["rescore_s_per_million"] = round(rescore_s * 1_000_000 / max(changed, 1), 3)
        results["rescore_durable_s_per_million"] = round((rescore_s + rescore_flush_s) * 1_000_000 / max(changed, 1), 3)
        results["rss_before_reopen_mb"] = round(peak_rss_mb(), 1)
        t0 = time.process_time()
        frontier.close()
        results["close_s"] = round(time.process_time() - t0, 2)
        del frontier
        results["sqlite_file_mb"] = round(sum(p.stat().st_size for p in Path(tmp).iterdir()) / 2**20, 1)

        t0 = time.process_time()
        reopened = SqliteFrontier(path, seed=1)
        reopened.open()
        results["reopen_s"] = round(time.process_time() - t0, 2)
        assert len(reopened) == queued, (len(reopened), queued)  # the popped one was in flight: queued again
        best_after = reopened.pop()
        assert best_before is not None and best_after is not None
        assert best_after.fingerprint == best_before.fingerprint and best_after.request == best_before.request
        reopened.close()
    results["peak_rss_mb"] = round(peak_rss_mb(), 1)
    for key, value in results.items():
        print(f"{key:>30}: {value}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
