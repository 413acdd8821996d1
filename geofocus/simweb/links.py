"""Links of simweb pages: where they point and what their features say.

The link structure carries the papers' signals, noisily:

* geographic locality: a local page links other local sites of its city
  (``WebParams.local_to_local``, ``p_same_city``), regional portals list local
  sites and newspapers mention them; pages elsewhere rarely link into the
  region (``other_to_local``, ``generic_to_local``), which makes long bridges;
* hints: anchors and paths such as Kontakt, Impressum, Anfahrt, Standort and
  place names in host names; but a share of sites use hint-less paths and
  anchors (``p_hintless_paths``, ``p_hintless_anchor``), and sites elsewhere,
  abroad and generic sites carry the same hints without a regional address;
* tails: relevant pages link web designers, social networks and generic sites
  that never lead back into the region.

``outlinks(web, resolved)`` (``SimWeb.outlinks``) gives the links of a page or trap page, with
the session ids of hosts that hand them out; ``link_to_host`` is a URL on another host.
"""

from __future__ import annotations

import math
from urllib.parse import quote, urljoin

from geofocus.simweb import odp, pages
from geofocus.simweb import vocab as V
from geofocus.simweb.entities import (
    ARTICLE,
    BINARY,
    CONTACT,
    CONTENT,
    DIRECTIONS,
    ENTRY,
    GENERIC,
    HOME,
    INTL,
    LISTING,
    LOCAL,
    NEWS,
    ODP,
    OPORTAL,
    OTHER,
    PORTAL,
    PORTAL_PER_PAGE,
    SECTION,
    Host,
    Link,
    Page,
    Resolved,
)
from geofocus.simweb.protocol import Web
from geofocus.simweb.rng import Rng, hash64, slugify

CONTACT_ANCHORS_DE = ("Kontakt", "Kontakt", "Kontakt & Anfahrt", "Kontaktieren Sie uns")
CONTACT_ANCHORS_HINTLESS_DE = ("Hier finden Sie uns", "Wir", "Service", "Ihr Weg zu uns", "Info")
DIRECTIONS_ANCHORS_DE = ("Anfahrt", "Standort", "So finden Sie uns", "Lageplan")
CONTACT_ANCHORS_EN = ("Contact", "Contact Us", "Contact & Directions")
CONTACT_ANCHORS_HINTLESS_EN = ("Find us", "Visit", "About", "Info")


def _poisson(r: Rng, lam: float) -> int:
    if lam <= 0:
        return 0
    limit, k, prod = math.exp(-lam), 0, r.random()
    while prod > limit:
        k += 1
        prod *= r.random()
    return k


def _pick(r: Rng, pool) -> int:
    return pool[r.randrange(len(pool))] if len(pool) else -1


def popular(r, n: int) -> int:
    """An index in [0, n) skewed to small values: big sites link their popular pages most."""
    if r.random() < 0.6:
        return r.randrange(n)
    return min(n - 1, int(n ** r.random()) - 1)


def _choose_cat(r: Rng, mix: tuple) -> int:
    x = r.random() * sum(w for _, w in mix)
    for cat, w in mix:
        x -= w
        if x <= 0:
            return cat
    return mix[-1][0]


def _target_host(web: Web, r: Rng, cat: int, city: int) -> int:
    """A host of category ``cat``; regional ones prefer the city ``city`` (locality)."""
    if cat in (LOCAL, PORTAL, NEWS) and city >= 0 and len(web.region_places) > 1 \
            and r.random() < web.p.p_same_city:
        pool = {LOCAL: web.local_by_city, PORTAL: web.portal_by_city, NEWS: web.news_by_city}[cat][city]
        if len(pool):
            return _pick(r, pool)
    return _pick(r, web.by_cat[cat])


def _ext_link(web: Web, r: Rng, cat: int, city: int, src_hid: int) -> Link | None:
    hid = _target_host(web, r, cat, city)
    if hid < 0 or hid == src_hid:
        return None
    return _host_link(web, r, hid)


def _host_link(web: Web, r: Rng, hid: int) -> Link:
    host = web.host(hid)
    url = web.link_to_host(r, hid)
    en = web.lang == "en"
    roll = r.random()
    if roll < 0.45:
        anchor = host.display
    elif roll < 0.75:
        anchor = url.split("/")[2]
    else:
        anchor = ("Website", "mehr", "hier", "Link")[r.randrange(4)] if not en else \
            ("website", "more", "here", "link")[r.randrange(4)]
    before, after = "", ""
    place = host.place
    if place is not None and r.random() < 0.6:
        where = place.name
        if place.districts and r.random() < 0.5:
            where = f"{place.name}-{place.districts[hash64(hid, 'd') % len(place.districts)].capitalize()}"
        after = f" in {where}" if not en else f" in {where}"
    if url.endswith(("/kontakt.html", "/kontakt/", "/de/kontakt", "/contact.html", "/contact")):
        anchor = "Kontakt" if not en else "Contact"
    return Link(url, anchor, "", before, after, "body")


class _Builder:
    def __init__(self, web: Web, page: Page):
        self.web = web
        self.page = page
        self.host = page.host
        self.r = Rng(hash64(web.seed, "links", page.pid))
        self.links: list[Link] = []

    def internal(self, idx: int, anchor: str, rel: str = "nav", title: str = "") -> None:
        if 0 <= idx < self.host.size:
            if self.host.cat == GENERIC:
                path = self.web.generic_path(self.host, idx)
            elif self.host.cat in (LOCAL, OTHER):
                path = "/" if idx == 0 else self.web.site_path(self.host, idx)[1]
            else:
                path = "/" if idx == 0 else self.web.page(self.host.start + idx).path
            if path.endswith("/") and path != "/" and self.r.random() < 0.15:
                path = path[:-1]                     # a link without the slash: 301
            self.links.append(Link(self.host.base + path, anchor, title, "", "", rel))

    def broken(self) -> None:
        if self.r.random() < self.web.p.p_broken_link:
            self.links.append(Link(f"{self.host.base}/alt/seite-{self.r.randrange(1, 99)}.html",
                                   "Archiv", "", "", "", "body"))

    def ext(self, n: int, mix: tuple, city: int = -1) -> None:
        for _ in range(n):
            link = _ext_link(self.web, self.r, _choose_cat(self.r, mix), city, self.host.hid)
            if link is not None:
                self.links.append(link)


def _site_links(b: _Builder) -> None:
    web, host, page, r, p = b.web, b.host, b.page, b.r, b.web.p
    en = web.lang == "en"
    hint = hash64(host.hid, "anchor") % 1000 >= p.p_hintless_anchor * 1000
    b.internal(0, "Start" if not en else "Home")
    if hint:
        ca = (CONTACT_ANCHORS_EN if en else CONTACT_ANCHORS_DE)[hash64(host.hid, "ca") % 3]
    else:
        ca = (CONTACT_ANCHORS_HINTLESS_EN if en else CONTACT_ANCHORS_HINTLESS_DE)[hash64(host.hid, "ca") % 4]
    for s in range(7):                       # the menu: the site's main pages
        idx = 5 + s
        if idx < host.size and web.site_path(host, idx)[0] == CONTENT:
            b.internal(idx, host.sections[s % len(host.sections)].replace("-", " ").capitalize())
    b.internal(1, ca)
    if host.directions and host.size > 6:
        da = DIRECTIONS_ANCHORS_DE[hash64(host.hid, "da") % 4] if not en else "Directions"
        b.internal(4, da if hint else ("Karte", "Lage", "Wo?")[hash64(host.hid, "dh") % 3])
    # Body: a few other pages of the site, the odd download or picture.
    for _ in range(r.randint(2, 6)):
        b.internal(r.randrange(host.size), host.sections[r.randrange(len(host.sections))].capitalize(), "body")
    b.broken()
    if host.calendar and page.role in (HOME, CONTENT):
        b.links.append(Link(f"{host.base}/termine/kalender/2024-{1 + page.pid % 12:02d}.html",
                            "Termine" if not en else "Events", "", "", "", "body"))
    if host.repeat_trap and page.role in (HOME, CONTENT):
        b.links.append(Link(urljoin(page.url, "aktuelles/"), "Aktuelles", "", "", "", "relative",
                            href="aktuelles/"))
    # External links.
    city = web.place_idx[host.hid]
    if host.cat == LOCAL:
        l2l = p.local_to_local
        mix = ((LOCAL, l2l), (PORTAL, 0.10), (NEWS, 0.05), (GENERIC, 0.33 - l2l / 3),
               (OTHER, 0.35 - l2l / 2), (INTL, 0.05))
        n = (2 + _poisson(r, 2.0)) if page.role == HOME else _poisson(r, 0.5)
    else:
        mix = ((OTHER, 0.45), (OPORTAL, 0.08), (GENERIC, 0.38), (INTL, 0.07),
               (LOCAL, p.other_to_local), (PORTAL, p.other_to_local / 4))
        n = (1 + _poisson(r, 1.2)) if page.role == HOME else _poisson(r, 0.3)
        city = -1
    b.ext(n, mix, city)
    # Footer: legal pages, the web designer, a social network (tails of relevant pages).
    b.internal(2, "Impressum" if not en and host.style != 5 else ("Rechtliches" if not en else "Imprint"), "footer")
    b.internal(3, "Datenschutz" if not en else "Privacy", "footer")
    if host.agency >= 0:
        pool = web.by_cat[OTHER] if host.agency % 5 else web.by_cat[LOCAL]
        if len(pool):
            ahid = pool[host.agency % len(pool)]
            if ahid != host.hid:
                a = web.host(ahid)
                b.links.append(Link(a.base + "/", a.display if host.agency % 3 else a.name,
                                    "Webdesign", "Webdesign: " if not en else "Website by ", "", "footer"))
    generic = web.by_cat[GENERIC]
    if len(generic) and hash64(host.hid, "share") % 1000 < p.p_share_buttons * 1000:
        social = web.host(generic[9 % len(generic)])
        review = web.host(generic[16 % len(generic)])
        b.links.append(Link(f"{social.base}/share?u={quote(page.url, safe='')}", "Teilen" if not en else "Share",
                            f"Auf {social.display} teilen" if not en else "Share", "", "", "footer"))
        b.links.append(Link(f"{review.base}/bewerten?firma={host.name.split('.')[-2]}",
                            "Bewerten Sie uns" if not en else "Review us", "", "", "", "footer"))
        if page.role in (CONTACT, DIRECTIONS, HOME) and host.address is not None:
            maps = web.host(generic[13 % len(generic)])
            q = quote(f"{host.address.street} {host.address.number} {host.address.city}")
            b.links.append(Link(f"{maps.base}/karte?q={q}", "Route planen" if not en else "Get directions",
                                "", "", "", "body"))
    if host.social >= 0 and len(web.by_cat[GENERIC]):
        g = web.host(web.by_cat[GENERIC][host.social % len(web.by_cat[GENERIC])])
        b.links.append(Link(g.base + "/", g.display, "", "Folgen Sie uns: " if not en else "Follow us: ",
                            "", "footer"))


def _portal_links(b: _Builder) -> None:
    web, host, page, r = b.web, b.host, b.page, b.r
    en = web.lang == "en"
    n_list, n_entries = pages.portal_layout(web, host)
    cats = host.sections
    b.internal(0, "Startseite" if not en else "Home")
    b.internal(3, "Über uns" if not en else "About")
    for c in range(min(len(cats), n_list)) if page.role == 0 else range(min(6, len(cats), n_list)):
        b.internal(4 + c, cats[c].replace("-", " ").capitalize())
    city = web.place_idx[host.hid] if host.cat == PORTAL else -1
    if page.role == HOME:
        for _ in range(10):
            if n_entries:
                e = r.randrange(n_entries)
                t = pages.entry_target(web, host, e)
                b.internal(4 + n_list + e, web.host(t).display if t >= 0 else "Eintrag", "body")
        b.links.append(Link(f"{host.base}/veranstaltungen/kalender/2024-05.html",
                            "Veranstaltungskalender" if not en else "Calendar", "", "", "", "body"))
    elif page.role == LISTING:
        j = page.sub
        first = j * PORTAL_PER_PAGE
        for e in range(first, min(first + PORTAL_PER_PAGE, n_entries)):
            t = pages.entry_target(web, host, e)
            if t < 0:
                continue
            th = web.host(t)
            where = th.place.name if th.place else ""
            if th.place and th.place.districts:
                where += "-" + th.place.districts[hash64(t, "d") % len(th.place.districts)].capitalize()
            b.links.append(Link(f"{host.base}{web.page(host.start + 4 + n_list + e).path}",
                                th.display, "", "", f" – {th.kind.capitalize()} in {where}", "body"))
            if r.random() < 0.15:
                b.links.append(Link(web.link_to_host(r, t, deep=0.0), th.name, "", "Web: ", "", "body"))
        if j + len(cats) < n_list:
            b.internal(4 + j + len(cats), "Weiter »" if not en else "Next »", "body")
        if j >= len(cats):
            b.internal(4 + j - len(cats), "« Zurück" if not en else "« Back", "body")
    elif page.role == ENTRY:
        t = page.sub
        if t >= 0:
            th = web.host(t)
            if r.random() < 0.85:
                roll = r.random()
                anchor = th.name if roll < 0.5 else (("Zur Website", "Homepage")[r.randrange(2)]
                                                     if not en else "Website")
                b.links.append(Link(web.link_to_host(r, t, deep=0.0), anchor, th.display, "Internet: ", "", "body"))
            if r.random() < 0.2 and th.size > 1:
                b.links.append(Link(th.base + web.page(th.start + 1).path,
                                    "Kontakt" if not en else "Contact", "", "", "", "body"))
        for _ in range(3):
            if n_entries:
                e = r.randrange(n_entries)
                tt = pages.entry_target(web, host, e)
                b.internal(4 + n_list + e, web.host(tt).display if tt >= 0 else "Eintrag", "body",
                           "Ähnliche Einträge" if not en else "Similar")
        b.internal(4 + (page.idx - 4 - n_list) // PORTAL_PER_PAGE % max(1, n_list),
                   "Zurück zur Liste" if not en else "Back to list", "body")
    if page.role in (HOME, LISTING) and host.cat == PORTAL:
        b.ext(1 if page.role == LISTING else 2, ((NEWS, 0.3), (PORTAL, 0.2), (GENERIC, 0.5)), city)
    b.ext(2, ((GENERIC, 0.8), (OTHER, 0.2)))               # advertising
    b.broken()
    b.internal(2, "Kontakt" if not en else "Contact", "footer")
    b.internal(1, "Impressum" if not en else "Legal", "footer")


def _news_links(b: _Builder) -> None:
    web, host, page, r = b.web, b.host, b.page, b.r
    en = web.lang == "en"
    secs = host.sections
    b.internal(0, host.display)
    for s in range(len(secs)):
        b.internal(3 + s, secs[s].capitalize())
    n_art = host.size - 3 - len(secs)
    city = web.place_idx[host.hid]
    if n_art > 0:
        k = {HOME: 60, SECTION: 40}.get(page.role, 12)
        for _ in range(k):
            idx = 3 + len(secs) + popular(r, n_art)
            title = V.NEWS_WORDS_DE[hash64(idx, "a") % len(V.NEWS_WORDS_DE)] if not en else "Story"
            b.internal(idx, f"{title}: {V.NEWS_WORDS_DE[hash64(idx, 'b') % len(V.NEWS_WORDS_DE)]}", "body")
    if page.role == ARTICLE:
        for _ in range(_poisson(r, web.p.news_to_local)):
            link = _ext_link(web, r, LOCAL, city, host.hid)
            if link:
                link.before = "sagte " if not en else "said "
                b.links.append(link)
        b.ext(1 + _poisson(r, 2.0), ((GENERIC, 0.6), (OTHER, 0.3), (NEWS, 0.1)), city)
    elif page.role == HOME:
        b.ext(3, ((PORTAL, 0.3), (NEWS, 0.2), (GENERIC, 0.5)), city)
    b.broken()
    b.internal(2, "Kontakt" if not en else "Contact", "footer")
    b.internal(1, "Impressum" if not en else "Imprint", "footer")


def _generic_links(b: _Builder) -> None:
    web, host, page, r, p = b.web, b.host, b.page, b.r, b.web.p
    en = web.lang == "en"
    b.internal(0, host.display)
    for _ in range(r.randint(20, 50)):           # big sites: menus, teasers, "related"
        idx = popular(r, host.size)
        b.internal(idx, host.sections[0].capitalize() + f" {idx}", "body")
    if host.facets:
        b.links.append(Link(f"{host.base}/suche?kategorie={slugify(V.CONTENT_WORDS_DE[page.pid % 7])}",
                            "Suche" if not en else "Search", "", "", "", "body"))
    if page.sub == 1:                 # an article about the region: lists local sites
        city = r.randrange(len(web.region_places))
        for _ in range(r.randint(6, 14)):
            link = _ext_link(web, r, LOCAL, city, host.hid)
            if link:
                b.links.append(link)
        b.ext(2, ((PORTAL, 0.5), (NEWS, 0.5)), city)
    g2l = p.generic_to_local
    b.ext(r.randint(2, 5), ((GENERIC, 0.40), (OTHER, 0.30), (INTL, 0.15), (OPORTAL, 0.08),
                            (LOCAL, g2l), (PORTAL, g2l / 4), (NEWS, g2l / 2)))
    b.internal(2, "Kontakt" if not en else "Contact", "footer")
    b.internal(1, "Impressum" if not en else "Imprint", "footer")


def _intl_links(b: _Builder) -> None:
    host, r = b.host, b.r
    b.internal(0, host.display)
    b.internal(1, host.intl[6].capitalize(), "nav")
    for _ in range(5):
        idx = r.randrange(host.size)
        b.internal(idx, host.intl[7][idx % len(host.intl[7])], "body")
    b.ext(r.randint(1, 3), ((INTL, 0.6), (GENERIC, 0.37), (OTHER, 0.03)))


def _odp_links(b: _Builder) -> None:
    web, page = b.web, b.page
    host = b.host
    if page.idx == 0:
        for i in range(1, host.size):
            b.internal(i, unquote_name(odp.odp_sub_name(web, i)), "body")
    for hid in web.odp_listed(page.idx):
        h = web.host(hid)
        b.links.append(Link(f"http://{web.names[hid]}/", h.display, "", "", f" – {h.kind or 'Website'}", "body"))


def unquote_name(name: str) -> str:
    from urllib.parse import unquote
    return unquote(name).replace("_", " ")


def page_links(web: Web, page: Page) -> list[Link]:
    b = _Builder(web, page)
    cat = page.host.cat
    if page.role == BINARY:
        return []
    if cat in (LOCAL, OTHER):
        _site_links(b)
    elif cat in (PORTAL, OPORTAL):
        _portal_links(b)
    elif cat == NEWS:
        _news_links(b)
    elif cat == GENERIC:
        _generic_links(b)
    elif cat == INTL:
        _intl_links(b)
    elif cat == ODP:
        _odp_links(b)
    return b.links


def trap_links(web: Web, res: Resolved) -> list[Link]:
    host = res.require_host()
    kind = res.trap[0]
    links: list[Link] = [Link(host.base + "/", "Start", "", "", "", "nav")]
    if kind == "calendar":
        year, month = res.trap[1], res.trap[2]
        prefix = "/veranstaltungen/kalender/" if host.cat in (PORTAL, OPORTAL) else "/termine/kalender/"
        py, pm = (year, month - 1) if month > 1 else (year - 1, 12)
        ny, nm = (year, month + 1) if month < 12 else (year + 1, 1)
        links.append(Link(f"{host.base}{prefix}{py}-{pm:02d}.html", "« Vormonat", "", "", "", "body"))
        links.append(Link(f"{host.base}{prefix}{ny}-{nm:02d}.html", "Nächster Monat »", "", "", "", "body"))
    elif kind == "repeat":
        url = host.base + res.trap[1]
        links.append(Link(urljoin(url, "aktuelles/"), "Aktuelles", "", "", "", "relative", href="aktuelles/"))
    elif kind == "sink":                     # share/review/map pages: a login wall, a map
        r = Rng(hash64(web.seed, "sink", host.hid))
        for _ in range(3):
            idx = popular(r, host.size)
            links.append(Link(host.base + web.generic_path(host, idx), "Mehr", "", "", "", "body"))
    elif kind == "facets":
        query = res.trap[1]
        have = dict(kv.split("=", 1) for kv in query.split("&") if "=" in kv)
        r = Rng(hash64(web.seed, "facets", host.hid, query))
        for facet, values in (("farbe", ("rot", "blau", "gruen", "schwarz")),
                              ("groesse", ("s", "m", "l", "xl")),
                              ("marke", ("alpha", "nordwind", "kiebitz")),
                              ("sortierung", ("preis", "neu", "beliebt"))):
            if facet in have:
                continue
            for v in values[:2 + r.randrange(2)]:
                q = f"{query}&{facet}={v}" if query else f"{facet}={v}"
                links.append(Link(f"{host.base}/suche?{quote(q, safe='=&')}", f"{facet}: {v}", "", "", "", "body"))
        for _ in range(4):
            idx = r.randrange(host.size)
            links.append(Link(host.base + web.page(host.start + idx).path, "Produkt", "", "", "", "body"))
    return links


def outlinks(web: Web, res: Resolved) -> list[Link]:
    """The links of a page (or trap page) in document order; deterministic."""
    if res.kind == "trap":
        return trap_links(web, res)
    if res.kind != "page":
        return []
    page = res.require_page()
    if not page.is_html:
        return []
    links = page_links(web, page)
    host = res.require_host()
    if host.sid_trap:
        # A fresh session on every entry: each page links its own pages with new ids.
        sid = res.sid or format(hash64(web.seed, "sid", page.pid) & 0xFFFFFFFFFFFF, "012x")
        links = [_with_sid(web, link, host, sid) for link in links]
    return links


def _with_sid(web: Web, link: Link, host: Host, sid: str) -> Link:
    if not link.url.startswith(host.base + "/"):
        return link
    new = format(hash64(sid, link.url) & 0xFFFFFFFFFFFF, "012x")
    sep = "&" if "?" in link.url else "?"
    link.url = f"{link.url}{sep}sid={new}"
    return link


def link_to_host(web: Web, r: Rng, hid: int, deep: float = 0.22) -> str:
    """A URL on host ``hid``: usually its home page, sometimes a deeper page."""
    host_name = web.names[hid]
    if r.random() < web.p.p_alias_link and hid in web.alias_of:
        host_name = web.alias_of[hid]
    roll = r.random()
    size = web.size[hid]
    if roll < 1 - deep or size < 2:
        pid = web.start[hid]
    elif roll < 1 - deep * 0.6 and web.cat[hid] in (LOCAL, OTHER):
        pid = web.start[hid] + 1
    else:
        pid = web.start[hid] + r.randrange(size)
    path = web.page(pid).path
    if pid == web.start[hid]:
        path = "/"
    return f"http://{host_name}{path}"
