"""Build a region pack from open data files: a GeoNames postal-code file and
OpenStreetMap extracts.  Used by ``scrapy region import``; pure Python.

GeoNames postal-code dump (https://download.geonames.org/export/zip/, CC BY
4.0): one postcode per line, 12 tab-separated columns: country code, postal
code, place name, admin name1, admin code1, admin name2, admin code2, admin
name3, admin code3, latitude, longitude, accuracy.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from geofocus.regions.osm import OSMError, read_extract, streets
from geofocus.regions.pack import RegionError, region_from_dict

LANGUAGES = {"DE": ["de"], "AT": ["de"], "CH": ["de", "fr", "it"], "LI": ["de"], "LU": ["lb", "fr", "de"],
             "US": ["en"], "GB": ["en"], "IE": ["en"], "CA": ["en", "fr"], "AU": ["en"], "NZ": ["en"],
             "FR": ["fr"], "BE": ["nl", "fr", "de"], "NL": ["nl"], "DK": ["da"], "PL": ["pl"], "CZ": ["cs"],
             "IT": ["it"], "ES": ["es"], "PT": ["pt"], "SE": ["sv"], "NO": ["no"], "FI": ["fi", "sv"]}
EU = {"AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT", "LT",
      "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK"}


@dataclass(frozen=True)
class PostalRow:
    country: str
    postcode: str
    place: str
    admin1: str
    admin2: str
    admin3: str
    lat: float
    lon: float


def read_geonames(path: str | Path) -> tuple[list[PostalRow], int]:
    """Rows of a GeoNames postal-code file and the number of malformed lines skipped."""
    path = Path(path)
    rows: list[PostalRow] = []
    bad = 0
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.strip() or line.startswith("#"):
                    continue
                cols = line.rstrip("\n\r").split("\t")
                if len(cols) < 11:
                    bad += 1
                    continue
                try:
                    lat, lon = float(cols[9]), float(cols[10])
                except ValueError:
                    bad += 1
                    continue
                if not cols[1].strip() or not cols[2].strip() or not (-90 <= lat <= 90 and -180 <= lon <= 180):
                    bad += 1
                    continue
                rows.append(PostalRow(cols[0].strip().upper(), cols[1].strip(), cols[2].strip(), cols[3].strip(),
                                      cols[5].strip(), cols[7].strip(), lat, lon))
    except OSError as exc:
        raise RegionError(f"cannot read GeoNames file {path}: {exc}") from exc
    if not rows:
        raise RegionError(f"{path} has no rows in the GeoNames postal-code format "
                          f"(12 tab-separated columns: country, postal code, place, ..., latitude, longitude)")
    return rows, bad


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 12742 * math.asin(math.sqrt(h))


def build_pack(
    name: str,
    geonames: str | Path,
    places: Iterable[str] = (),
    osm: Iterable[str | Path] = (),
    country: str | None = None,
    admin: str | None = None,
    postcode_prefixes: Iterable[str] = (),
    aliases: Iterable[str] = (),
    title: str | None = None,
    neighbours_km: float = 25.0,
) -> tuple[dict[str, Any], list[str]]:
    """The pack's JSON object and notes for the user; raises RegionError with what is wrong."""
    places = [p.strip() for p in places if p.strip()]
    prefixes = [p.strip() for p in postcode_prefixes if p.strip()]
    if not places and not prefixes:
        raise RegionError("say which places form the region: --place NAME and/or --postcode-prefix P")
    rows, bad = read_geonames(geonames)
    notes = [f"skipped {bad} malformed lines of {geonames}"] if bad else []
    wanted = {p.casefold() for p in places}

    def admin_ok(row: PostalRow) -> bool:
        return admin is None or admin.casefold() in {
            row.admin1.casefold(), row.admin2.casefold(), row.admin3.casefold()}

    def country_ok(row: PostalRow) -> bool:
        return country is None or row.country == country.upper()

    selected = [r for r in rows if country_ok(r) and admin_ok(r)
                and (r.place.casefold() in wanted or any(r.postcode.startswith(p) for p in prefixes))]
    if not selected:
        names = sorted({r.place for r in rows if country_ok(r)})
        hint = difflib.get_close_matches(places[0], names, n=5) if places else []
        raise RegionError(
            f"no postcode of {geonames} matches places {places or '-'} / prefixes {prefixes or '-'}"
            + (f" with admin {admin!r}" if admin else "")
            + (f"; similar place names: {', '.join(hint)}" if hint else "")
        )
    countries = {r.country for r in selected}
    if len(countries) > 1:
        raise RegionError(f"the selection spans several countries ({', '.join(sorted(countries))}); add --country")
    code = countries.pop()
    postcodes: dict[str, list[Any]] = {}
    for row in selected:
        postcodes.setdefault(row.postcode, [round(row.lat, 5), round(row.lon, 5), row.place])
    by_place: dict[str, list[PostalRow]] = {}
    for row in selected:
        by_place.setdefault(row.place, []).append(row)
    ordered = sorted(by_place, key=lambda p: (-len(by_place[p]), p))
    cities = []
    for index, place in enumerate(ordered):
        group = by_place[place]
        cities.append({
            "name": place,
            "aliases": list(aliases) if index == 0 else [],
            "state": group[0].admin1,
            "population": 0,
            "lat": round(sum(r.lat for r in group) / len(group), 5),
            "lon": round(sum(r.lon for r in group) / len(group), 5),
        })
    lats = [v[0] for v in postcodes.values()]
    lons = [v[1] for v in postcodes.values()]
    margin = 0.04
    bbox = [round(min(lons) - margin, 4), round(min(lats) - margin, 4),
            round(max(lons) + margin, 4), round(max(lats) + margin, 4)]
    centre = (sum(lats) / len(lats), sum(lons) / len(lons))
    # Confusables: same-named places elsewhere ("Oldenburg in Holstein"), the
    # districts named after the place ("Landkreis Oldenburg"), and neighbours.
    chosen = {r.place for r in selected}
    selected_codes = set(postcodes)
    confusables: dict[str, None] = {}
    confusable_postcodes: dict[str, str] = {}
    for row in rows:
        if row.postcode in selected_codes or row.place in chosen:
            continue
        same_name = any(c.casefold() in row.place.casefold().split()
                        or row.place.casefold().startswith(c.casefold() + " ")
                        for c in chosen)
        district = next((a for a in (row.admin2, row.admin3)
                         if a and any(c.casefold() in a.casefold() for c in chosen)), None)
        near = row.country == code and _km(centre, (row.lat, row.lon)) <= neighbours_km
        if same_name or district or near:
            confusables[row.place] = None
            confusable_postcodes.setdefault(row.postcode, row.place)
            if district and not district.casefold().startswith(tuple(c.casefold() for c in chosen)):
                confusables[district.split(",")[0].strip()] = None
    # A place name that also names a place outside the selection ("Neustadt") is
    # ambiguous: without a postcode it cannot place an address in the region.
    chosen_folded = {c.casefold() for c in chosen}
    ambiguous = sorted({r.place for r in rows if r.place.casefold() in chosen_folded
                        and r.postcode not in selected_codes and not (country_ok(r) and admin_ok(r))})
    street_points: dict[str, list[float]] = {}
    osm_names = []
    for source in osm:
        try:
            extract = read_extract(source)
        except OSMError as exc:
            raise RegionError(str(exc)) from exc
        osm_names.append(Path(source).name)
        for street, (lat, lon) in streets(extract).items():
            if bbox[0] <= lon <= bbox[2] and bbox[1] <= lat <= bbox[3]:
                street_points.setdefault(street, [lat, lon])
    if osm and not street_points:
        notes.append("the OSM extracts hold no named street inside the region's bounding box")
    tld = "uk" if code == "GB" else code.lower()
    pack: dict[str, Any] = {
        "name": name,
        "title": title or f"{ordered[0]}, {code}",
        "country": code,
        "address_format": "us" if code == "US" else "de",
        "languages": LANGUAGES.get(code, ["en"]),
        "tlds": [tld, "com", "org", "net", "info"] + (["eu"] if code in EU else []),
        "cities": cities,
        "postcodes": dict(sorted(postcodes.items())),
        "bbox": bbox,
        "confusables": list(confusables),
        "ambiguous_cities": ambiguous,
        "confusable_postcodes": dict(sorted(confusable_postcodes.items())),
        "streets": dict(sorted(street_points.items())),
        "sources": {
            "postcodes, cities, confusables": f"GeoNames postal code dump {Path(geonames).name} "
                                              f"(CC BY 4.0, https://www.geonames.org)",
            "streets": (f"OpenStreetMap extract {', '.join(osm_names)} (ODbL 1.0, (c) OpenStreetMap "
                        f"contributors); one point per street, the mean of its nodes") if osm_names else "none",
            "generator": "scrapy region import",
        },
    }
    if code not in LANGUAGES:
        notes.append(f"no language default for {code}: set 'languages' in the pack")
    if code not in ("DE", "AT", "CH", "LI", "US"):
        notes.append("the geoparser reads German-style ('street number, postcode city') and US addresses; "
                     f"check the result on pages of {code}")
    region_from_dict(pack, source=f"<import {name}>")  # the pack must load
    return pack, notes
