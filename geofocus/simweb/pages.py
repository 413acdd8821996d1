"""Page plans: the role, path, content type and addresses of each page, a function of ``(seed, page id)``.

``plan_page`` is what ``SimWeb.page`` caches; ``site_path`` and ``generic_path`` are pure
functions of a host (links use them without planning the target page).
"""

from __future__ import annotations

import math

from geofocus.simweb import hosts, odp
from geofocus.simweb import vocab as V
from geofocus.simweb.entities import (
    ABOUT,
    ARTICLE,
    BINARY,
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
    OPORTAL,
    OTHER,
    PORTAL,
    PORTAL_PER_PAGE,
    PRIVACY,
    SECTION,
    WRONG_CHARSET,
    Addr,
    Host,
    Page,
)
from geofocus.simweb.protocol import Web
from geofocus.simweb.rng import Rng, hash64, slugify


def plan_page(web: Web, pid: int) -> Page:
    """The plan of page ``pid``: role, path, type, the addresses it shows."""
    if not 0 <= pid < web.p.pages:
        raise IndexError(pid)
    host = web.host_of_pid(pid)
    idx = pid - host.start
    r = Rng(hash64(web.seed, "page", pid))
    p = web.p
    cat = host.cat
    page = Page(pid, host, idx, CONTENT, "/")
    if cat in (LOCAL, OTHER):
        _plan_site(web, page, r)
    elif cat in (PORTAL, OPORTAL):
        _plan_portal(web, page, r)
    elif cat == NEWS:
        _plan_news(web, page, r)
    elif cat == GENERIC:
        _plan_generic(web, page, r)
    elif cat == INTL:
        _plan_intl(web, page, r)
    else:
        _plan_odp(web, page)
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


SPECIAL_PATHS = {
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
SPECIAL_PATHS_EN = {CONTACT: "/contact", IMPRINT: "/about-us", PRIVACY: "/privacy-policy",
               DIRECTIONS: "/directions"}


def _site_role(web: Web, host: Host, idx: int) -> int:
    if idx == 0:
        return HOME
    if idx <= 3:
        return (CONTACT, IMPRINT, PRIVACY)[idx - 1]
    if idx == 4 and host.directions and host.size > 6:
        return DIRECTIONS
    return CONTENT


def _site_special_path(web: Web, host: Host, role: int, idx: int) -> str:
    if host.style == 2:
        return f"/index.php?id={idx}"
    if web.lang == "en" and host.style != 2:
        return SPECIAL_PATHS_EN[role]
    return SPECIAL_PATHS[host.style][role]


def site_path(web: Web, host: Host, idx: int) -> tuple[int, str, str]:
    """(role, path, content type) of page ``idx`` of a site: a pure function of the host."""
    p = web.p
    role = _site_role(web, host, idx)
    if role == HOME:
        return role, ("/de/" if host.style == 3 else "/"), "text/html"
    if role != CONTENT:
        return role, _site_special_path(web, host, role, idx), "text/html"
    words = V.CONTENT_WORDS_DE if web.lang == "de" else V.CONTENT_WORDS_EN
    slug = slugify(words[hash64(host.hid, idx) % len(words)])
    sec = host.sections[idx % len(host.sections)]
    u = Rng(hash64(web.seed, "path", host.hid, idx))
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


def _plan_site(web: Web, page: Page, r: Rng) -> None:
    host, idx, p = page.host, page.idx, web.p
    page.role, page.path, page.ctype = site_path(web, host, idx)
    home_in_region = host.place is not None and host.place.in_region
    if page.role == BINARY:
        return
    addrs: list[Addr] = []
    a = host.address
    if a is None:
        raise ValueError(f"simweb: site host {host.hid} has no address")   # draw_host gives each one
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


def portal_layout(web: Web, host: Host) -> tuple[int, int]:
    """(number of listing pages, number of entries) of a portal."""
    body = max(1, host.size - 4)
    listings = max(1, math.ceil(body / (PORTAL_PER_PAGE + 1)))
    return listings, max(0, body - listings)


def entry_target(web: Web, host: Host, e: int) -> int:
    """The host an entry of a directory describes (a local site of its city)."""
    pool = (web.local_by_city[web.place_idx[host.hid]] if host.cat == PORTAL
            else web.other_by_place[web.place_idx[host.hid]])
    if not pool:
        pool = web.by_cat[LOCAL if host.cat == PORTAL else OTHER]
    if not pool:
        return -1
    return pool[hash64(web.seed, "entry", host.hid, e) % len(pool)]


def _plan_portal(web: Web, page: Page, r: Rng) -> None:
    host, idx = page.host, page.idx
    n_list, n_entries = portal_layout(web, host)
    en = web.lang == "en"
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
        if hash64(host.hid, "listaddr") % 8 == 0 and j % 3 == 0:
            page.addresses = tuple(
                web.host(t).address for t in listing_targets(web, host, j)
                if t >= 0 and web.host(t).address is not None and not web.host(t).image_only)
        return
    e = j - n_list
    page.role = ENTRY
    target = entry_target(web, host, e)
    page.sub = target
    tname = web.names[target] if target >= 0 else "eintrag"
    slug = tname.split(".")[-2] if tname.count(".") >= 1 else tname
    page.path = f"/{'listing' if en else 'eintrag'}/{slug}-{e}.html"
    if target >= 0 and r.random() < web.p.p_portal_entry_address:
        t = web.host(target)
        if t.address is not None:
            page.addresses = (t.address,)
    page.title = f"{web.host(target).display if target >= 0 else ''} – {host.display}"


def listing_targets(web: Web, host: Host, j: int) -> list[int]:
    n_list, n_entries = portal_layout(web, host)
    first = j * PORTAL_PER_PAGE
    return [entry_target(web, host, e) for e in range(first, min(first + PORTAL_PER_PAGE, n_entries))]


def _plan_news(web: Web, page: Page, r: Rng) -> None:
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
    year = 2005 + hash64(host.hid, idx, "y") % 20
    month = 1 + hash64(host.hid, idx, "m") % 12
    words = V.NEWS_WORDS_DE if web.lang == "de" else V.CONTENT_WORDS_EN
    slug = slugify(f"{words[hash64(idx, 'a') % len(words)]}-{words[hash64(idx, 'b') % len(words)]}")
    page.path = f"/{sec}/{year}/{month:02d}/{slug}-{idx}.html"
    if r.random() < web.p.p_news_article_address:
        page.addresses = (hosts.address(web, r, hosts.placed(host)),)
    page.mention = r.random() < 0.85


def generic_path(web: Web, host: Host, idx: int) -> str:
    """Path of page ``idx`` of a generic host (a pure function: no page plan needed)."""
    if idx < 3:
        return ("/", "/impressum", "/kontakt")[idx]
    if hash64(host.hid, idx, "bin") % 50 == 0:
        return f"/media/{idx}.png"
    words = V.CONTENT_WORDS_DE if web.lang == "de" else V.CONTENT_WORDS_EN
    return f"/{host.sections[0]}/{slugify(words[hash64(host.hid, idx) % len(words)])}-{idx}"


def _plan_generic(web: Web, page: Page, r: Rng) -> None:
    host, idx = page.host, page.idx
    page.title = host.display
    page.path = generic_path(web, host, idx)
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
    if r.random() < web.p.p_generic_region_article:
        page.sub = 1                                     # an article about the region
        page.mention = True


def _plan_intl(web: Web, page: Page, r: Rng) -> None:
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


def _plan_odp(web: Web, page: Page) -> None:
    page.title = "Open Directory"
    page.role = ODP_CAT
    page.path = odp.odp_path(web, page.idx)
    page.mention = True
