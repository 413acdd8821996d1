"""WARC output of real crawls of simweb, read back record by record with warcio and `warcio index`."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from tests.crawling import crawl_log, run_crawl
from tests.simweb_server import running_simweb

WARCIO = [sys.executable, "-m", "warcio.cli"]


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with running_simweb(tmp_path_factory.mktemp("simweb"), pages=3000, seed=1) as server:
        yield server


def crawl(web, run_dir: Path, budget: int, *extra: str):
    return run_crawl(run_dir, str(web.seeds_file), web.proxy_url, "-a", "strategy=bfs",
                     "-s", f"GEOFOCUS_MAX_PAGES={budget}", *extra, timeout=300)


def sha1_digest(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def read_warcs(directory: Path) -> list[tuple[str, list[dict]]]:
    """(file name, records) per file; each record: type, url, headers, payload (bytes)."""
    files = []
    for path in sorted(directory.glob("*.warc.gz")):
        records = []
        with open(path, "rb") as f:
            for rec in ArchiveIterator(f):
                records.append({"type": rec.rec_type, "url": rec.rec_headers.get_header("WARC-Target-URI"),
                                "headers": dict(rec.rec_headers.headers), "http": rec.http_headers,
                                "payload": rec.content_stream().read()})
        files.append((path.name, records))
    return files


def test_all_pages_archived_with_requests_digests_metadata_and_rotation(web, tmp_path):
    run_dir = tmp_path / "run"
    result = crawl(web, run_dir, 120, "-s", "GEOFOCUS_WARC=all", "-s", "GEOFOCUS_WARC_MAX_SIZE=60000")
    assert result.returncode == 0, result.stderr[-3000:]
    log = crawl_log(run_dir)
    warc_dir = run_dir / "warc"
    assert not list(warc_dir.glob("*.open")), "every file is complete and renamed"
    files = read_warcs(warc_dir)
    assert len(files) >= 3, "rotated by size"
    for name, records in files:
        assert records[0]["type"] == "warcinfo" and [r["type"] for r in records].count("warcinfo") == 1
        assert records[0]["headers"]["WARC-Filename"] == name
        assert b"isPartOf: run" in records[0]["payload"] and b"format: WARC File Format 1.1" in records[0]["payload"]
        assert all(r["headers"]["WARC-Date"].count(".") == 1 for r in records)  # WARC 1.1: sub-second dates
    for name, _ in files[:-1]:  # every file but the last was closed at the size limit
        assert (warc_dir / name).stat().st_size >= 60000
    records = [r for _, rs in files for r in rs]
    kinds = Counter(r["type"] for r in records)
    assert kinds["response"] == kinds["request"] == len(log)
    assert kinds["metadata"] == sum(r["relevant"] for r in log) > 0
    assert Counter(r["url"] for r in records if r["type"] == "response") == Counter(r["url"] for r in log)

    ids = {r["headers"]["WARC-Record-ID"]: r for r in records}
    by_url = {r["url"]: r for r in log}
    for rec in records:
        if rec["type"] == "response":
            assert rec["headers"]["WARC-Payload-Digest"] == sha1_digest(rec["payload"])
            assert rec["http"].get_statuscode() == str(by_url[rec["url"]]["status"])
            assert int(rec["http"].get_header("Content-Length")) == len(rec["payload"])
        elif rec["type"] == "request":
            response = ids[rec["headers"]["WARC-Concurrent-To"]]
            assert response["type"] == "response" and response["url"] == rec["url"]
            method, target = rec["http"].protocol, rec["http"].statusline  # warcio's split of "GET /path HTTP/1.1"
            assert method == "GET" and target.startswith("/") and target.endswith(" HTTP/1.1")
            assert rec["http"].get_header("User-Agent").startswith("geofocus")
        elif rec["type"] == "metadata":
            assert ids[rec["headers"]["WARC-Refers-To"]]["type"] == "response"
            meta = json.loads(rec["payload"])
            assert meta["relevant"] is True and meta["addresses"] == by_url[rec["url"]]["addresses"]

    # the archived bodies are what the web serves: fetch a few again through the proxy
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": web.proxy_url}))
    responses = [r for r in records if r["type"] == "response" and r["http"].get_statuscode() == "200"]
    for rec in responses[:: max(1, len(responses) // 5)]:
        with opener.open(rec["url"], timeout=10) as page:
            assert sha1_digest(page.read()) == rec["headers"]["WARC-Payload-Digest"]

    # the standard tools read them: every record indexed, every digest checked
    paths = [str(p) for p in sorted(warc_dir.glob("*.warc.gz"))]
    index = subprocess.run([*WARCIO, "index", *paths], capture_output=True, text=True, timeout=60)
    assert index.returncode == 0 and len(index.stdout.splitlines()) == len(records)
    check = subprocess.run([*WARCIO, "check", *paths], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr

    # replay the way pywb does: a CDXJ index (pywb's indexer), then each capture read at its offset
    cdxj = subprocess.run([sys.executable, "-m", "cdxj_indexer.main", *paths], capture_output=True, text=True,
                          timeout=60)
    assert cdxj.returncode == 0, cdxj.stderr
    captures = [json.loads(line.split(" ", 2)[2]) for line in cdxj.stdout.splitlines()]
    html = [c for c in captures if c.get("status")]
    assert sorted(c["url"] for c in html) == sorted(r["url"] for r in log)
    for capture in html:
        with open(warc_dir / capture["filename"], "rb") as f:
            f.seek(int(capture["offset"]))
            member = io.BytesIO(f.read(int(capture["length"])))
        rec = next(iter(ArchiveIterator(member)))
        assert rec.rec_type == "response" and rec.rec_headers.get_header("WARC-Target-URI") == capture["url"]
        assert sha1_digest(rec.content_stream().read()) == capture["digest"]


def test_relevant_mode_archives_only_relevant_pages_and_a_resume_adds_files(web, tmp_path):
    run_dir = tmp_path / "run"
    for budget in (30, 70):
        result = crawl(web, run_dir, budget, "-s", "GEOFOCUS_WARC=relevant")
        assert result.returncode == 0, result.stderr[-3000:]
    log = crawl_log(run_dir)
    files = read_warcs(run_dir / "warc")
    assert len(files) == 2  # one per run, never appended to
    records = [r for _, rs in files for r in rs]
    relevant = sorted(r["url"] for r in log if r["relevant"])
    assert relevant
    for kind in ("response", "request", "metadata"):
        assert sorted(r["url"] for r in records if r["type"] == kind) == relevant


def test_bad_warc_mode_stops_with_one_line(web, tmp_path):
    result = crawl(web, tmp_path / "run", 10, "-s", "GEOFOCUS_WARC=everything")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "GEOFOCUS_WARC=everything" in result.stderr and "off, relevant, all" in result.stderr


@pytest.fixture
def small_disk(tmp_path):
    """A 128 KiB tmpfs (needs root, as the suite runs in CI; elsewhere: skip with the reason)."""
    mount = tmp_path / "small-disk"
    mount.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a small tmpfs needs root")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(mount)], check=True)
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_full_disk_stops_the_crawl_without_a_truncated_record(web, tmp_path, small_disk):
    run_dir = tmp_path / "run"
    result = crawl(web, run_dir, 1000, "-s", "GEOFOCUS_WARC=all", "-s", f"GEOFOCUS_WARC_DIR={small_disk}")
    assert result.returncode == 0, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if "[geofocus.extensions.warc] ERROR" in line]
    assert len(errors) == 1 and "No space left on device" in errors[0] and "stopping the crawl" in errors[0]
    assert "Traceback" not in result.stderr
    assert "'finish_reason': 'warc_write_failed'" in result.stderr
    log = crawl_log(run_dir)
    assert 0 < len(log) < 1000
    files = read_warcs(small_disk)  # reads to the end: no truncated record
    responses = [r for _, rs in files for r in rs if r["type"] == "response"]
    assert 0 < len(responses) < len(log)
    assert all(r["headers"]["WARC-Payload-Digest"] == sha1_digest(r["payload"]) for r in responses)
    paths = [str(p) for p in small_disk.glob("*.warc.gz")]
    assert subprocess.run([*WARCIO, "check", *paths], capture_output=True, timeout=60).returncode == 0
