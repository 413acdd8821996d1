"""simweb for a benchmark: start ``scrapy simweb`` (a subprocess on a free port, its seeds and ground truth in
``out``) and run ``scrapy crawl geo`` through its proxy.

    proc, proxy = start_simweb(pages=20000, seed=1, region="oldenburg", out=Path("runs/simweb"))
    seconds = run_crawl("bfs", proxy, Path("runs/bfs.log"), ["-a", "strategy=bfs", "-s", "GEOFOCUS_RUN_DIR=runs/bfs"])

Shared by bench/harvest.py and bench/classifier.py; the tests' counterpart (a context manager
with timeouts and teardown) is tests/simweb_server.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRAPY = [sys.executable, "-m", "scrapy.cmdline"]


def start_simweb(pages: int, seed: int, region: str, out: Path, params: Sequence[str] = (),
                 latency_scale: float | None = None) -> tuple[subprocess.Popen, str]:
    """(the server process, its proxy URL); ``out`` gets seeds.txt and truth.jsonl.

    ``params``: simweb shape parameters (NAME=VALUE); ``latency_scale``: simweb's
    ``--latency-scale`` (None: simweb's default, slow hosts as calibrated; 0: no latency).
    """
    out.mkdir(parents=True, exist_ok=True)
    latency = ["--latency-scale", str(latency_scale)] if latency_scale is not None else []
    proc = subprocess.Popen(
        [*SCRAPY, "simweb", "--port", "0", "--pages", str(pages), "--seed", str(seed), "--region", region,
         "--seeds-out", str(out / "seeds.txt"), "--truth", str(out / "truth.jsonl"), *latency,
         *[x for p in params for x in ("--param", p)]],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "simweb listening on" in line:
            return proc, line.strip().split()[-1]
    raise SystemExit(f"simweb did not start (exit code {proc.wait()})")


def run_crawl(label: str, proxy: str, log_file: Path, arguments: Sequence[str]) -> float:
    """``scrapy crawl geo`` through simweb's proxy, logging to ``log_file``; the seconds it took.

    Private addresses are allowed (the proxy is local) and the log level is INFO; ``arguments``
    (``-a``/``-s`` pairs) come after these and may override them.  A failed crawl ends the
    benchmark (SystemExit naming the log).
    """
    env = dict(os.environ, http_proxy=proxy, PYTHONPATH=str(ROOT))
    env.pop("https_proxy", None)
    command = [*SCRAPY, "crawl", "geo", "-s", "GEOFOCUS_ALLOW_PRIVATE=True", "-s", "LOG_LEVEL=INFO",
               "-s", f"LOG_FILE={log_file}", *arguments]
    started = time.time()
    result = subprocess.run(command, cwd=ROOT, env=env)
    if result.returncode != 0:
        raise SystemExit(f"crawl {label} failed with exit code {result.returncode}; see {log_file}")
    return time.time() - started
