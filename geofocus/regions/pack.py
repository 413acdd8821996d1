from __future__ import annotations

import json
import os
from importlib import resources
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"


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


@dataclass(frozen=True)
class Region:
    name: str
    title: str
    country: str
    languages: tuple[str, ...]
    tlds: tuple[str, ...]
    cities: tuple[City, ...]
    postcodes: dict[str, tuple[float, float, str]] = field(default_factory=dict)
    bbox: tuple[float, float, float, float] | None = None
    confusables: tuple[str, ...] = ()
    streets: dict[str, tuple[float, float]] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def city_names(self) -> list[str]:
        names: list[str] = []
        for city in self.cities:
            names.append(city.name)
            names.extend(city.aliases)
        return names


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
    if not name or not isinstance(name, str):
        raise UnknownRegionError(str(name), available_regions())
    path = _find_pack(name.strip().lower())
    if path is None:
        raise UnknownRegionError(name, available_regions())
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RegionError(f"region pack {path} is not valid JSON: {exc}") from exc
    return region_from_dict(data, source=str(path))


def region_from_dict(data: dict[str, Any], source: str = "<dict>") -> Region:
    missing = [k for k in ("name", "country", "languages", "tlds", "cities") if k not in data]
    if missing:
        raise RegionError(f"region pack {source} lacks required keys: {', '.join(missing)}")
    try:
        cities = tuple(
            City(
                name=c["name"],
                aliases=tuple(c.get("aliases", ())),
                state=c.get("state", ""),
                population=int(c.get("population", 0)),
                lat=c.get("lat"),
                lon=c.get("lon"),
            )
            for c in data["cities"]
        )
        postcodes = {
            str(code): (float(v[0]), float(v[1]), str(v[2]) if len(v) > 2 else "")
            for code, v in data.get("postcodes", {}).items()
        }
        streets = {str(k): (float(v[0]), float(v[1])) for k, v in data.get("streets", {}).items()}
        bbox = tuple(float(x) for x in data["bbox"]) if data.get("bbox") else None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RegionError(f"region pack {source} is malformed: {exc!r}") from exc
    return Region(
        name=data["name"],
        title=data.get("title", data["name"]),
        country=data["country"],
        languages=tuple(data["languages"]),
        tlds=tuple(t.lower().lstrip(".") for t in data["tlds"]),
        cities=cities,
        postcodes=postcodes,
        bbox=bbox,  # type: ignore[arg-type]
        confusables=tuple(data.get("confusables", ())),
        streets=streets,
        raw=data,
    )
