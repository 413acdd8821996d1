"""Harvest-rate benchmark: the crawl strategies against simweb, with real Scrapy.

    python bench/harvest.py --pages 200000 --budget 20000 --seeds 1,2,3 \
        --strategies bfs,distance,adaptive,online [--depths 1,2,3] [--param NAME=VALUE ...] \
        --json bench/results/harvest.json

For each seed it starts ``scrapy simweb`` (with its ground truth; ``--param``
changes simweb's shape parameters, e.g. for a second, differently built web),
then runs ``scrapy crawl geo`` once per strategy (and once per prediction depth
with ``--depths``), each in its own run directory under ``--runs``, which
``scrapy report`` can compare.  A strategy entry may be ``LABEL=STRATEGY`` with
crawl settings after ``+``, e.g. ``online-nohy=online+GEOFOCUS_ONLINE_HOST_YIELD=False``.
For each run it prints and writes: pages fetched, relevant pages by the ground
truth and by the crawler's own geoparser, harvest rate, its ratio to bfs and to
distance, recall (share of all relevant pages of the web that were fetched),
pages per second, and the harvest rate after every 1,000 pages; then the mean
over the seeds.  JSON: ``runs.<label>`` holds the means (``harvest_rate``,
``recall``, ``pages_per_second``, ``cpu_ms_per_page``: CPU of the crawl process per fetched page),
``seed`` (the seeds) and ``per_seed``.

Seeds may run as separate processes (one ``--seed`` each, in parallel) and be
joined afterwards: ``--combine A.json,B.json,C.json --json OUT`` prints the
per-seed tables and the mean of the files as one run would have.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simwebproc import run_crawl, start_simweb  # noqa: E402

from geofocus.metrics.truth import Truth, load_truth  # noqa: E402


def crawl(label: str, strategy: str, depth: int, args: argparse.Namespace, seeds: Path, proxy: str, runs: Path,
          settings: list[str] = ()) -> tuple[Path, float]:
    run_dir = runs / label
    if run_dir.exists():
        raise SystemExit(f"{run_dir} exists: choose another --runs directory")
    arguments = [
        "-a", f"region={args.region}", "-a", f"seeds={seeds}", "-a", f"strategy={strategy}",
        "-s", f"GEOFOCUS_RUN_DIR={run_dir}",
        "-s", f"GEOFOCUS_MAX_PAGES={args.budget}", "-s", f"GEOFOCUS_PREDICTION_DEPTH={depth}",
        "-s", f"CONCURRENT_REQUESTS={args.concurrency}",
        # simweb is local: no live-Web politeness delays
        "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0",
        *[x for setting in settings for x in ("-s", setting)],
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = run_crawl(label, proxy, runs / (label + ".log"), arguments)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU of the crawl process alone (simweb, also a child, has not ended): robust to other load.
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"  {label}: crawled in {seconds:.0f} s, {cpu:.1f} CPU s", flush=True)
    return run_dir, cpu


def measure(run_dir: Path, truth: Truth, every: int = 1000) -> dict:
    records = [json.loads(line) for line in (run_dir / "crawl.jsonl").read_text().splitlines() if line.strip()]
    fetched = len(records)
    relevant_in_web = truth.count(lenient=False)
    hits = 0
    curve = []
    for i, record in enumerate(records, 1):
        hits += truth.grade(record["url"]) == "relevant"
        if i % every == 0:
            curve.append({"fetched": i, "harvest_rate": round(hits / i, 4)})
    elapsed = records[-1]["time"] - records[0]["time"] if fetched > 1 else 0
    parser_relevant = sum(1 for r in records if r["relevant"])
    return {
        "fetched": fetched,
        "distinct_fetched": len({r["url"] for r in records}),
        "relevant_truth": hits,
        "relevant_geoparser": parser_relevant,
        "harvest_rate": round(hits / fetched, 4) if fetched else 0.0,
        "harvest_rate_geoparser": round(parser_relevant / fetched, 4) if fetched else 0.0,
        "recall": round(hits / relevant_in_web, 4) if relevant_in_web else None,
        "pages_per_second": round(fetched / elapsed, 1) if elapsed else None,
        "harvest_curve": curve,
        "run_dir": str(run_dir),
    }


def parse_plan(strategies: str, depths: str) -> list[tuple[str, str, int, list[str]]]:
    """(label, strategy, depth, crawl settings) per run: ``LABEL=STRATEGY+SETTING=VALUE+...`` or a strategy name."""
    plan = []
    for entry in filter(None, strategies.split(",")):
        label, _, rest = entry.partition("=") if "=" in entry.split("+", 1)[0] else (entry.split("+", 1)[0], "", entry)
        strategy, *settings = (rest or entry).split("+")
        if not rest:
            label = strategy
        plan.append((label, strategy, 3, settings))
    plan += [(f"adaptive-depth{d}", "adaptive", int(d), []) for d in depths.split(",") if d]
    return plan


def ratio(value: float | None, base: float | None) -> str:
    return f"{value / base:.2f}x" if value and base else "-"


def print_table(title: str, results: dict) -> None:
    bfs = results.get("bfs", {}).get("harvest_rate")
    dist = results.get("distance", {}).get("harvest_rate")
    print(f"\n{title}")
    print(f"{'run':<22} {'fetched':>8} {'relevant':>8} {'harvest':>8} {'vs bfs':>7} {'vs dist':>7} {'recall':>7} "
          f"{'pages/s':>8} {'CPU ms/p':>8}")
    for label, r in results.items():
        print(f"{label:<22} {r['fetched']:>8.0f} {r['relevant_truth']:>8.0f} {100 * r['harvest_rate']:>7.2f}% "
              f"{ratio(r['harvest_rate'], bfs):>7} {ratio(r['harvest_rate'], dist):>7} "
              f"{100 * (r['recall'] or 0):>6.2f}% {r['pages_per_second'] or 0:>8} {r.get('cpu_ms_per_page') or 0:>8}")


def summarise(per_seed: dict[int, dict], labels: list[str], pages: int, budget: int, region: str, params: list[str],
              relevant_in_web: dict[int, int]) -> dict:
    """The mean of each run over the seeds, printed and returned as the JSON summary."""
    seeds = sorted(per_seed)
    means = {}
    for label in labels:
        rows = [per_seed[s][label] for s in seeds]
        mean = {key: round(sum(r[key] or 0 for r in rows) / len(rows), 4)
                for key in ("fetched", "relevant_truth", "harvest_rate", "recall", "pages_per_second",
                            "cpu_ms_per_page")}
        means[label] = {"strategy": rows[0]["strategy"], "prediction_depth": rows[0]["prediction_depth"],
                        "settings": rows[0].get("settings", []), "seed": seeds if len(seeds) > 1 else seeds[0],
                        **mean, "per_seed": rows}
    if len(seeds) > 1:
        print_table(f"mean of seeds {','.join(map(str, seeds))}", means)
    return {"pages": pages, "budget": budget, "seed": seeds if len(seeds) > 1 else seeds[0],
            "region": region, "params": params, "relevant_in_web": relevant_in_web, "runs": means}


def combine(files: list[str]) -> dict:
    """One summary from the JSON files of runs of the same plan on different seeds."""
    parts = [json.loads(Path(f).read_text()) for f in files]
    first = parts[0]
    for part in parts[1:]:
        same = all(part[k] == first[k] for k in ("pages", "budget", "region", "params"))
        if not same or list(part["runs"]) != list(first["runs"]):
            raise SystemExit(f"harvest.py --combine: {files} are not runs of one plan on one Web")
    per_seed: dict[int, dict] = {}
    relevant_in_web: dict[int, int] = {}
    for part in parts:
        for label, run in part["runs"].items():
            for row in run["per_seed"]:
                per_seed.setdefault(row["seed"], {})[label] = row
        relevant_in_web.update({int(k): v for k, v in part["relevant_in_web"].items()})
    for seed in sorted(per_seed):
        print_table(f"seed {seed}", per_seed[seed])
    return summarise(per_seed, list(first["runs"]), first["pages"], first["budget"], first["region"],
                     first["params"], relevant_in_web)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=200_000)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--seeds", default="", help="simweb seeds, e.g. 1,2,3 (default: --seed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--region", default="oldenburg")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a simweb shape parameter (repeatable)")
    parser.add_argument("--strategies", default="bfs,distance,adaptive,online")
    parser.add_argument("--depths", default="", help="also run adaptive with these prediction depths, e.g. 1,2,3")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--runs", default="", help="directory for the run directories (default bench/runs/<time>)")
    parser.add_argument("--json", default="")
    parser.add_argument("--combine", default="", help="join the JSON files of separate runs, e.g. one per seed")
    args = parser.parse_args()
    if args.combine:
        summary = combine(args.combine.split(","))
        if args.json:
            Path(args.json).write_text(json.dumps(summary, indent=2))
        return

    seeds = [int(x) for x in args.seeds.split(",") if x] or [args.seed]
    runs = Path(args.runs or ROOT / "bench" / "runs" / time.strftime("harvest-%Y%m%d-%H%M%S"))
    runs.mkdir(parents=True, exist_ok=True)
    plan = parse_plan(args.strategies, args.depths)
    per_seed: dict[int, dict] = {}
    relevant_in_web: dict[int, int] = {}
    for seed in seeds:
        seed_runs = runs / f"seed{seed}" if len(seeds) > 1 else runs
        simweb, proxy = start_simweb(args.pages, seed, args.region, seed_runs / "simweb", args.param)
        try:
            truth = load_truth(seed_runs / "simweb" / "truth.jsonl")
            relevant_in_web[seed] = truth.count(lenient=False)
            print(f"simweb seed {seed}: {truth.pages} pages, {relevant_in_web[seed]} relevant "
                  f"({100 * relevant_in_web[seed] / truth.pages:.1f} %), proxy {proxy}", flush=True)
            results = {}
            for label, strategy, depth, settings in plan:
                run_dir, cpu = crawl(label, strategy, depth, args, seed_runs / "simweb" / "seeds.txt", proxy, seed_runs,
                                settings)
                results[label] = {"strategy": strategy, "prediction_depth": depth, "settings": settings,
                                  "seed": seed, **measure(run_dir, truth)}
                fetched = results[label]["fetched"]
                results[label]["cpu_seconds"] = round(cpu, 2)
                results[label]["cpu_ms_per_page"] = round(1000 * cpu / fetched, 2) if fetched else None
        finally:
            simweb.terminate()
            simweb.wait(timeout=30)
        per_seed[seed] = results
        print_table(f"seed {seed}", results)

    summary = summarise(per_seed, [label for label, *_ in plan], args.pages, args.budget, args.region, args.param,
                        relevant_in_web)
    out = Path(args.json) if args.json else runs / "harvest.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2))
    print(f"\nresults: {out}; run directories: {runs} (compare them with `scrapy report DIR/* -o OUT`)")


if __name__ == "__main__":
    main()
