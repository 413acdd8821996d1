"""Start ``scrapy simweb`` as a subprocess for end-to-end tests.

Use the context manager anywhere::

    from tests.simweb_server import running_simweb
    with running_simweb(tmp_path, pages=5000) as sw:
        proxy_url, seeds_file, truth_file = sw
        env = {**os.environ, "http_proxy": proxy_url}

or the module-scoped pytest fixture ``simweb`` (import it into a test module:
``from simweb_server import simweb  # noqa: F401``). The server listens on a free
port, runs without artificial latency (``latency_scale=0``) unless asked, and
is terminated (SIGTERM, then SIGKILL) at teardown.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
LISTENING = "simweb listening on "


class SimwebServer(NamedTuple):
    proxy_url: str
    seeds_file: Path
    truth_file: Path

    @property
    def port(self) -> int:
        return int(self.proxy_url.rsplit(":", 1)[1])

    def seeds(self) -> list[str]:
        return [line for line in self.seeds_file.read_text().splitlines() if line.strip()]


def _reader(stream, out: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        out.put(line)
    out.put(None)


@contextmanager
def running_simweb(workdir: Path, pages: int = 5000, seed: int = 1, region: str = "oldenburg",
                   latency_scale: float = 0.0, timeout: float = 120.0,
                   extra_args: tuple[str, ...] = (), env: dict | None = None) -> Iterator[SimwebServer]:
    """Run ``scrapy simweb --port 0`` until the block ends; yields (proxy_url, seeds, truth)."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    seeds_file = workdir / f"seeds-{seed}-{pages}.txt"
    truth_file = workdir / f"truth-{seed}-{pages}.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "simweb", "--port", "0", "--pages", str(pages),
           "--seed", str(seed), "--region", region, "--seeds-out", str(seeds_file),
           "--truth", str(truth_file), "--latency-scale", str(latency_scale), "--nolog", *extra_args]
    proc_env = {**os.environ, **(env or {})}
    proc_env.pop("http_proxy", None)
    proc_env.pop("HTTP_PROXY", None)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=proc_env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
    errors: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stderr, errors), daemon=True).start()
    try:
        deadline = time.monotonic() + timeout
        url = None
        while url is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RuntimeError("simweb did not start in time")
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                err = "".join(x for x in iter(errors.get_nowait, None)) if not errors.empty() else ""
                raise RuntimeError(f"simweb exited with {proc.wait()}: {err[-2000:]}")
            if line.startswith(LISTENING):
                url = line[len(LISTENING):].strip()
        yield SimwebServer(url, seeds_file, truth_file)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def simweb(tmp_path_factory) -> Iterator[SimwebServer]:
    """A running simweb of 5,000 pages (seed 1, oldenburg) for the tests of one module."""
    with running_simweb(tmp_path_factory.mktemp("simweb")) as server:
        yield server
