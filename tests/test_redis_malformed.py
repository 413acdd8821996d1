"""Frontier entries are data, never code: malformed entries are set aside, not imported or retried.

Scrapy's ``request_from_dict`` imports whatever module an entry's ``_class``
names; a frontier in Redis can be written by anyone who reaches Redis.  Here
malformed entries (bad JSON, an unknown class naming a module with a side
effect, callbacks that are no spider methods, no URL, fields of the wrong
type, values without geofocus's framing) are put into a real Redis crawl and
a real SQLite frontier, and real ``scrapy crawl geo`` runs over them: the
crawl finishes with every page of the site, nothing is imported, each entry
is moved aside (``B:bad`` / the ``malformed`` table) with the stat
``geofocus/frontier/malformed`` and one warning, and no lease is left.
"""

import json
import sqlite3
import subprocess
import sys

import pytest
import redis
from scrapy import Request, Spider
from scrapy.http import FormRequest

from geofocus.frontier import DONE, FrontierEntry, SqliteFrontier
from geofocus.serialize import MalformedRequest, request_from_json_dict, request_to_json_dict
from tests.crawling import ROOT, MiniSite, crawl_command, crawl_env, crawl_log, page
from tests.frontierfile import replace_stored_requests, stored_rows
from tests.redisutil import unique_crawl_id

WEB = {
    "http://www.malformed-test.de/": page("Start", links=["http://www.malformed-test.de/a", "http://www.malformed-test.de/b"]),
    "http://www.malformed-test.de/a": page("A", address="Schloßplatz 1, 26122 Oldenburg"),
    "http://www.malformed-test.de/b": page("B", links=["http://www.malformed-test.de/a"]),
}
EVIL = "import pathlib\npathlib.Path(__file__).with_name('IMPORTED').write_text('ran')\nclass Thing: pass\n"


def malformed_payloads():
    """(fingerprint, request JSON text) pairs that are no request geofocus wrote."""
    url = "http://www.malformed-test.de/never"
    cases = {
        "bad-json": '{"url": "http://www.malformed-test.de/never", ',
        "bad-list": "[1, 2, 3]",
        "bad-class": json.dumps({"url": url, "_class": "evilmod.Thing", "meta": {}}),
        "bad-callback-private": json.dumps({"url": url, "callback": "__init__"}),
        "bad-callback-missing": json.dumps({"url": url, "callback": "no_such_method"}),
        "bad-callback-path": json.dumps({"url": url, "callback": "os.system"}),
        "bad-no-url": json.dumps({"meta": {"geofocus": {"priority": 1.0}}}),
        "bad-meta": json.dumps({"url": url, "meta": "not an object"}),
        "bad-headers": json.dumps({"url": url, "headers": {"X": "not a list"}}),
        "bad-encoding": json.dumps({"url": url, "encoding": "no-such-codec"}),
        "bad-scheme": json.dumps({"url": "no scheme here"}),
    }
    return list(cases.items())


@pytest.fixture
def evil_path(tmp_path):
    d = tmp_path / "evil"
    d.mkdir()
    (d / "evilmod.py").write_text(EVIL)
    return d


class _Spider(Spider):
    name = "s"

    def parse(self, response):
        pass

    def errback(self, failure):
        pass


@pytest.mark.parametrize("fp,text", malformed_payloads())
def test_malformed_entries_raise_one_line_and_import_nothing(fp, text, evil_path, monkeypatch):
    from geofocus.frontier import decode_request

    monkeypatch.syspath_prepend(str(evil_path))
    with pytest.raises(MalformedRequest) as info:
        request_from_json_dict(decode_request(text), _Spider())
    assert "\n" not in str(info.value)
    assert not (evil_path / "IMPORTED").exists() and "evilmod" not in sys.modules


def test_requests_geofocus_writes_come_back_with_their_callbacks():
    spider = _Spider()
    for request in (Request("http://a.de/x?q=1", callback=spider.parse, errback=spider.errback,
                            meta={"geofocus": {"priority": 0.5}}, headers={"Referer": "http://a.de/"}),
                    FormRequest("http://a.de/f", formdata={"k": "v"}, callback=spider.parse)):
        data = json.loads(json.dumps(request_to_json_dict(request, spider)))
        back = request_from_json_dict(data, spider)
        assert type(back) is type(request) and back.url == request.url and back.body == request.body
        assert back.callback == spider.parse and back.meta == request.meta
        assert back.headers == request.headers


def test_request_classes_outside_the_allow_list_are_not_queued():
    class Custom(Request):
        pass

    with pytest.raises(ValueError):
        request_to_json_dict(Custom("http://a.de/"), None)


def run(run_dir, seeds, proxy, evil_path, *extra):
    env = crawl_env(proxy)
    env["PYTHONPATH"] = f"{evil_path}:{env['PYTHONPATH']}"
    return subprocess.run(crawl_command(run_dir, seeds, "-s", "ROBOTSTXT_OBEY=False", *extra), cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)


def check_crawl(out, run_dir, evil_path, n_bad):
    log = out.stderr
    assert out.returncode == 0, log[-3000:]
    assert "Traceback" not in log
    assert {r["url"] for r in crawl_log(run_dir)} == set(WEB)
    assert f"'geofocus/frontier/malformed': {n_bad}," in log
    assert log.count("Setting aside a malformed frontier entry") == 1
    assert not (evil_path / "IMPORTED").exists()
    assert "Remote control HTTP server" not in log  # REMOTE_CONTROL_ENABLED is off


def test_malformed_entries_in_the_sqlite_frontier_are_set_aside(tmp_path, evil_path):
    run_dir = tmp_path / "run"
    frontier = SqliteFrontier(run_dir / "frontier.sqlite")
    frontier.open()
    bad = malformed_payloads()
    for i, (fp, _text) in enumerate(bad):
        frontier.push(FrontierEntry(fp, 1.0 - i / 1000, "www.malformed-test.de", {"url": "placeholder"}))
    frontier.flush()
    frontier.close()
    # the payloads as a foreign writer left them
    replace_stored_requests(run_dir / "frontier.sqlite", {fp: text.encode() for fp, text in bad})
    site = MiniSite(tmp_path, WEB)
    try:
        out = run(run_dir, "http://www.malformed-test.de/", site.proxy, evil_path)
    finally:
        site.stop()
    check_crawl(out, run_dir, evil_path, len(bad))
    db = sqlite3.connect(run_dir / "frontier.sqlite")
    assert {r[0] for r in db.execute("SELECT fp FROM malformed")} == {fp for fp, _ in bad}
    # set aside = done: kept as seen, never queued again
    db.close()
    assert all(stored_rows(run_dir / "frontier.sqlite")[fp]["state"] == DONE for fp, _ in bad)
    # a second run starts clean: nothing left to set aside, no warning
    site = MiniSite(tmp_path, WEB)
    try:
        again = run(run_dir, "http://www.malformed-test.de/", site.proxy, evil_path)
    finally:
        site.stop()
    assert again.returncode == 0 and "Setting aside" not in again.stderr


def test_malformed_entries_in_a_redis_crawl_are_set_aside(tmp_path, evil_path, shared_redis):
    crawl = unique_crawl_id("malformed")
    base = f"geofocus:{crawl}"
    client = redis.Redis(port=shared_redis.port)
    bad = malformed_payloads()
    for i, (fp, text) in enumerate(bad):
        client.zadd(f"{base}:q:default", {fp: 1.0 - i / 1000})
        client.hset(f"{base}:req", fp, f"default\twww.malformed-test.de\t{text}")
    # values without geofocus's "<node>\t<slot>\t<json>" framing
    for fp, value in (("bad-frame-0", "garbage"), ("bad-frame-1", "default\tno-second-tab")):
        client.zadd(f"{base}:q:default", {fp: 0.99})
        client.hset(f"{base}:req", fp, value)
    site = MiniSite(tmp_path, WEB)
    try:
        out = run(tmp_path / "run", "http://www.malformed-test.de/", site.proxy, evil_path,
                  "-s", f"GEOFOCUS_REDIS_URL={shared_redis.url}", "-s", f"GEOFOCUS_CRAWL_ID={crawl}",
                  "-s", "GEOFOCUS_REDIS_IDLE_TIMEOUT=2", "-s", "GEOFOCUS_REDIS_FLUSH_INTERVAL=0.2")
    finally:
        site.stop()
    check_crawl(out, tmp_path / "run", evil_path, len(bad) + 2)
    aside = {k.decode(): v.decode() for k, v in client.hgetall(f"{base}:bad").items()}
    assert set(aside) == {fp for fp, _ in bad} | {"bad-frame-0", "bad-frame-1"}
    assert "unknown request class 'evilmod.Thing'" in aside["bad-class"]
    assert client.zcard(f"{base}:leases") == 0 and client.zcard(f"{base}:q:default") == 0
    assert not any(client.hexists(f"{base}:req", fp) for fp in aside)
    assert int(client.hget(f"{base}:stats", "malformed")) == len(aside)
