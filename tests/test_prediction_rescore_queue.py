"""Whole-queue re-scoring of the ``online`` strategy over the embedded frontier (real Scrapy crawls)."""

from __future__ import annotations

import json

import pytest

from geofocus.frontier import FrontierEntry, SqliteFrontier
from tests.crawling import crawl_log, run_crawl
from tests.simweb_server import running_simweb

BUDGET = 400
BATCH = 100  # the batch of the fallback; a whole-queue pass is not bound by it


def test_frontier_lists_its_whole_queue_from_memory(tmp_path):
    f = SqliteFrontier(tmp_path / "f.sqlite", seed=1)
    f.open()
    for i in range(5):
        f.push(FrontierEntry(f"fp{i}", i / 10, "h", {"url": f"http://h/{i}"}))
    f.pop()  # fp4, the best: leased, not queued
    f.done("fp0")
    fps, priorities = f.queued_priorities()
    assert sorted(zip(fps, priorities, strict=True)) == [("fp1", 0.1), ("fp2", 0.2), ("fp3", 0.3)]
    # one bulk write-back reorders the queue
    assert f.update_priorities([(fp, 1 - p, None) for fp, p in zip(fps, priorities, strict=True)]) == 3
    assert [f.pop().fingerprint for _ in range(3)] == ["fp1", "fp2", "fp3"]
    f.close()


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with running_simweb(tmp_path_factory.mktemp("simweb"), pages=5000, seed=2) as server:
        yield server


def crawl(web, run_dir, *settings):
    result = run_crawl(
        run_dir, str(web.seeds_file), web.proxy_url, "-a", "strategy=online",
        "-s", f"GEOFOCUS_MAX_PAGES={BUDGET}", "-s", "GEOFOCUS_RESCORE_EVERY=50",
        "-s", f"GEOFOCUS_RESCORE_BATCH={BATCH}", "-s", "GEOFOCUS_RESCORE_QUEUE=True", *settings, timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    log = crawl_log(run_dir)
    assert len(log) >= BUDGET
    assert len({r["url"] for r in log}) == len(log)  # nothing fetched twice
    return json.loads((run_dir / "stats.json").read_text())


@pytest.mark.timeout(600)
def test_online_rescores_the_whole_queue_in_a_crawl(web, tmp_path):
    stats = crawl(web, tmp_path / "whole")
    passes = stats["geofocus/frontier/rescore_queue/passes"]
    queued = stats["geofocus/frontier/rescore_queue/queued"]
    assert passes >= BUDGET // 50 - 2
    # every pass covered the whole queue (about 775 entries a pass seen here), not a batch ...
    assert queued / passes > 3 * BATCH, (queued, passes)
    # ... and the model scored nearly every queued link (all but the seeds have features)
    assert stats["geofocus/prediction/rescore_queue/scored"] >= 0.95 * queued
    assert stats["geofocus/frontier/rescored"] > 0.2 * queued  # most priorities moved as the model learned
    # the features kept are those of the queue at the last pass (fetched links are forgotten)
    kept = stats["geofocus/prediction/rescore_queue/features"]
    assert 0 < kept <= stats["geofocus/frontier/size"] + 50 * 40  # + links found in the last 50 pops
    assert stats["geofocus/prediction/rescore_queue/features_bytes"] / kept < 400

    # GEOFOCUS_RESCORE_QUEUE=False: the batches of before (what a shared Redis crawl does)
    stats = crawl(web, tmp_path / "batches", "-s", "GEOFOCUS_RESCORE_QUEUE=False")
    assert "geofocus/frontier/rescore_queue/passes" not in stats
    assert 0 < stats["geofocus/frontier/rescored"] <= BATCH * (stats["geofocus/scheduler/dequeued"] // 50)
