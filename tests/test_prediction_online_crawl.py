"""The ``online`` strategy end to end (real Scrapy through simweb's proxy), against the paper's ``adaptive``."""

from __future__ import annotations

import json

import pytest

from geofocus.metrics.truth import load_truth
from geofocus.prediction.online import OnlineLinkModel
from tests.crawling import crawl_log, run_crawl
from tests.simweb_server import running_simweb

BUDGET = 500


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with running_simweb(tmp_path_factory.mktemp("simweb"), pages=20000, seed=1) as server:
        yield server


def crawl(web, tmp_path, strategy, name):
    run_dir = tmp_path / name
    result = run_crawl(
        run_dir, str(web.seeds_file), web.proxy_url, "-a", f"strategy={strategy}",
        "-s", f"GEOFOCUS_MAX_PAGES={BUDGET}", timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return run_dir


@pytest.mark.timeout(3600)  # four crawls; the shared test machine is often busy
def test_online_finds_more_relevant_pages_than_adaptive_in_its_first_500_fetches(web, tmp_path):
    # Two crawls per strategy, summed: early learning varies from run to run.
    truth = load_truth(web.truth_file)
    found = {"adaptive": [], "online": []}
    for run in (1, 2):
        for strategy in found:
            name = f"{strategy}-{run}"
            run_dir = crawl(web, tmp_path, strategy, name)
            log = crawl_log(run_dir)
            assert len(log) >= BUDGET
            assert len({r["url"] for r in log}) == len(log)  # nothing fetched twice
            found[strategy].append(sum(1 for r in log[:BUDGET] if truth.grade(r["url"]) == "relevant"))
            stats = json.loads((run_dir / "stats.json").read_text())
            assert stats["geofocus/frontier/rescored"] > 0  # queued links re-scored as the model learns
            if strategy == "online":
                # The learned model is saved as plain arrays and holds the crawl's examples and hosts.
                model = OnlineLinkModel.load(run_dir / "model.npz")
                assert model.examples(1) >= BUDGET - 50 and len(model.hosts) > 10
    assert sum(found["online"]) > sum(found["adaptive"]) > 0, found
