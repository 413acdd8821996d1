"""Summarise bench/diagext.py's diag.jsonl of each worker of a bench/scale.py --workdir run.

    python bench/diag_report.py WORKDIR [--warmup 5] [--seconds 30]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path


def worker(path: Path, t0: float, t1: float) -> dict:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    samples = [r for r in rows if r["k"] == "s" and t0 <= r["t"] <= t1]
    resp = [r for r in rows if r["k"] == "r" and t0 <= r["t"] <= t1]
    out: dict = {"samples": len(samples)}
    if not samples:
        return out
    for key in ("active", "slot_active", "transferring", "slot_queue", "before_slot", "before_hosts", "after_slot",
                "robots", "hosts_tr",
                "hosts_full", "inprogress", "scraper_active", "batch", "batch_hosts", "batch_free_hosts", "inflight",
                "lease_size"):
        vals = [s[key] for s in samples if key in s]
        if vals:
            out[key] = round(statistics.mean(vals), 1)
    first, last = samples[0], samples[-1]
    span = last["t"] - first["t"]
    out["pops_per_s"] = round((last["pops"] - first["pops"]) / span, 1)
    out["none_pops_per_s"] = round((last["none_pops"] - first["none_pops"]) / span, 1)
    out["pop_ms_per_s"] = round(1000 * (last["pop_s"] - first["pop_s"]) / span, 1)
    window = t1 - t0
    robots = [r for r in resp if r["url"].endswith("/robots.txt")]
    pages = [r for r in resp if not r["url"].endswith("/robots.txt") and r["st"] == 200 and "html" in r["ct"]]
    out["responses_per_s"] = round(len(resp) / window, 1)
    out["pages_per_s"] = round(len(pages) / window, 1)
    out["robots_per_s"] = round(len(robots) / window, 2)
    out["status"] = dict(Counter(r["st"] for r in resp if not r["url"].endswith("/robots.txt")).most_common(5))
    lat = [r["lat"] for r in resp if r["lat"] is not None]
    out["latency_mean"] = round(statistics.mean(lat), 3) if lat else None
    out["latency_pages"] = round(statistics.mean(r["lat"] for r in pages if r["lat"] is not None), 3) if pages else None
    # Little's law: transfers in flight / mean latency = responses a second
    out["little_resp_per_s"] = round(out["transferring"] / out["latency_mean"], 1) if lat else None
    out["hosts_fetched"] = len({r["slot"] for r in resp})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("workdir")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--seconds", type=float, default=30.0)
    args = ap.parse_args()
    for run in sorted(Path(args.workdir).iterdir(), key=lambda p: p.name.rsplit("-", 1)[-1]):
        logs = sorted(run.glob("w*/diag.jsonl"))
        if not logs:
            continue
        # the steady window as bench/scale.py takes it: warmup after the first page to the end
        times = []
        for w in run.glob("w*/crawl.jsonl"):
            times += [json.loads(line)["time"] for line in w.read_text().splitlines() if line.strip()]
        if not times:
            continue
        t0 = min(times) + args.warmup
        starts = [json.loads(p.read_text().splitlines()[0])["t"] for p in logs]
        t1 = min(max(times), min(starts) + args.seconds)
        print(run.name)
        for p in logs:
            print(" ", p.parent.name, json.dumps(worker(p, t0, t1)))


if __name__ == "__main__":
    main()
