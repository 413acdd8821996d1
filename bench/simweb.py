"""simweb benchmark: pages per second served through the proxy, memory, generation and truth.

    python bench/simweb.py --pages 1000000 --clients 8 --requests 30000 --json bench/results/simweb.json

Starts ``scrapy simweb`` (one process, no artificial latency) on a free port and
measures, for a Web of ``--pages`` pages:

* start-up: time to build the host table and to stream the ground truth file;
* serving: ``--clients`` threads, each with one keep-alive HTTP/1.1 connection
  through the proxy, fetch ``--requests`` URLs of random pages (every kind of
  page, binaries and errors included); pages per second, MB/s, latency p50/p99;
* memory: resident set size of the server process after start-up and after
  serving;
* generation: microseconds per page to plan + link + render in-process;
* strategies (``--crawl N``): harvest rate of in-process graph crawls of N pages
  (breadth-first, distance, adaptive with the product's link model) from the default seeds.

Results are printed and written as JSON (``--json``); nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from geofocus.simweb import SimWeb, WebParams  # noqa: E402
from geofocus.simweb.graphcrawl import crawl  # noqa: E402
from geofocus.simweb.render import respond  # noqa: E402


def start_server(pages: int, seed: int, region: str, truth: Path) -> tuple[subprocess.Popen, str, dict]:
    cmd = [sys.executable, "-m", "scrapy", "simweb", "--port", "0", "--pages", str(pages), "--seed", str(seed),
           "--region", region, "--truth", str(truth), "--latency-scale", "0", "--nolog"]
    started = time.time()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    info: dict = {}
    errors: list[str] = []
    threading.Thread(target=lambda: errors.extend(iter(proc.stderr.readline, "")), daemon=True).start()
    for line in proc.stdout:
        if line.startswith("simweb listening on "):
            info["startup_seconds"] = round(time.time() - started, 2)
            for err in errors:
                m = re.search(r"built in ([\d.]+)s", err)
                if m:
                    info["build_seconds"] = float(m.group(1))
                m = re.search(r"truth written .*\(([\d.]+)s\)", err)
                if m:
                    info["truth_seconds"] = float(m.group(1))
            return proc, line.split()[-1], info
    raise SystemExit(f"simweb did not start: {''.join(errors)[-2000:]}")


def client(proxy: str, urls: list[str], out: queue.Queue) -> None:
    split = urlsplit(proxy)
    conn = http.client.HTTPConnection(split.hostname, split.port, timeout=30)
    lat: list[float] = []
    nbytes = 0
    for url in urls:
        t0 = time.perf_counter()
        conn.request("GET", url, headers={"Host": urlsplit(url).netloc})
        resp = conn.getresponse()
        nbytes += len(resp.read())
        lat.append(time.perf_counter() - t0)
    conn.close()
    out.put((lat, nbytes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--region", default="oldenburg")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=30_000)
    parser.add_argument("--crawl", type=int, default=20_000, help="graph-crawl budget (0: skip)")
    parser.add_argument("--json", default="")
    args = parser.parse_args()

    results: dict = {"pages": args.pages, "seed": args.seed, "region": args.region,
                     "clients": args.clients, "requests": args.requests}
    workdir = ROOT / "bench" / "results"
    workdir.mkdir(parents=True, exist_ok=True)
    truth = workdir / f"simweb-truth-{args.pages}.jsonl"

    # In-process: host table, generation cost per page.
    t0 = time.time()
    web = SimWeb(WebParams(pages=args.pages, seed=args.seed, region=args.region))
    results["build_seconds_inprocess"] = round(time.time() - t0, 2)
    results["hosts"] = web.n_hosts
    rng = random.Random(1)
    pids = [rng.randrange(args.pages) for _ in range(args.requests)]
    t0 = time.perf_counter()
    sample = pids[:5000]
    for pid in sample:
        page = web.page(pid)
        respond(web, web.resolve(page.host.name, page.path))
    results["generate_us_per_page"] = round((time.perf_counter() - t0) / len(sample) * 1e6, 1)
    urls = [web.page(pid).url for pid in pids]

    proc, proxy, info = start_server(args.pages, args.seed, args.region, truth)
    results.update(info)
    server = psutil.Process(proc.pid)
    try:
        results["server_rss_mb_after_start"] = round(server.memory_info().rss / 2**20, 1)
        # Warm up the connection path, then measure.
        q: queue.Queue = queue.Queue()
        client(proxy, urls[:200], q)
        q.get()
        chunks = [urls[i::args.clients] for i in range(args.clients)]
        threads = [threading.Thread(target=client, args=(proxy, c, q)) for c in chunks]
        cpu0 = server.cpu_times()
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        cpu1 = server.cpu_times()
        lat: list[float] = []
        nbytes = 0
        while not q.empty():
            part, b = q.get()
            lat.extend(part)
            nbytes += b
        lat.sort()
        server_cpu = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
        results.update({
            "pages_per_second": round(len(lat) / elapsed, 1),
            "pages_per_server_cpu_second": round(len(lat) / server_cpu, 1) if server_cpu else None,
            "mb_per_second": round(nbytes / elapsed / 2**20, 2),
            "avg_page_kb": round(nbytes / len(lat) / 1024, 2),
            "latency_ms_p50": round(statistics.median(lat) * 1000, 2),
            "latency_ms_p99": round(lat[int(len(lat) * 0.99)] * 1000, 2),
            "server_rss_mb_after_serving": round(server.memory_info().rss / 2**20, 1),
        })
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    results["truth_file_mb"] = round(truth.stat().st_size / 2**20, 1)
    truth.unlink()

    if args.crawl:
        seeds = web.seeds()
        for strategy in ("bfs", "distance", "adaptive"):
            t0 = time.time()
            r = crawl(web, seeds, limit=args.crawl, strategy=strategy)
            results[f"graph_{strategy}_harvest_rate"] = round(r.harvest_rate, 4)
            results[f"graph_{strategy}_max_host_share"] = round(r.max_host_share, 4)
            results[f"graph_{strategy}_seconds"] = round(time.time() - t0, 1)
            if strategy == "bfs":
                results["graph_bfs_bridges"] = dict(sorted(r.bridge.items()))

    width = max(len(k) for k in results)
    for key, value in results.items():
        print(f"{key:<{width}}  {value}")
    if args.json:
        out = Path(args.json)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=2))
        print(f"written to {out}")


if __name__ == "__main__":
    os.environ.pop("http_proxy", None)
    main()
