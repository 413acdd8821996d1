"""Turn a resolved simweb URL into an HTTP response: status, headers, body bytes.

Pure functions of the Web and the URL: the same seed always gives the same
bytes (no Date header, no randomness outside the page's own seed).
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import zipfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from geofocus.simweb import vocab as V
from geofocus.simweb.entities import (
    ARTICLE,
    CONTACT,
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
    OTHER,
    SECTION,
    WRONG_CHARSET,
    Addr,
    Link,
    Page,
    Resolved,
)
from geofocus.simweb.images import find_image, image_bytes, images_html, page_images
from geofocus.simweb.rng import Rng, hash64

if TYPE_CHECKING:
    from geofocus.simweb.web import SimWeb

REASONS = {200: "OK", 301: "Moved Permanently", 302: "Found", 400: "Bad Request",
           404: "Not Found", 405: "Method Not Allowed", 500: "Internal Server Error",
           502: "Bad Gateway", 503: "Service Unavailable"}


@dataclass(slots=True)
class Response:
    status: int
    headers: list
    body: bytes
    delay: float = 0.0


def esc(text: str) -> str:
    for ch in "&<>\"'":
        if ch in text:
            return html.escape(text, quote=True)
    return text


# ------------------------------------------------------------------ addresses
def address_html(addr: Addr, form: int, name: str, phone: str) -> str:
    """One address in one of the forms real pages use (see the module docstring)."""
    s, n, pc, city = esc(addr.street), esc(addr.number), esc(addr.postcode), esc(addr.shown)
    if addr.country == "US":
        line2 = f"{city}, {esc(addr.state)} {pc}".strip()
        if form % 3 == 0:
            return f"<p>{esc(name)}<br>\n{n} {s}<br>\n{line2}</p>"
        if form % 3 == 1:
            return f"<p>Visit us at {n} {s}, {line2}. Call {esc(phone)}.</p>"
        return (f'<div itemscope itemtype="https://schema.org/PostalAddress">'
                f'<span itemprop="streetAddress">{n} {s}</span>, <span itemprop="addressLocality">'
                f'{city}</span>, <span itemprop="addressRegion">{esc(addr.state)}</span> '
                f'<span itemprop="postalCode">{pc}</span></div>')
    if addr.country not in ("DE", "US"):
        if addr.country in ("FR",):
            return f"<p>{n} {s}<br>{pc} {city}</p>"
        if addr.country == "GB":
            return f"<p>{n} {s}<br>{city} {pc}</p>"
        return f"<p>{s} {n}<br>{pc} {city}</p>"
    dpc = f"D-{pc}" if form == 3 else pc
    if form == 0:
        return f"<p><strong>{esc(name)}</strong><br>\n{s} {n}<br>\n{dpc} {city}</p>"
    if form == 1:
        return f"<p>{esc(name)}, {s} {n}, {dpc} {city}</p>"
    if form == 2:
        return (f'<table class="adresse"><tr><td>Straße:</td><td>{s} {n}</td></tr>'
                f"<tr><td>Ort:</td><td>{dpc} {city}</td></tr>"
                f"<tr><td>Telefon:</td><td>{esc(phone)}</td></tr></table>")
    if form == 3:
        return f"<address>{esc(name)}<br/>{s} {n}<br/>{dpc} {city}</address>"
    if form == 4:
        return (f'<div itemscope itemtype="http://schema.org/LocalBusiness"><span itemprop="name">'
                f'{esc(name)}</span><div itemprop="address" itemscope '
                f'itemtype="http://schema.org/PostalAddress"><span itemprop="streetAddress">{s} {n}'
                f'</span><br><span itemprop="postalCode">{pc}</span> <span itemprop="addressLocality">'
                f"{city}</span></div></div>")
    if form == 5:
        return (f"<ul class=\"kontakt\"><li>{esc(name)}</li><li>{s} {n}</li><li>{dpc} {city}</li>"
                f"<li>Tel. {esc(phone)}</li></ul>")
    return f"<p>{s} {n}<br>\n{dpc} {city}<br>\nTelefon: {esc(phone)}</p>"


def footer_address(addr: Addr, name: str, phone: str, form: int) -> str:
    s, n, pc, city = esc(addr.street), esc(addr.number), esc(addr.postcode), esc(addr.shown)
    if addr.country == "US":
        return f"<p>{esc(name)} | {n} {s}, {city}, {esc(addr.state)} {pc} | {esc(phone)}</p>"
    if form % 2:
        return f"<p>{esc(name)} · {s} {n} · {pc} {city} · Tel. {esc(phone)}</p>"
    return f"<p>{esc(name)}<br>{s} {n}<br>{pc} {city}</p>"


def jsonld(addr: Addr, name: str) -> str:
    address = {"@type": "PostalAddress", "streetAddress": f"{addr.street} {addr.number}",
               "postalCode": addr.postcode, "addressLocality": addr.shown,
               "addressCountry": addr.country}
    if addr.state:
        address["addressRegion"] = addr.state
    data = {"@context": "https://schema.org", "@type": "LocalBusiness", "name": name, "address": address}
    return ('<script type="application/ld+json">' + json.dumps(data, ensure_ascii=False)
            .replace("</", "<\\/") + "</script>")


# ---------------------------------------------------------------------- text
def _sentences(r: Rng, lang: str, k: int) -> str:
    pool = V.SENTENCES_DE if lang == "de" else V.SENTENCES_EN
    return " ".join(pool[r.randrange(len(pool))].format(n=r.randint(5, 60)) for _ in range(k))


def _filler_foreign(r: Rng, words: tuple, k: int) -> str:
    return " ".join(words[r.randrange(len(words))] for _ in range(k)).capitalize() + "."


def _link_html(link: Link) -> str:
    href = link.href or link.url
    title = f' title="{esc(link.title)}"' if link.title else ""
    return f'{esc(link.before)}<a href="{esc(href)}"{title}>{esc(link.anchor)}</a>{esc(link.after)}'


def _noise(r: Rng, lang: str, page: Page) -> str:
    """Numbers that look like postcodes but are not: phones, order numbers, prices, dates."""
    if lang != "de":
        return f"<p>Open Mon–Fri 9–5. Order #{r.randint(10000, 99999)}. From ${r.randint(5, 90)}.99</p>"
    bits = [f"Öffnungszeiten: Mo–Fr {r.randint(7, 10)}–{r.randint(16, 19)} Uhr",
            f"Artikel-Nr. {r.randint(10000, 99999)}",
            f"ab {r.randint(5, 300)},{r.randint(0, 99):02d} €",
            f"Stand: {r.randint(1, 28):02d}.{r.randint(1, 12):02d}.{r.randint(2010, 2024)}"]
    r.shuffle(bits)
    return "<p>" + " · ".join(bits[: r.randint(1, 3)]) + "</p>"


def render_page(web: SimWeb, page: Page, links: list[Link], sid: str = "") -> str:
    host = page.host
    r = Rng(hash64(web.seed, "render", page.pid))
    lang = host.lang
    region_place = web.region_places[0] if web.region_places else None
    place = host.place or region_place
    title = page.title or host.display
    nav = [link for link in links if link.rel == "nav"]
    body = [link for link in links if link.rel in ("body", "relative")]
    foot = [link for link in links if link.rel == "footer"]
    head_extra = ""
    main: list[str] = []
    role = page.role
    # Headline and text.
    if host.cat == INTL:
        words = host.intl[7]
        main.append(f"<h1>{esc(title)}</h1><p>{esc(_filler_foreign(r, words, 30))}</p>")
    elif host.cat == ODP:
        main.append(f"<h1>Open Directory: {esc(web.region.title)}</h1>"
                    f"<p>Kategorie: Regional – {esc(web.region.title)}. Website eintragen | Editor werden</p>")
    else:
        heading = {CONTACT: "Kontakt" if lang == "de" else "Contact",
                   IMPRINT: "Impressum" if lang == "de" else "Legal notice",
                   DIRECTIONS: "Anfahrt" if lang == "de" else "Directions"}.get(role, title)
        if role == ARTICLE:
            w = V.NEWS_WORDS_DE
            heading = f"{w[hash64(page.idx, 'a') % len(w)]}: {w[hash64(page.idx, 'b') % len(w)]}"
        main.append(f"<h1>{esc(heading)}</h1>")
        text = _sentences(r, lang, r.randint(2, 6))
        if page.mention and place is not None:
            where = place.name
            if place.districts and r.random() < 0.5:
                where = f"{place.name}-{place.districts[r.randrange(len(place.districts))].capitalize()}"
            text = (f"Ihr Ansprechpartner in {where}. " if lang == "de" else f"Proudly serving {where}. ") + text
            if host.cat == NEWS:
                text = f"{where}. " + text
        elif host.place is not None and not host.place.in_region and host.place.confusable and lang == "de":
            text = f"Im Landkreis Oldenburg und umzu für Sie da. {text}" if "Holstein" not in host.place.name \
                and "i. H." not in host.place.name else f"Ostseebad in Holstein. {text}"
        main.append(f"<p>{esc(text)}</p>")
        if r.random() < 0.5:
            main.append(_noise(r, lang, page))
    # Addresses.
    addrs = list(page.addresses)
    footer_addr = None
    if host.footer_addr and addrs and addrs[0] is host.address and role not in (CONTACT, IMPRINT, DIRECTIONS, HOME):
        footer_addr = addrs.pop(0)
    for i, a in enumerate(addrs):
        name = host.display
        phone = host.phone
        if role in (ENTRY, LISTING) or (host.cat == NEWS and role == ARTICLE):
            name = "Veranstaltungsort" if role == ARTICLE else name
            target = web.host(page.sub) if role == ENTRY and page.sub >= 0 else None
            if target is not None:
                name, phone = target.display, target.phone
        form = hash64(page.pid, "form", i) % 8
        if form == 7:
            head_extra += jsonld(a, name)
            if hash64(page.pid, "jsonly") % 4:
                main.append(address_html(a, 0, name, phone))
        else:
            main.append(address_html(a, form, name, phone))
    if role == CONTACT and host.cat in (LOCAL, OTHER) and r.random() < 0.3:
        main.append('<form action="/kontakt/senden" method="post"><input name="name" placeholder="Max Mustermann">'
                    '<input name="strasse" placeholder="Musterstraße 1">'
                    '<input name="ort" placeholder="12345 Musterstadt">'
                    '<textarea name="nachricht"></textarea><button>Senden</button></form>')
    if role == CONTACT and host.image_only:
        main.append('<p><img src="/bilder/adresse.png" alt="Unsere Adresse" width="300" height="80"></p>')
    # Maps, photos, logos... (geofocus/simweb/images.py; the directions page's Lageplan among them).
    main.append(images_html(page_images(web, page)))
    if host.cat == GENERIC and role == CONTACT:
        main.append("<p>Beispiel für eine Anschrift: Musterstraße 1, 12345 Musterstadt</p>")
    # Body links, some inside sentences (text around the link), some in lists.
    if body:
        if role in (LISTING, SECTION, HOME) or host.cat in (GENERIC, ODP):
            items = "".join(f"<li>{_link_html(link)}</li>" for link in body)
            main.append(f"<ul>{items}</ul>")
        else:
            for link in body:
                main.append(f"<p>{esc(_sentences(r, lang, 1))} {_link_html(link)}.</p>")
    # Assemble.
    meta = '<meta charset="utf-8">'
    if page.flags & WRONG_CHARSET:
        meta = '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'
    nav_html = "".join(f"<li>{_link_html(link)}</li>" for link in nav)
    foot_html = " | ".join(_link_html(link) for link in foot)
    if footer_addr is not None:
        foot_html = footer_address(footer_addr, host.display, host.phone, hash64(host.hid, "ff") % 2) + foot_html
    parts = [f'<!DOCTYPE html>\n<html lang="{lang}"><head>{meta}<title>{esc(title)}</title>'
             f'<meta name="viewport" content="width=device-width">{head_extra}</head>\n<body>'
             f'<header><a href="/" class="logo">{esc(host.display)}</a><nav><ul>{nav_html}</ul></nav></header>\n'
             f'<main>{"".join(main)}</main>\n<footer>{foot_html}</footer>']
    if page.flags & LARGE:
        unit = f"<p>{esc(_sentences(r, lang, 6))}</p>\n"
        parts.append("<section class=\"archiv\">" + unit * (300_000 // len(unit) * r.randint(1, 5)) + "</section>")
    parts.append("</body></html>\n")
    doc = "".join(parts)
    if page.flags & MALFORMED:
        doc = (doc.replace("</p>", "", 3).replace("</li>", "", 5).replace("</html>", "")
               .replace("<main>", "<main><div><table><tr><td>< <b>", 1))
    return doc


def _noise_bytes(pid: int, n: int) -> bytes:
    return hashlib.shake_128(f"simweb-binary-{pid}".encode()).digest(n)


def _binary(page: Page) -> bytes:
    ctype = page.ctype
    if ctype == "application/pdf":
        text = f"Flyer {page.host.display}".encode("latin-1", "replace")
        return (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>"
                b"endobj\n% " + text + b"\n" + _noise_bytes(page.pid, 2000) + b"\n%%EOF\n")
    if ctype == "application/zip":
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            info = zipfile.ZipInfo("preisliste.txt", date_time=(2020, 1, 1, 0, 0, 0))
            zf.writestr(info, f"Preisliste {page.host.display}\n" * 20)
        return buf.getvalue()
    if ctype == "image/png":
        return b"\x89PNG\r\n\x1a\n" + _noise_bytes(page.pid, 1500)
    return b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + _noise_bytes(page.pid, 3000) + b"\xff\xd9"


def _simple(status: int, text: str, extra: list | None = None) -> Response:
    body = (f"<!DOCTYPE html><html><head><title>{status} {REASONS.get(status, '')}</title></head>"
            f"<body><h1>{status} {REASONS.get(status, '')}</h1><p>{esc(text)}</p></body></html>\n").encode()
    return Response(status, [("Content-Type", "text/html; charset=utf-8")] + (extra or []), body)


def respond(web: SimWeb, res: Resolved) -> Response:
    """The full HTTP response for a resolved URL (without latency applied)."""
    host = res.host
    delay = (host.slow_ms / 1000.0 * web.p.latency_scale) if host is not None else 0.0
    if res.kind == "unknown":
        out = _simple(502, "simweb: unknown host")
    elif res.kind == "redirect":
        out = _simple(res.status, f"Moved to {res.location}", [("Location", res.location)])
    elif res.kind == "notfound":
        out = _simple(404, "Die angeforderte Seite wurde nicht gefunden.")
    elif res.kind == "error":
        out = _simple(res.status, "Server error")
    elif res.kind == "robots":
        if res.status == 404:
            out = _simple(404, "no robots.txt")
        else:
            out = Response(200, [("Content-Type", "text/plain; charset=utf-8")],
                           web.robots_txt(res.require_host()).encode())
    elif res.kind == "image":
        image = find_image(web, host, res.location)
        if image is None:
            out = _simple(404, "Bild nicht gefunden.")
        else:
            ctype, body = image_bytes(web.seed, image.url, image.kind, image.served)
            out = Response(200, [("Content-Type", ctype)], body)
    elif res.kind == "trap":
        host = res.require_host()
        links = web.outlinks(res)
        kind = res.trap[0]
        if kind == "calendar":
            title = f"Termine {res.trap[2]:02d}/{res.trap[1]}"
        else:
            title = {"repeat": "Aktuelles", "facets": "Suche", "sink": "Bitte anmelden"}.get(kind, "Seite")
        items = "".join(f"<li>{_link_html(link)}</li>" for link in links)
        doc = (f'<!DOCTYPE html>\n<html lang="{host.lang}"><head><meta charset="utf-8"><title>{esc(title)} – '
               f"{esc(host.display)}</title></head><body><h1>{esc(title)}</h1>"
               f"<p>Keine Einträge gefunden.</p><ul>{items}</ul></body></html>\n")
        out = Response(200, [("Content-Type", "text/html; charset=utf-8")], doc.encode())
    else:
        page = res.require_page()
        host = res.require_host()
        if not page.is_html:
            out = Response(200, [("Content-Type", page.ctype)], _binary(page))
        else:
            doc = render_page(web, page, web.outlinks(res), res.sid)
            if page.flags & WRONG_CHARSET:
                ctype = "text/html"
                body = doc.encode("utf-8")
            elif host.cat in (LOCAL, OTHER) and hash64(host.hid, "latin1") % 10 == 0:
                ctype = "text/html; charset=iso-8859-1"
                body = doc.replace('<meta charset="utf-8">', '<meta charset="iso-8859-1">') \
                          .encode("cp1252", "xmlcharrefreplace")
            else:
                ctype = "text/html; charset=utf-8"
                body = doc.encode("utf-8")
            out = Response(200, [("Content-Type", ctype)], body)
    out.delay = delay
    return out


def page_html(web: SimWeb, page: Page) -> str:
    """The decoded HTML of a page as served (for tests and the truth check)."""
    res = Resolved("page", host=page.host, page=page)
    return render_page(web, page, web.outlinks(res))
