"""Crawl speed: geofocus against a plain Scrapy link-following spider on one simweb.

    python bench/speed.py [--pages 5000] [--web-pages 100000] [--seed 21] \
        [--crawlers plain,bfs,distance,adaptive] [--json bench/results/speed.json] [--profile DIR]

A crawler ``STRATEGY@DIR`` runs geofocus from another source tree (``git
archive COMMIT | tar -x -C DIR``), so a before/after comparison shares one
run, one simweb and one machine load.  ``+NAME=VALUE`` after a crawler sets a
Scrapy setting of that crawl only (``bfs+GEOFOCUS_LIVE_REPORT=False``).

Starts one ``scrapy simweb`` (no artificial latency) and crawls it, one crawl
after the other, with

- ``plain``: a plain Scrapy spider (Scrapy's defaults plus the same
  concurrency, retry and timeout settings as geofocus, robots.txt obeyed,
  breadth-first: ``DEPTH_PRIORITY=1`` with FIFO queues) that follows every
  link Scrapy's ``LinkExtractor`` finds, and
- ``scrapy crawl geo -a strategy=bfs|distance|adaptive|online``,

each until ``--pages`` HTML pages were parsed.  A page is a 2xx text/html
response that reaches the spider (robots.txt, redirects, errors and binaries
are not pages, for either crawler).  For each crawl it prints pages, HTML
pages parsed per wall second (process start included) and CPU milliseconds
per page (user + system time of the crawl process, from ``wait4``'s rusage:
steadier than wall time on a shared machine), and the ratios to ``plain`` and
to ``bfs``.  ``--profile DIR`` runs each crawl under cProfile and writes
``DIR/<crawler>.prof`` with the CPU time of the crawl's main thread as the clock (the
geoparser's threads are not in it; profiling slows the crawls: use it for where, not how fast).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

#: Settings both crawlers share (the values of geofocus/settings.py).
SHARED_SETTINGS = {
    "ROBOTSTXT_OBEY": True,
    "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
    "DOWNLOAD_DELAY": 0,
    # Scrapy's default; geofocus turns AutoThrottle on for the live Web (1 s start delay per new host),
    # which on the offline web would measure politeness, not speed.
    "AUTOTHROTTLE_ENABLED": False,
    "DOWNLOAD_TIMEOUT": 30,
    "RETRY_TIMES": 1,
    "COOKIES_ENABLED": False,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "INFO",
}


# -- the plain spider (run in a child process: ``speed.py --plain-child OUT``) ----------
def run_plain_child(out: str, seeds_file: str, pages: int) -> None:
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.exceptions import CloseSpider
    from scrapy.http import TextResponse
    from scrapy.linkextractors import LinkExtractor

    class PlainSpider(scrapy.Spider):
        name = "plain"
        parsed = 0

        async def start(self):
            for line in Path(seeds_file).read_text().splitlines():
                if line.strip():
                    yield scrapy.Request(line.strip(), callback=self.parse)

        def parse(self, response):
            if not isinstance(response, TextResponse) or b"html" not in (response.headers.get("Content-Type") or b""):
                return
            self.parsed += 1
            if self.parsed == pages:
                raise CloseSpider("pages")
            if self.parsed > pages:
                return
            for link in self.extractor.extract_links(response):
                yield scrapy.Request(link.url, callback=self.parse)

    PlainSpider.extractor = LinkExtractor()
    settings = dict(
        SHARED_SETTINGS,
        DEPTH_PRIORITY=1,
        SCHEDULER_DISK_QUEUE="scrapy.squeues.PickleFifoDiskQueue",
        SCHEDULER_MEMORY_QUEUE="scrapy.squeues.FifoMemoryQueue",
    )
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(PlainSpider)
    process.crawl(crawler)
    process.start()
    Path(out).write_text(json.dumps({"pages": crawler.spider.parsed}))


# -- the parent -----------------------------------------------------------------------
def run_crawl(label: str, command: list[str], env: dict, log: Path, cwd: Path = ROOT) -> dict:
    started = time.perf_counter()
    with log.open("w") as log_file:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log_file, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"crawl {label} failed (exit status {status}); see {log}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "maxrss_mb": usage.ru_maxrss / 1024}


def crawl_plain(args: argparse.Namespace, seeds: Path, env: dict, work: Path) -> dict:
    out = work / "plain.json"
    command = [sys.executable, *profiler(args, "plain"), __file__, "--plain-child", str(out),
               "--seeds", str(seeds), "--pages", str(args.pages)]
    figures = run_crawl("plain", command, env, work / "plain.log")
    figures["pages"] = json.loads(out.read_text())["pages"]
    return figures


def crawl_geo(label: str, args: argparse.Namespace, seeds: Path, env: dict, work: Path) -> dict:
    # "bfs" runs this tree; "bfs@DIR" runs the source tree DIR (e.g. an older commit, for before/after);
    # "+NAME=VALUE" after either adds a setting of that crawl ("bfs+GEOFOCUS_LIVE_REPORT=False")
    spec, *extra = label.split("+")
    strategy, _, tree = spec.partition("@")
    tree_root = Path(tree).resolve() if tree else ROOT
    env = dict(env, PYTHONPATH=str(tree_root))
    label = label.replace("/", "_")
    run_dir = work / label
    settings = dict(SHARED_SETTINGS, GEOFOCUS_RUN_DIR=run_dir, GEOFOCUS_ALLOW_PRIVATE=True,
                    GEOFOCUS_MAX_PAGES=args.pages, GEOFOCUS_FRONTIER_SEED=1)
    for setting in extra:
        name, sep, value = setting.partition("=")
        if not sep:
            raise SystemExit(f"crawler {label!r}: a setting after '+' is NAME=VALUE, not {setting!r}")
        settings[name] = value
    command = [sys.executable, *profiler(args, label), "-m", "scrapy.cmdline", "crawl", "geo",
               "-a", "region=oldenburg", "-a", f"seeds={seeds}", "-a", f"strategy={strategy}"]
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    figures = run_crawl(label, command, env, work / f"{label}.log", cwd=tree_root)
    stats = json.loads((run_dir / "stats.json").read_text())
    figures["pages"] = int(stats["stats"]["geofocus/fetched"] if "stats" in stats else stats["geofocus/fetched"])
    return figures


# cProfile with the CPU time of the profiled thread as its clock (``python -c PROFILE OUT ARGV...``):
# with wall time, a call that releases the GIL (a numpy gather) is charged with the time the
# geoparser's threads then hold it, up to the 5 ms switch interval each time.
PROFILE = """
import cProfile, runpy, sys, time
out, sys.argv = sys.argv[1], sys.argv[2:]
profile = cProfile.Profile(time.thread_time)
profile.enable()
try:
    if sys.argv[0] == "-m":
        del sys.argv[0]
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    else:
        runpy.run_path(sys.argv[0], run_name="__main__")
finally:
    profile.disable()
    profile.dump_stats(out)
"""


def profiler(args: argparse.Namespace, label: str) -> list[str]:
    if not args.profile:
        return []
    Path(args.profile).mkdir(parents=True, exist_ok=True)
    return ["-c", PROFILE, str(Path(args.profile).resolve() / f"{label}.prof")]


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=5000, help="HTML pages per crawl")
    parser.add_argument("--web-pages", type=int, default=100_000, help="size of the simweb")
    parser.add_argument("--seed", type=int, default=21, help="simweb seed")
    parser.add_argument("--crawlers", default="plain,bfs,distance,adaptive")
    parser.add_argument("--json", default="")
    parser.add_argument("--profile", default="", help="write cProfile output per crawler to this directory")
    parser.add_argument("--plain-child", default="", help=argparse.SUPPRESS)
    parser.add_argument("--seeds", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plain_child:
        run_plain_child(args.plain_child, args.seeds, args.pages)
        return

    from simweb_server import running_simweb

    crawlers = [c for c in args.crawlers.split(",") if c]
    if len(set(crawlers)) != len(crawlers):
        # a second crawl under the same label would resume the first one's finished run directory
        raise SystemExit(f"--crawlers names a crawler twice: {args.crawlers}")
    results: dict[str, dict] = {}
    load_before = load()
    with tempfile.TemporaryDirectory(prefix="geofocus-speed-") as tmp:
        work = Path(tmp)
        with running_simweb(work / "simweb", pages=args.web_pages, seed=args.seed, timeout=600) as sw:
            env = dict(os.environ, http_proxy=sw.proxy_url, PYTHONPATH=str(ROOT))
            env.pop("https_proxy", None)
            env.pop("SCRAPY_SETTINGS_MODULE", None)
            for crawler in crawlers:
                if crawler == "plain":
                    figures = crawl_plain(args, sw.seeds_file, {k: v for k, v in env.items()}, work)
                else:
                    figures = crawl_geo(crawler, args, sw.seeds_file, env, work)
                pages = max(figures["pages"], 1)
                figures["pages_per_s"] = round(figures["pages"] / figures["wall_s"], 1)
                figures["cpu_ms_per_page"] = round(1000 * figures["cpu_s"] / pages, 2)
                figures = {k: round(v, 2) if isinstance(v, float) else v for k, v in figures.items()}
                results[crawler] = figures
                print(f"  {crawler}: {figures}", flush=True)
    summary = {
        "pages": args.pages, "web_pages": args.web_pages, "seed": args.seed,
        "load_before": load_before, "load_after": load(), "crawlers": results, "ratios": {},
    }
    print(f"\nload average before/after: {load_before} / {summary['load_after']}")
    print(f"{'crawler':<10} {'pages':>6} {'pages/s':>8} {'CPU ms/page':>12} {'vs plain':>18} {'vs bfs':>18}"
          f" {'vs distance':>18}")
    for name, r in results.items():
        ratios = {}
        for base in ("plain", "bfs", "distance"):
            if base in results and base != name:
                b = results[base]
                ratios[f"vs_{base}"] = {
                    "pages_per_s": round(r["pages_per_s"] / b["pages_per_s"], 2),
                    # > 1: fewer CPU ms per page than the base (faster)
                    "cpu_per_page": round(b["cpu_ms_per_page"] / r["cpu_ms_per_page"], 2),
                }
        summary["ratios"][name] = ratios

        def show(key: str, ratios: dict = ratios) -> str:
            x = ratios.get(key)
            return f"{x['pages_per_s']:.2f}x / {x['cpu_per_page']:.2f}x" if x else "-"

        print(f"{name:<10} {r['pages']:>6} {r['pages_per_s']:>8} {r['cpu_ms_per_page']:>12} "
              f"{show('vs_plain'):>18} {show('vs_bfs'):>18} {show('vs_distance'):>18}")
    print("(ratios: pages/s, then CPU per page as base / this: above 1 is faster)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
