"""What a shared crawl does when Redis goes away mid-crawl: with or without persistence.

    python bench/redis_wipe.py [--workers 2] [--pages 5000] [--budget 600] [--wipe-after 150]
                               [--down 0] [--persistent] [--json bench/results/redis_wipe.json]

Starts a redis-server on a free port (``--save "" --appendonly no``, or with
``--persistent`` AOF on), simweb, and ``--workers`` real ``scrapy crawl geo``
workers on one crawl with a crawl-wide budget.  Once the workers together
fetched ``--wipe-after`` pages, Redis is killed (SIGKILL), kept down ``--down``
seconds and started again (empty without persistence).  Prints and writes:
each worker's exit status and finish reason, whether the one-line error is
in its log (and any traceback), pages fetched before the kill and in all,
pages fetched twice, seconds from the restart to the last worker's exit,
and (with persistence) the Redis accounting push/new = done/queued + queued
+ leases, which holds when no queued URL was lost.

Results are measurements, not assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from redisutil import RedisServer  # noqa: E402
from simweb_server import running_simweb  # noqa: E402


def rows(run_dir: Path) -> list[dict]:
    path = run_dir / "crawl.jsonl"
    out = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--pages", type=int, default=5000)
    ap.add_argument("--budget", type=int, default=600)
    ap.add_argument("--wipe-after", type=int, default=150)
    ap.add_argument("--down", type=float, default=0.0)
    ap.add_argument("--persistent", action="store_true")
    ap.add_argument("--json", default="")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="geofocus-wipe-"))
    server = RedisServer(persistent=args.persistent).start()
    crawl = f"wipe-{os.getpid()}"
    result: dict = {"args": vars(args)}
    try:
        with running_simweb(work / "web", pages=args.pages) as sw:
            env = {**os.environ, "PYTHONPATH": str(ROOT), "http_proxy": sw.proxy_url}
            procs = []
            for i in range(args.workers):
                cmd = [sys.executable, "-m", "scrapy.cmdline", "crawl", "geo", "-a", "region=oldenburg",
                       "-a", f"seeds={sw.seeds_file}", "-s", f"GEOFOCUS_RUN_DIR={work / f'w{i}'}",
                       "-s", f"GEOFOCUS_MAX_PAGES={args.budget}", "-s", "CONCURRENT_REQUESTS=8",
                       "-s", f"GEOFOCUS_REDIS_URL={server.url}", "-s", f"GEOFOCUS_CRAWL_ID={crawl}",
                       "-s", "GEOFOCUS_REDIS_FLUSH_INTERVAL=0.3", "-s", "GEOFOCUS_REDIS_LEASE_TTL=5",
                       "-s", "GEOFOCUS_REDIS_IDLE_TIMEOUT=10", "-s", "LOG_LEVEL=INFO"]
                log = open(work / f"w{i}.log", "w")
                procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
            end = time.monotonic() + 300
            while (sum(len(rows(work / f"w{i}")) for i in range(args.workers)) < args.wipe_after
                   and time.monotonic() < end):
                time.sleep(0.1)
            server.stop(signal.SIGKILL)
            before = sum(len(rows(work / f"w{i}")) for i in range(args.workers))
            time.sleep(args.down)
            server.start()
            restarted = time.monotonic()
            for p in procs:
                p.wait(600)
            stopped_after = time.monotonic() - restarted
        all_rows = [r for i in range(args.workers) for r in rows(work / f"w{i}")]
        urls = [r["url"] for r in all_rows]
        workers = []
        for i, p in enumerate(procs):
            log = (work / f"w{i}.log").read_text()
            reason = next((line.split("'finish_reason': ")[1].strip(" ',") for line in log.splitlines()
                           if "'finish_reason'" in line), None)
            workers.append({
                "exit": p.returncode, "finish_reason": reason,
                "lost_line": sum("is lost on" in line and "ERROR" in line for line in log.splitlines()),
                "traceback": "Traceback" in log, "pages": len(rows(work / f"w{i}")),
            })
        result.update({
            "workers": workers, "pages_before_kill": before, "pages_total": len(urls),
            "pages_after_kill": len(urls) - before, "fetched_twice": len(urls) - len(set(urls)),
            "seconds_from_restart_to_last_exit": round(stopped_after, 1),
        })
        client = server.client()
        stats = {k.decode(): int(v) for k, v in client.hgetall(f"geofocus:{crawl}:stats").items()}
        queued = sum(client.zcard(k) for k in client.scan_iter(match=f"geofocus:{crawl}:q:*"))
        leases = client.zcard(f"geofocus:{crawl}:leases")
        result["redis_after"] = {"keys": sum(1 for _ in client.scan_iter(match=f"geofocus:{crawl}:*")),
                                 "push_new": stats.get("push/new", 0), "done_queued": stats.get("done/queued", 0),
                                 "queued": queued, "leases": leases,
                                 "accounting_holds": stats.get("push/new", 0) == stats.get("done/queued", 0)
                                 + queued + leases}
    finally:
        server.cleanup()
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
