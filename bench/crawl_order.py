"""Same decisions? Crawl one simweb with two source trees and compare what each crawl did.

    python bench/crawl_order.py --tree /tmp/before [--tree DIR2] [--strategies online,adaptive] \
        [--pages 1500] [--web-pages 20000] [--seed 3] [--json OUT]

A check for changes that must not change what a strategy decides (speed work):
each tree (``git archive COMMIT | tar -x -C DIR``; with one ``--tree`` the
other is this tree) crawls the same simweb with each strategy, one request at
a time (``CONCURRENT_REQUESTS=1``, no artificial latency, ``GEOFOCUS_FRONTIER_SEED=1``:
such a crawl is deterministic; two crawls of one tree give the same log).  Then
for each strategy it compares the crawl logs record by record (URL order,
priority, prediction, score: the priorities are those the links were fetched
with, so a different scoring shows as a different order or value) and the
models saved at the end (``model.npz`` arrays of ``online``, ``model.json``
counts of ``adaptive``).  Prints one line per strategy and exits 1 if anything
differs.

One request at a time is not enough on a loaded machine: Scrapy frees the
engine's slot when a download ends, before the page's links are queued, so
whether the next pop sees them is a race (two ``online`` crawls of one tree
parted at page 242 or 482 under load 6-9, session 8).  ``SCRAPER_SLOT_MAX_ACTIVE_SIZE=1``
(the default ``--set``) makes the engine wait until the page's output is
processed before it pops again, and then two crawls of one tree agree.
``--set NAME=VALUE`` (repeatable) gives other settings to every crawl.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


#: Settings of every crawl beside those ``crawl`` sets (``--set`` replaces them).
DEFAULT_SETS = ("SCRAPER_SLOT_MAX_ACTIVE_SIZE=1",)


def crawl(tree: Path, strategy: str, run_dir: Path, seeds: Path, proxy: str, pages: int,
          extra: dict[str, str] | None = None) -> None:
    env = dict(os.environ, http_proxy=proxy, PYTHONPATH=str(tree))
    env.pop("https_proxy", None)
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    command = [sys.executable, "-m", "scrapy.cmdline", "crawl", "geo", "-a", "region=oldenburg",
               "-a", f"seeds={seeds}", "-a", f"strategy={strategy}"]
    for name, value in {
        "GEOFOCUS_RUN_DIR": run_dir, "GEOFOCUS_ALLOW_PRIVATE": True, "LOG_LEVEL": "INFO",
        "AUTOTHROTTLE_ENABLED": False, "DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS": 1,
        "GEOFOCUS_MAX_PAGES": pages, "GEOFOCUS_FRONTIER_SEED": 1, "TELNETCONSOLE_ENABLED": False,
        **(extra or {}),
    }.items():
        command += ["-s", f"{name}={value}"]
    result = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"crawl {strategy} of {tree} failed:\n{result.stderr[-3000:]}")


def log(run_dir: Path) -> list[dict]:
    lines = (run_dir / "crawl.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def compare(a: Path, b: Path) -> dict:
    la, lb = log(a), log(b)
    same = 0
    for x, y in zip(la, lb, strict=False):
        if x["url"] != y["url"]:
            break
        same += 1
    values = 0
    for x, y in zip(la[:same], lb[:same], strict=True):
        values += any(x.get(k) != y.get(k) for k in ("priority", "prediction", "score"))
    out = {"pages": [len(la), len(lb)], "same_order": same, "records_with_other_values": values}
    if (a / "model.npz").exists():
        import numpy as np

        with np.load(a / "model.npz") as ma, np.load(b / "model.npz") as mb:
            out["same_model"] = ma.files == mb.files and all(np.array_equal(ma[k], mb[k]) for k in ma.files)
    elif (a / "model.json").exists():
        out["same_model"] = json.loads((a / "model.json").read_text()) == json.loads((b / "model.json").read_text())
    out["same"] = (same == len(la) == len(lb) and not values and out.get("same_model", True))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", required=True, help="a source tree (twice: compare two)")
    parser.add_argument("--strategies", default="online,adaptive")
    parser.add_argument("--pages", type=int, default=1500)
    parser.add_argument("--web-pages", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", default="")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE",
                        help=f"a setting of every crawl (default: {' '.join(DEFAULT_SETS)})")
    args = parser.parse_args()
    extra = {}
    for item in args.set if args.set is not None else DEFAULT_SETS:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set {item!r}: NAME=VALUE")
        extra[name] = value
    if len(args.tree) > 2:
        raise SystemExit("--tree: one or two")
    trees = [Path(t).resolve() for t in args.tree] + ([ROOT] if len(args.tree) == 1 else [])

    from simweb_server import running_simweb

    results = {}
    with tempfile.TemporaryDirectory(prefix="geofocus-order-") as tmp:
        work = Path(tmp)
        with running_simweb(work / "simweb", pages=args.web_pages, seed=args.seed, timeout=600) as sw:
            for strategy in args.strategies.split(","):
                dirs = [work / f"{strategy}-{i}" for i in range(2)]
                for tree, run_dir in zip(trees, dirs, strict=True):
                    crawl(tree, strategy, run_dir, sw.seeds_file, sw.proxy_url, args.pages, extra)
                results[strategy] = compare(*dirs)
                print(f"{strategy}: {results[strategy]}", flush=True)
    summary = {"trees": [str(t) for t in trees], "pages": args.pages, "web_pages": args.web_pages,
               "seed": args.seed, "settings": extra, "strategies": results}
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(summary, indent=2))
    if not all(r["same"] for r in results.values()):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
