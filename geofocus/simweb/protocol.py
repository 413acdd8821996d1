"""What simweb's generator modules read of a Web: the contract between them and ``SimWeb``.

``hosts``, ``pages``, ``odp``, ``resolve`` and ``links`` take the Web as their first argument
typed as :class:`Web`, so that none of them imports ``web.py`` (which imports them all);
:class:`~geofocus.simweb.web.SimWeb` is the one implementation.
"""

from __future__ import annotations

from array import array
from typing import Protocol

from geofocus.regions import Region
from geofocus.simweb.entities import Host, Page, Place
from geofocus.simweb.params import WebParams
from geofocus.simweb.rng import Rng


class Web(Protocol):
    p: WebParams
    region: Region
    seed: int
    lang: str                          # "de" or "en": the language of the generated pages
    country: str
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

    def host(self, hid: int) -> Host: ...

    def host_of_pid(self, pid: int) -> Host: ...

    def page(self, pid: int) -> Page: ...

    def site_path(self, host: Host, idx: int) -> tuple[int, str, str]: ...

    def generic_path(self, host: Host, idx: int) -> str: ...

    def link_to_host(self, r: Rng, hid: int, deep: float = 0.22) -> str: ...

    def odp_listed(self, idx: int) -> list[int]: ...
