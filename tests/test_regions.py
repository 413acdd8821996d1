import json

import pytest

from geofocus.regions import RegionError, UnknownRegionError, available_regions, load_region


def test_oldenburg_pack_loads_with_its_postcodes():
    region = load_region("oldenburg")
    assert region.country == "DE"
    assert "26122" in region.postcodes
    assert "de" in region.tlds


def test_unknown_region_lists_available_packs():
    with pytest.raises(UnknownRegionError) as info:
        load_region("atlantis")
    assert "atlantis" in str(info.value)
    assert "oldenburg" in str(info.value)
    assert "oldenburg" in available_regions()


def test_malformed_pack_says_what_is_missing(tmp_path, monkeypatch):
    (tmp_path / "broken.json").write_text(json.dumps({"name": "broken"}))
    monkeypatch.setenv("GEOFOCUS_REGION_PATH", str(tmp_path))
    load_region.cache_clear()
    with pytest.raises(RegionError, match="lacks required keys: country"):
        load_region("broken")
    load_region.cache_clear()


# -- the shipped packs -------------------------------------------------------

def test_oldenburg_pack_has_the_real_postcodes_inside_its_bbox():
    region = load_region("oldenburg")
    assert set(region.postcodes) == {"26121", "26122", "26123", "26125", "26127", "26129", "26131", "26133", "26135"}
    for lat, lon, city in region.postcodes.values():
        assert city == "Oldenburg" and region.contains(lat, lon)
    assert len(region.streets) >= 30
    assert all(region.contains(lat, lon) for lat, lon in region.streets.values())
    confusable_codes = region.raw["confusable_postcodes"]
    assert confusable_codes["23758"] == "Oldenburg in Holstein"
    assert not set(confusable_codes) & set(region.postcodes)
    for town in ("Oldenburg in Holstein", "Wardenburg", "Hatten", "Hude", "Ganderkesee", "Wildeshausen"):
        assert town in region.confusables


def test_us_top100_pack_reproduces_gao_table_1():
    region = load_region("us-top100")
    assert len(region.cities) == 100
    assert len({(c.name, c.state) for c in region.cities}) == 100
    split: dict[str, int] = {}
    for city in region.cities:
        split[city.timezone] = split.get(city.timezone, 0) + 1
    # Gao et al.: Eastern 33 (Cn1), Pacific 22 (Cn2), Mountain 10 (Cn3), Central 33 (Cn4), Hawaii+Alaska 2 (Cn5).
    assert split == {"Eastern": 33, "Pacific": 22, "Mountain": 10, "Central": 33, "Hawaii": 1, "Alaska": 1}
    assert {c.node for c in region.cities if c.timezone in ("Hawaii", "Alaska")} == {5}
    by_name = {(c.name, c.state): c for c in region.cities}
    assert "NYC" in by_name[("New York", "NY")].aliases and "LA" in by_name[("Los Angeles", "CA")].aliases
    assert "Philly" in by_name[("Philadelphia", "PA")].aliases
    assert ("Glendale", "AZ") in by_name and ("Glendale", "CA") in by_name
    notes = {c["name"] for c in region.raw["cities"] if c.get("note")}
    assert all((c.population > 100_000 or c.name in notes) and c.lat is not None for c in region.cities)
    assert region.postcodes["10118"][2] == "New York" and region.postcodes["78701"][2] == "Austin"
    assert region.country == "US" and region.raw["address_format"] == "us"


@pytest.mark.parametrize("name", ["oldenburg", "us-top100"])
def test_every_pack_says_where_its_data_comes_from(name):
    region = load_region(name)
    sources = " ".join(f"{k}: {v}" for k, v in region.sources.items())
    assert "postcodes" in sources
    assert any(word in sources for word in ("CC BY", "ODbL", "public domain", "MIT"))


# -- errors --------------------------------------------------------------------

@pytest.mark.parametrize(
    "pack, message",
    [
        ({"name": "b", "country": "DE", "languages": ["de"], "tlds": ["de"], "cities": []}, "'cities' is empty"),
        ({"name": "b", "country": "DE", "languages": ["de"], "tlds": ["de"], "cities": [{"name": "X"}],
          "postcodes": {"12345": "nowhere"}}, "postcodes['12345'] must be [lat, lon"),
        ({"name": "b", "country": "DE", "languages": ["de"], "tlds": ["de"], "cities": [{"name": "X"}],
          "postcodes": {"12345": [95, 8, "X"]}}, "is not a coordinate"),
        ({"name": "b", "country": "DE", "languages": ["de"], "tlds": ["de"], "cities": [{"name": "X"}],
          "bbox": [9, 53, 8, 54]}, "'bbox' must be [min lon"),
        ({"name": "b", "country": "DE", "languages": ["de"], "tlds": ["de"], "cities": [{"nom": "X"}]},
         "cities[0] must be an object with a non-empty 'name'"),
        ({"name": "b", "country": "DE", "languages": "de", "tlds": ["de"], "cities": [{"name": "X"}]},
         "'languages' must be a list"),
        ({"name": "b", "country": "DE", "languages": ["de"], "tlds": ["de"], "cities": [{"name": "X"}],
          "address_format": "fr"}, "'address_format' must be"),
    ],
)
def test_malformed_packs_say_what_is_wrong_and_list_the_packs(tmp_path, monkeypatch, pack, message):
    (tmp_path / "broken.json").write_text(json.dumps(pack))
    monkeypatch.setenv("GEOFOCUS_REGION_PATH", str(tmp_path))
    load_region.cache_clear()
    try:
        with pytest.raises(RegionError) as info:
            load_region("broken")
        assert message in str(info.value)
        assert "oldenburg" in str(info.value) and "us-top100" in str(info.value)
    finally:
        load_region.cache_clear()


def test_invalid_json_pack(tmp_path, monkeypatch):
    (tmp_path / "bad.json").write_text("{not json")
    monkeypatch.setenv("GEOFOCUS_REGION_PATH", str(tmp_path))
    load_region.cache_clear()
    try:
        with pytest.raises(RegionError, match="not valid JSON"):
            load_region("bad")
    finally:
        load_region.cache_clear()


def test_pack_names_cannot_escape_the_pack_directories():
    with pytest.raises(UnknownRegionError):
        load_region("../regions/data/oldenburg")
