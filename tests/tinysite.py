"""A small real web for crawl tests: static pages served over HTTP on 4 loopback hosts.

Pages ``/p<i>.html`` on hosts 127.0.0.1-4 (all loopback on Linux) link to a
few others; every third page carries an Oldenburg postal address.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.redisutil import free_port

ADDRESS = "Schloßplatz {n}, 26122 Oldenburg"


def build_site(root: Path, pages: int = 60, seed: int = 7) -> set[int]:
    """Writes the pages; returns the numbers of the relevant ones."""
    rnd = random.Random(seed)
    relevant = set()
    for i in range(pages):
        links = sorted({(i + 1) % pages, (i * 7 + 3) % pages, rnd.randrange(pages)})
        body = "".join(f'<li><a href="{{host{j % 4}}}/p{j}.html">Seite {j} Oldenburg</a></li>' for j in links)
        text = "Willkommen auf unserer Seite über die Stadt und das Leben hier. "
        if i % 3 == 0:
            relevant.add(i)
            text += f"<address>Café am Markt, {ADDRESS.format(n=i % 9 + 1)}</address>"
        html = (f'<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Seite {i}</title>'
                f"</head><body><h1>Seite {i}</h1><p>{text}</p><ul>{body}</ul></body></html>")
        (root / f"p{i}.html").write_text(html, encoding="utf-8")
    return relevant


SERVER = """
import sys, time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
delay = float(sys.argv[2])
class Handler(SimpleHTTPRequestHandler):
    def do_GET(self):
        time.sleep(delay)  # a slow web, so that a crawl lasts long enough to be disturbed
        super().do_GET()
    def log_message(self, *args):
        pass
ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer((sys.argv[4], int(sys.argv[1])), partial(Handler, directory=sys.argv[3])).serve_forever()
"""


class TinySite:
    def __init__(self, root: Path, pages: int = 60, delay: float = 0.0, per_host: bool = False) -> None:
        """``per_host``: one server process per host (4 CPUs' worth of serving, for benchmarks)."""
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.relevant = build_site(root, pages)
        self.urls = {self.url(i) for i in range(pages)}
        self.pages = pages
        for p in root.glob("p*.html"):
            text = p.read_text(encoding="utf-8")
            for h in range(4):
                text = text.replace(f"{{host{h}}}", self.host(h))
            p.write_text(text, encoding="utf-8")
        binds = [f"127.0.0.{h + 1}" for h in range(4)] if per_host else ["0.0.0.0"]
        self.procs = [subprocess.Popen(
            [sys.executable, "-c", SERVER, str(self.port), str(delay), str(root), bind],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for bind in binds]
        end = time.monotonic() + 10
        while True:
            try:
                for h in range(4):
                    urllib.request.urlopen(self.url(h), timeout=1).read()
                break
            except OSError:
                if time.monotonic() > end:
                    raise RuntimeError("tiny site did not start") from None
                time.sleep(0.05)

    def host(self, h: int) -> str:
        return f"http://127.0.0.{h + 1}:{self.port}"

    def url(self, i: int) -> str:
        return f"{self.host(i % 4)}/p{i}.html"

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
            proc.wait(10)
