"""Scale-out benchmark: Redis frontier ops/s, crawl pages/s with 1 and 2 workers, partition policies.

    python bench/scale.py [--pages 20000] [--seconds 25] [--latency 0] [--policy-pages 20000]
                          [--budget 6000] [--out bench/results/scale.json]

1. Frontier operations per second (push, pop+done) of the Redis frontier
   (a real redis-server started here) next to the embedded SQLite frontier,
   and Redis memory per fetched fingerprint in the seen-set.
2. Pages per second of `scrapy crawl geo` on simweb (oldenburg, through its
   proxy) for --seconds (--runs): 1 worker (SQLite), 1 worker (Redis), 2 workers
   sharing one Redis crawl, 2 workers partitioned by host, 2 separate SQLite
   crawls at once (the machine's ceiling for two processes); all with the same
   --strategy.  Steady-state pages/s and CPU per page, and the cores used by
   every worker, simweb's server and redis-server, from /proc.  Slow hosts as
   real ones (every host 0.2-2 s, so that a worker is bound by its
   CONCURRENT_REQUESTS, not by CPU): --slow-hosts 1 --slow-ms 200,2000
   --very-slow 0 --latency 1.
3. The collaborative policies of Gao et al. (2006) on a us-top100 simweb
   (in-process, pages rendered as served): each node crawls breadth-first
   with its own seen-set under a page budget, links routed by the policy
   (policy A for the page-level ones); prints geo-coverage, geo-focus,
   overlap (N-I)/N, diversity S/N and communication overhead (URLs sent to
   other nodes per downloaded page), as in the paper's Tables 3, 4, 7 and 9.
   The ip policy uses a GeoIP table that places 70 % of the region's hosts
   right (simweb serves everything from one proxy address).

Prints tables and writes JSON.  Results are measurements, not assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from redisutil import RedisServer  # noqa: E402

from geofocus.frontier import FrontierEntry, SqliteFrontier  # noqa: E402
from geofocus.partition import (  # noqa: E402
    CityMentions,
    GeoIPTable,
    Link,
    Page,
    Partitioner,
    plan_for_region,
)
from geofocus.redis.frontier import RedisFrontier  # noqa: E402


# -- 1. frontier operations ----------------------------------------------------------
def frontier_ops(frontier, n: int) -> dict[str, float]:
    frontier.open()
    rnd = random.Random(1)
    c0 = time.process_time()
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
    c2 = time.process_time()
    frontier.close()
    # this process's CPU (both threads of the Redis frontier) per operation (a push, or a pop + done)
    return {"push_per_s": round(n / (t1 - t0)), "pop_done_per_s": round(popped / (t2 - t1)),
            "push_pop_per_s": round((n + popped) / (t2 - t0)), "popped": popped,
            "cpu_us_per_op": round(1e6 * (c2 - c0) / (n + popped), 1)}


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
def _cpu_seconds(pid: int) -> float | None:
    """user + system CPU seconds of process ``pid`` so far (None once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _child_pids(name: str) -> list[int]:
    """This process's children whose command line contains ``name`` (simweb's server)."""
    out = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            pids = (task / "children").read_text().split()
        except OSError:
            continue
        for pid in pids:
            try:
                if name in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
                    out.append(int(pid))
            except OSError:
                pass
    return out


def _at(series: list[tuple[float, float]], t: float) -> float:
    """A CPU-seconds series [(time, cpu)] interpolated at time ``t``."""
    for (t0, c0), (t1, c1) in zip(series, series[1:], strict=False):
        if t0 <= t <= t1:
            return c0 + (c1 - c0) * (t - t0) / max(t1 - t0, 1e-9)
    return series[-1][1] if t > series[-1][0] else series[0][1]


def crawl(seeds_file: Path, proxy: str, workdir: Path, workers: int, redis_url: str | None,
          seconds: float, strategy: str = "adaptive", warmup: float = 5.0,
          others: dict[str, int] | None = None, tree: Path = ROOT, partition: str = "",
          settings: tuple[str, ...] = ()) -> dict:
    """`scrapy crawl geo` workers on simweb for ``seconds``.

    Besides the whole run (pages/s over the span of the crawl logs, the workers' CPU from rusage,
    process start included), the steady state: from ``warmup`` seconds after the first page to
    the first worker's last page, pages fetched in that window (from the crawl logs' times) and the
    CPU each process used in it, sampled from /proc every 0.25 s: each worker, and ``others``
    (simweb's server, redis-server), which share the same cores."""
    procs = []
    launched = time.time()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    workdir = workdir / f"{'redis' if redis_url else 'sqlite'}-{workers}-{time.time_ns()}"
    crawl_id = f"bench-{os.getpid()}-{workers}-{time.time_ns()}"
    for w in range(workers):
        args = [sys.executable, "-m", "scrapy.cmdline", "crawl", "geo", "-a", "region=oldenburg",
                "-a", f"seeds={seeds_file}", "-a", f"strategy={strategy}",
                "-s", f"GEOFOCUS_RUN_DIR={workdir}/w{w}",
                "-s", "LOG_LEVEL=WARNING", "-s", f"CLOSESPIDER_TIMEOUT={seconds}",
                "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0"]  # simweb is local
        for setting in settings:  # --set NAME=VALUE, after the bench's own
            args += ["-s", setting]
        if redis_url:
            args += ["-s", f"GEOFOCUS_REDIS_URL={redis_url}", "-s", f"GEOFOCUS_CRAWL_ID={crawl_id}"]
        if partition:  # one node per worker: every URL of a host on one worker
            args += ["-s", f"GEOFOCUS_NODE=n{w}", "-s", f"GEOFOCUS_NODES={','.join(f'n{i}' for i in range(workers))}",
                     "-s", f"GEOFOCUS_PARTITION={partition}"]
        path = os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")]))  # the caller's after the tree
        procs.append(subprocess.Popen(args, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      env={**os.environ, "PYTHONPATH": path, "http_proxy": proxy}))
    watched = {f"worker{w}": p.pid for w, p in enumerate(procs)} | dict(others or {})
    series: dict[str, list[tuple[float, float]]] = {name: [] for name in watched}
    while any(p.poll() is None for p in procs):
        now = time.time()
        for name, pid in watched.items():
            cpu = _cpu_seconds(pid)
            if cpu is not None:
                series[name].append((now, cpu))
        time.sleep(0.25)
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    times, urls, per_worker, last = [], [], [], []
    for w in range(workers):
        log = workdir / f"w{w}" / "crawl.jsonl"
        rows = [json.loads(line) for line in (log.read_text().splitlines() if log.exists() else [])]
        times += [r["time"] for r in rows]
        urls += [r["url"] for r in rows]
        per_worker.append(len(rows))
        last.append(max((r["time"] for r in rows), default=float("nan")))
    span = max(times) - min(times) if len(times) > 1 else float("nan")
    lag = []  # the longest time anything held a worker's reactor (a loaded machine delays it too)
    for w in range(workers):
        path = workdir / f"w{w}" / "stats.json"
        stats = json.loads(path.read_text()) if path.exists() else {}
        lag.append(stats.get("stats", stats).get("geofocus/reactor/max_lag_ms"))
    out: dict = {"workers": workers, "frontier": "redis" if redis_url else "sqlite", "strategy": strategy,
                 "run_dir": str(workdir),
                 "pages": len(urls), "unique": len(set(urls)), "pages_per_worker": per_worker,
                 "seconds": round(span, 2), "pages_per_s": round(len(urls) / span, 1),
                 "workers_cpu_s": round(cpu_s, 2), "cpu_ms_per_page": round(1000 * cpu_s / max(len(urls), 1), 2),
                 "reactor_max_lag_ms": lag,
                 "load_average": [round(x, 2) for x in os.getloadavg()]}
    if len(times) > 1:
        # up to CLOSESPIDER_TIMEOUT after the launch (the spider opens later still): not the drain at close
        t0, t1 = min(times) + warmup, min(min(last), launched + seconds)
        n = sum(1 for t in times if t0 <= t <= t1)
        window = max(t1 - t0, 1e-9)
        cores = {name: round((_at(s, t1) - _at(s, t0)) / window, 3) for name, s in series.items() if len(s) > 1}
        worker_cpu = sum(v for k, v in cores.items() if k.startswith("worker")) * window
        out["steady"] = {"seconds": round(window, 2), "pages": n, "pages_per_s": round(n / window, 1),
                         "workers_cpu_ms_per_page": round(1000 * worker_cpu / max(n, 1), 2),
                         "cores": cores, "cores_total": round(sum(cores.values()), 3)}
    return out


# -- 3. collaborative policies on a us-top100 simweb ----------------------------------
class SimwebPages:
    """Fetch pages of an in-process simweb: (text, addresses, links, ip) by URL, cached."""

    def __init__(self, pages: int, seed: int, geoip_accuracy: float = 0.7) -> None:
        from geofocus.simweb.params import WebParams
        from geofocus.simweb.web import SimWeb

        self.web = SimWeb(WebParams(pages=pages, seed=seed, region="us-top100", latency_scale=0.0))
        self.region = self.web.region
        self.cache: dict[str, tuple | None] = {}
        rnd = random.Random(seed)
        cities = list(self.region.cities)
        self.geoip_rows = []
        for hid in range(self.web.n_hosts):
            host = self.web.host(hid)
            place = host.place
            right = place is not None and place.in_region and rnd.random() < geoip_accuracy
            city = (place.name, place.state) if right else (lambda c: (c.name, c.state))(rnd.choice(cities))
            self.geoip_rows.append(f"10.{hid // 250}.{hid % 250}.1/32,{city[0]},{city[1]}")

    def fetch(self, url: str) -> tuple | None:
        if url in self.cache:
            return self.cache[url]
        from urllib.parse import urlsplit

        from lxml import html as lxml_html

        from geofocus.simweb.render import render_page

        result = None
        for _ in range(3):  # follow redirects
            parts = urlsplit(url)
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            res = self.web.resolve(parts.hostname or "", path)
            if res.kind == "redirect" and res.location:
                url = res.location
                continue
            if res.kind == "page" and res.page is not None and res.page.is_html:
                page = res.page
                links = self.web.outlinks(res)
                doc = lxml_html.fromstring(render_page(self.web, page, links))
                for bad in doc.xpath("//script|//style"):
                    bad.drop_tree()
                text = " ".join(doc.text_content().split())
                place = page.host.place
                addresses = [{"city": a.city, "state": place.state if place and place.name == a.city else None}
                             for a in page.addresses if a.in_region] if page.relevant else []
                hid = page.host.hid
                result = (text, addresses, [(link.url, link.anchor, f"{link.before} {link.anchor} {link.after}")
                                            for link in links], f"10.{hid // 250}.{hid % 250}.1")
            break
        self.cache[url] = result
        return result


def simulate(policy: str, web: SimwebPages, geoip_path: str, budget: int) -> dict[str, float]:
    """Each node crawls breadth-first with its own seen-set (as in the paper); links by the policy."""
    region = web.region
    plan = plan_for_region(region)
    gaz = CityMentions(region)
    part = Partitioner(policy, plan, gaz, GeoIPTable(geoip_path) if policy == "ip" else None)
    queues = {n: deque() for n in plan.nodes}
    seen = {n: set() for n in plan.nodes}
    for url in web.web.seeds():
        queues[plan.general].append(url)
    fetched: list[tuple[str, str]] = []
    sent = 0
    per_node = budget // len(plan.nodes)
    counts = Counter()
    progressed = True
    while progressed:
        progressed = False
        for node, q in queues.items():
            while q and counts[node] < per_node:
                url = q.popleft()
                if url in seen[node]:
                    continue
                seen[node].add(url)
                page = web.fetch(url)
                if page is None:
                    continue
                counts[node] += 1
                fetched.append((node, url))
                text, addresses, links, ip = page
                targets = part.assign(Page(url, text, ip, addresses), [Link(u, a, c) for u, a, c in links])
                for (u, _, _), target in zip(links, targets, strict=True):
                    if target != node:
                        sent += 1
                    queues[target].append(u)
                progressed = True
                break
    n = len(fetched) or 1
    unique = len({u for _, u in fetched})
    geo = sum(1 for _, u in fetched if web.fetch(u)[1])
    focused = sum(1 for node, u in fetched if any(
        plan.node_of(gaz.resolve(a["city"], a["state"])) == node for a in web.fetch(u)[1]))
    hosts = len({u.split("/")[2] for _, u in fetched})
    return {"policy": policy, "pages": len(fetched), "geo_coverage": round(geo / n, 3),
            "geo_focus": round(focused / max(geo, 1), 3), "overlap": round((n - unique) / n, 3),
            "diversity": round(hosts / n, 3), "comm_overhead": round(sent / n, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=20000, help="pages of the simweb the workers crawl")
    ap.add_argument("--seconds", type=float, default=25, help="how long each crawl runs")
    ap.add_argument("--latency", type=float, default=0.0,
                    help="simweb --latency-scale (0: pages at once, CPU-bound; 1: slow hosts as calibrated)")
    ap.add_argument("--slow-hosts", type=float, default=None,
                    help="simweb's share of slow hosts (default: simweb's, 0.06; 1: every host is slow, as real ones)")
    ap.add_argument("--slow-ms", default="",
                    help="simweb's range of a slow host's latency, MIN,MAX ms (default: simweb's, 150,700; "
                         "15 %% of slow hosts take 5 times as long)")
    ap.add_argument("--very-slow", type=float, default=None,
                    help="simweb's share of slow hosts 5 times slower (default: simweb's, 0.15; 0: none, so "
                         "that which hosts a crawl meets changes its pages/s less)")
    ap.add_argument("--strategy", default="adaptive",
                    help="the crawls' strategy (default adaptive: what `online` runs as in a shared crawl, so "
                         "SQLite and Redis workers do the same work)")
    ap.add_argument("--runs", default="sqlite,redis,redis2",
                    help="crawls per repeat, in this order: sqlite (1 worker), redis (1 worker), redis2 (2 workers "
                         "sharing one crawl), sqlite2 (2 separate SQLite crawls at once: what 2 processes get here); "
                         "redis2+host: 2 workers, one node each, links partitioned by host (GEOFOCUS_PARTITION=host); "
                         "KIND@DIR runs the workers from the source tree DIR (e.g. an older commit, for before/after)")
    ap.add_argument("--repeat", type=int, default=1, help="run the crawls in turn this many times")
    ap.add_argument("--warmup", type=float, default=5.0,
                    help="seconds after the first page left out of the steady-state figures")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a Scrapy setting for every worker of every crawl (repeatable); a crawl kind KIND%%NAME=VALUE "
                         "sets it for that kind only (e.g. redis2%%GEOFOCUS_REDIS_BATCH=64), for A/B runs")
    ap.add_argument("--workdir", default="",
                    help="keep the crawls' run directories (logs, stats) under this directory (default: temporary)")
    ap.add_argument("--ops", type=int, default=20000)
    ap.add_argument("--seen", type=int, default=500_000, help="fingerprints for the seen-set memory figure")
    ap.add_argument("--policy-pages", type=int, default=20000, help="pages of the us-top100 simweb")
    ap.add_argument("--budget", type=int, default=6000, help="pages fetched by all nodes per policy")
    ap.add_argument("--parts", default="ops,crawl,policies", help="which parts to run (comma-separated)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "scale.json"))
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    results: dict = {}
    server = RedisServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tmp_path = Path(tmp)
            if args.workdir:
                Path(args.workdir).mkdir(parents=True, exist_ok=True)
            if "ops" in parts:
                results["frontier_ops"] = {
                    "redis": frontier_ops(RedisFrontier(server.client(), f"bench-{os.getpid()}", batch=256,
                                                        max_held=1024, slot_cap=64, pop_wait=1.0), args.ops),
                    "sqlite": frontier_ops(SqliteFrontier(tmp_path / "f.sqlite"), args.ops),
                }
                print("frontier ops/s:", json.dumps(results["frontier_ops"]))
                results["seen_memory"] = seen_memory(server, args.seen)
                print("seen-set memory:", json.dumps(results["seen_memory"]))
            if "crawl" in parts:
                results["crawl"] = crawl_part(args, tmp_path, server, Path(args.workdir) if args.workdir else tmp_path)
            if "policies" in parts:
                results["policies"] = policies_part(args, tmp_path)
    finally:
        server.cleanup()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2))
    print(f"\nwritten {args.out}")


def crawl_part(args: argparse.Namespace, tmp_path: Path, server: RedisServer, run_dirs: Path) -> dict:
    """1 worker (SQLite), 1 worker (Redis) and 2 workers (one Redis crawl), ``--repeat`` times in turn
    (so that the shared machine's load hits each alike); each run starts a fresh crawl."""
    from simweb_server import running_simweb

    extra: list[str] = []
    if args.slow_hosts is not None:
        extra += ["--param", f"p_slow_host={args.slow_hosts}"]
    if args.slow_ms:
        extra += ["--param", f"slow_ms={args.slow_ms}"]
    if args.very_slow is not None:
        extra += ["--param", f"p_very_slow={args.very_slow}"]
    kinds = [k for k in args.runs.split(",") if k]
    runs: list[dict] = []
    with running_simweb(tmp_path / "web", pages=args.pages, latency_scale=args.latency,
                        extra_args=tuple(extra)) as sw:
        simweb_pids = _child_pids("simweb")
        others = {"simweb": simweb_pids[0]} if simweb_pids else {}
        if server.proc is not None:
            others["redis"] = server.proc.pid
        for rep in range(args.repeat):
            for kind in kinds:
                spec, *kind_settings = kind.split("%")
                what, _, tree = spec.partition("@")
                what, _, partition = what.partition("+")
                workers = 2 if what.endswith("2") else 1
                url = server.url if what.startswith("redis") else None
                r = crawl(sw.seeds_file, sw.proxy_url, run_dirs, workers, url,
                          args.seconds, args.strategy, args.warmup, others, Path(tree).resolve() if tree else ROOT,
                          partition, (*args.set, *kind_settings))
                r["run"], r["repeat"] = kind, rep
                runs.append(r)
                st = r.get("steady", {})
                print(f"crawl {rep}: {kind}: {workers} worker(s), {r['frontier']:6}: {r['pages']} pages "
                      f"({r['unique']} unique, per worker {r['pages_per_worker']}) = {r['pages_per_s']} pages/s, "
                      f"{r['cpu_ms_per_page']} ms CPU a page with start-up; steady {st.get('seconds')} s: "
                      f"{st.get('pages_per_s')} pages/s, {st.get('workers_cpu_ms_per_page')} ms CPU a page, "
                      f"cores {st.get('cores')}; load {r['load_average'][0]}", flush=True)
    summary: dict = {}

    def steady(kind: str, rep: int) -> float | None:
        for r in runs:
            if r["run"] == kind and r["repeat"] == rep and "steady" in r:
                return r["steady"]["pages_per_s"]
        return None

    host_ratios = [round(two / one, 3) for rep in range(args.repeat)
                   if (one := steady("redis", rep)) and (two := steady("redis2+host", rep))]
    if host_ratios:
        summary["ratio_2_workers_by_host_to_1"] = host_ratios
        print(f"2 workers, hosts partitioned / 1 worker (steady pages/s): {host_ratios}")
    for frontier, label in (("redis", "2 workers sharing one Redis crawl / 1 worker"),
                            ("sqlite", "2 separate SQLite crawls at once / 1 (what the machine allows 2 processes)")):
        ratios = []
        for rep in range(args.repeat):
            one, two = steady(frontier, rep), steady(f"{frontier}2", rep)
            if one and two:
                ratios.append(round(two / one, 3))
        if ratios:
            key = "ratio_2_workers_to_1" if frontier == "redis" else "ratio_2_sqlite_crawls_to_1"
            summary[key] = ratios
            summary[f"{key}_median"] = round(statistics.median(ratios), 3)  # an even count: mean of the middle two
            print(f"{label} (steady pages/s): {ratios}, median {summary[f'{key}_median']:.2f}x")
    # a variant (redis2%NAME=VALUE) against the 1-worker crawl with the same settings (redis%NAME=VALUE)
    for kind in kinds:
        spec, sep, variant = kind.partition("%")
        if sep and spec in ("redis2", "redis2+host"):
            ratios = [round(two / one, 3) for rep in range(args.repeat)
                      if (one := steady(f"redis%{variant}", rep)) and (two := steady(kind, rep))]
            if ratios:
                summary[f"ratio_{kind}_to_1"] = ratios
                print(f"{kind} / redis%{variant} (steady pages/s): {ratios}")
    for kind in kinds:
        cpu = [r["steady"]["workers_cpu_ms_per_page"] for r in runs if r["run"] == kind and "steady" in r]
        if cpu:
            summary[f"{kind}_cpu_ms_per_page"] = cpu
    if "sqlite_cpu_ms_per_page" in summary and "redis_cpu_ms_per_page" in summary:
        pairs = list(zip(summary["redis_cpu_ms_per_page"], summary["sqlite_cpu_ms_per_page"], strict=False))
        summary["redis_to_sqlite_cpu"] = [round(a / b, 3) for a, b in pairs]
        print(f"worker CPU a page, redis / sqlite (steady): {summary['redis_to_sqlite_cpu']}")
    return {"web": f"simweb oldenburg {args.pages} pages", "latency_scale": args.latency,
            "slow_hosts": args.slow_hosts, "slow_ms": args.slow_ms, "very_slow": args.very_slow,
            "strategy": args.strategy, "seconds": args.seconds, "warmup": args.warmup, "summary": summary, "runs": runs}


def policies_part(args: argparse.Namespace, tmp_path: Path) -> dict:
    web = SimwebPages(args.policy_pages, seed=1)
    geoip_path = tmp_path / "geoip.csv"
    geoip_path.write_text("\n".join(web.geoip_rows))
    table = [simulate(p, web, str(geoip_path), args.budget)
             for p in ("hash", "host", "url", "anchor", "content", "classification", "ip")]
    print(f"\ncollaborative policies on a us-top100 simweb of {args.policy_pages} pages, budget "
          f"{args.budget} (nodes {', '.join(plan_for_region(web.region).nodes)}):")
    cols = ["policy", "pages", "geo_coverage", "geo_focus", "overlap", "diversity", "comm_overhead"]
    print("  ".join(f"{c:>14}" for c in cols))
    for row in table:
        print("  ".join(f"{row[c]!s:>14}" for c in cols))
    return {"web": f"simweb us-top100 {args.policy_pages} pages", "budget": args.budget, "rows": table}


if __name__ == "__main__":
    main()
