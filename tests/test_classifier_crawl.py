"""End to end: ``scrapy crawl geo -a strategy=classifier`` through real Scrapy against simweb.

The link SVM is trained on the links of another simweb Web (seed 2), the map
classifier on simweb images drawn with another seed; the crawl runs on the
seed-1 Web served by the proxy.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from geofocus.classifier.image import MapImageClassifier, features_of_bytes
from geofocus.classifier.simgraph import link_examples
from geofocus.classifier.text import LinkTextClassifier, region_geo_terms
from geofocus.regions import load_region
from geofocus.simweb import SimWeb, WebParams
from geofocus.simweb.images import image_bytes, training_set
from tests.crawling import crawl_log, run_crawl
from tests.simweb_server import running_simweb


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with running_simweb(tmp_path_factory.mktemp("simweb"), pages=5000, seed=1) as server:
        yield server


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("models")
    other_web = SimWeb(WebParams(pages=5000, seed=2))
    texts, labels = link_examples(other_web, 400, seed=1)
    link = LinkTextClassifier.train(texts, labels, region_geo_terms(load_region("oldenburg")), region="oldenburg")
    link.save(folder / "link.json")
    sample = training_set(seed=7, per_kind=10)
    image = MapImageClassifier.train([features_of_bytes(b) for _, b, _ in sample], [m for _, _, m in sample])
    image.save(folder / "image.json")
    return folder / "link.json", folder / "image.json"


def classifier_crawl(run_dir: Path, web, models, *settings: str, seeds: str | None = None):
    link, image = models
    args = ["-a", "strategy=classifier", "-s", f"GEOFOCUS_LINK_SVM={link}", "-s", f"GEOFOCUS_IMAGE_SVM={image}",
            "-s", "GEOFOCUS_FRONTIER_SEED=1"]
    for s in settings:
        args += ["-s", s]
    proc = run_crawl(run_dir, seeds or str(web.seeds_file), web.proxy_url, *args, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    stats = json.loads((run_dir / "stats.json").read_text())
    pages = {}
    log = run_dir / "classifier.jsonl"
    for line in log.read_text().splitlines() if log.exists() else []:
        record = json.loads(line)
        pages[record["url"]] = record
    return proc, stats, pages


def test_images_fetched_classified_and_links_reprioritised_by_maps(tmp_path, web, models):
    t1, t2 = 0.3, 0.05
    run = tmp_path / "both"
    proc, stats, pages = classifier_crawl(
        run, web, models, f"GEOFOCUS_CLASSIFIER_T1={t1}", f"GEOFOCUS_CLASSIFIER_T2={t2}",
        "GEOFOCUS_CLASSIFIER_SELECTION=both", "DEPTH_LIMIT=3", "GEOFOCUS_MAX_PAGES=400", "CONCURRENT_REQUESTS=4",
    )
    log = crawl_log(run)
    assert stats["finish_reason"] in ("finished", "budget_reached")
    # Images: fetched through Scrapy and classified, but neither pages nor finds.
    assert stats["geofocus/images/requested"] >= 10
    assert stats["geofocus/images/classified"] >= 5
    assert stats.get("geofocus/images/maps", 0) + stats.get("geofocus/images/embeds", 0) >= 1
    assert stats["geofocus/fetched"] == len(log)
    assert not [r for r in log if "/img/" in r["url"]]
    # Maps let links under t1 through, and move queued links up the frontier.
    assert stats["geofocus/classifier/links/released_by_map"] >= 1
    assert stats["geofocus/classifier/links/requeued_by_map"] >= 1
    assert stats.get("geofocus/frontier/reprioritised", 0) >= 1
    # Thresholds: every page fetched from a link has score_T >= t1, or >= t2 under a parent with a map.
    by_map = 0
    for record in log:
        if record["parent"] is None:
            continue  # a seed
        page = pages.get(record["url"])
        if page is None:
            continue  # fetched as the crawl closed, before its own images were in
        score_t = page["score_t"]
        assert score_t is not None and score_t >= t2, page
        if score_t < t1:
            parent = pages[record["parent"]]
            assert parent["score_v"] >= 0.5, (page, parent)
            by_map += 1
    assert by_map >= 1


def test_exploration_pages_flagged_and_not_counted(tmp_path, web, models):
    t1, t3 = 0.4, 0.1
    run = tmp_path / "explore"
    items_file = tmp_path / "items.jsonl"
    proc, stats, pages = classifier_crawl(
        run, web, models, f"GEOFOCUS_CLASSIFIER_T1={t1}", f"GEOFOCUS_CLASSIFIER_T3={t3}",
        "GEOFOCUS_CLASSIFIER_SELECTION=text", "GEOFOCUS_CLASSIFIER_EXPLORATION=text", "GEOFOCUS_CLASSIFIER_SKIP_K=1",
        "DEPTH_LIMIT=3", "GEOFOCUS_MAX_PAGES=400", "FEEDS=" + json.dumps({str(items_file): {"format": "jsonlines"}}),
    )
    assert "geofocus/images/requested" not in stats  # text selection and exploration fetch no image
    explored = {url: p for url, p in pages.items() if p["explore"] > 0}
    assert explored, "no exploration page"
    assert stats["geofocus/classifier/exploration_pages"] == len(explored)
    assert all(p["explore"] == 1 for p in explored.values())  # skip-one: trails of one page
    assert all(t3 <= p["score_t"] < t1 for p in explored.values())
    # Children of exploration pages: only links over t1 (a trail of k = 1 page stops there).
    for record in crawl_log(run):
        if record["parent"] in explored:
            assert pages[record["url"]]["explore"] == 0 and pages[record["url"]]["score_t"] >= t1
    # Exploration pages are never finds, even when relevant.
    items = [json.loads(line) for line in items_file.read_text().splitlines()]
    item_urls = {i["url"] for i in items}
    assert not item_urls & set(explored)
    finds = [u for u, p in pages.items() if p["relevant"] and p["explore"] == 0]
    assert stats.get("geofocus/classifier/finds", 0) == len(items) == len(finds)
    assert stats.get("geofocus/classifier/exploration_relevant", 0) == sum(p["relevant"] for p in explored.values())


def test_broken_and_oversized_images_are_skipped_with_a_stat(tmp_path, web, models):
    broken: dict[str, tuple[str, int]] = {}  # served -> (page URL, size of the served body), the smallest
    map_page, map_size = None, 0  # the page with the largest map
    for line in web.truth_file.read_text().splitlines():
        record = json.loads(line)
        for image in record.get("images", []):
            if image["kind"] in ("icon", "embed") or (image["served"] == "ok" and image["kind"] != "map"):
                continue
            size = len(image_bytes(1, image["url"], image["kind"], image["served"])[1])
            if image["served"] != "ok":
                if image["served"] not in broken or size < broken[image["served"]][1]:
                    broken[image["served"]] = (record["url"], size)
            elif size > map_size:
                map_page, map_size = record["url"], size
    assert set(broken) == {"truncated", "corrupt", "not_image"} and map_page, broken
    limit = max(size for _, size in broken.values()) + 1
    assert limit < map_size  # the map is over the limit, the broken images are not
    seeds = ",".join([*(url for url, _ in broken.values()), map_page])
    run = tmp_path / "broken"
    proc, stats, pages = classifier_crawl(
        run, web, models, "GEOFOCUS_CLASSIFIER_T1=1.0", "GEOFOCUS_CLASSIFIER_T2=0.999",  # the seeds only
        f"GEOFOCUS_IMAGE_MAX_BYTES={limit}", seeds=seeds,
    )
    assert stats["finish_reason"] == "finished"
    for reason in ("truncated", "corrupt", "not_image", "too_large"):
        assert stats.get(f"geofocus/images/skipped/{reason}", 0) >= 1, (reason, stats)
    assert stats["geofocus/fetched"] == len(broken) + 1 == len(pages)
