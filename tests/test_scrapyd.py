"""Deploy to a real scrapyd with scrapyd-deploy and run crawls through its HTTP API.

scrapyd runs with HTTP basic auth from $SCRAPYD_USERNAME / $SCRAPYD_PASSWORD
(as in docker-compose.yml): requests without them get 401, scrapyd-deploy
takes them from the environment through scrapy.cfg.

One scrapyd (started here, on a free port, in a temp dir) runs: a plain crawl
of a small local site, then two jobs that are workers of one crawl shared
through a real redis-server.  Another runs a crawl of simweb, whose proxy its
jobs inherit from scrapyd's environment.
"""

import base64
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.redisutil import free_port
from tests.tinysite import TinySite

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CREDENTIALS = {"SCRAPYD_USERNAME": "geofocus-test", "SCRAPYD_PASSWORD": "pw-" + os.urandom(6).hex()}


def api(base, path, data=None, auth=True):
    body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
    request = urllib.request.Request(base + path, data=body)
    if auth:
        token = f"{CREDENTIALS['SCRAPYD_USERNAME']}:{CREDENTIALS['SCRAPYD_PASSWORD']}".encode()
        request.add_header("Authorization", "Basic " + base64.b64encode(token).decode())
    with urllib.request.urlopen(request, timeout=60) as r:
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
    proc = subprocess.Popen([str(BIN / "scrapyd")], cwd=home, env={**os.environ, **CREDENTIALS, **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    end = time.monotonic() + 90
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


def deploy(tmp_path, base, credentials=CREDENTIALS):
    """scrapyd-deploy from a copy of the project with a target pointing at the test scrapyd
    (the credentials come from the environment, through the project's scrapy.cfg)."""
    proj = tmp_path / "proj"
    proj.mkdir(parents=True)
    shutil.copytree(ROOT / "geofocus", proj / "geofocus",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "setup.py", proj)
    cfg = (ROOT / "scrapy.cfg").read_text() + f"\n[deploy:test]\nurl = {base}\nproject = geofocus\n"
    (proj / "scrapy.cfg").write_text(cfg)
    env = {k: v for k, v in os.environ.items() if k not in CREDENTIALS}
    out = subprocess.run([str(BIN / "scrapyd-deploy"), "test", "-v", "1"], cwd=proj,
                         capture_output=True, text=True, timeout=120, env={**env, **credentials})
    if credentials is not CREDENTIALS:
        return out
    assert '"status": "ok"' in out.stdout + out.stderr, out.stdout + out.stderr
    return out


def wait_finished(base, jobs, timeout=180):
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
        refused = deploy(tmp_path / "nocreds", base, credentials={})
        assert '"status": "ok"' not in refused.stdout + refused.stderr
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


def test_scrapyd_refuses_requests_without_its_credentials(tmp_path, scrapyd):
    base, _home = scrapyd
    for path, data in (("daemonstatus.json", None), ("listprojects.json", None),
                       ("schedule.json", {"project": "geofocus", "spider": "geo"})):
        with pytest.raises(urllib.error.HTTPError) as info:
            api(base, path, data, auth=False)
        assert info.value.code == 401
    wrong = dict(CREDENTIALS, SCRAPYD_PASSWORD="wrong")
    token = base64.b64encode(f"{wrong['SCRAPYD_USERNAME']}:{wrong['SCRAPYD_PASSWORD']}".encode()).decode()
    request = urllib.request.Request(base + "daemonstatus.json", headers={"Authorization": "Basic " + token})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request, timeout=60)
    assert info.value.code == 401
    assert api(base, "daemonstatus.json")["status"] == "ok"


def test_scheduled_crawl_of_simweb_finishes_with_its_relevant_pages(tmp_path):
    """scrapyd runs `geo` against simweb (its jobs inherit scrapyd's http_proxy) and keeps the items."""
    from geofocus.metrics.truth import load_truth
    from tests.simweb_server import running_simweb

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
