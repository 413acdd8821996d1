"""Frontier benchmark: push / re-prioritise / pop / re-score rates, reopen time and peak memory.

    python bench/frontier.py [--urls 1000000] [--json bench/results/frontier.json] [--module FILE]
    python bench/frontier.py --interleave OLD.py,NEW.py [--urls 1000000] [--block 5000] [--reps 8] [--prebuilt]
        [--json F]
    python bench/frontier.py --redis redis://127.0.0.1:6379/0 [--workers 1,2] [--urls 100000] [--json F]
    python bench/frontier.py --rewrite OLD.py,NEW.py [--urls 400000] [--reps 2] [--json F]

Pushes N new URLs (fingerprints as the scheduler makes them, request payloads
of realistic size, 2,000 hosts), then re-prioritises N/10 of them, then pops
and marks done N/10 with 8 busy hosts, then runs N/10 rounds of "pop one, mark
it done, push a new one" at about N queued (the steady state of a crawl), and
N/10 more that also read the popped request (``push_pop_read_per_s``: a
frontier that hands its requests out still encoded pays for decoding them
there, as a crawl's scheduler pays at once), then
re-scores every queued URL (new priorities for all of them; the adaptive
strategy's re-scoring: ``rescore_s_per_million`` with fingerprints computed anew,
in chunks of 100,000; ``rescore_listed_s_per_million``, measured last on the reopened
frontier, the way the scheduler's whole-queue re-scoring does it:
``queued_priorities``, then one ``update_priorities`` with the fingerprints it
listed, the model's scoring not timed, its list of a million updates in
``peak_rss_listed_rescore_mb``; since session 9 a frontier with ``queued_priority_array``
is measured the way the scheduler now uses it: the priorities as arrays, ``update_listed``;
both with the first pop after it), then closes
(a close compacts the journal) and reopens the file (a resume).  ``sqlite_file_mb`` is the SQLite file and its WAL;
``payload_file_mb`` the payload file next to it (layout 3: the requests),
``payload_cache_mb`` the frontier's copy of the requests it reads them from (the
payload file itself since layout 3; an unlinked cache file before).
``push_pop_frontier_per_s`` runs the same rounds with the new entries built and
encoded beforehand (as the scheduler hands them over, with ``encoded``): the
frontier's calls alone.  ``push_pop_scheduler_per_s`` (session 9; measured last, on the
reopened frontier, so that Scrapy's crawler leaves the other figures alone) runs them with each
new entry made from a link ``Request`` by this tree's scheduler (``GeoScheduler._entry_for``;
the fingerprint carried from the spider, as in a crawl); ``scheduler_entry_us`` is the scheduler's
part alone, ``url_fingerprint_us`` the spider's fingerprint of a new link (not in the rounds).
``--module FILE`` runs the same benchmark against another
copy of ``geofocus/frontier.py`` (an A/B against an older version kept out of
the tree).  Every
1,000 operations it flushes (commits), as a crawl does.  Rates are operations
per CPU second of this process (``time.process_time``: steadier than wall time
on a shared machine; they include building each entry, a SHA-1 and a payload
dict, a few microseconds); peak memory is its maximum resident set size.

``--rewrite OLD.py,NEW.py`` measures how long the crawl's thread is held by a rewrite of the payload file
(see ``main_rewrite``; ``--urls 400000 --reps 2`` is enough for a rewrite of a few hundred MB).

``--interleave OLD.py,NEW.py`` runs only the steady state of several copies
of the module in one process, in alternating blocks (see ``main_interleave``):
the way to compare two versions on a loaded machine.

``--redis URL`` measures the Redis frontier instead (``geofocus.redis.frontier``,
pipelined by its sync thread, default settings, ``--batch`` leased per round
trip): ``--workers`` (e.g. ``1,2``)
processes share one crawl under a unique crawl id and prefix; each pushes
``--urls`` new URLs (the same payloads), then pops and marks done until the
shared queue is empty.  Per worker it reports push/s, pop+done/s and push+pop
operations per wall second of the phase (the work is split between the
process's two threads and redis-server, so wall time is the rate that counts;
CPU seconds of the worker and of redis-server are reported next to it), and
the operations of all workers together per wall second.  Its keys are
deleted at the end.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geofocus.defaults import GEOFOCUS_REDIS_BATCH  # noqa: E402
from geofocus.frontier import FrontierEntry, SqliteFrontier, encode_request_bytes  # noqa: E402,F401

HOSTS = 2000


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    """The resident set size now (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


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


# -- the Redis frontier ----------------------------------------------------------------
def redis_worker(url: str, prefix: str, crawl_id: str, worker: int, n: int, batch: int, barrier, results) -> None:
    """One worker process: push ``n`` new URLs, then pop + done until the shared queue is empty."""
    import redis

    from geofocus.redis.frontier import RedisFrontier

    client = redis.Redis.from_url(url)
    frontier = RedisFrontier(client, crawl_id, prefix=prefix, worker_id=f"bench-{worker}", batch=batch)
    frontier.open()
    rng = random.Random(worker)
    barrier.wait()
    w0, c0 = time.perf_counter(), time.process_time()
    for i in range(n):
        frontier.push(entry(worker * n + i, rng.random()))
        if i % 1000 == 999:
            frontier.flush()
    if not frontier.sync(600):
        raise SystemExit("the Redis frontier did not send its pushes within 600 s")
    w1, c1 = time.perf_counter(), time.process_time()
    barrier.wait()  # every worker's pushes are in Redis before anyone pops
    w2, c2 = time.perf_counter(), time.process_time()
    popped = 0
    while True:
        popped_entry = frontier.pop()
        if popped_entry is None:
            if frontier.sync(60) and len(frontier) == 0 and frontier.pop() is None:
                break
            continue
        frontier.done(popped_entry.fingerprint)
        popped += 1
    frontier.sync(600)
    w3, c3 = time.perf_counter(), time.process_time()
    frontier.close()
    results.put({"worker": worker, "pushed": n, "popped": popped,
                 "push_wall_s": w1 - w0, "push_cpu_s": c1 - c0, "pop_wall_s": w3 - w2, "pop_cpu_s": c3 - c2,
                 "push_start": w0, "push_end": w1, "pop_start": w2, "pop_end": w3})


def redis_cpu(client) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def redis_bench(url: str, n: int, workers: int, batch: int) -> dict:
    import multiprocessing

    import redis

    client = redis.Redis.from_url(url)
    client.ping()
    token = f"{os.getpid()}-{time.time_ns()}"
    prefix, crawl_id = f"geofocus-bench-{token}", f"frontier-{workers}"
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(workers)
    queue = context.Queue()
    procs = [context.Process(target=redis_worker, args=(url, prefix, crawl_id, w, n, batch, barrier, queue))
             for w in range(workers)]
    cpu0 = redis_cpu(client)
    try:
        for proc in procs:
            proc.start()
        rows = [queue.get(timeout=3600) for _ in procs]
        for proc in procs:
            proc.join()
            if proc.exitcode:
                raise SystemExit(f"a Redis benchmark worker failed (exit status {proc.exitcode})")
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        keys = list(client.scan_iter(match=f"{prefix}:*", count=10000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start:start + 1000])
    redis_cpu_s = redis_cpu(client) - cpu0
    rows.sort(key=lambda r: r["worker"])
    per_worker = []
    for r in rows:
        ops = r["pushed"] + r["popped"]
        per_worker.append({
            "worker": r["worker"], "pushed": r["pushed"], "popped": r["popped"],
            "push_per_s": round(r["pushed"] / r["push_wall_s"]),
            "pop_done_per_s": round(r["popped"] / r["pop_wall_s"]),
            "push_pop_per_s": round(ops / (r["push_wall_s"] + r["pop_wall_s"])),
            "worker_cpu_s": round(r["push_cpu_s"] + r["pop_cpu_s"], 2),
        })
    push_span = max(r["push_end"] for r in rows) - min(r["push_start"] for r in rows)
    pop_span = max(r["pop_end"] for r in rows) - min(r["pop_start"] for r in rows)
    total = sum(r["pushed"] + r["popped"] for r in rows)
    popped = sum(r["popped"] for r in rows)
    assert popped == n * workers, (popped, n * workers)  # every pushed URL popped exactly once
    return {"workers": workers, "urls_per_worker": n, "batch": batch, "per_worker": per_worker,
            "push_pop_per_s_all": round(total / (push_span + pop_span)),
            "push_per_s_all": round(n * workers / push_span), "pop_done_per_s_all": round(popped / pop_span),
            "redis_cpu_s": round(redis_cpu_s, 2),
            # CPU per operation (push, or pop + done): what load on a shared machine changes least
            "worker_cpu_us_per_op": round(1e6 * sum(r["push_cpu_s"] + r["pop_cpu_s"] for r in rows) / total, 1),
            "redis_cpu_us_per_op": round(1e6 * redis_cpu_s / total, 1),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "keys_left": len(list(client.scan_iter(match=f"{prefix}:*")))}


def main_redis(args: argparse.Namespace) -> None:
    results = {"redis": redact(args.redis), "urls_per_worker": args.urls, "batch": args.batch, "runs": []}
    for workers in [int(w) for w in args.workers.split(",") if w]:
        run = redis_bench(args.redis, args.urls, workers, args.batch)
        results["runs"].append(run)
        print(f"{workers} worker(s), {args.urls} URLs each: all workers {run['push_pop_per_s_all']} push+pop/s "
              f"(push {run['push_per_s_all']}/s, pop+done {run['pop_done_per_s_all']}/s), "
              f"redis-server {run['redis_cpu_s']} CPU s; CPU per operation: workers "
              f"{run['worker_cpu_us_per_op']} us, redis-server {run['redis_cpu_us_per_op']} us; "
              f"load {run['load_average'][0]}; keys left {run['keys_left']}")
        for w in run["per_worker"]:
            print(f"    worker {w['worker']}: {w}")
    runs = results["runs"]
    if len(runs) > 1 and runs[0]["workers"] == 1:
        for run in runs[1:]:
            run["vs_one_worker"] = round(run["push_pop_per_s_all"] / runs[0]["push_pop_per_s_all"], 2)
            print(f"{run['workers']} workers: {run['vs_one_worker']}x one worker (push+pop per wall second)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2))


def redact(url: str) -> str:
    from geofocus.redis.connection import redact as redact_url

    return redact_url(url)


def scheduler_for_bench(run_dir: str):
    """A GeoScheduler of a geo spider crawler with the project's settings, not opened (its own frontier is never
    used): what ``push_pop_scheduler_per_s`` makes its entries with."""
    from scrapy.utils.test import get_crawler

    from geofocus import offline_settings
    from geofocus.scheduler import GeoScheduler
    from geofocus.spiders.geo import GeoSpider

    settings = {name: getattr(offline_settings, name) for name in dir(offline_settings) if name.isupper()}
    settings["GEOFOCUS_RUN_DIR"] = str(Path(run_dir) / "scheduler-run")
    crawler = get_crawler(GeoSpider, settings)
    spider = crawler.spider = GeoSpider.from_crawler(crawler, region="oldenburg", seeds="http://www.host0.de/")
    scheduler = GeoScheduler.from_crawler(crawler)
    scheduler.spider = spider
    return scheduler, spider


def load_module(path: str, name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main_interleave(args: argparse.Namespace) -> None:
    """Steady-state rounds of several frontier modules in one process, in alternating blocks.

    Each module gets its own frontier with ``--urls`` queued; then blocks of ``--block`` rounds (pop,
    done, push, a flush every 1,000) run module after module, the order reversed every other time, each
    module twice per repetition: once leaving the popped request unread, once reading it.  Rates are
    operations (a pop + done and a push are two) per CPU second of the blocks; ``*_median_ratio`` is the median
    over the repetitions of a module's block rate against the first module's block of the same repetition (steadier
    than the ratio of the totals when other processes load the machine unevenly).  Machine load hits every
    module alike; a frontier built later in the process tends to run a little faster (memory layout),
    so run it twice with the order of the modules swapped."""
    paths = args.interleave.split(",")
    runs = []
    tmps = [tempfile.TemporaryDirectory() for _ in paths]
    for k, path in enumerate(paths):
        module = load_module(path, f"frontier_under_test_{k}")
        frontier = module.SqliteFrontier(Path(tmps[k].name) / "frontier.sqlite", seed=1)
        frontier.open()
        rng = random.Random(7)

        def make(i: int, priority: float, module=module) -> object:
            url = url_of(i)
            return module.FrontierEntry(fingerprint(url), priority, f"www.host{i % HOSTS}.de", payload(url, priority))

        for i in range(args.urls):
            frontier.push(make(i, rng.random() * 0.5))
            if i % 1000 == 999:
                frontier.flush()
        frontier.flush()
        runs.append({"path": path, "frontier": frontier, "make": make, "rng": rng, "next": args.urls,
                     "cpu": [0.0, 0.0], "rounds": [0, 0], "blocks": [[], []]})
    busy = {f"www.host{i}.de" for i in range(8)}

    def block(run: dict, rounds: int, read: bool) -> float:
        frontier, make, rng, next_id = run["frontier"], run["make"], run["rng"], run["next"]
        if args.prebuilt:  # the frontier's calls alone: entries built and encoded first, as the scheduler gives them
            encode = sys.modules[frontier.__class__.__module__].encode_request_bytes
            cpu = 0.0
            for start in range(0, rounds, 1000):
                block = [make(next_id + k, rng.random() * 0.5) for k in range(start, min(start + 1000, rounds))]
                for new in block:
                    new.encoded = encode(new.request)
                t0 = time.process_time()
                for new in block:
                    popped_entry = frontier.pop(busy)
                    if popped_entry is not None:
                        if read:
                            popped_entry.request  # noqa: B018
                        frontier.done(popped_entry.fingerprint)
                    frontier.push(new)
                frontier.flush()
                cpu += time.process_time() - t0
            run["next"] = next_id + rounds
            return cpu
        t0 = time.process_time()
        for k in range(rounds):
            popped_entry = frontier.pop(busy)
            if popped_entry is not None:
                if read:
                    popped_entry.request  # noqa: B018  (decodes it where the frontier has not)
                frontier.done(popped_entry.fingerprint)
            frontier.push(make(next_id + k, rng.random() * 0.5))
            if k % 1000 == 999:
                frontier.flush()
        frontier.flush()
        run["next"] = next_id + rounds
        return time.process_time() - t0

    for run in runs:
        block(run, 2 * args.block, False)  # warm-up
    for rep in range(args.reps):
        for run in runs if rep % 2 == 0 else runs[::-1]:
            for read in (False, True):
                cpu = block(run, args.block, read)
                run["cpu"][read] += cpu
                run["blocks"][read].append(2 * args.block / cpu)
                run["rounds"][read] += args.block
    load = os.getloadavg()
    results = {"urls": args.urls, "block": args.block, "reps": args.reps, "prebuilt": args.prebuilt,
               "load_average": [round(x, 2) for x in load],
               "modules": []}
    for run in runs:
        row = {"module": run["path"]}
        for read, name in ((False, "push_pop_per_s"), (True, "push_pop_read_per_s")):
            row[name] = round(2 * run["rounds"][read] / run["cpu"][read])
            # each repetition's block against the first module's block of the same repetition (they ran next to
            # each other): the median of these ratios is steadier than the ratio of the sums on a loaded machine
            ratios = sorted(a / b for a, b in zip(run["blocks"][read], runs[0]["blocks"][read], strict=True))
            row[name.replace("_per_s", "_median_ratio")] = round(ratios[len(ratios) // 2], 3)
            row[name.replace("_per_s", "_blocks")] = [round(x) for x in run["blocks"][read]]
        results["modules"].append(row)
        print(f"{row['push_pop_per_s']:>8} ops/CPU s, {row['push_pop_read_per_s']:>8} reading the request; median "
              f"block ratio to the first {row['push_pop_median_ratio']:.3f} / {row['push_pop_read_median_ratio']:.3f}: "
              f"{run['path']}")
        run["frontier"].close()
    for tmp in tmps:
        tmp.cleanup()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2))


def main_rewrite(args: argparse.Namespace) -> None:
    """The crawl's thread's share of a payload file rewrite, per module (run one after the other, the order
    reversed every other repetition): ``--urls`` queued, then rounds of pop + done (a push every other round,
    a flush every 1,000) until the payload file has been rewritten (``cache_compact_min`` 128 MB here: the file
    is rewritten once its garbage passes that and the live requests); the longest flush in wall and CPU time
    (the one that rewrites, or commits a rewrite done in the background) against a typical one."""
    paths = args.rewrite.split(",")
    results: dict = {"urls": args.urls, "reps": args.reps, "modules": []}
    for rep in range(args.reps):
        for k, path in enumerate(paths if rep % 2 == 0 else paths[::-1]):
            module = load_module(path, f"frontier_rewrite_{rep}_{k}")
            with tempfile.TemporaryDirectory() as tmp:
                frontier = module.SqliteFrontier(Path(tmp) / "frontier.sqlite", seed=1)
                frontier.cache_compact_min = 1 << 27
                frontier.open()
                rng = random.Random(7)

                def make(i: int, priority: float, module=module) -> object:
                    url = url_of(i)
                    return module.FrontierEntry(fingerprint(url), priority, f"www.host{i % HOSTS}.de",
                                                payload(url, priority))

                for i in range(args.urls):
                    frontier.push(make(i, rng.random()))
                    if i % 1000 == 999:
                        frontier.flush()
                frontier.flush()

                def generations() -> list[str]:
                    return sorted(p.name for p in Path(tmp).iterdir() if "-requests-" in p.name)

                first = generations()
                walls, cpus, next_id, rewritten = [], [], args.urls, None
                for r in range(args.urls):
                    popped_entry = frontier.pop()
                    if popped_entry is None:
                        break
                    frontier.done(popped_entry.fingerprint)
                    if r % 2 == 0:
                        frontier.push(make(next_id, rng.random()))
                        next_id += 1
                    if r % 1000 == 999:
                        w0, c0 = time.perf_counter(), time.process_time()
                        frontier.flush()
                        walls.append(time.perf_counter() - w0)
                        cpus.append(time.process_time() - c0)
                        now = generations()
                        if now != first and len(now) == 1:
                            rewritten = r + 1
                            break
                frontier.close()
            walls.sort()
            cpus.sort()
            row = {"module": path, "rewritten_after_rounds": rewritten, "flushes": len(walls),
                   "max_flush_wall_ms": round(1000 * walls[-1], 1), "max_flush_cpu_ms": round(1000 * cpus[-1], 1),
                   "second_longest_flush_wall_ms": round(1000 * walls[-2], 1),
                   "median_flush_wall_ms": round(1000 * walls[len(walls) // 2], 2),
                   "load_average": [round(x, 2) for x in os.getloadavg()]}
            results["modules"].append(row)
            print(json.dumps(row), flush=True)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--json", default="")
    parser.add_argument("--module", default="", help="path of another frontier.py to measure instead")
    parser.add_argument("--redis", default="", help="measure the Redis frontier on this Redis URL instead")
    parser.add_argument("--workers", default="1,2", help="with --redis: worker process counts, one run each")
    parser.add_argument("--batch", type=int, default=GEOFOCUS_REDIS_BATCH,
                        help="with --redis: entries leased per round trip (GEOFOCUS_REDIS_BATCH)")
    parser.add_argument("--interleave", default="",
                        help="comma-separated frontier.py files: their steady state, interleaved in one process")
    parser.add_argument("--block", type=int, default=5000, help="with --interleave: rounds per block")
    parser.add_argument("--reps", type=int, default=8, help="with --interleave: blocks per module and mode")
    parser.add_argument("--prebuilt", action="store_true",
                        help="with --interleave: time the frontier's calls alone (entries built and encoded first)")
    parser.add_argument("--rewrite", default="",
                        help="comma-separated frontier.py files: the crawl thread's share of a payload file rewrite")
    args = parser.parse_args()
    if args.rewrite:
        main_rewrite(args)
        return
    if args.interleave:
        main_interleave(args)
        return
    if args.redis:
        main_redis(args)
        return
    if args.module:
        module = load_module(args.module, "frontier_under_test")
        globals()["FrontierEntry"] = module.FrontierEntry
        globals()["SqliteFrontier"] = module.SqliteFrontier
        globals()["encode_request_bytes"] = module.encode_request_bytes
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
        next_id = n

        def rounds(frontier: SqliteFrontier, read: bool) -> float:
            """``tenth`` rounds of pop + done + push; with ``read`` the popped request is read (decoded
            from its JSON) as the scheduler does at once, so a frontier that hands out requests still
            encoded pays for their decoding.  Operations per CPU second."""
            nonlocal next_id
            t0 = time.process_time()
            for k in range(tenth):
                popped_entry = frontier.pop(busy)
                if popped_entry is not None:
                    if read:
                        assert popped_entry.request["callback"] == "parse"
                    frontier.done(popped_entry.fingerprint)
                frontier.push(entry(next_id, rng.random() * 0.5))
                next_id += 1
                if k % 1000 == 999:
                    frontier.flush()
            frontier.flush()
            return round(2 * tenth / (time.process_time() - t0))

        def frontier_rounds(frontier: SqliteFrontier) -> float:
            """The same rounds with each block's 1,000 new entries built beforehand and encoded, as the
            scheduler hands them over (``encoded``): the frontier's own calls timed, not the entries' making
            (a SHA-1, a payload dict and its JSON, about 4 us of the 20 a round may take)."""
            nonlocal next_id
            cpu = 0.0
            for start in range(0, tenth, 1000):
                block = []
                for i in range(next_id, next_id + min(1000, tenth - start)):
                    new = entry(i, rng.random() * 0.5)
                    new.encoded = encode_request_bytes(new.request)
                    block.append(new)
                next_id += len(block)
                t0 = time.process_time()
                for new in block:
                    popped_entry = frontier.pop(busy)
                    if popped_entry is not None:
                        frontier.done(popped_entry.fingerprint)
                    frontier.push(new)
                frontier.flush()
                cpu += time.process_time() - t0
            return round(2 * tenth / cpu)

        def scheduler_rounds(frontier: SqliteFrontier) -> tuple[float, float, float]:
            """The same rounds with each new entry made the way a crawl makes it: a link ``Request`` as the geo
            spider builds it with its fingerprint carried (page state, Referer; the Request and the fingerprint are
            the spider's, not timed here), then timed: this tree's ``GeoScheduler._entry_for`` (payload, its JSON,
            the slot) and the frontier's calls.  Operations per CPU second; the scheduler's ``_entry_for`` alone
            (timed apart, on twins of the requests never seen before) and the spider's ``url_fingerprint`` of a
            URL seen for the first time (canonicalisation, normalisation, SHA-1: a link extraction's cost per
            link) in microseconds.  (The default rounds' entry, a SHA-1 and a payload dict literal, cost a few
            microseconds; this is what the scheduler's path costs.)"""
            nonlocal next_id
            scheduler, spider = scheduler_for_bench(tmp)
            from scrapy import Request

            from geofocus.pagemeta import FINGERPRINT_META, META_KEY, PageMeta

            cpu = entry_cpu = fp_cpu = 0.0
            def link_request(url: str, priority: float) -> Request:
                parent = url.rsplit("/", 1)[0]
                page = PageMeta(**payload(url, priority)["meta"]["geofocus"])
                return Request(url, callback=spider.parse, errback=spider.errback, headers={"Referer": parent},
                               meta={META_KEY: page, FINGERPRINT_META: (url, ""), "verbatim_url": True, "depth": 3})

            for start in range(0, tenth, 1000):
                block, twins = [], []
                for i in range(next_id, next_id + min(1000, tenth - start)):
                    url, priority = url_of(i), rng.random() * 0.5
                    block.append(link_request(url, priority))
                    twins.append(link_request(url, priority))  # fresh ones for timing the scheduler's part alone
                next_id += len(block)
                # the spider's fingerprint of each link (its URL seen for the first time: canonicalised,
                # normalised, SHA-1), made in the link extraction and carried to the scheduler
                t0 = time.process_time()
                fingerprints = [scheduler.url_fingerprint(request.url) for request in block]
                fp_cpu += time.process_time() - t0
                t0 = time.process_time()
                for request, fp in zip(block, fingerprints, strict=True):
                    popped_entry = frontier.pop(busy)
                    if popped_entry is not None:
                        frontier.done(popped_entry.fingerprint)
                    frontier.push(scheduler._entry_for(request, fp))
                frontier.flush()
                cpu += time.process_time() - t0
                # the scheduler's part alone, on requests like these never seen before (a request keeps its
                # parsed URL: a second call would be cheaper than a crawl's one), entries thrown away
                t0 = time.process_time()
                for request in twins:
                    scheduler._entry_for(request, "")
                entry_cpu += time.process_time() - t0
            return round(2 * tenth / cpu), round(entry_cpu * 1e6 / tenth, 2), round(fp_cpu * 1e6 / tenth, 2)

        results["push_pop_per_s"] = rounds(frontier, read=False)
        results["push_pop_read_per_s"] = rounds(frontier, read=True)
        results["push_pop_frontier_per_s"] = frontier_rounds(frontier)
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
        # A frontier that keeps its requests in a cache file of its own (unlinked, so not in the directory).
        cache_bytes = getattr(frontier, "cache_bytes", None)
        results["payload_cache_mb"] = round(cache_bytes() / 2**20, 1) if cache_bytes else 0.0
        t0 = time.process_time()
        frontier.close()
        results["close_s"] = round(time.process_time() - t0, 2)
        del frontier
        files = list(Path(tmp).iterdir())
        results["sqlite_file_mb"] = round(sum(p.stat().st_size for p in files if "-requests-" not in p.name) / 2**20, 1)
        # layout 3 keeps the requests in a payload file next to the SQLite file (earlier: an unlinked cache)
        results["payload_file_mb"] = round(sum(p.stat().st_size for p in files if "-requests-" in p.name) / 2**20, 1)

        t0 = time.process_time()
        reopened = SqliteFrontier(path, seed=1)
        reopened.open()
        results["reopen_s"] = round(time.process_time() - t0, 2)
        assert len(reopened) == queued, (len(reopened), queued)  # the popped one was in flight: queued again
        best_after = reopened.pop()
        assert best_before is not None and best_after is not None
        assert best_after.fingerprint == best_before.fingerprint and best_after.request == best_before.request
        reopened.release(best_after)
        results["peak_rss_mb"] = round(peak_rss_mb(), 1)
        # The scheduler's whole-queue re-scoring (``rescore_queue``), on the reopened frontier: the queued
        # fingerprints and priorities listed, new priorities (here random: the link model's scoring is not
        # timed) sent back for all of them in one call with the listed fingerprints, the first pop after it.
        # Last, so that ``peak_rss_mb`` stays comparable with earlier runs: the update list of a million
        # tuples is the caller's memory (``peak_rss_listed_rescore_mb``).
        # Since session 9 the scheduler takes the array path when the frontier has it (``queued_priority_array``,
        # the model's answer as a float array, NaN and out-of-range values handled as the scheduler does,
        # ``update_listed``); a module without it is measured the way the scheduler did before.
        results["rss_before_listed_rescore_mb"] = round(current_rss_mb(), 1)
        arrays = hasattr(reopened, "queued_priority_array")
        t0 = time.process_time()
        fingerprints, _ = reopened.queued_priority_array() if arrays else reopened.queued_priorities()
        t1 = time.process_time()
        if arrays:
            new = np.random.default_rng(7).random(len(fingerprints))
        else:
            new = [rng.random() for _ in fingerprints]
        t2 = time.process_time()
        if arrays:
            changed = reopened.update_listed(np.clip(np.where(np.isfinite(new), new, np.nan), 0.0, 1.0))
        else:
            changed = reopened.update_priorities(list(zip(fingerprints, new, itertools.repeat(None))))
        reopened.pop()
        rescore_listed_s = (t1 - t0) + (time.process_time() - t2)
        del fingerprints, new
        results["rescore_listed_arrays"] = arrays
        results["rescore_listed_s_per_million"] = round(rescore_listed_s * 1_000_000 / max(changed, 1), 3)
        results["peak_rss_listed_rescore_mb"] = round(peak_rss_mb(), 1)
        # Last (Scrapy's crawler and the URL caches cost memory; the earlier figures stay comparable): rounds with
        # the scheduler making the entries, on the reopened frontier (900,000 queued at --urls 1000000).
        (results["push_pop_scheduler_per_s"], results["scheduler_entry_us"],
         results["url_fingerprint_us"]) = scheduler_rounds(reopened)
        results["peak_rss_scheduler_rounds_mb"] = round(peak_rss_mb(), 1)
        reopened.close()
    results["load_average"] = [round(x, 2) for x in os.getloadavg()]
    for key, value in results.items():
        print(f"{key:>30}: {value}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
