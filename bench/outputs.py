"""Outputs benchmark: crawl speed with PostGIS + WARC on against off, in one run.

    python bench/outputs.py [--pages 20000] [--budget 1500] [--repeats 2] [--json bench/results/outputs.json]

Starts a simweb (oldenburg, no artificial latency, so the crawl is CPU-bound and
any cost of the outputs shows) and a private PostgreSQL + PostGIS cluster
(tests/pgutil.py), then runs `scrapy crawl geo` with a page budget, alternating
outputs off / on (GEOFOCUS_POSTGIS_DSN set and GEOFOCUS_WARC=all) --repeats
times.  For each crawl: pages/s over the crawl log's fetch times, and the crawl
process's CPU seconds per 1,000 pages (getrusage of the child); the database
server's own CPU is not counted.  Checks that the rows written equal the crawl
log.  Then, without a crawl: rows/s of the store (batches of 200) and the CPU
time of one page's WARC records (built on the WARC writer thread).  Prints a table
and writes JSON.  Results are measurements, not assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from pgutil import PostgresCluster, query  # noqa: E402
from simweb_server import running_simweb  # noqa: E402


def crawl(seeds: Path, proxy: str, run_dir: Path, budget: int, dsn: str | None) -> dict:
    args = [sys.executable, "-m", "scrapy.cmdline", "crawl", "geo", "-a", "region=oldenburg",
            "-a", f"seeds={seeds}", "-a", "strategy=distance", "-s", f"GEOFOCUS_RUN_DIR={run_dir}",
            "-s", "GEOFOCUS_ALLOW_PRIVATE=True", "-s", "LOG_LEVEL=WARNING", "-s", f"GEOFOCUS_MAX_PAGES={budget}",
            "-s", "GEOFOCUS_FRONTIER_SEED=1"]
    if dsn:
        args += ["-s", f"GEOFOCUS_POSTGIS_DSN={dsn}", "-s", "GEOFOCUS_WARC=all"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "http_proxy": proxy})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"crawl failed: {proc.stderr[-2000:]}")
    rows = [json.loads(line) for line in (run_dir / "crawl.jsonl").read_text().splitlines()]
    times = [r["time"] for r in rows]
    span = max(times) - min(times)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result = {"outputs": "on" if dsn else "off", "pages": len(rows), "seconds": round(span, 2),
              "pages_per_s": round(len(rows) / span, 1), "process_seconds": round(wall, 2),
              "cpu_s_per_1000_pages": round(1000 * cpu / len(rows), 2)}
    if dsn:
        written = query(dsn, "SELECT count(*) FROM pages")[0][0]
        warc_bytes = sum(p.stat().st_size for p in (run_dir / "warc").glob("*.warc.gz"))
        result.update(rows_written=written, rows_equal_log=written == len({r["url"] for r in rows}),
                      warc_mb=round(warc_bytes / 1e6, 2))
    return result


def micro(dsn: str, n: int = 5000) -> dict:
    """Per-page costs without a crawl: rows/s of the store, and the WARC records' CPU on the reactor thread."""
    import psycopg
    from scrapy.http import HtmlResponse, Request

    from geofocus.extensions.warc import WarcWriter
    from geofocus.postgis.schema import ensure_schema
    from geofocus.postgis.store import write_records

    address = {"street": "Schloßplatz", "house_number": "1", "postcode": "26122", "city": "Oldenburg",
               "country": "DE", "lat": 53.1386, "lon": 8.2146, "precision": "street"}
    records = [{"url": f"http://h{i % 97}.example/p{i}", "status": 200, "relevant": i % 5 == 0, "priority": 0.5,
                "score": 0.5, "prediction": 0.1, "dist": 1, "seed_dist": 2, "depth": 2, "parent": "http://x/",
                "time": time.time(), "addresses": [address] if i % 5 == 0 else []} for i in range(n)]
    with psycopg.connect(dsn) as conn:
        ensure_schema(conn)
        cpu0, t0 = time.process_time(), time.perf_counter()
        for start in range(0, n, 200):
            write_records(conn, records[start:start + 200], "bench", "oldenburg")
        store = {"rows": n, "rows_per_s": round(n / (time.perf_counter() - t0)),
                 "client_cpu_us_per_row": round(1e6 * (time.process_time() - cpu0) / n, 1)}
    body = (("<p>" + "Oldenburg Schloßplatz 1 26122 " * 20 + "</p>\n") * 30).encode()  # ~20 KB
    request = Request("http://h1.example/kontakt", headers={"User-Agent": "geofocus"})
    response = HtmlResponse(request.url, body=body, request=request, headers={"Content-Type": "text/html"})
    writer = WarcWriter.__new__(WarcWriter)
    cpu0 = time.process_time()
    pages = 500
    for _ in range(pages):
        writer.records(response, True, [address])
    warc = {"page_bytes": len(body),
            "cpu_us_per_page": round(1e6 * (time.process_time() - cpu0) / pages)}
    return {"store": store, "warc_records": warc}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=20000, help="pages of the simweb")
    ap.add_argument("--budget", type=int, default=1500, help="pages per crawl")
    ap.add_argument("--repeats", type=int, default=2, help="off/on pairs")
    ap.add_argument("--json", default=str(ROOT / "bench" / "results" / "outputs.json"))
    args = ap.parse_args()
    cluster = PostgresCluster().start()
    runs = []
    try:
        with tempfile.TemporaryDirectory() as tmp, running_simweb(Path(tmp) / "web", pages=args.pages) as sw:
            for i in range(args.repeats):
                for on in (False, True):
                    dsn = cluster.new_database("bench") if on else None
                    run = crawl(sw.seeds_file, sw.proxy_url, Path(tmp) / f"run-{i}-{on}", args.budget, dsn)
                    runs.append(run)
                    print(f"outputs {run['outputs']:3}: {run['pages']} pages in {run['seconds']} s = "
                          f"{run['pages_per_s']} pages/s, {run['cpu_s_per_1000_pages']} CPU s / 1000 pages"
                          + (f", {run['rows_written']} rows (equal to the log: {run['rows_equal_log']}), "
                             f"{run['warc_mb']} MB WARC" if on else ""), flush=True)
        micro_figures = micro(cluster.new_database("micro"))
        print(f"store: {micro_figures['store']['rows_per_s']} rows/s written in batches of 200 "
              f"({micro_figures['store']['client_cpu_us_per_row']} us client CPU per row, on the writer thread); "
              f"WARC records of a {micro_figures['warc_records']['page_bytes']} B page: "
              f"{micro_figures['warc_records']['cpu_us_per_page']} us CPU (on the WARC writer thread)")
    finally:
        cluster.cleanup()

    def median(key: str, outputs: str) -> float:
        return statistics.median(r[key] for r in runs if r["outputs"] == outputs)

    summary = {
        "pages_per_s_off": median("pages_per_s", "off"), "pages_per_s_on": median("pages_per_s", "on"),
        "cpu_per_1000_off": median("cpu_s_per_1000_pages", "off"),
        "cpu_per_1000_on": median("cpu_s_per_1000_pages", "on"),
    }
    summary["speed_ratio_on_off"] = round(summary["pages_per_s_on"] / summary["pages_per_s_off"], 3)
    summary["cpu_ratio_on_off"] = round(summary["cpu_per_1000_on"] / summary["cpu_per_1000_off"], 3)
    print(f"\nmedian pages/s: off {summary['pages_per_s_off']}, on {summary['pages_per_s_on']} "
          f"(on/off {summary['speed_ratio_on_off']}); CPU s per 1000 pages: off {summary['cpu_per_1000_off']}, "
          f"on {summary['cpu_per_1000_on']} (on/off {summary['cpu_ratio_on_off']})")
    result = {"web": f"simweb oldenburg {args.pages} pages, latency 0", "budget": args.budget,
              "machine": f"{os.cpu_count()} cores, shared", "date": time.strftime("%Y-%m-%d"),
              "runs": runs, "summary": summary, "micro": micro_figures}
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=2))
    print(f"written {args.json}")


if __name__ == "__main__":
    main()
