"""Helpers for end-to-end tests: serve a hand-made web and run ``scrapy crawl geo`` on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from twisted.web import resource

ROOT = Path(__file__).resolve().parent.parent
SCRAPY = [sys.executable, "-m", "scrapy.cmdline"]


def page(body: str = "", links: list[str] | tuple[str, ...] = (), address: str = "", lang: str = "de") -> str:
    anchors = " ".join(f'<a href="{u}">{u.rsplit("/", 1)[-1] or "home"}</a>' for u in links)
    addr = f"<address>{address}</address>" if address else ""
    return f'<html lang="{lang}"><body><p>{body}</p>{addr}<p>{anchors}</p></body></html>'


class MiniSite:
    def __init__(self, tmp_path: Path, pages: dict):
        self.path = tmp_path / "site.json"
        self.path.write_text(json.dumps(pages))
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "minisite.py"), str(self.path)],
            stdout=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        assert "listening on" in line, line
        self.proxy = line.split()[-1]

    def requests(self) -> list[str]:
        log = Path(str(self.path) + ".requests")
        return log.read_text().split() if log.exists() else []

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def crawl_command(run_dir: Path, seeds: str, *extra: str, region: str = "oldenburg") -> list[str]:
    return [
        *SCRAPY, "crawl", "geo", "-a", f"region={region}", "-a", f"seeds={seeds}",
        "-s", f"GEOFOCUS_RUN_DIR={run_dir}", "-s", "GEOFOCUS_ALLOW_PRIVATE=True",
        "-s", "LOG_LEVEL=INFO", "-s", "GEOFOCUS_FRONTIER_FLUSH_INTERVAL=0.2",
        "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0", *extra,
    ]


def crawl_env(proxy: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    if proxy:
        env["http_proxy"] = proxy
    env.pop("https_proxy", None)
    return env


def run_crawl(
    run_dir: Path, seeds: str, proxy: str | None, *extra: str, region: str = "oldenburg", timeout: float = 120
):
    return subprocess.run(
        crawl_command(run_dir, seeds, *extra, region=region),
        cwd=ROOT, env=crawl_env(proxy), capture_output=True, text=True, timeout=timeout,
    )


def crawl_log(run_dir: Path) -> list[dict]:
    path = run_dir / "crawl.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


class Chain(resource.Resource):
    """/p/0 -> /p/1 -> ... -> /p/{pages - 1}: each page links the next."""

    isLeaf = True

    def __init__(self, pages: int):
        super().__init__()
        self.pages = pages

    def render_GET(self, request):
        n = int(request.path.decode().rsplit("/", 1)[-1])
        nxt = f'<a href="/p/{n + 1}">next</a>' if n + 1 < self.pages else ""
        request.setHeader(b"content-type", b"text/html; charset=utf-8")
        return f"<html><body>page {n} {nxt}</body></html>".encode()


@contextmanager
def chain_site(pages: int) -> Iterator[str]:
    """A ``Chain`` of ``pages`` served in the test's own reactor (for crawls in process); yields its base URL."""
    from twisted.internet import reactor
    from twisted.web import server

    port = reactor.listenTCP(0, server.Site(Chain(pages)), interface="127.0.0.1")
    try:
        yield f"http://127.0.0.1:{port.getHost().port}"
    finally:
        port.stopListening()
