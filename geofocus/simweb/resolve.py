"""What the simweb server answers for a URL: a page, a redirect, an error, a trap page, robots.txt.

``resolve(web, host, target)`` maps a requested URL back to a page id (or to a redirect, an
error or a trap); :mod:`geofocus.simweb.render` turns the answer into bytes.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from geofocus.simweb import odp, pages
from geofocus.simweb.entities import (
    CONTACT,
    DIRECTIONS,
    GENERIC,
    IMPRINT,
    INTL,
    LOCAL,
    NEWS,
    ODP,
    OPORTAL,
    OTHER,
    PORTAL,
    PRIVACY,
    Host,
    Resolved,
)
from geofocus.simweb.protocol import Web

_NUM = re.compile(r"-(\d+)(?:\.[a-z]+|/)?$")


def resolve(web: Web, hostname: str, target: str) -> Resolved:
    """What the server answers for ``http://hostname`` + ``target`` (path and query)."""
    hostname = hostname.lower().split(":")[0].rstrip(".")
    hid = web.by_name.get(hostname)
    if hid is None:
        ahid = web.aliases.get(hostname)
        if ahid is None:
            return Resolved("unknown", status=502)
        return Resolved("redirect", host=web.host(ahid), status=301,
                        location=web.host(ahid).base + target)
    host = web.host(hid)
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
    trap = _trap(web, host, path, query)
    if trap:
        return Resolved("trap", host=host, trap=trap, sid=sid)
    redirect = _special_redirect(web, host, path, query)
    if redirect:
        return redirect
    idx = _find_idx(web, host, path, query)
    if idx is not None and 0 <= idx < host.size:
        page = web.page(host.start + idx)
        if page.path == full:
            if page.status != 200:
                return Resolved("error", host=host, page=page, status=page.status)
            return Resolved("page", host=host, page=page, sid=sid)
        if page.path == full + "/":
            return Resolved("redirect", host=host, status=301, location=host.base + page.path)
    return Resolved("notfound", host=host, status=404)


def _special_redirect(web: Web, host: Host, path: str, query: str) -> Resolved | None:
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


def _find_idx(web: Web, host: Host, path: str, query: str) -> int | None:
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
        special = pages.SPECIAL_PATHS_EN if web.lang == "en" else pages.SPECIAL_PATHS.get(host.style, {})
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
        m = _NUM.search(path)
        if m and path.startswith(("/eintrag/", "/listing/")):
            return 4 + pages.portal_layout(web, host)[0] + int(m.group(1))
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
            if odp.odp_path(web, i) in (quote(path, safe="/_"), quote(path, safe="/_") + "/"):
                return i
        return None
    m = _NUM.search(path)
    return int(m.group(1)) if m else None


_CAL = re.compile(r"^/(?:termine|veranstaltungen|events)/kalender/(-?\d{1,6})-(\d{2})\.html$")
_REPEAT = re.compile(r"^(?:/[a-z\-]+)*/aktuelles/$")


def _trap(web: Web, host: Host, path: str, query: str) -> tuple:
    if host.calendar:
        m = _CAL.match(path)
        if m and 1 <= int(m.group(2)) <= 12:
            return ("calendar", int(m.group(1)), int(m.group(2)))
    if host.repeat_trap and _REPEAT.match(path):
        return ("repeat", path)
    if host.facets and path == "/suche":
        return ("facets", query)
    if host.cat == GENERIC and path in ("/share", "/bewerten", "/karte"):
        return ("sink", path)
    return ()


ROBOTS_DISALLOW = {
    0: (),
    1: (),
    2: ("/downloads/", "/dl/", "/admin/"),
    3: ("/termine/kalender/", "/veranstaltungen/kalender/", "/suche"),
    4: ("/",),
    5: ("/intern/", "/fileadmin/"),
}


def robots_txt(web: Web, host: Host) -> str:
    """The robots.txt of a host (style 1 has none: 404)."""
    style = host.robots
    lines = []
    if style == 3:
        lines += ["User-agent: BadBot", "Disallow: /", ""]
    lines.append("User-agent: *")
    if style == 5:
        lines.append("Crawl-delay: 1")
    prefixes = ROBOTS_DISALLOW[style]
    lines += [f"Disallow: {d}" for d in prefixes] or ["Disallow:"]
    if style in (0, 5):
        lines.append(f"Sitemap: {host.base}/sitemap.xml")
    return "\n".join(lines) + "\n"


def disallowed(web: Web, host: Host, target: str) -> bool:
    """True if robots.txt of ``host`` forbids ``target`` to every user agent."""
    return any(target.startswith(d) for d in ROBOTS_DISALLOW[host.robots])
