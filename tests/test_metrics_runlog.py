"""Loading run directories and distinct addresses / GeoJSON."""

import json

import pytest

from geofocus.metrics.addresses import address_key, collect_addresses, to_geojson
from geofocus.metrics.runlog import RunDirError, load_run
from tests.metrics_logs import addr, page, tree_log, u, write_run


def test_load_run_reads_all_files(tmp_path):
    run = load_run(write_run(tmp_path / "r", tree_log(), strategy="distance"))
    assert run.strategy == "distance" and run.region == "oldenburg"
    assert run.fetched == 10 and run.relevant == 4
    assert len(run.series) == 5
    assert run.notes == []


def test_load_run_skips_bad_lines_and_notes_missing_files(tmp_path):
    path = tmp_path / "r"
    path.mkdir()
    (path / "crawl.jsonl").write_text(
        json.dumps(page(u("a"), None, True)) + "\n{broken\n[1]\n" + json.dumps({"status": 200})
        + "\n" + json.dumps({"url": u("b"), "addresses": "junk", "relevant": 1}) + "\n")
    run = load_run(path)
    assert [p["url"] for p in run.pages] == [u("a"), u("b")]
    assert run.pages[1]["addresses"] == [] and run.pages[1]["relevant"] is True
    assert run.strategy == "unknown"
    text = " ".join(run.notes)
    assert "no run.json" in text and "2 malformed" in text and "without a url" in text


def test_not_a_run_dir_is_a_clear_error(tmp_path):
    with pytest.raises(RunDirError, match="no such run directory"):
        load_run(tmp_path / "missing")
    with pytest.raises(RunDirError, match="no crawl.jsonl"):
        load_run(tmp_path)
    (tmp_path / "f.txt").write_text("x")
    with pytest.raises(RunDirError, match="not a directory"):
        load_run(tmp_path / "f.txt")


def test_distinct_addresses_merge_spellings_and_runs():
    other = [page(u("Z", "www.z.de"), None, True, [addr("Achternstraße", "12")], t=0.5)]
    records = collect_addresses([("bfs", tree_log()), ("distance", other)])
    assert len(records) == 3
    by_street = {r.key[0]: r for r in records}
    a1 = by_street["haarenstraße"]
    assert a1.urls == [u("A"), u("F")]
    a2 = by_street["achternstraße"]
    assert a2.runs == ["bfs", "distance"]
    assert a2.first_seen_url == u("Z", "www.z.de")  # earliest time wins across runs


def test_geojson_is_a_feature_collection_of_points():
    no_coords = addr("Markt", "9", lat=None, lon=None)
    nowhere = addr("Weg", "1", postcode="99999", city="Nirgendwo", lat=None, lon=None)
    pages = tree_log() + [page(u("Q"), None, True, [no_coords, nowhere])]
    records = collect_addresses([("run", pages)], {"26122": (53.142, 8.223)})
    gj = json.loads(json.dumps(to_geojson(records)))
    assert gj["type"] == "FeatureCollection"
    assert len(gj["features"]) == 5
    located = [f for f in gj["features"] if f["geometry"]]
    assert len(located) == 4
    for f in located:
        lon, lat = f["geometry"]["coordinates"]
        assert f["geometry"]["type"] == "Point" and 8 < lon < 9 and 53 < lat < 54
        assert f["properties"]["urls"] and f["properties"]["first_seen"].endswith("Z")
    markt9 = next(f for f in gj["features"] if f["properties"]["house_number"] == "9")
    assert markt9["properties"]["precision"] == "postcode"
    assert address_key(no_coords) == ("markt", "9", "26122", "oldenburg")
