"""The simweb model: hosts, pages, links and ground truth, generated on demand.

A :class:`SimWeb` holds only a compact host table (one row per host: category,
first page id, size, place, name); every page, its links and its addresses are
derived from ``(seed, page id)`` when asked for, so a Web of a million pages
costs a few tens of megabytes and the same seed always gives the same Web.

Page ids run from 0 to ``pages - 1``; host ``h`` owns the ids
``start[h] .. start[h] + size[h] - 1``; local index 0 is the home page.
``resolve(host, path)`` maps a requested URL back to a page (or to a redirect,
an error, a trap page or robots.txt); :mod:`geofocus.simweb.render` turns the
result into bytes.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import re
from array import array
from dataclasses import dataclass
from functools import lru_cache
from random import Random
from typing import Iterator
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from geofocus.regions import Region, load_region
from geofocus.simweb import vocab as V
from geofocus.simweb.params import WebParams

# Host categories.
LOCAL, PORTAL, NEWS, OTHER, OPORTAL, INTL, GENERIC, ODP = range(8)
CAT_NAMES = ("local", "portal", "news", "other", "other_portal", "intl", "generic", "odp")

# Page roles.
(HOME, CONTACT, IMPRINT, PRIVACY, DIRECTIONS, CONTENT, BINARY, LISTING, ENTRY, SECTION,
 ARTICLE, ABOUT, ODP_CAT) = range(13)
ROLE_NAMES = ("home", "contact", "imprint", "privacy", "directions", "content", "binary",
              "listing", "entry", "section", "article", "about", "odp")

# Page flags.
MALFORMED, WRONG_CHARSET, LARGE = 1, 2, 4

ODP_HOST = "www.dmoz-archiv.org"
PORTAL_PER_PAGE = 15


_M64 = (1 << 64) - 1


@lru_cache(maxsize=65536)
def _str_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def _h(*parts: object) -> int:
    """A stable 64-bit hash of the parts (Python's hash() is salted per process)."""
    x = 0x9E3779B97F4A7C15
    for part in parts:
        v = part if type(part) is int else _str_hash(str(part))
        x = ((x ^ (v & _M64)) * 0xBF58476D1CE4E5B9) & _M64
        x ^= x >> 31
        x = (x * 0x94D049BB133111EB) & _M64
        x ^= x >> 29
    return x


class Rng:
    """splitmix64: a small, fast, stable PRNG (seeding random.Random costs ~8 us)."""

    __slots__ = ("s",)

    def __init__(self, seed: int):
        self.s = seed & _M64

    def _next(self) -> int:
        self.s = z = (self.s + 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def randrange(self, a: int, b: int | None = None) -> int:
        if b is None:
            a, b = 0, a
        if b <= a:
            raise ValueError("empty range")
        return a + self._next() % (b - a)

    def randint(self, a: int, b: int) -> int:
        return a + self._next() % (b - a + 1)

    def choice(self, seq):
        return seq[self._next() % len(seq)]

    def choices(self, population, weights):
        x = self.random() * sum(weights)
        for item, w in zip(population, weights):
            x -= w
            if x < 0:
                return [item]
        return [population[-1]]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._next() % (i + 1)
            items[i], items[j] = items[j], items[i]


@lru_cache(maxsize=65536)
def slugify(text: str) -> str:
    table = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "é": "e", "Ä": "ae",
                           "Ö": "oe", "Ü": "ue", "&": "-", "å": "a", "ø": "o", "ł": "l",
                           "ń": "n"})
    text = text.lower().translate(table)
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


@dataclass(frozen=True, slots=True)
class Addr:
    """A postal address as shown on a page; ``city`` is canonical, ``shown`` as printed."""

    street: str
    number: str
    postcode: str
    city: str
    shown: str
    country: str
    state: str = ""
    lat: float | None = None
    lon: float | None = None
    in_region: bool = False

    def to_dict(self) -> dict:
        return {"street": self.street, "house_number": self.number, "postcode": self.postcode,
                "city": self.city, "country": self.country, "lat": self.lat, "lon": self.lon}


@dataclass(frozen=True, slots=True)
class Place:
    """A city a host belongs to: one of the region's, or one elsewhere."""

    name: str
    token: str                       # host-name token
    postcodes: tuple                 # ((code, lat, lon), ...)
    state: str
    country: str
    in_region: bool
    variants: tuple                  # spellings of the city on pages
    districts: tuple = ()
    confusable: bool = False


@dataclass(slots=True)
class Host:
    hid: int
    name: str
    cat: int
    start: int
    size: int
    place: Place | None
    kind: str = ""
    display: str = ""
    sections: tuple = ()
    style: int = 0
    alias: str = ""
    lang: str = "de"
    footer_addr: bool = False
    home_addr: bool = False
    contact_addr: bool = False
    imprint_addr: bool = False
    directions: bool = False
    directions_addr: bool = False
    image_only: bool = False
    address: Addr | None = None
    branches: tuple = ()
    slow_ms: int = 0
    robots: int = 0
    sid_trap: bool = False
    repeat_trap: bool = False
    calendar: bool = False
    facets: bool = False
    dead: bool = False
    agency: int = -1
    social: int = -1
    phone: str = ""
    intl: tuple = ()

    @property
    def base(self) -> str:
        return "http://" + self.name


@dataclass(slots=True)
class Page:
    pid: int
    host: Host
    idx: int
    role: int
    path: str
    ctype: str = "text/html"
    addresses: tuple = ()
    mention: bool = False
    status: int = 200
    flags: int = 0
    sub: int = -1                    # entry: described host; listing/section: its number
    title: str = ""

    @property
    def url(self) -> str:
        return self.host.base + self.path

    @property
    def relevant(self) -> bool:
        return self.status == 200 and any(a.in_region for a in self.addresses)

    @property
    def grade(self) -> str:
        if self.status != 200 or self.ctype != "text/html":
            return "none"
        if self.relevant:
            return "relevant"
        return "partial" if self.mention else "none"

    @property
    def is_html(self) -> bool:
        return self.ctype == "text/html"


@dataclass(slots=True)
class Link:
    url: str
    anchor: str
    title: str = ""
    before: str = ""
    after: str = ""
    rel: str = ""                    # "nav", "body", "footer", "relative"
    href: str = ""                   # as written in the page when it differs from url


@dataclass(slots=True)
class Resolved:
    """What a URL is: a page, a redirect, an error, robots.txt or a trap page."""

    kind: str                        # page | redirect | notfound | error | robots | trap | image
    host: Host | None = None
    page: Page | None = None
    location: str = ""
    status: int = 200
    trap: tuple = ()                 # (trap kind, parameters...)
    sid: str = ""


class SimWeb:
    """A deterministic synthetic Web of ``params.pages`` pages around a region."""

    def __init__(self, params: WebParams | None = None, region: Region | None = None):
        self.p = params or WebParams()
        if self.p.pages < 200:
            raise ValueError("simweb needs at least 200 pages")
        self.region = region or load_region(self.p.region)
        self.seed = self.p.seed
        self.lang = "de" if "de" in self.region.languages else "en"
        self.country = self.region.country
        self._init_places()
        self._build_table()

    # ------------------------------------------------------------------ places
    def _init_places(self) -> None:
        reg = self.region
        self.region_places: list[Place] = []
        weights: list[float] = []
        for city in reg.cities:
            names = {city.name.lower(), *(a.lower() for a in city.aliases)}
            codes = tuple((code, v[0], v[1]) for code, v in sorted(reg.postcodes.items())
                          if v[2].lower() in names)
            if not codes and len(reg.cities) == 1:
                codes = tuple((code, v[0], v[1]) for code, v in sorted(reg.postcodes.items()))
            districts = V.OLDENBURG_DISTRICTS if slugify(city.name) == "oldenburg" else ()
            variants = (city.name,) * 3 + tuple(a for a in city.aliases if len(a) < 40)
            self.region_places.append(Place(
                name=city.name, token=slugify(city.name), postcodes=codes, state=city.state,
                country=reg.country, in_region=True, variants=variants, districts=districts))
            weights.append(max(city.population, 1) ** 0.85)
        total = sum(weights)
        self._city_cum = [sum(weights[: i + 1]) / total for i in range(len(weights))]
        region_codes = set(reg.postcodes)
        region_names = {n.lower() for n in reg.city_names()}
        self.other_places: list[Place] = []
        if self.country == "US":
            for name, state, codes, token in V.OTHER_PLACES_US:
                if name.lower() in region_names and not set(codes) - region_codes:
                    continue
                self.other_places.append(Place(name, token, tuple((c, None, None) for c in codes),
                                               state, "US", False, (name,)))
        else:
            for name, codes, token, conf in V.OTHER_PLACES_DE:
                if set(codes) & region_codes:
                    continue
                self.other_places.append(Place(name, token, tuple((c, None, None) for c in codes),
                                               "", "DE", False, (name,), confusable=conf))
        self.intl_places = [Place(i[3], slugify(i[3]), ((i[4], None, None),), "", i[2], False,
                                  (i[3],)) for i in V.INTL]

    def _pick_city(self, r: Random) -> int:
        return min(bisect.bisect_left(self._city_cum, r.random()), len(self._city_cum) - 1)

    # ------------------------------------------------------------- host table
    def _build_table(self) -> None:
        p = self.p
        n = p.pages
        rt = Random(_h(self.seed, "table"))
        cats: list[int] = []
        sizes: list[int] = []
        places: list[int] = []
        n_sub = min(len(self.region_places), 100) if len(self.region_places) > 1 else 6
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
                    place = self._pick_city(rt)
                elif cat in (OTHER, OPORTAL):
                    place = rt.randrange(len(self.other_places))
                elif cat == INTL:
                    place = rt.randrange(len(self.intl_places))
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
        self.cat = array("b", cats)
        self.size = array("l", sizes)
        self.place_idx = array("l", places)
        starts = array("l")
        acc = 0
        for s in sizes:
            starts.append(acc)
            acc += s
        assert acc == n, (acc, n)
        self.start = starts
        self.n_hosts = len(cats)
        # Names (unique), and per-category/per-city host lists for link targets.
        self._generic_ord = {h: i for i, h in enumerate(h for h in range(self.n_hosts)
                                                          if cats[h] == GENERIC)}
        self.names: list[str] = []
        self.by_name: dict[str, int] = {}
        self.aliases: dict[str, int] = {}
        by_cat: dict[int, array] = {c: array("l") for c in range(8)}
        self.local_by_city: list[array] = [array("l") for _ in self.region_places]
        self.other_by_place: list[array] = [array("l") for _ in self.other_places]
        self.portal_by_city: list[array] = [array("l") for _ in self.region_places]
        self.news_by_city: list[array] = [array("l") for _ in self.region_places]
        for hid in range(self.n_hosts):
            name, alias = self._draw_names(hid)
            base = name
            k = 2
            while name in self.by_name or name in self.aliases:
                parts = base.split(".")
                j = -3 if parts[-2] == "co" else -2
                parts[j] += str(k)
                name = ".".join(parts)
                k += 1
            self.names.append(name)
            self.by_name[name] = hid
            if alias and alias not in self.by_name and alias not in self.aliases and alias != name:
                self.aliases[alias] = hid
            c = self.cat[hid]
            by_cat[c].append(hid)
            pi = self.place_idx[hid]
            if c == LOCAL:
                self.local_by_city[pi].append(hid)
            elif c == PORTAL:
                self.portal_by_city[pi].append(hid)
            elif c == NEWS:
                self.news_by_city[pi].append(hid)
            elif c in (OTHER, OPORTAL) and c == OTHER:
                self.other_by_place[pi].append(hid)
        self.by_cat = by_cat
        self.alias_of: dict[int, str] = {hid: a for a, hid in self.aliases.items()}

    def _draw_names(self, hid: int) -> tuple[str, str]:
        host = self._draw_host(hid, "")
        return host.name, host.alias

    # ------------------------------------------------------------------ hosts
    @lru_cache(maxsize=32768)
    def host(self, hid: int) -> Host:
        """The full description of host ``hid`` (regenerated from the seed, cached)."""
        host = self._draw_host(hid, self.names[hid])
        host.alias = self.alias_of.get(hid, "")
        return host

    def host_of_pid(self, pid: int) -> Host:
        return self.host(bisect.bisect_right(self.start, pid) - 1)

    def _place(self, cat: int, pi: int) -> Place | None:
        if pi < 0:
            return None
        if cat in (LOCAL, PORTAL, NEWS):
            return self.region_places[pi]
        if cat in (OTHER, OPORTAL):
            return self.other_places[pi]
        return self.intl_places[pi]

    def _draw_host(self, hid: int, name: str) -> Host:
        p = self.p
        cat = self.cat[hid]
        r = Random(_h(self.seed, "host", hid))
        place = self._place(cat, self.place_idx[hid])
        host = Host(hid=hid, name=name, cat=cat, start=self.start[hid], size=self.size[hid],
                    place=place, lang=self.lang)
        tld = self._tld(r, cat)
        www = r.random() < 0.75
        en = self.lang == "en"
        if cat in (LOCAL, OTHER):
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
            host.address = self._address(r, place)
            if r.random() < p.p_branches:
                extra = []
                for _ in range(r.randint(1, 3)):
                    if r.random() < 0.5 or not self.other_places:
                        extra.append(self._address(r, place))
                    else:
                        extra.append(self._address(r, r.choice(self.other_places)))
                host.branches = tuple(extra)
            host.calendar = kind in V.CLUBS_DE or kind in V.CLUBS_EN or r.random() < 0.03
            host.repeat_trap = r.random() < 0.05
            host.phone = self._phone(r, place)
        elif cat in (PORTAL, OPORTAL):
            tok = place.token
            label = r.choice((f"{tok}-branchen", f"branchenbuch-{tok}", f"{tok}-online",
                              f"stadtportal-{tok}", f"{tok}-wegweiser", f"{tok}-guide",
                              f"firmen-in-{tok}", f"{tok}-info")) if not en else \
                r.choice((f"{tok}-directory", f"best-of-{tok}", f"{tok}-guide", f"{tok}pages"))
            host.display = (f"Branchenbuch {place.name}" if not en else f"{place.name} Business Directory")
            host.sections = V.PORTAL_CATEGORIES_EN if en else V.PORTAL_CATEGORIES_DE
            host.address = self._address(r, place)
            host.calendar = True
            host.phone = self._phone(r, place)
        elif cat == NEWS:
            tok = place.token
            dtok = r.choice(place.districts) if place.districts else tok
            label = r.choice((f"{tok}-zeitung", f"{tok}er-nachrichten", f"stadtblog-{tok}",
                              f"{dtok}-aktuell", f"nordwest-{tok}", f"{tok}-live")) if not en else \
                r.choice((f"{tok}-herald", f"{tok}-daily", f"{tok}-news", f"{tok}-chronicle"))
            host.display = f"{place.name} {'Nachrichten' if not en else 'News'}"
            host.sections = V.NEWS_SECTIONS_EN if en else V.NEWS_SECTIONS_DE
            host.address = self._address(r, place)
            r.random()                                   # (kept: the draw order defines the Web)
            host.phone = self._phone(r, place)
        elif cat == INTL:
            spec = V.INTL[self.place_idx[hid]]
            word = slugify(r.choice(spec[7]))
            label = f"{word}-{slugify(spec[3])}-{r.randrange(1000)}"
            tld = spec[0]
            host.lang = spec[1]
            host.intl = spec
            host.display = f"{spec[7][0]} {spec[3]}"
            host.address = Addr(spec[5], str(r.randint(1, 120)), spec[4], spec[3], spec[3], spec[2])
        elif cat == GENERIC:
            k = self._generic_ord.get(hid, 0)
            if k < len(V.GENERIC_HOSTS):
                full = V.GENERIC_HOSTS[k]
                label, tld, www = full[4:].rsplit(".", 1)[0], full.rsplit(".", 1)[1], True
            else:
                label = f"{r.choice(('info', 'netz', 'web', 'online', 'portal', 'welt'))}{r.randrange(100, 9999)}"
            g = V.GENERIC_DE[_h(label) % len(V.GENERIC_DE)]
            host.kind = g[0]
            host.display = g[1]
            host.sections = (g[2],)
            host.facets = g[0] in ("shop", "vergleich", "branchenbuch")
            host.sid_trap = g[0] in ("forum", "video") or r.random() < 0.1
            host.address = self._address(r, r.choice(self.other_places)) if self.other_places else None
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
            if r.random() < 0.15:
                host.slow_ms *= 5
        host.robots = r.choices(range(6), weights=(55, 15, 10, 10, 5, 5))[0]
        if host.robots == 4 and cat in (LOCAL, PORTAL, NEWS, ODP):
            host.robots = 0
        host.dead = cat not in (ODP,) and r.random() < p.p_dead_host
        if cat in (LOCAL, OTHER):
            host.agency = r.randrange(1 << 30) if r.random() < 0.4 else -1
            host.social = r.randrange(len(V.GENERIC_HOSTS)) if r.random() < 0.5 else -1
        return host

    def _tld(self, r: Random, cat: int) -> str:
        common = ("de", "com", "net", "org", "info", "eu", "biz", "online", "shop", "us")
        tlds = [t for t in self.region.tlds if t in common] or [t for t in self.region.tlds if "." not in t] or ["de"]
        home = "com" if self.country == "US" else (self.country.lower() if self.country.lower() in tlds else tlds[0])
        if r.random() < 0.8:
            return home
        return r.choice(tlds)

    def _phone(self, r: Random, place: Place) -> str:
        if place.country == "US":
            return f"({r.randint(201, 989)}) {r.randint(200, 999)}-{r.randint(1000, 9999)}"
        area = "0441" if place.token == "oldenburg" else f"0{r.randint(30, 9999)}"
        return f"{area} {r.randint(10000, 999999)}"

    def _street(self, r: Random, place: Place) -> str:
        if place.country == "US":
            if r.random() < 0.5:
                return f"{r.choice(V.US_STREET_ROOTS)} {r.choice(V.US_STREET_TYPES)}"
            return f"{r.choice(V.US_STREET_NAMES)} {r.choice(V.US_STREET_TYPES)}"
        roll = r.random()
        if not place.in_region and roll < 0.12:
            return r.choice(V.CONFUSABLE_STREETS_DE)
        pack_streets = self.region.streets if place.in_region else {}
        if roll < 0.5:
            pattern = r.choice(V.STREET_PATTERNS)
            return pattern.format(root=r.choice(V.STREET_ROOTS), suffix=r.choice(V.STREET_SUFFIXES),
                                  first=r.choice(V.FIRSTNAMES), last=r.choice(V.SURNAMES))
        if pack_streets and roll < 0.7:
            keys = sorted(pack_streets)
            return keys[r.randrange(len(keys))]
        return r.choice(V.OLDENBURG_STREETS)

    def _address(self, r: Random, place: Place) -> Addr:
        street = self._street(r, place)
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

    # ------------------------------------------------------------------ pages
    @lru_cache(maxsize=16384)
    def page(self, pid: int) -> Page:
        """The plan of page ``pid``: role, path, type, the addresses it shows."""
        if not 0 <= pid < self.p.pages:
            raise IndexError(pid)
        host = self.host_of_pid(pid)
        idx = pid - host.start
        r = Rng(_h(self.seed, "page", pid))
        p = self.p
        cat = host.cat
        page = Page(pid, host, idx, CONTENT, "/")
        if cat in (LOCAL, OTHER):
            self._plan_site(page, r)
        elif cat in (PORTAL, OPORTAL):
            self._plan_portal(page, r)
        elif cat == NEWS:
            self._plan_news(page, r)
        elif cat == GENERIC:
            self._plan_generic(page, r)
        elif cat == INTL:
            self._plan_intl(page, r)
        else:
            self._plan_odp(page)
        if page.is_html and cat != ODP:
            roll = r.random()
            if roll < p.p_malformed:
                page.flags |= MALFORMED
            elif roll < p.p_malformed + p.p_wrong_charset:
                page.flags |= WRONG_CHARSET
            elif roll < p.p_malformed + p.p_wrong_charset + p.p_large_page:
                page.flags |= LARGE
        if host.dead:
            page.status = 503
        elif idx != 0 and cat != ODP and r.random() < p.p_page_error:
            page.status = 500
        return page

    # Local sites and sites elsewhere share one layout.
    _SPECIAL = {
        0: {CONTACT: "/kontakt.html", IMPRINT: "/impressum.html", PRIVACY: "/datenschutz.html",
            DIRECTIONS: "/anfahrt.html"},
        1: {CONTACT: "/kontakt/", IMPRINT: "/impressum/", PRIVACY: "/datenschutz/",
            DIRECTIONS: "/anfahrt/"},
        2: {},
        3: {CONTACT: "/de/kontakt", IMPRINT: "/de/impressum", PRIVACY: "/de/datenschutz",
            DIRECTIONS: "/de/standort"},
        4: {CONTACT: "/contact.html", IMPRINT: "/imprint.html", PRIVACY: "/privacy.html",
            DIRECTIONS: "/directions.html"},
        5: {CONTACT: "/so-finden-sie-uns.html", IMPRINT: "/rechtliches.html",
            PRIVACY: "/hinweise.html", DIRECTIONS: "/wegbeschreibung.html"},
    }
    _SPECIAL_EN = {CONTACT: "/contact", IMPRINT: "/about-us", PRIVACY: "/privacy-policy",
                   DIRECTIONS: "/directions"}

    def _site_role(self, host: Host, idx: int) -> int:
        if idx == 0:
            return HOME
        if idx <= 3:
            return (CONTACT, IMPRINT, PRIVACY)[idx - 1]
        if idx == 4 and host.directions and host.size > 6:
            return DIRECTIONS
        return CONTENT

    def _site_special_path(self, host: Host, role: int, idx: int) -> str:
        if host.style == 2:
            return f"/index.php?id={idx}"
        if self.lang == "en" and host.style != 2:
            return self._SPECIAL_EN[role]
        return self._SPECIAL[host.style][role]

    def site_path(self, host: Host, idx: int) -> tuple[int, str, str]:
        """(role, path, content type) of page ``idx`` of a site: a pure function of the host."""
        p = self.p
        role = self._site_role(host, idx)
        if role == HOME:
            return role, ("/de/" if host.style == 3 else "/"), "text/html"
        if role != CONTENT:
            return role, self._site_special_path(host, role, idx), "text/html"
        words = V.CONTENT_WORDS_DE if self.lang == "de" else V.CONTENT_WORDS_EN
        slug = slugify(words[_h(host.hid, idx) % len(words)])
        sec = host.sections[idx % len(host.sections)]
        u = Rng(_h(self.seed, "path", host.hid, idx))
        if u.random() < p.p_binary:
            kind = u.choices(("pdf", "jpg", "zip"), weights=(5, 4, 1))[0]
            ctype = {"pdf": "application/pdf", "jpg": "image/jpeg", "zip": "application/zip"}[kind]
            folder = "bilder" if kind == "jpg" else ("fileadmin" if host.style == 2 else "downloads")
            roll = u.random()
            if roll < p.p_binary_no_ext:
                path = f"/dl/{idx}"
            elif roll < p.p_binary_no_ext + p.p_type_mismatch:
                path = f"/{folder}/{slug}-{idx}.html"
            else:
                path = f"/{folder}/{slug}-{idx}.{kind}"
            if kind == "jpg" and u.random() < 0.2:
                ctype = "application/octet-stream"
            return BINARY, path, ctype
        style = host.style
        if style == 2:
            path = f"/index.php?id={idx}"
        elif style == 1:
            path = f"/{sec}/{slug}-{idx}/"
        elif style == 3:
            path = f"/de/{sec}/{slug}-{idx}"
        elif style == 5:
            path = f"/{slug}-{idx}.html"
        else:
            ext = ".pdf" if u.random() < p.p_type_mismatch / 4 else ".html"
            path = f"/{sec}/{slug}-{idx}{ext}"
        return CONTENT, path, "text/html"

    def _plan_site(self, page: Page, r: Rng) -> None:
        host, idx, p = page.host, page.idx, self.p
        page.role, page.path, page.ctype = self.site_path(host, idx)
        home_in_region = host.place is not None and host.place.in_region
        if page.role == BINARY:
            return
        addrs: list[Addr] = []
        a = host.address
        if not host.image_only:
            role = page.role
            show = (host.footer_addr
                    or (role == HOME and host.home_addr)
                    or (role == CONTACT and host.contact_addr)
                    or (role == IMPRINT and host.imprint_addr)
                    or (role == DIRECTIONS and host.directions_addr))
            if show:
                addrs.append(a)
            if role in (CONTACT, DIRECTIONS, HOME) and host.branches and (show or role == CONTACT):
                addrs.extend(host.branches)
        page.addresses = tuple(addrs)
        page.mention = home_in_region and (page.role in (HOME, CONTACT, DIRECTIONS)
                                           or r.random() < p.p_region_mention)
        page.title = host.display

    def _portal_layout(self, host: Host) -> tuple[int, int]:
        """(number of listing pages, number of entries) of a portal."""
        body = max(1, host.size - 4)
        listings = max(1, math.ceil(body / (PORTAL_PER_PAGE + 1)))
        return listings, max(0, body - listings)

    def _entry_target(self, host: Host, e: int) -> int:
        """The host an entry of a directory describes (a local site of its city)."""
        pool = (self.local_by_city[self.place_idx[host.hid]] if host.cat == PORTAL
                else self.other_by_place[self.place_idx[host.hid]])
        if not pool:
            pool = self.by_cat[LOCAL if host.cat == PORTAL else OTHER]
        if not pool:
            return -1
        return pool[_h(self.seed, "entry", host.hid, e) % len(pool)]

    def _plan_portal(self, page: Page, r: Random) -> None:
        host, idx = page.host, page.idx
        n_list, n_entries = self._portal_layout(host)
        en = self.lang == "en"
        page.mention = host.cat == PORTAL
        page.title = host.display
        if idx < 4:
            page.role = (HOME, IMPRINT, CONTACT, ABOUT)[idx]
            page.path = ("/", "/about/legal.html" if en else "/impressum.html",
                         "/contact.html" if en else "/kontakt.html",
                         "/about.html" if en else "/ueber-uns.html")[idx]
            if page.role in (IMPRINT, CONTACT) or (page.role == HOME and r.random() < 0.5):
                page.addresses = (host.address,)
            return
        j = idx - 4
        cats = host.sections
        if j < n_list:
            page.role = LISTING
            page.sub = j
            page.path = f"/{'category' if en else 'branchen'}/{cats[j % len(cats)]}/seite-{j // len(cats) + 1}.html"
            # Some directories print full addresses in some of their lists.
            if _h(host.hid, "listaddr") % 8 == 0 and j % 3 == 0:
                page.addresses = tuple(
                    self.host(t).address for t in self._listing_targets(host, j)
                    if t >= 0 and self.host(t).address is not None and not self.host(t).image_only)
            return
        e = j - n_list
        page.role = ENTRY
        target = self._entry_target(host, e)
        page.sub = target
        tname = self.names[target] if target >= 0 else "eintrag"
        slug = tname.split(".")[-2] if tname.count(".") >= 1 else tname
        page.path = f"/{'listing' if en else 'eintrag'}/{slug}-{e}.html"
        if target >= 0 and r.random() < self.p.p_portal_entry_address:
            t = self.host(target)
            if t.address is not None:
                page.addresses = (t.address,)
        page.title = f"{self.host(target).display if target >= 0 else ''} – {host.display}"

    def _listing_targets(self, host: Host, j: int) -> list[int]:
        n_list, n_entries = self._portal_layout(host)
        first = j * PORTAL_PER_PAGE
        return [self._entry_target(host, e) for e in range(first, min(first + PORTAL_PER_PAGE, n_entries))]

    def _plan_news(self, page: Page, r: Random) -> None:
        host, idx = page.host, page.idx
        secs = host.sections
        page.mention = True
        page.title = host.display
        if idx < 3:
            page.role = (HOME, IMPRINT, CONTACT)[idx]
            page.path = ("/", "/impressum.html", "/kontakt.html")[idx]
            if page.role != HOME:
                page.addresses = (host.address,)
            return
        if idx < 3 + len(secs):
            page.role = SECTION
            page.sub = idx - 3
            page.path = f"/{secs[idx - 3]}/"
            return
        page.role = ARTICLE
        sec = secs[idx % len(secs)]
        year = 2005 + _h(host.hid, idx, "y") % 20
        month = 1 + _h(host.hid, idx, "m") % 12
        words = V.NEWS_WORDS_DE if self.lang == "de" else V.CONTENT_WORDS_EN
        slug = slugify(f"{words[_h(idx, 'a') % len(words)]}-{words[_h(idx, 'b') % len(words)]}")
        page.path = f"/{sec}/{year}/{month:02d}/{slug}-{idx}.html"
        if r.random() < self.p.p_news_article_address:
            place = host.place
            page.addresses = (self._address(r, place),)
        page.mention = r.random() < 0.85

    def generic_path(self, host: Host, idx: int) -> str:
        """Path of page ``idx`` of a generic host (a pure function: no page plan needed)."""
        if idx < 3:
            return ("/", "/impressum", "/kontakt")[idx]
        if _h(host.hid, idx, "bin") % 50 == 0:
            return f"/media/{idx}.png"
        words = V.CONTENT_WORDS_DE if self.lang == "de" else V.CONTENT_WORDS_EN
        return f"/{host.sections[0]}/{slugify(words[_h(host.hid, idx) % len(words)])}-{idx}"

    def _plan_generic(self, page: Page, r: Rng) -> None:
        host, idx = page.host, page.idx
        page.title = host.display
        page.path = self.generic_path(host, idx)
        if idx < 3:
            page.role = (HOME, IMPRINT, CONTACT)[idx]
            if page.role == IMPRINT and host.address is not None:
                page.addresses = (host.address,)
            return
        if page.path.startswith("/media/"):
            page.role = BINARY
            page.ctype = "image/png"
            return
        page.role = CONTENT
        if r.random() < self.p.p_generic_region_article:
            page.sub = 1                                     # an article about the region
            page.mention = True

    def _plan_intl(self, page: Page, r: Random) -> None:
        host, idx = page.host, page.idx
        spec = host.intl
        page.title = host.display
        if idx == 0:
            page.role, page.path = HOME, "/"
        elif idx == 1:
            page.role, page.path = CONTACT, f"/{spec[6]}.html"
            page.addresses = (host.address,)
        else:
            page.role = CONTENT
            page.path = f"/{slugify(spec[7][idx % len(spec[7])])}-{idx}.html"

    def _plan_odp(self, page: Page) -> None:
        page.title = "Open Directory"
        page.role = ODP_CAT
        page.path = self.odp_path(page.idx)
        page.mention = True

    # ----------------------------------------------------------------- paths
    def odp_path(self, idx: int) -> str:
        if self.country == "US":
            base = "/Regional/North_America/United_States/" + slugify(self.region.name).replace("-", "_") + "/"
        else:
            city = self.region_places[0].name.split(" ")[0] if len(self.region_places) == 1 else self.region.name
            state = (self.region_places[0].state or "Deutschland").replace(" ", "_")
            base = f"/Regional/Europa/Deutschland/{state}/Staedte_und_Gemeinden/{quote(city)}/"
        if idx == 0:
            return base
        return base + self._odp_sub_name(idx) + "/"

    _ODP_TOPICS_DE = ("Gesundheit", "Wirtschaft", "Vereine", "Bildung", "Medien", "Freizeit")
    _ODP_TOPICS_EN = ("Health", "Business", "Society", "Education", "News_and_Media", "Recreation")

    def _odp_sub_name(self, idx: int) -> str:
        if len(self.region_places) > 1:
            return quote(self.region_places[idx - 1].name.replace(" ", "_"))
        topics = self._ODP_TOPICS_EN if self.lang == "en" else self._ODP_TOPICS_DE
        return topics[(idx - 1) % len(topics)]

    def url(self, pid: int) -> str:
        return self.page(pid).url

    # ------------------------------------------------------------- resolving
    _NUM = re.compile(r"-(\d+)(?:\.[a-z]+|/)?$")

    def resolve(self, hostname: str, target: str) -> Resolved:
        """What the server answers for ``http://hostname`` + ``target`` (path and query)."""
        hostname = hostname.lower().split(":")[0].rstrip(".")
        hid = self.by_name.get(hostname)
        if hid is None:
            ahid = self.aliases.get(hostname)
            if ahid is None:
                return Resolved("unknown", status=502)
            return Resolved("redirect", host=self.host(ahid), status=301,
                            location=self.host(ahid).base + target)
        host = self.host(hid)
        if host.dead:
            return Resolved("error", host=host, status=503)
        split = urlsplit(target)
        path = unquote(split.path) or "/"
        query = split.query
        if path == "/robots.txt":
            return Resolved("robots", host=host, status=404 if host.robots == 1 else 200)
        if path.startswith("/img/"):  # the images of geofocus/simweb/images.py
            return Resolved("image", host=host, location=path)
        sid = ""
        if host.sid_trap and "sid=" in query:
            params = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True)]
            sid = next((v for k, v in params if k == "sid"), "")
            rest = [(k, v) for k, v in params if k != "sid"]
            query = "&".join(f"{k}={v}" for k, v in rest)
        full = path + ("?" + query if query else "")
        trap = self._trap(host, path, query)
        if trap:
            return Resolved("trap", host=host, trap=trap, sid=sid)
        redirect = self._special_redirect(host, path, query)
        if redirect:
            return redirect
        idx = self._find_idx(host, path, query)
        if idx is not None and 0 <= idx < host.size:
            page = self.page(host.start + idx)
            if page.path == full:
                if page.status != 200:
                    return Resolved("error", host=host, page=page, status=page.status)
                return Resolved("page", host=host, page=page, sid=sid)
            if page.path == full + "/":
                return Resolved("redirect", host=host, status=301, location=host.base + page.path)
        return Resolved("notfound", host=host, status=404)

    def _special_redirect(self, host: Host, path: str, query: str) -> Resolved | None:
        if path in ("/redirect", "/go") and query.startswith("url="):
            return Resolved("redirect", host=host, status=302, location=unquote(query[4:]))
        # Index pages and CMS ids under their other common names.
        if path in ("/index.html", "/index.htm", "/index.php") and not query:
            return Resolved("redirect", host=host, status=301, location=host.base + "/")
        if path == "/" and query.startswith("id=") and host.cat in (LOCAL, OTHER) and host.style == 2:
            return Resolved("redirect", host=host, status=301, location=f"{host.base}/index.php?{query}")
        if host.cat in (LOCAL, OTHER) and host.style == 3 and path == "/" and not query:
            return Resolved("redirect", host=host, status=302, location=host.base + "/de/")
        return None

    def _find_idx(self, host: Host, path: str, query: str) -> int | None:
        cat = host.cat
        if path == "/" and not query:
            return 0
        if cat in (LOCAL, OTHER):
            if path in ("/de/", "/de") and host.style == 3:
                return 0
            if path == "/index.php" and query.startswith("id="):
                try:
                    return int(query[3:])
                except ValueError:
                    return None
            special = self._SPECIAL_EN if self.lang == "en" else self._SPECIAL.get(host.style, {})
            for role, spath in special.items():
                if spath == path or spath == path + "/":
                    return {CONTACT: 1, IMPRINT: 2, PRIVACY: 3, DIRECTIONS: 4}[role]
            if path.startswith("/dl/"):
                try:
                    return int(path[4:])
                except ValueError:
                    return None
        elif cat in (PORTAL, OPORTAL):
            fixed = {"/impressum.html": 1, "/about/legal.html": 1, "/kontakt.html": 2,
                     "/contact.html": 2, "/ueber-uns.html": 3, "/about.html": 3}
            if path in fixed:
                return fixed[path]
            m = re.match(r"^/(?:branchen|category)/([^/]+)/seite-(\d+)\.html$", path)
            if m:
                cats = host.sections
                if m.group(1) not in cats:
                    return None
                return 4 + (int(m.group(2)) - 1) * len(cats) + cats.index(m.group(1))
            m = self._NUM.search(path)
            if m and path.startswith(("/eintrag/", "/listing/")):
                return 4 + self._portal_layout(host)[0] + int(m.group(1))
            return None
        elif cat == NEWS:
            fixed = {"/impressum.html": 1, "/kontakt.html": 2}
            if path in fixed:
                return fixed[path]
            secs = host.sections
            if path.strip("/") in secs and path.count("/") <= 2:
                return 3 + secs.index(path.strip("/"))
        elif cat == GENERIC:
            fixed = {"/impressum": 1, "/kontakt": 2}
            if path in fixed:
                return fixed[path]
            if path.startswith("/media/") and path.endswith(".png"):
                try:
                    return int(path[7:-4])
                except ValueError:
                    return None
        elif cat == INTL:
            if path == f"/{host.intl[6]}.html":
                return 1
        elif cat == ODP:
            for i in range(host.size):
                if self.odp_path(i) in (quote(path, safe="/_"), quote(path, safe="/_") + "/"):
                    return i
            return None
        m = self._NUM.search(path)
        return int(m.group(1)) if m else None

    _CAL = re.compile(r"^/(?:termine|veranstaltungen|events)/kalender/(-?\d{1,6})-(\d{2})\.html$")
    _REPEAT = re.compile(r"^(?:/[a-z\-]+)*/aktuelles/$")

    def _trap(self, host: Host, path: str, query: str) -> tuple:
        if host.calendar:
            m = self._CAL.match(path)
            if m and 1 <= int(m.group(2)) <= 12:
                return ("calendar", int(m.group(1)), int(m.group(2)))
        if host.repeat_trap and self._REPEAT.match(path):
            return ("repeat", path)
        if host.facets and path == "/suche":
            return ("facets", query)
        if host.cat == GENERIC and path in ("/share", "/bewerten", "/karte"):
            return ("sink", path)
        return ()

    # --------------------------------------------------------------- links
    def outlinks(self, res: Resolved) -> list[Link]:
        """The links of a page (or trap page) in document order; deterministic."""
        from geofocus.simweb.links import page_links, trap_links

        if res.kind == "trap":
            return trap_links(self, res)
        if res.kind != "page" or not res.page.is_html:
            return []
        links = page_links(self, res.page)
        if res.host.sid_trap:
            # A fresh session on every entry: each page links its own pages with new ids.
            sid = res.sid or format(_h(self.seed, "sid", res.page.pid) & 0xFFFFFFFFFFFF, "012x")
            links = [self._with_sid(link, res.host, sid) for link in links]
        return links

    def _with_sid(self, link: Link, host: Host, sid: str) -> Link:
        if not link.url.startswith(host.base + "/"):
            return link
        new = format(_h(sid, link.url) & 0xFFFFFFFFFFFF, "012x")
        sep = "&" if "?" in link.url else "?"
        link.url = f"{link.url}{sep}sid={new}"
        return link

    def link_to_host(self, r: Random, hid: int, deep: float = 0.22) -> str:
        """A URL on host ``hid``: usually its home page, sometimes a deeper page."""
        host_name = self.names[hid]
        if r.random() < self.p.p_alias_link and hid in self.alias_of:
            host_name = self.alias_of[hid]
        roll = r.random()
        size = self.size[hid]
        if roll < 1 - deep or size < 2:
            pid = self.start[hid]
        elif roll < 1 - deep * 0.6 and self.cat[hid] in (LOCAL, OTHER):
            pid = self.start[hid] + 1
        else:
            pid = self.start[hid] + r.randrange(size)
        path = self.page(pid).path
        if pid == self.start[hid]:
            path = "/"
        return f"http://{host_name}{path}"

    # --------------------------------------------------------------- robots
    _ROBOTS = {
        0: (),
        1: (),
        2: ("/downloads/", "/dl/", "/admin/"),
        3: ("/termine/kalender/", "/veranstaltungen/kalender/", "/suche"),
        4: ("/",),
        5: ("/intern/", "/fileadmin/"),
    }

    def robots_txt(self, host: Host) -> str:
        """The robots.txt of a host (style 1 has none: 404)."""
        style = host.robots
        lines = []
        if style == 3:
            lines += ["User-agent: BadBot", "Disallow: /", ""]
        lines.append("User-agent: *")
        if style == 5:
            lines.append("Crawl-delay: 1")
        prefixes = self._ROBOTS[style]
        lines += [f"Disallow: {d}" for d in prefixes] or ["Disallow:"]
        if style in (0, 5):
            lines.append(f"Sitemap: {host.base}/sitemap.xml")
        return "\n".join(lines) + "\n"

    def disallowed(self, host: Host, target: str) -> bool:
        """True if robots.txt of ``host`` forbids ``target`` to every user agent."""
        return any(target.startswith(d) for d in self._ROBOTS[host.robots])

    # ---------------------------------------------------------------- truth
    def iter_pages(self) -> Iterator[Page]:
        for pid in range(self.p.pages):
            yield self.page(pid)

    def truth_record(self, page: Page) -> dict:
        rel = page.relevant
        return {"url": page.url, "relevant": rel, "grade": page.grade,
                "addresses": [a.to_dict() for a in page.addresses if a.in_region] if rel else []}

    # ---------------------------------------------------------------- seeds
    def odp_listed(self, idx: int) -> list[int]:
        """Hosts listed on ODP page ``idx`` (0: the region's category page)."""
        r = Random(_h(self.seed, "odp", idx))
        multi = len(self.region_places) > 1
        hosts: list[int] = []
        if idx == 0:
            portals = list(self.by_cat[PORTAL])
            news = list(self.by_cat[NEWS])
            locals_ = list(self.by_cat[LOCAL])
            r.shuffle(portals)
            r.shuffle(news)
            hosts += portals[:2] + news[:2]
            if multi:
                for pool in self.local_by_city[:20]:
                    lst = list(pool)
                    r.shuffle(lst)
                    hosts += lst[:1]
            else:
                big = sorted(locals_, key=lambda h: (-self.size[h], h))[:4]
                r.shuffle(locals_)
                hosts += big + [h for h in locals_[:8] if h not in big]
        else:
            if multi:
                pool = list(self.local_by_city[idx - 1]) + list(self.portal_by_city[idx - 1])
            else:
                pool = list(self.by_cat[LOCAL])
            r.shuffle(pool)
            hosts = pool[:5]
        return [h for h in hosts if not self.host(h).dead]

    def seeds(self) -> list[str]:
        """Seed URLs: the region's ODP category page and the sites it lists."""
        odp = self.by_name[ODP_HOST]
        urls = [self.host(odp).base + self.odp_path(0)]
        urls += [f"http://{self.names[h]}/" for h in self.odp_listed(0)]
        return urls
