"""Scale-out benchmark: Redis frontier ops/s, crawl pages/s with 1 and 2 workers, partition policies.

    python bench/scale.py [--pages 1500] [--delay 0] [--ops 20000] [--region-pack PATH] [--out bench/results/scale.json]

1. Frontier operations per second (push, pop+done) of the Redis frontier
   (a real redis-server started here) next to the embedded SQLite frontier.
2. Pages per second of `scrapy crawl geo` against a local static site
   (no delay: CPU-bound) with 1 worker, then 2 workers sharing one Redis crawl.
3. The collaborative policies of Gao et al. (2006) simulated on a synthetic
   web of US city sites (region: --region-pack, e.g. us-top100.json, or a
   built-in 10-city set): each node crawls breadth-first with its own
   seen-set under a page budget, links routed by policy A; prints
   geo-coverage, geo-focus, overlap (N-I)/N, diversity S/N and communication
   overhead (URLs sent to other nodes per downloaded page), as in the
   paper's Tables 3, 4, 7 and 9.

Prints a table and writes JSON.  Results are measurements, not assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from geofocus.frontier import FrontierEntry, SqliteFrontier  # noqa: E402
from geofocus.partition import (  # noqa: E402
    Gazetteer, GeoIPTable, Link, Page, Partitioner, plan_for_region,
)
from geofocus.redis.frontier import RedisFrontier  # noqa: E402
from geofocus.regions.pack import region_from_dict  # noqa: E402
from redisutil import RedisServer  # noqa: E402
from tinysite import TinySite  # noqa: E402


# -- 1. frontier operations ----------------------------------------------------------
def frontier_ops(frontier, n: int) -> dict[str, float]:
    frontier.open()
    rnd = random.Random(1)
    t0 = time.perf_counter()
    for i in range(n):
        url = f"http://h{i % 500}.example.com/p{i}"
        frontier.push(FrontierEntry(f"{i:040x}", rnd.random(), f"h{i % 500}", {"url": url, "meta": {}}))
    if hasattr(frontier, "sync"):
        frontier.sync(60)
    else:
        frontier.flush()
    t1 = time.perf_counter()
    popped = 0
    while True:
        e = frontier.pop()
        if e is None:
            if hasattr(frontier, "sync") and len(frontier):
                frontier.sync(60)
                continue
            break
        frontier.done(e.fingerprint)
        popped += 1
    if hasattr(frontier, "sync"):
        frontier.sync(60)
    else:
        frontier.flush()
    t2 = time.perf_counter()
    frontier.close()
    return {"push_per_s": round(n / (t1 - t0)), "pop_done_per_s": round(popped / (t2 - t1)),
            "popped": popped}


def seen_memory(server: RedisServer, n: int) -> dict[str, float]:
    """Redis memory per fetched fingerprint in the sharded seen-set."""
    client = server.client()
    f = RedisFrontier(client, f"mem-{os.getpid()}", flush_interval=0.2, push_buffer=5000)
    f.open()
    before = client.info("memory")["used_memory"]
    for i in range(n):
        f.done(f"{i:x}")
        if i % 50000 == 0:
            f.sync(60)
    f.sync(60)
    after = client.info("memory")["used_memory"]
    f.close()
    return {"fingerprints": n, "bytes_each": round((after - before) / n, 1)}


# -- 2. crawl throughput -------------------------------------------------------------
def crawl(site: TinySite, workdir: Path, workers: int, redis_url: str | None) -> dict[str, float]:
    procs = []
    workdir = workdir / f"{'redis' if redis_url else 'sqlite'}-{workers}"
    crawl_id = f"bench-{os.getpid()}-{workers}-{time.time_ns()}"
    for w in range(workers):
        args = [sys.executable, "-m", "scrapy.cmdline", "crawl", "geo", "-a", "region=oldenburg",
                "-a", f"seeds={site.url(0)}", "-s", "GEOFOCUS_ALLOW_PRIVATE=1", "-s", "ROBOTSTXT_OBEY=0",
                "-s", f"GEOFOCUS_RUN_DIR={workdir}/w{workers}-{w}", "-s", "LOG_LEVEL=WARNING",
                "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=8"]
        if redis_url:
            args += ["-s", f"GEOFOCUS_REDIS_URL={redis_url}", "-s", f"GEOFOCUS_CRAWL_ID={crawl_id}",
                     "-s", "GEOFOCUS_REDIS_IDLE_TIMEOUT=3"]
        procs.append(subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)}))
    for p in procs:
        p.wait()
    times, urls = [], []
    for w in range(workers):
        log = workdir / f"w{workers}-{w}" / "crawl.jsonl"
        for line in log.read_text().splitlines() if log.exists() else []:
            row = json.loads(line)
            times.append(row["time"])
            urls.append(row["url"])
    span = max(times) - min(times) if len(times) > 1 else float("nan")
    return {"workers": workers, "pages": len(urls), "unique": len(set(urls)),
            "seconds": round(span, 2), "pages_per_s": round(len(urls) / span, 1)}


# -- 3. collaborative policies -------------------------------------------------------
MINI_US = {
    "name": "us-mini", "country": "US", "languages": ["en"], "tlds": ["com"],
    "cities": [
        {"name": "New York", "state": "NY", "population": 8336817, "timezone": "Eastern"},
        {"name": "Boston", "state": "MA", "population": 675647, "timezone": "Eastern"},
        {"name": "Chicago", "state": "IL", "population": 2746388, "timezone": "Central"},
        {"name": "Houston", "state": "TX", "population": 2304580, "timezone": "Central"},
        {"name": "Denver", "state": "CO", "population": 715522, "timezone": "Mountain"},
        {"name": "Glendale", "state": "AZ", "population": 248325, "timezone": "Mountain"},
        {"name": "Los Angeles", "state": "CA", "population": 3820914, "timezone": "Pacific",
         "aliases": ["LA", "L.A."]},
        {"name": "Glendale", "state": "CA", "population": 196543, "timezone": "Pacific"},
        {"name": "Seattle", "state": "WA", "population": 737015, "timezone": "Pacific"},
        {"name": "Honolulu", "state": "HI", "population": 350964, "timezone": "Hawaii"},
    ],
}
WORDS = ("shop service team news about contact menu hours local family open great best".split())


def synthetic_web(region, hosts: int = 400, pages_per_host: int = 8, seed: int = 1):
    """Pages {url: (text, addresses, links[(url, anchor, context)], ip)} and a GeoIP table."""
    rnd = random.Random(seed)
    cities = list(region.cities)
    host_city, pages = {}, {}
    for h in range(hosts):
        city = rnd.choice(cities) if rnd.random() < 0.6 else None
        slug = city.name.lower().replace(" ", "-") if city and rnd.random() < 0.3 else "site"
        host_city[f"www.{slug}-{h}.com"] = city
    by_city: dict = {}
    for host, city in host_city.items():
        by_city.setdefault(city, []).append(host)
    all_hosts = list(host_city)
    ips = {host: f"10.{i // 250}.{i % 250}.1" for i, host in enumerate(all_hosts)}
    geoip = []
    for host, city in host_city.items():
        # hosting is not where the business is: 70 % of geo hosts are located right
        located = city if city and rnd.random() < 0.7 else rnd.choice(cities)
        geoip.append(f"{ips[host]}/32,{located.name},{located.state}")
    for host, city in host_city.items():
        for i in range(pages_per_host):
            url = f"http://{host}/p{i}"
            words = " ".join(rnd.choice(WORDS) for _ in range(30))
            addresses = []
            if city is not None:
                mention = rnd.choice([city.name, *city.aliases]) if city.aliases else city.name
                words += f" Visit us in {mention}."
                if rnd.random() < 0.4:
                    addresses.append({"city": city.name, "state": city.state})
                    words += f" {rnd.randint(1, 999)} Main St, {city.name}, {city.state}"
            links = []
            for _ in range(6):
                r = rnd.random()
                if r < 0.6:
                    target_host = host
                elif r < 0.85 and city is not None:
                    target_host = rnd.choice(by_city[city])
                else:
                    target_host = rnd.choice(all_hosts)
                target = f"http://{target_host}/p{rnd.randrange(pages_per_host)}"
                tcity = host_city[target_host]
                anchor = rnd.choice(WORDS)
                context = f"{anchor} in {tcity.name}" if tcity and rnd.random() < 0.5 else anchor
                links.append((target, anchor, context))
            pages[url] = (words, addresses, links, ips[host])
    return pages, host_city, geoip


def simulate(policy: str, region, pages, host_city, geoip_path: str, budget: int) -> dict[str, float]:
    plan = plan_for_region(region)
    gaz = Gazetteer(region)
    part = Partitioner(policy, plan, gaz, GeoIPTable(geoip_path) if policy == "ip" else None)
    queues = {n: deque() for n in plan.nodes}
    seen = {n: set() for n in plan.nodes}
    seeds = sorted(pages)[:: max(1, len(pages) // 20)]
    for url in seeds:
        queues[plan.general].append(url)
    fetched: list[tuple[str, str]] = []
    sent = 0
    per_node = budget // len(plan.nodes)
    counts = Counter()
    while any(queues.values()):
        progressed = False
        for node, q in queues.items():
            while q and counts[node] < per_node:
                url = q.popleft()
                if url in seen[node] or url not in pages:
                    continue
                seen[node].add(url)
                counts[node] += 1
                fetched.append((node, url))
                text, addresses, links, ip = pages[url]
                page = Page(url, text, ip, addresses)
                targets = part.assign(page, [Link(u, a, c) for u, a, c in links])
                for (u, _, _), target in zip(links, targets):
                    if target != node:
                        sent += 1
                    queues[target].append(u)
                progressed = True
                break
        if not progressed:
            break
    n = len(fetched)
    unique = len({u for _, u in fetched})
    geo = sum(1 for _, u in fetched if pages[u][1])
    focused = sum(1 for node, u in fetched if any(
        plan.node_of(gaz.resolve(a["city"], a["state"])) == node for a in pages[u][1]))
    hosts = len({u.split("/")[2] for _, u in fetched})
    return {"policy": policy, "pages": n, "geo_coverage": round(geo / n, 3),
            "geo_focus": round(focused / max(geo, 1), 3), "overlap": round((n - unique) / n, 3),
            "diversity": round(hosts / n, 3), "comm_overhead": round(sent / n, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=1500)
    ap.add_argument("--ops", type=int, default=20000)
    ap.add_argument("--budget", type=int, default=2400)
    ap.add_argument("--seen", type=int, default=500_000, help="fingerprints for the seen-set memory figure")
    ap.add_argument("--delay", type=float, default=0.0,
                    help="seconds the site takes per page (0: CPU-bound; 0.2: latency-bound like the Web)")
    ap.add_argument("--region-pack", default="")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "scale.json"))
    args = ap.parse_args()
    results: dict = {}
    server = RedisServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tmp_path = Path(tmp)
            results["frontier_ops"] = {
                "redis": frontier_ops(RedisFrontier(server.client(), f"bench-{os.getpid()}", batch=256,
                                                    max_held=1024, slot_cap=64, pop_wait=1.0), args.ops),
                "sqlite": frontier_ops(SqliteFrontier(tmp_path / "f.sqlite"), args.ops),
            }
            print("frontier ops/s:", json.dumps(results["frontier_ops"]))
            results["seen_memory"] = seen_memory(server, args.seen)
            print("seen-set memory:", json.dumps(results["seen_memory"]))
            site = TinySite(tmp_path / "www", pages=args.pages, delay=args.delay, per_host=True)
            try:
                runs = [crawl(site, tmp_path, 1, None), crawl(site, tmp_path, 1, server.url),
                        crawl(site, tmp_path, 2, server.url)]
            finally:
                site.stop()
            runs[0]["frontier"], runs[1]["frontier"], runs[2]["frontier"] = "sqlite", "redis", "redis"
            results["crawl"] = {"delay": args.delay, "runs": runs}
            for r in runs:
                print(f"crawl: {r['workers']} worker(s), {r['frontier']:6}: {r['pages']} pages "
                      f"({r['unique']} unique) in {r['seconds']} s = {r['pages_per_s']} pages/s")
            print(f"2 workers / 1 worker (redis): {runs[2]['pages_per_s'] / runs[1]['pages_per_s']:.2f}x")

            data = json.loads(Path(args.region_pack).read_text()) if args.region_pack else MINI_US
            region = region_from_dict(data)
            pages, host_city, geoip_rows = synthetic_web(region)
            geoip_path = tmp_path / "geoip.csv"
            geoip_path.write_text("\n".join(geoip_rows))
            table = [simulate(p, region, pages, host_city, str(geoip_path), args.budget)
                     for p in ("hash", "host", "url", "anchor", "content", "classification", "ip")]
            results["policies"] = {"region": region.name, "pages_in_web": len(pages), "rows": table}
            print(f"\ncollaborative policies on a synthetic web of {len(pages)} pages "
                  f"(region {region.name}, nodes {', '.join(plan_for_region(region).nodes)}):")
            cols = ["policy", "pages", "geo_coverage", "geo_focus", "overlap", "diversity", "comm_overhead"]
            print("  ".join(f"{c:>14}" for c in cols))
            for row in table:
                print("  ".join(f"{row[c]!s:>14}" for c in cols))
    finally:
        server.cleanup()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2))
    print(f"\nwritten {args.out}")


if __name__ == "__main__":
    main()
