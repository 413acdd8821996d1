"""The host table of a simweb: places, host categories and sizes, names, and each host's description.

``build_table`` draws the compact table once (one row per host); ``draw_host`` regenerates the
full :class:`~geofocus.simweb.entities.Host` of one row from the seed (``SimWeb.host`` caches it).
The draw order defines the Web: keep it when editing.
"""

from __future__ import annotations

import bisect
import math
from array import array
from random import Random

from geofocus.simweb import vocab as V
from geofocus.simweb.entities import (
    GENERIC,
    INTL,
    LOCAL,
    NEWS,
    ODP,
    OPORTAL,
    OTHER,
    PORTAL,
    Addr,
    Host,
    Place,
)
from geofocus.simweb.protocol import Web
from geofocus.simweb.rng import Rng, hash64, slugify


def init_places(web: Web) -> None:
    """The region's cities (``region_places``, drawn by population), places elsewhere and abroad."""
    reg = web.region
    web.region_places = []
    weights: list[float] = []
    for city in reg.cities:
        names = {city.name.lower(), *(a.lower() for a in city.aliases)}
        codes = tuple((code, v[0], v[1]) for code, v in sorted(reg.postcodes.items())
                      if v[2].lower() in names)
        if not codes and len(reg.cities) == 1:
            codes = tuple((code, v[0], v[1]) for code, v in sorted(reg.postcodes.items()))
        districts = V.OLDENBURG_DISTRICTS if slugify(city.name) == "oldenburg" else ()
        variants = (city.name,) * 3 + tuple(a for a in city.aliases if len(a) < 40)
        web.region_places.append(Place(
            name=city.name, token=slugify(city.name), postcodes=codes, state=city.state,
            country=reg.country, in_region=True, variants=variants, districts=districts))
        weights.append(max(city.population, 1) ** 0.85)
    total = sum(weights)
    web.city_cum = [sum(weights[: i + 1]) / total for i in range(len(weights))]
    region_codes = set(reg.postcodes)
    region_names = {n.lower() for n in reg.city_names()}
    web.other_places = []
    if web.country == "US":
        for name, state, us_codes, token in V.OTHER_PLACES_US:
            if name.lower() in region_names and not set(us_codes) - region_codes:
                continue
            web.other_places.append(Place(name, token, tuple((c, None, None) for c in us_codes),
                                           state, "US", False, (name,)))
    else:
        for name, de_codes, token, conf in V.OTHER_PLACES_DE:
            if set(de_codes) & region_codes:
                continue
            web.other_places.append(Place(name, token, tuple((c, None, None) for c in de_codes),
                                           "", "DE", False, (name,), confusable=conf))
    web.intl_places = [Place(i[3], slugify(i[3]), ((i[4], None, None),), "", i[2], False,
                              (i[3],)) for i in V.INTL]


def _pick_city(web: Web, r: Random) -> int:
    return min(bisect.bisect_left(web.city_cum, r.random()), len(web.city_cum) - 1)


def build_table(web: Web) -> None:
    """The host table: category, size, place and first page id per host; names; hosts by category and city."""
    p = web.p
    n = p.pages
    rt = Random(hash64(web.seed, "table"))
    cats: list[int] = []
    sizes: list[int] = []
    places: list[int] = []
    n_sub = min(len(web.region_places), 100) if len(web.region_places) > 1 else 6
    cats.append(ODP)
    sizes.append(1 + n_sub)
    places.append(-1)
    budget_total = n - sizes[0]
    shares = [(LOCAL, p.share_local), (PORTAL, p.share_portal), (NEWS, p.share_news),
              (OTHER, p.share_other), (OPORTAL, p.share_other_portal), (INTL, p.share_intl)]
    big_cap = max(60, int(p.big_host_cap * n))
    used = 0
    for cat, share in shares:
        budget = int(share * budget_total)
        while budget > 0:
            if cat in (LOCAL, OTHER):
                size = int(round(p.local_median_size * math.exp(rt.gauss(0, 0.75))))
                size = max(4, min(p.local_max_size, size))
                if cat == LOCAL and rt.random() < 0.04:      # authorities, big clubs
                    size = min(big_cap // 6, size * 6)
            elif cat in (PORTAL, OPORTAL):
                size = min(big_cap, int(p.portal_min_size * rt.paretovariate(1.3)))
            elif cat == NEWS:
                size = min(big_cap, int(p.news_min_size * rt.paretovariate(1.3)))
            else:  # INTL
                size = max(4, min(big_cap, int(12 * math.exp(rt.gauss(0, 1.0)))))
            size = max(4, min(size, budget)) if budget >= 4 else budget
            if size < 4:
                break
            if cat in (LOCAL, PORTAL, NEWS):
                place = _pick_city(web, rt)
            elif cat in (OTHER, OPORTAL):
                place = rt.randrange(len(web.other_places))
            elif cat == INTL:
                place = rt.randrange(len(web.intl_places))
            else:
                place = -1
            cats.append(cat)
            sizes.append(size)
            places.append(place)
            budget -= size
            used += size
    # Generic sites take the rest, a few very large ones.
    rest = budget_total - used
    gcap = max(200, int(p.generic_cap * n))
    while rest > 0:
        size = min(gcap, int(p.generic_min_size * rt.paretovariate(1.1)))
        size = rest if rest - size < 4 else max(4, min(size, rest))
        cats.append(GENERIC)
        sizes.append(size)
        places.append(-1)
        rest -= size
    web.cat = array("b", cats)
    web.size = array("l", sizes)
    web.place_idx = array("l", places)
    starts = array("l")
    acc = 0
    for s in sizes:
        starts.append(acc)
        acc += s
    assert acc == n, (acc, n)
    web.start = starts
    web.n_hosts = len(cats)
    # Names (unique), and per-category/per-city host lists for link targets.
    web.generic_ord = {h: i for i, h in enumerate(h for h in range(web.n_hosts)
                                                      if cats[h] == GENERIC)}
    web.names = []
    web.by_name = {}
    web.aliases = {}
    by_cat: dict[int, array] = {c: array("l") for c in range(8)}
    web.local_by_city = [array("l") for _ in web.region_places]
    web.other_by_place = [array("l") for _ in web.other_places]
    web.portal_by_city = [array("l") for _ in web.region_places]
    web.news_by_city = [array("l") for _ in web.region_places]
    for hid in range(web.n_hosts):
        name, alias = _draw_names(web, hid)
        base = name
        k = 2
        while name in web.by_name or name in web.aliases:
            parts = base.split(".")
            j = -3 if parts[-2] == "co" else -2
            parts[j] += str(k)
            name = ".".join(parts)
            k += 1
        web.names.append(name)
        web.by_name[name] = hid
        if alias and alias not in web.by_name and alias not in web.aliases and alias != name:
            web.aliases[alias] = hid
        c = web.cat[hid]
        by_cat[c].append(hid)
        pi = web.place_idx[hid]
        if c == LOCAL:
            web.local_by_city[pi].append(hid)
        elif c == PORTAL:
            web.portal_by_city[pi].append(hid)
        elif c == NEWS:
            web.news_by_city[pi].append(hid)
        elif c in (OTHER, OPORTAL) and c == OTHER:
            web.other_by_place[pi].append(hid)
    web.by_cat = by_cat
    web.alias_of = {hid: a for a, hid in web.aliases.items()}


def _draw_names(web: Web, hid: int) -> tuple[str, str]:
    host = draw_host(web, hid, "")
    return host.name, host.alias


def _place(web: Web, cat: int, pi: int) -> Place | None:
    if pi < 0:
        return None
    if cat in (LOCAL, PORTAL, NEWS):
        return web.region_places[pi]
    if cat in (OTHER, OPORTAL):
        return web.other_places[pi]
    return web.intl_places[pi]


def placed(host: Host) -> Place:
    """The place of a local, other, portal or news host (build_table gives each of them one)."""
    if host.place is None:
        raise ValueError(f"simweb: host {host.hid} (category {host.cat}) has no place")
    return host.place


def draw_host(web: Web, hid: int, name: str) -> Host:
    p = web.p
    cat = web.cat[hid]
    r = Random(hash64(web.seed, "host", hid))
    place = _place(web, cat, web.place_idx[hid])
    host = Host(hid=hid, name=name, cat=cat, start=web.start[hid], size=web.size[hid],
                place=place, lang=web.lang)
    tld = _tld(web, r, cat)
    www = r.random() < 0.75
    en = web.lang == "en"
    if cat in (LOCAL, OTHER):
        place = placed(host)
        roll = r.random()
        if roll < 0.74 or cat == OTHER:
            kind = r.choice(V.TRADES_EN if en else V.TRADES_DE)
        elif roll < 0.92:
            kind = r.choice(V.CLUBS_EN if en else V.CLUBS_DE)
            tld = "org" if en or r.random() < 0.3 else tld
        else:
            kind = r.choice(V.AUTHORITIES_EN if en else V.AUTHORITIES_DE)
        owner = r.choice(V.SURNAMES)
        host.kind = kind[0]
        host.sections = kind[2]
        place_tok = place.token
        if place.districts and r.random() < 0.6:
            place_tok = r.choice(place.districts)
        if r.random() < p.p_place_in_host:
            label = r.choice((f"{kind[0]}-{place_tok}", f"{kind[0]}-{owner.lower()}-{place_tok}",
                              f"{place_tok}-{kind[0]}", f"{kind[0]}{place_tok}"))
            host.display = f"{kind[1]} {place.name if place_tok == place.token else owner}"
        else:
            label = r.choice((f"{kind[0]}-{owner.lower()}", f"{owner.lower()}-{kind[0]}",
                              f"{kind[0]}{owner.lower()}", f"{slugify(r.choice(V.FIRSTNAMES))}-{owner.lower()}"))
            host.display = f"{kind[1]} {owner}"
        label = slugify(label)
        host.style = r.choices(range(6), weights=(30, 15, 20, 10, 8, 17))[0]
        if r.random() < p.p_hintless_paths and host.style not in (2, 5):
            host.style = r.choice((2, 5))
        host.footer_addr = r.random() < p.p_footer_address
        host.home_addr = r.random() < p.p_home_address
        host.contact_addr = r.random() < p.p_contact_address
        host.imprint_addr = r.random() < p.p_imprint_address
        host.directions = r.random() < p.p_directions_page
        host.directions_addr = r.random() < 0.7
        host.image_only = r.random() < p.p_address_only_in_image
        host.address = address(web, r, place)
        if r.random() < p.p_branches:
            extra = []
            for _ in range(r.randint(1, 3)):
                if r.random() < 0.5 or not web.other_places:
                    extra.append(address(web, r, place))
                else:
                    extra.append(address(web, r, r.choice(web.other_places)))
            host.branches = tuple(extra)
        host.calendar = kind in V.CLUBS_DE or kind in V.CLUBS_EN or r.random() < 0.03
        host.repeat_trap = r.random() < 0.05
        host.phone = _phone(web, r, place)
    elif cat in (PORTAL, OPORTAL):
        place = placed(host)
        tok = place.token
        label = r.choice((f"{tok}-branchen", f"branchenbuch-{tok}", f"{tok}-online",
                          f"stadtportal-{tok}", f"{tok}-wegweiser", f"{tok}-guide",
                          f"firmen-in-{tok}", f"{tok}-info")) if not en else \
            r.choice((f"{tok}-directory", f"best-of-{tok}", f"{tok}-guide", f"{tok}pages"))
        host.display = (f"Branchenbuch {place.name}" if not en else f"{place.name} Business Directory")
        host.sections = V.PORTAL_CATEGORIES_EN if en else V.PORTAL_CATEGORIES_DE
        host.address = address(web, r, place)
        host.calendar = True
        host.phone = _phone(web, r, place)
    elif cat == NEWS:
        place = placed(host)
        tok = place.token
        dtok = r.choice(place.districts) if place.districts else tok
        label = r.choice((f"{tok}-zeitung", f"{tok}er-nachrichten", f"stadtblog-{tok}",
                          f"{dtok}-aktuell", f"nordwest-{tok}", f"{tok}-live")) if not en else \
            r.choice((f"{tok}-herald", f"{tok}-daily", f"{tok}-news", f"{tok}-chronicle"))
        host.display = f"{place.name} {'Nachrichten' if not en else 'News'}"
        host.sections = V.NEWS_SECTIONS_EN if en else V.NEWS_SECTIONS_DE
        host.address = address(web, r, place)
        r.random()                                   # (kept: the draw order defines the Web)
        host.phone = _phone(web, r, place)
    elif cat == INTL:
        spec = V.INTL[web.place_idx[hid]]
        word = slugify(r.choice(spec[7]))
        label = f"{word}-{slugify(spec[3])}-{r.randrange(1000)}"
        tld = spec[0]
        host.lang = spec[1]
        host.intl = spec
        host.display = f"{spec[7][0]} {spec[3]}"
        host.address = Addr(spec[5], str(r.randint(1, 120)), spec[4], spec[3], spec[3], spec[2])
    elif cat == GENERIC:
        k = web.generic_ord.get(hid, 0)
        if k < len(V.GENERIC_HOSTS):
            full = V.GENERIC_HOSTS[k]
            label, tld, www = full[4:].rsplit(".", 1)[0], full.rsplit(".", 1)[1], True
        else:
            label = f"{r.choice(('info', 'netz', 'web', 'online', 'portal', 'welt'))}{r.randrange(100, 9999)}"
        g = V.GENERIC_DE[hash64(label) % len(V.GENERIC_DE)]
        host.kind = g[0]
        host.display = g[1]
        host.sections = (g[2],)
        host.facets = g[0] in ("shop", "vergleich", "branchenbuch")
        host.sid_trap = g[0] in ("forum", "video") or r.random() < 0.1
        host.address = address(web, r, r.choice(web.other_places)) if web.other_places else None
    else:  # ODP
        label, tld, www = "dmoz-archiv", "org", True
        host.display = "Open Directory (Archiv)"
    if not name:
        name = f"{'www.' if www else ''}{label}.{tld}"
        host.name = name
        if cat != ODP and r.random() < 0.9:
            host.alias = name[4:] if www else "www." + name
    host.slow_ms = 0
    if r.random() < p.p_slow_host:
        host.slow_ms = r.randint(*p.slow_ms)
        if r.random() < p.p_very_slow:
            host.slow_ms *= 5
    host.robots = r.choices(range(6), weights=(55, 15, 10, 10, 5, 5))[0]
    if host.robots == 4 and cat in (LOCAL, PORTAL, NEWS, ODP):
        host.robots = 0
    host.dead = cat not in (ODP,) and r.random() < p.p_dead_host
    if cat in (LOCAL, OTHER):
        host.agency = r.randrange(1 << 30) if r.random() < 0.4 else -1
        host.social = r.randrange(len(V.GENERIC_HOSTS)) if r.random() < 0.5 else -1
    return host


def _tld(web: Web, r: Random, cat: int) -> str:
    common = ("de", "com", "net", "org", "info", "eu", "biz", "online", "shop", "us")
    tlds = [t for t in web.region.tlds if t in common] or [t for t in web.region.tlds if "." not in t] or ["de"]
    home = "com" if web.country == "US" else (web.country.lower() if web.country.lower() in tlds else tlds[0])
    if r.random() < 0.8:
        return home
    return r.choice(tlds)


def _phone(web: Web, r: Random | Rng, place: Place) -> str:
    if place.country == "US":
        return f"({r.randint(201, 989)}) {r.randint(200, 999)}-{r.randint(1000, 9999)}"
    area = "0441" if place.token == "oldenburg" else f"0{r.randint(30, 9999)}"
    return f"{area} {r.randint(10000, 999999)}"


def _street(web: Web, r: Random | Rng, place: Place) -> str:
    if place.country == "US":
        if r.random() < 0.5:
            return f"{r.choice(V.US_STREET_ROOTS)} {r.choice(V.US_STREET_TYPES)}"
        return f"{r.choice(V.US_STREET_NAMES)} {r.choice(V.US_STREET_TYPES)}"
    roll = r.random()
    if not place.in_region and roll < 0.12:
        return r.choice(V.CONFUSABLE_STREETS_DE)
    pack_streets = web.region.streets if place.in_region else {}
    if roll < 0.5:
        pattern = r.choice(V.STREET_PATTERNS)
        return pattern.format(root=r.choice(V.STREET_ROOTS), suffix=r.choice(V.STREET_SUFFIXES),
                              first=r.choice(V.FIRSTNAMES), last=r.choice(V.SURNAMES))
    if pack_streets and roll < 0.7:
        keys = sorted(pack_streets)
        return keys[r.randrange(len(keys))]
    return r.choice(V.OLDENBURG_STREETS)


def address(web: Web, r: Random | Rng, place: Place) -> Addr:
    street = _street(web, r, place)
    n = r.randint(1, 180)
    if place.country == "US":
        number = str(r.randint(100, 9899))
    else:
        number = r.choice((str(n), str(n), str(n), f"{n}a", f"{n} b", f"{n}-{n + 2}", f"{n}/{n + 2}"))
    if place.postcodes:
        code, lat, lon = place.postcodes[r.randrange(len(place.postcodes))]
    else:
        code, lat, lon = "", None, None
    shown = r.choice(place.variants)
    return Addr(street, number, code, place.name, shown, place.country, place.state,
                lat, lon, place.in_region)
