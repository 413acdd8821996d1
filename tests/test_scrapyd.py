"""Deploy to a real scrapyd with scrapyd-deploy and run crawls through its HTTP API.

One scrapyd (started here, on a free port, in a temp dir) runs: a plain crawl
of a small local site, then two jobs that are workers of one crawl shared
through a real redis-server.  Another runs a crawl of simweb, whose proxy its
jobs inherit from scrapyd's environment.
"""

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from redisutil import free_port, redis_server  # noqa: F401
from tinysite import TinySite

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def api(base, path, data=None):
    body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
    with urllib.request.urlopen(base + path, data=body, timeout=10) as r:
        return json.loads(r.read())


@contextmanager
def running_scrapyd(home: Path, env: dict | None = None):
    """A real scrapyd on a free port with its state under ``home``; yields its base URL."""
    port = free_port()
    home.mkdir(parents=True)
    (home / "scrapyd.conf").write_text(
        "[scrapyd]\n"
        f"bind_address = 127.0.0.1\nhttp_port = {port}\n"
        f"eggs_dir = {home}/eggs\nlogs_dir = {home}/logs\nitems_dir = {home}/items\n"
        f"dbs_dir = {home}/dbs\nmax_proc = 2\npoll_interval = 0.3\n"
    )
    proc = subprocess.Popen([str(BIN / "scrapyd")], cwd=home, env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    end = time.monotonic() + 20
    while True:
        try:
            api(base, "daemonstatus.json")
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > end:
                proc.kill()
                raise RuntimeError("scrapyd did not start") from None
            time.sleep(0.2)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def scrapyd(tmp_path):
    home = tmp_path / "scrapyd"
    with running_scrapyd(home) as base:
        yield base, home


def deploy(tmp_path, base):
    """scrapyd-deploy from a copy of the project with a target pointing at the test scrapyd."""
    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copytree(ROOT / "geofocus", proj / "geofocus",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "setup.py", proj)
    cfg = (ROOT / "scrapy.cfg").read_text() + f"\n[deploy:test]\nurl = {base}\nproject = geofocus\n"
    (proj / "scrapy.cfg").write_text(cfg)
    out = subprocess.run([str(BIN / "scrapyd-deploy"), "test", "-v", "1"], cwd=proj,
                         capture_output=True, text=True, timeout=120)
    assert '"status": "ok"' in out.stdout + out.stderr, out.stdout + out.stderr


def wait_finished(base, jobs, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        listing = api(base, "listjobs.json?project=geofocus")
        done = {j["id"] for j in listing["finished"]}
        if set(jobs) <= done:
            return listing
        time.sleep(0.5)
    raise AssertionError(f"jobs not finished in {timeout}s: {api(base, 'listjobs.json?project=geofocus')}")


def test_deploy_and_schedule_crawls_through_the_http_api(tmp_path, scrapyd, redis_server):
    base, home = scrapyd
    site = TinySite(tmp_path / "www")
    try:
        deploy(tmp_path, base)
        assert api(base, "listspiders.json?project=geofocus")["spiders"] == ["geo"]
        common = {"project": "geofocus", "spider": "geo", "region": "oldenburg", "seeds": site.url(0),
                  "setting": ["GEOFOCUS_ALLOW_PRIVATE=1", "ROBOTSTXT_OBEY=0"]}
        job = api(base, "schedule.json", {**common, "setting": common["setting"] + [
            f"GEOFOCUS_RUN_DIR={tmp_path}/run-single"]})["jobid"]
        wait_finished(base, [job])
        items = [json.loads(line) for line in
                 (home / "items" / "geofocus" / "geo" / f"{job}.jl").read_text().splitlines()]
        assert {i["url"] for i in items} == {site.url(n) for n in site.relevant}

        # two scheduled workers of one crawl shared through Redis
        shared = [f"GEOFOCUS_REDIS_URL={redis_server.url}", "GEOFOCUS_CRAWL_ID=scrapyd-demo",
                  "GEOFOCUS_REDIS_IDLE_TIMEOUT=3"]
        jobs = [api(base, "schedule.json", {**common, "setting": common["setting"] + shared + [
            f"GEOFOCUS_RUN_DIR={tmp_path}/run-w{w}"]})["jobid"] for w in (1, 2)]
        wait_finished(base, jobs)
        fetched = []
        for w in (1, 2):
            log = tmp_path / f"run-w{w}" / "crawl.jsonl"
            fetched += [json.loads(line)["url"] for line in log.read_text().splitlines()]
        assert len(fetched) == len(set(fetched)) == site.pages
    finally:
        site.stop()


def test_scheduled_crawl_of_simweb_finishes_with_its_relevant_pages(tmp_path):
    """scrapyd runs `geo` against simweb (its jobs inherit scrapyd's http_proxy) and keeps the items."""
    from simweb_server import running_simweb

    from geofocus.metrics.truth import load_truth

    with running_simweb(tmp_path / "web", pages=5000) as sw:
        home = tmp_path / "scrapyd"
        with running_scrapyd(home, env={"http_proxy": sw.proxy_url}) as base:
            deploy(tmp_path, base)
            job = api(base, "schedule.json", {
                "project": "geofocus", "spider": "geo", "region": "oldenburg", "seeds": str(sw.seeds_file),
                "setting": ["GEOFOCUS_ALLOW_PRIVATE=1", "GEOFOCUS_MAX_PAGES=200",
                            f"GEOFOCUS_RUN_DIR={tmp_path}/run"],
            })["jobid"]
            wait_finished(base, [job], timeout=120)
        items = [json.loads(line) for line in
                 (home / "items" / "geofocus" / "geo" / f"{job}.jl").read_text().splitlines()]
        truth = load_truth(sw.truth_file)
    assert len((tmp_path / "run" / "crawl.jsonl").read_text().splitlines()) >= 200
    assert items and all(truth.grade(i["url"]) == "relevant" for i in items)
