from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"
REQUIRED_KEYS = ("name", "country", "languages", "tlds", "cities")


class RegionError(ValueError):
    """A region pack is missing or malformed."""


class UnknownRegionError(RegionError):
    def __init__(self, name: str, available: list[str]):
        self.name = name
        self.available = available
        super().__init__(
            f"unknown region {name!r}; available regions: {', '.join(available) or '(none)'}"
        )


@dataclass(frozen=True)
class City:
    name: str
    aliases: tuple[str, ...] = ()
    state: str = ""
    population: int = 0
    lat: float | None = None
    lon: float | None = None
    timezone: str = ""  # us-top100: the time-zone group of Gao et al., Table 1
    node: int | None = None  # us-top100: the paper's crawling node (Cn1..Cn5)


@dataclass(frozen=True)
class Region:
    name: str
    title: str
    country: str
    languages: tuple[str, ...]
    tlds: tuple[str, ...]
    cities: tuple[City, ...]
    postcodes: dict[str, tuple[float, float, str]] = field(default_factory=dict)
    bbox: tuple[float, float, float, float] | None = None  # (min lon, min lat, max lon, max lat)
    confusables: tuple[str, ...] = ()
    streets: dict[str, tuple[float, float]] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def city_names(self) -> list[str]:
        names: list[str] = []
        for city in self.cities:
            names.append(city.name)
            names.extend(city.aliases)
        return names

    @property
    def sources(self) -> dict[str, str]:
        """Where each figure of the pack comes from, and under what licence."""
        return dict(self.raw.get("sources", {}))

    def contains(self, lat: float, lon: float) -> bool:
        """Whether a coordinate lies in the region's bounding box."""
        if self.bbox is None:
            return False
        return self.bbox[0] <= lon <= self.bbox[2] and self.bbox[1] <= lat <= self.bbox[3]


def _search_path() -> list[Any]:
    extra = os.environ.get("GEOFOCUS_REGION_PATH", "")
    dirs: list[Any] = [Path(p) for p in extra.split(os.pathsep) if p]
    # Through importlib.resources, so that packs are found inside a zipped egg (scrapyd) too.
    return dirs + [resources.files(__package__).joinpath("data") if __package__ else DATA_DIR]


def available_regions() -> list[str]:
    names: set[str] = set()
    for directory in _search_path():
        if directory.is_dir():
            names.update(p.name[:-5] for p in directory.iterdir() if p.name.endswith(".json"))
    return sorted(names)


def _find_pack(name: str) -> Any:
    for directory in _search_path():
        path = directory / f"{name}.json"
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=16)
def load_region(name: str) -> Region:
    """The region pack called ``name``; a path to a ``.json`` pack works too.

    Raises :class:`UnknownRegionError` (listing the packs that exist) or
    :class:`RegionError` (saying what is wrong with the pack).
    """
    if not name or not isinstance(name, str):
        raise UnknownRegionError(str(name), available_regions())
    candidate = Path(name)
    if name.endswith(".json") and candidate.is_file():
        path: Path | None = candidate
    elif "/" in name or "\\" in name or name.startswith("."):
        path = None  # not a pack name: never look outside the pack directories
    else:
        path = _find_pack(name.strip().lower())
    if path is None:
        raise UnknownRegionError(name, available_regions())
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RegionError(f"region pack {path} is not valid JSON: {exc}") from exc
    return region_from_dict(data, source=str(path))


def _fail(source: str, what: str) -> RegionError:
    return RegionError(
        f"region pack {source} is malformed: {what} (available regions: "
        f"{', '.join(available_regions()) or '(none)'})"
    )


def _coord(value: Any, where: str, source: str) -> tuple[float, float]:
    if not isinstance(value, (list, tuple)) or len(value) < 2:
        raise _fail(source, f"{where} must be [lat, lon, ...], got {value!r}")
    try:
        lat, lon = float(value[0]), float(value[1])
    except (TypeError, ValueError):
        raise _fail(source, f"{where} must hold numbers, got {value!r}") from None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise _fail(source, f"{where} is not a coordinate: {value!r}")
    return lat, lon


def region_from_dict(data: dict[str, Any], source: str = "<dict>") -> Region:
    """A :class:`Region` from a pack's JSON object, checked field by field."""
    if not isinstance(data, dict):
        raise _fail(source, f"the top level must be an object, got {type(data).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise RegionError(f"region pack {source} lacks required keys: {', '.join(missing)}")
    for key in ("languages", "tlds", "cities"):
        if not isinstance(data[key], list):
            raise _fail(source, f"{key!r} must be a list")
    if not isinstance(data["name"], str) or not isinstance(data["country"], str):
        raise _fail(source, "'name' and 'country' must be strings")
    if not data["cities"]:
        raise _fail(source, "'cities' is empty: a region needs at least one city")
    cities = []
    for index, c in enumerate(data["cities"]):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or not c["name"].strip():
            raise _fail(source, f"cities[{index}] must be an object with a non-empty 'name'")
        if not isinstance(c.get("aliases", []), list):
            raise _fail(source, f"cities[{index}].aliases must be a list")
        try:
            population = int(c.get("population", 0) or 0)
            lat = float(c["lat"]) if c.get("lat") is not None else None
            lon = float(c["lon"]) if c.get("lon") is not None else None
        except (TypeError, ValueError):
            raise _fail(source, f"cities[{index}] ({c['name']}) has a non-numeric population/lat/lon") from None
        cities.append(
            City(
                name=c["name"],
                aliases=tuple(str(a) for a in c.get("aliases", ())),
                state=str(c.get("state", "")),
                population=population,
                lat=lat,
                lon=lon,
                timezone=str(c.get("timezone", "")),
                node=c.get("node"),
            )
        )
    raw_postcodes = data.get("postcodes", {})
    if not isinstance(raw_postcodes, dict):
        raise _fail(source, "'postcodes' must be an object {code: [lat, lon, city]}")
    postcodes = {}
    for code, value in raw_postcodes.items():
        lat, lon = _coord(value, f"postcodes[{code!r}]", source)
        postcodes[str(code)] = (lat, lon, str(value[2]) if len(value) > 2 else "")
    raw_streets = data.get("streets", {})
    if not isinstance(raw_streets, dict):
        raise _fail(source, "'streets' must be an object {name: [lat, lon]}")
    streets = {str(k): _coord(v, f"streets[{k!r}]", source) for k, v in raw_streets.items()}
    bbox: tuple[float, float, float, float] | None = None
    if data.get("bbox") is not None:
        try:
            box = [float(x) for x in data["bbox"]]
        except (TypeError, ValueError):
            raise _fail(source, f"'bbox' must be 4 numbers, got {data['bbox']!r}") from None
        if len(box) != 4 or box[0] > box[2] or box[1] > box[3]:
            raise _fail(source, f"'bbox' must be [min lon, min lat, max lon, max lat], got {data['bbox']!r}")
        bbox = (box[0], box[1], box[2], box[3])
    for key in ("confusables", "ambiguous_cities"):
        if not isinstance(data.get(key, []), list):
            raise _fail(source, f"{key!r} must be a list of place names")
    if data.get("address_format", "de") not in ("de", "us"):
        raise _fail(source, f"'address_format' must be 'de' or 'us', got {data['address_format']!r}")
    return Region(
        name=data["name"],
        title=data.get("title", data["name"]),
        country=data["country"],
        languages=tuple(data["languages"]),
        tlds=tuple(str(t).lower().lstrip(".") for t in data["tlds"]),
        cities=tuple(cities),
        postcodes=postcodes,
        bbox=bbox,
        confusables=tuple(str(c) for c in data.get("confusables", ())),
        streets=streets,
        raw=data,
    )


def dump_pack(pack: dict[str, Any]) -> str:
    """Pack JSON with one line per city, postcode and street (diff-friendly, compact)."""
    lines = ["{"]
    items = list(pack.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if isinstance(value, dict) and value and key in (
                "postcodes", "streets", "zip_prefixes", "confusable_postcodes"):
            inner = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
                     for k, v in value.items()]
            lines.append(f" {json.dumps(key)}: {{\n" + ",\n".join(inner) + f"\n }}{comma}")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            inner = [f"  {json.dumps(v, ensure_ascii=False)}" for v in value]
            lines.append(f" {json.dumps(key)}: [\n" + ",\n".join(inner) + f"\n ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
