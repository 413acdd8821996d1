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

``SimWeb`` is the entry point; each concept lives in its own module, which takes the
``SimWeb`` as its first argument, typed as the protocol ``protocol.Web``, and never imports this one:

| concept | module |
|---|---|
| categories, roles, flags; ``Host``, ``Page``, ``Link``, ``Resolved`` ... | ``entities`` |
| stable hashing, the PRNG, slugs | ``rng`` |
| places and the host table, each host's description | ``hosts`` |
| page plans (role, path, content type, addresses) | ``pages`` |
| the ODP-style directory and the seeds | ``odp`` |
| what the server answers for a URL, robots.txt | ``resolve`` |
| the links of a page | ``links`` |
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterator
from functools import lru_cache

from geofocus.regions import Region, load_region
from geofocus.simweb import hosts, links, odp, pages, resolve
from geofocus.simweb.entities import (
    ABOUT,
    ARTICLE,
    BINARY,
    CAT_NAMES,
    CONTACT,
    CONTENT,
    DIRECTIONS,
    ENTRY,
    GENERIC,
    HOME,
    IMPRINT,
    INTL,
    LARGE,
    LISTING,
    LOCAL,
    MALFORMED,
    NEWS,
    ODP,
    ODP_CAT,
    ODP_HOST,
    OPORTAL,
    OTHER,
    PORTAL,
    PORTAL_PER_PAGE,
    PRIVACY,
    ROLE_NAMES,
    SECTION,
    WRONG_CHARSET,
    Addr,
    Host,
    Link,
    Page,
    Place,
    Resolved,
)
from geofocus.simweb.params import WebParams
from geofocus.simweb.protocol import Web
from geofocus.simweb.rng import Rng

__all__ = [
    "ABOUT", "ARTICLE", "BINARY", "CAT_NAMES", "CONTACT", "CONTENT", "DIRECTIONS", "ENTRY", "GENERIC",
    "HOME", "IMPRINT", "INTL", "LARGE", "LISTING", "LOCAL", "MALFORMED", "NEWS", "ODP", "ODP_CAT",
    "ODP_HOST", "OPORTAL", "OTHER", "PORTAL", "PORTAL_PER_PAGE", "PRIVACY", "ROLE_NAMES", "SECTION",
    "WRONG_CHARSET", "Addr", "Host", "Link", "Page", "Place", "Resolved", "SimWeb",
]


class SimWeb(Web):
    """A deterministic synthetic Web of ``params.pages`` pages around a region."""

    # The host table, set by hosts.init_places and hosts.build_table (one row per host).
    region_places: list[Place]
    other_places: list[Place]
    intl_places: list[Place]
    city_cum: list[float]              # cumulative share of each region city (by population)
    cat: array                         # per host: category
    size: array                        # per host: number of pages
    place_idx: array                   # per host: index of its place (-1: none)
    start: array                       # per host: first page id
    n_hosts: int
    generic_ord: dict[int, int]        # generic host -> its rank among generic hosts
    names: list[str]
    by_name: dict[str, int]
    aliases: dict[str, int]            # alias host name (www. or not) -> host
    alias_of: dict[int, str]
    by_cat: dict[int, array]
    local_by_city: list[array]
    other_by_place: list[array]
    portal_by_city: list[array]
    news_by_city: list[array]

    def __init__(self, params: WebParams | None = None, region: Region | None = None):
        self.p = params or WebParams()
        if self.p.pages < 200:
            raise ValueError("simweb needs at least 200 pages")
        # Caches per Web: an lru_cache on the methods would be shared by all Webs and keep
        # every SimWeb ever built alive through its keys (ruff B019).
        self._host_cache = lru_cache(maxsize=32768)(self._draw_host)
        self._page_cache = lru_cache(maxsize=16384)(self._plan_page)
        self.region = region or load_region(self.p.region)
        self.seed = self.p.seed
        self.lang = "de" if "de" in self.region.languages else "en"
        self.country = self.region.country
        hosts.init_places(self)
        hosts.build_table(self)

    # ------------------------------------------------------------------ hosts
    def host(self, hid: int) -> Host:
        """The full description of host ``hid`` (regenerated from the seed, cached)."""
        return self._host_cache(hid)

    def _draw_host(self, hid: int) -> Host:
        host = hosts.draw_host(self, hid, self.names[hid])
        host.alias = self.alias_of.get(hid, "")
        return host

    def host_of_pid(self, pid: int) -> Host:
        return self.host(bisect.bisect_right(self.start, pid) - 1)

    # ------------------------------------------------------------------ pages
    def page(self, pid: int) -> Page:
        """The plan of page ``pid``: role, path, type, the addresses it shows."""
        return self._page_cache(pid)

    def _plan_page(self, pid: int) -> Page:
        return pages.plan_page(self, pid)

    def site_path(self, host: Host, idx: int) -> tuple[int, str, str]:
        """(role, path, content type) of page ``idx`` of a site: a pure function of the host."""
        return pages.site_path(self, host, idx)

    def generic_path(self, host: Host, idx: int) -> str:
        """Path of page ``idx`` of a generic host (a pure function: no page plan needed)."""
        return pages.generic_path(self, host, idx)

    def odp_path(self, idx: int) -> str:
        return odp.odp_path(self, idx)

    def url(self, pid: int) -> str:
        return self.page(pid).url

    # ----------------------------------------------------- serving and links
    def resolve(self, hostname: str, target: str) -> Resolved:
        """What the server answers for ``http://hostname`` + ``target`` (path and query)."""
        return resolve.resolve(self, hostname, target)

    def robots_txt(self, host: Host) -> str:
        """The robots.txt of a host (style 1 has none: 404)."""
        return resolve.robots_txt(self, host)

    def disallowed(self, host: Host, target: str) -> bool:
        """True if robots.txt of ``host`` forbids ``target`` to every user agent."""
        return resolve.disallowed(self, host, target)

    def outlinks(self, res: Resolved) -> list[Link]:
        """The links of a page (or trap page) in document order; deterministic."""
        return links.outlinks(self, res)

    def link_to_host(self, r: Rng, hid: int, deep: float = 0.22) -> str:
        """A URL on host ``hid``: usually its home page, sometimes a deeper page."""
        return links.link_to_host(self, r, hid, deep)

    # ---------------------------------------------------------- truth, seeds
    def iter_pages(self) -> Iterator[Page]:
        for pid in range(self.p.pages):
            yield self.page(pid)

    def truth_record(self, page: Page) -> dict:
        rel = page.relevant
        return {"url": page.url, "relevant": rel, "grade": page.grade,
                "addresses": [a.to_dict() for a in page.addresses if a.in_region] if rel else []}

    def odp_listed(self, idx: int) -> list[int]:
        """Hosts listed on ODP page ``idx`` (0: the region's category page)."""
        return odp.odp_listed(self, idx)

    def seeds(self) -> list[str]:
        """Seed URLs: the region's ODP category page and the sites it lists."""
        return odp.seeds(self)
