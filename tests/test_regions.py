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
