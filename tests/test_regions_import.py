"""`scrapy region import` from GeoNames and OpenStreetMap files, end to end."""

from __future__ import annotations

import bz2
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from geofocus.geoparser import GeoParser
from geofocus.regions import RegionError, load_region
from geofocus.regions.build import build_pack, read_geonames
from geofocus.regions.osm import OSMError, read_extract, streets

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SCRAPY = [sys.executable, "-m", "scrapy.cmdline"]


@pytest.mark.parametrize("name", ["mini.osm", "mini.osm.pbf", "mini_osmium.osm.pbf"])
def test_osm_readers_agree_on_streets(name):
    extract = read_extract(DATA / name)
    found = streets(extract)
    assert set(found) == {"Schloßplatz", "Lange Straße", "Theaterwall", "Carl-von-Ossietzky-Straße", "Damm",
                          "Lappan"}  # not the river, not the unnamed footway; Lappan from addr:street
    assert found["Schloßplatz"] == pytest.approx((53.1386, 8.2148), abs=1e-4)
    assert len(extract.nodes) == 12


@pytest.mark.parametrize("opener, suffix", [(gzip.open, ".osm.gz"), (bz2.open, ".osm.bz2")])
def test_compressed_osm_xml(tmp_path, opener, suffix):
    path = tmp_path / f"mini{suffix}"
    with opener(path, "wb") as out:
        out.write((DATA / "mini.osm").read_bytes())
    assert streets(read_extract(path)) == streets(read_extract(DATA / "mini.osm"))


def test_osm_reader_rejects_other_files(tmp_path):
    (tmp_path / "x.osm.pbf").write_bytes(b"\x00\x00\x00\x05hello world")
    (tmp_path / "y.osm").write_text("<html><body>not osm")
    (tmp_path / "w.osm").write_text("<html><body/></html>")  # well-formed, but no OSM data
    truncated = (DATA / "mini.osm.pbf").read_bytes()[:-10]
    (tmp_path / "z.osm.pbf").write_bytes(truncated)
    for name in ("x.osm.pbf", "y.osm", "w.osm", "z.osm.pbf", "missing.osm"):
        with pytest.raises(OSMError):
            read_extract(tmp_path / name)


def test_osm_pbf_with_a_field_of_the_wrong_wire_type_is_an_osm_error(tmp_path):
    # BlobHeader: type "OSMHeader", then datasize (field 3, a varint) sent length-delimited.
    header = b"\x0a\x09OSMHeader" + b"\x1a\x01x"
    (tmp_path / "bad.osm.pbf").write_bytes(len(header).to_bytes(4, "big") + header)
    with pytest.raises(OSMError, match="malformed PBF"):
        read_extract(tmp_path / "bad.osm.pbf")


def test_geonames_reader_skips_malformed_lines(tmp_path):
    text = (
        DATA / "mini_geonames.txt"
    ).read_text() + "DE\t99999\tNowhere\tonly four\n\nDE\t1\tX\t\t\t\t\t\t\tabc\tdef\t1\n"
    (tmp_path / "g.txt").write_text(text)
    rows, bad = read_geonames(tmp_path / "g.txt")
    assert len(rows) == 10 and bad == 2
    with pytest.raises(RegionError, match="GeoNames postal-code format"):
        read_geonames(DATA / "mini.osm")


def test_build_pack_finds_confusables_and_streets():
    pack, _ = build_pack("t", DATA / "mini_geonames.txt", places=["Oldenburg"], osm=[DATA / "mini.osm"])
    assert set(pack["postcodes"]) == {"26121", "26122", "26123", "26129", "26135"}
    assert "Oldenburg in Holstein" in pack["confusables"]  # same name elsewhere
    assert "Wardenburg" in pack["confusables"] and "Bremen" not in pack["confusables"]  # neighbour vs far away
    assert pack["confusable_postcodes"]["23758"] == "Oldenburg in Holstein"
    assert "Schloßplatz" in pack["streets"]
    assert "GeoNames" in pack["sources"]["postcodes, cities, confusables"]
    assert "ODbL" in pack["sources"]["streets"]


def _scrapy(args: list[str], env_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, GEOFOCUS_REGION_PATH=str(env_path), PYTHONPATH=str(ROOT))
    return subprocess.run([*SCRAPY, "region", *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120)


def test_scrapy_region_import_builds_a_pack_the_geoparser_uses(tmp_path, monkeypatch):
    done = _scrapy(["import", "mini-ol", "--geonames", str(DATA / "mini_geonames.txt"), "--place", "Oldenburg",
                    "--osm", str(DATA / "mini.osm.pbf"), "--alias", "Oldenburg (Oldb)"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "5 postcodes" in done.stdout
    pack = json.loads((tmp_path / "mini-ol.json").read_text())
    assert pack["cities"][0]["aliases"] == ["Oldenburg (Oldb)"]

    monkeypatch.setenv("GEOFOCUS_REGION_PATH", str(tmp_path))
    load_region.cache_clear()
    try:
        parser = GeoParser(load_region("mini-ol"))
    finally:
        load_region.cache_clear()
    inside = parser.parse("<p>Schloßplatz 1<br>26122 Oldenburg (Oldb)</p>")
    assert inside.relevant and inside.addresses[0].precision == "street"
    assert not parser.parse("Markt 1, 23758 Oldenburg in Holstein").relevant
    assert not parser.parse("Hauptstraße 5, 26203 Wardenburg").relevant

    listed = _scrapy(["list"], tmp_path)
    assert "mini-ol" in listed.stdout and "oldenburg" in listed.stdout

    again = _scrapy(["import", "mini-ol", "--geonames", str(DATA / "mini_geonames.txt"), "--place", "Oldenburg"],
                    tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr


def test_scrapy_region_import_explains_a_wrong_place(tmp_path):
    done = _scrapy(["import", "x", "--geonames", str(DATA / "mini_geonames.txt"), "--place", "Oldenbrug"], tmp_path)
    assert done.returncode == 2
    assert "similar place names: Oldenburg" in done.stderr
    assert not (tmp_path / "x.json").exists()


def test_scrapy_region_show_unknown_lists_packs(tmp_path):
    done = _scrapy(["show", "atlantis"], tmp_path)
    assert done.returncode == 2 and "oldenburg" in done.stderr


def test_a_place_name_used_elsewhere_needs_a_postcode(tmp_path, monkeypatch):
    rows = [
        ("DE", "67433", "Neustadt", "Rheinland-Pfalz", "RP", "", "00", "", "", "49.35", "8.14", "4"),
        ("DE", "67434", "Neustadt", "Rheinland-Pfalz", "RP", "", "00", "", "", "49.33", "8.16", "4"),
        ("DE", "31535", "Neustadt", "Niedersachsen", "NI", "", "00", "", "", "52.50", "9.46", "4"),
    ]
    (tmp_path / "g.txt").write_text("".join("\t".join(r) + "\n" for r in rows))
    pack, _ = build_pack("neustadt", tmp_path / "g.txt", places=["Neustadt"], admin="Rheinland-Pfalz")
    assert set(pack["postcodes"]) == {"67433", "67434"}
    assert pack["ambiguous_cities"] == ["Neustadt"]
    (tmp_path / "neustadt.json").write_text(json.dumps(pack))
    monkeypatch.setenv("GEOFOCUS_REGION_PATH", str(tmp_path))
    load_region.cache_clear()
    try:
        parser = GeoParser(load_region("neustadt"))
    finally:
        load_region.cache_clear()
    assert parser.parse("Hauptstraße 1, 67433 Neustadt").relevant
    assert not parser.parse("Hauptstraße 1, 31535 Neustadt").relevant
    assert not parser.parse("Hauptstraße 1, Neustadt").relevant  # which Neustadt?
