"""The ODP-style directory of a simweb: its category paths, the hosts it lists, and the seeds."""

from __future__ import annotations

from random import Random
from urllib.parse import quote

from geofocus.simweb.entities import LOCAL, NEWS, ODP_HOST, PORTAL
from geofocus.simweb.protocol import Web
from geofocus.simweb.rng import hash64, slugify


def odp_path(web: Web, idx: int) -> str:
    if web.country == "US":
        base = "/Regional/North_America/United_States/" + slugify(web.region.name).replace("-", "_") + "/"
    else:
        city = web.region_places[0].name.split(" ")[0] if len(web.region_places) == 1 else web.region.name
        state = (web.region_places[0].state or "Deutschland").replace(" ", "_")
        base = f"/Regional/Europa/Deutschland/{state}/Staedte_und_Gemeinden/{quote(city)}/"
    if idx == 0:
        return base
    return base + odp_sub_name(web, idx) + "/"


_ODP_TOPICS_DE = ("Gesundheit", "Wirtschaft", "Vereine", "Bildung", "Medien", "Freizeit")
_ODP_TOPICS_EN = ("Health", "Business", "Society", "Education", "News_and_Media", "Recreation")


def odp_sub_name(web: Web, idx: int) -> str:
    if len(web.region_places) > 1:
        return quote(web.region_places[idx - 1].name.replace(" ", "_"))
    topics = _ODP_TOPICS_EN if web.lang == "en" else _ODP_TOPICS_DE
    return topics[(idx - 1) % len(topics)]


def odp_listed(web: Web, idx: int) -> list[int]:
    """Hosts listed on ODP page ``idx`` (0: the region's category page)."""
    r = Random(hash64(web.seed, "odp", idx))
    multi = len(web.region_places) > 1
    hosts: list[int] = []
    if idx == 0:
        portals = list(web.by_cat[PORTAL])
        news = list(web.by_cat[NEWS])
        locals_ = list(web.by_cat[LOCAL])
        r.shuffle(portals)
        r.shuffle(news)
        hosts += portals[:2] + news[:2]
        if multi:
            for city_hosts in web.local_by_city[:20]:
                lst = list(city_hosts)
                r.shuffle(lst)
                hosts += lst[:1]
        else:
            big = sorted(locals_, key=lambda h: (-web.size[h], h))[:4]
            r.shuffle(locals_)
            hosts += big + [h for h in locals_[:8] if h not in big]
    else:
        if multi:
            pool = list(web.local_by_city[idx - 1]) + list(web.portal_by_city[idx - 1])
        else:
            pool = list(web.by_cat[LOCAL])
        r.shuffle(pool)
        hosts = pool[:5]
    return [h for h in hosts if not web.host(h).dead]


def seeds(web: Web) -> list[str]:
    """Seed URLs: the region's ODP category page and the sites it lists."""
    odp = web.by_name[ODP_HOST]
    urls = [web.host(odp).base + odp_path(web, 0)]
    urls += [f"http://{web.names[h]}/" for h in odp_listed(web, 0)]
    return urls
