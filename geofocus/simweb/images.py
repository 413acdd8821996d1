"""Images of simweb pages: which page shows which image, and the image bytes themselves.

Every image is drawn deterministically with Pillow from the Web's seed and the
image's URL, so the same URL always gives the same PNG or JPEG bytes.  Kinds
(``KINDS``; docs/simweb.md gives their shares):

* ``map``: a street map (light background, a road network with major roads,
  water, parks, labels, a marker), on many contact and directions pages of
  local businesses, on some portal entries, on a few newspaper articles, and
  on contact/directions pages of businesses *outside* the region too (a map
  says "a place", not "our region");
* ``citymap``: a tourist city map (same drawing style, larger, more labels) on
  a few pages of generic and foreign sites: maps on irrelevant pages;
* ``photo``, ``logo``, ``banner``, ``diagram`` (a chart on white), ``icon``
  (too small to be classified, 32 x 32);
* ``embed``: not an image but an iframe of a map service (OpenStreetMap),
  on some contact/directions pages instead of a map image; never fetched.

A few images are served broken on purpose (``served``): ``truncated`` (half
of the bytes), ``corrupt`` (noise behind a PNG signature) and
``not_image`` (an HTML page under an image content type).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from random import Random
from typing import TYPE_CHECKING

from geofocus.simweb.entities import (
    ARTICLE,
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
    OPORTAL,
    OTHER,
    PORTAL,
    SECTION,
)
from geofocus.simweb.rng import hash64

if TYPE_CHECKING:
    from PIL import Image

    from geofocus.simweb.entities import Page
    from geofocus.simweb.web import SimWeb

KINDS = ("map", "citymap", "photo", "logo", "banner", "diagram", "icon", "embed")
MAP_KINDS = frozenset({"map", "citymap", "embed"})
PREFIX = "/img/"

# Probabilities (per page) of the placements; see the module docstring.
P_MAP_DIRECTIONS = 0.85
P_MAP_CONTACT = 0.5
P_EMBED_INSTEAD = 0.2
P_MAP_ENTRY = 0.3
P_MAP_ARTICLE = 0.04
P_CITYMAP = 0.015
# Businesses outside the region show maps too, less often: the issue asks for maps on "many
# contact/directions pages of local businesses" and "some irrelevant pages" (a design choice, not a measurement).
P_MAP_ELSEWHERE_FACTOR = 0.3
P_PHOTO = 0.45
P_BANNER = 0.15
P_DIAGRAM = 0.06
# Broken images, per served image.
P_TRUNCATED = 0.01
P_CORRUPT = 0.005
P_NOT_IMAGE = 0.005


@dataclass(frozen=True, slots=True)
class SimImage:
    url: str
    kind: str
    width: int
    height: int
    served: str = "ok"   # ok | truncated | corrupt | not_image

    @property
    def is_map(self) -> bool:
        return self.kind in MAP_KINDS

    def to_dict(self) -> dict:
        return {"url": self.url, "kind": self.kind, "map": self.is_map, "served": self.served}


def _served(seed: int, url: str) -> str:
    x = (hash64(seed, "imgserve", url) % 100_000) / 100_000
    if x < P_TRUNCATED:
        return "truncated"
    if x < P_TRUNCATED + P_CORRUPT:
        return "corrupt"
    if x < P_TRUNCATED + P_CORRUPT + P_NOT_IMAGE:
        return "not_image"
    return "ok"


_SIZES = {"map": (560, 400), "citymap": (720, 520), "photo": (480, 320), "logo": (220, 70),
          "banner": (728, 90), "diagram": (400, 260), "icon": (32, 32)}
_EXT = {"map": "png", "citymap": "jpg", "photo": "jpg", "logo": "png", "banner": "jpg", "diagram": "png", "icon": "png"}


def _image(web: SimWeb, page: Page, kind: str, name: str) -> SimImage:
    if kind == "embed":
        host = page.host
        addr = host.address
        if addr is not None and addr.lat is not None and addr.lon is not None:
            lat, lon = addr.lat, addr.lon
        else:
            lat, lon = 53.14, 8.21
        url = (f"https://www.openstreetmap.org/export/embed.html?bbox={lon - 0.01:.4f},{lat - 0.006:.4f},"
               f"{lon + 0.01:.4f},{lat + 0.006:.4f}&layer=mapnik&marker={lat:.5f},{lon:.5f}")
        return SimImage(url, "embed", 600, 450)
    w, h = _SIZES[kind]
    url = f"{page.host.base}{PREFIX}{name}-{kind}.{_EXT[kind]}"
    return SimImage(url, kind, w, h, _served(web.seed, url))


def page_images(web: SimWeb, page: Page) -> list[SimImage]:
    """The images (and map embeds) of an HTML page, in document order; deterministic."""
    host = page.host
    if not page.is_html or page.status != 200:
        return []
    r = Random(hash64(web.seed, "images", page.pid))
    role, cat = page.role, host.cat
    out: list[SimImage] = []
    if cat in (LOCAL, OTHER, PORTAL, OPORTAL, NEWS):
        out.append(_image(web, page, "logo", f"h{host.hid}"))
        for j in range(hash64(host.hid, "icons") % 3):
            out.append(_image(web, page, "icon", f"h{host.hid}-{j}"))
    pid = f"p{page.pid}"
    if cat in (LOCAL, OTHER) and role in (CONTACT, DIRECTIONS):
        p_map = P_MAP_DIRECTIONS if role == DIRECTIONS else P_MAP_CONTACT
        if host.place is None or not host.place.in_region:
            p_map *= P_MAP_ELSEWHERE_FACTOR
        if r.random() < p_map:
            out.append(_image(web, page, "embed" if r.random() < P_EMBED_INSTEAD else "map", pid))
    elif cat in (PORTAL, OPORTAL) and role == ENTRY and page.addresses and r.random() < P_MAP_ENTRY:
        out.append(_image(web, page, "map", pid))
    elif cat == NEWS and role == ARTICLE and r.random() < P_MAP_ARTICLE:
        out.append(_image(web, page, "map", pid))
    elif cat in (GENERIC, INTL) and role not in (CONTACT,) and r.random() < P_CITYMAP:
        out.append(_image(web, page, "citymap", pid))
    if role in (HOME, CONTENT, ARTICLE, SECTION, LISTING) and r.random() < P_PHOTO:
        out.append(_image(web, page, "photo", pid))
    if role in (HOME, SECTION, LISTING) and r.random() < P_BANNER:
        out.append(_image(web, page, "banner", pid))
    if cat in (OTHER, GENERIC, NEWS) and role in (CONTENT, ARTICLE) and r.random() < P_DIAGRAM:
        out.append(_image(web, page, "diagram", pid))
    return out


def images_html(images: list[SimImage]) -> str:
    parts = []
    for im in images:
        if im.kind == "embed":
            parts.append(f'<iframe src="{im.url.replace("&", "&amp;")}" width="600" height="450" '
                         f'title="Karte" loading="lazy"></iframe>')
        else:
            alt = {"map": "Lageplan", "citymap": "Stadtplan", "photo": "Foto", "logo": "Logo",
                   "banner": "Werbung", "diagram": "Grafik", "icon": ""}[im.kind]
            parts.append(f'<img src="{im.url}" alt="{alt}" width="{im.width}" height="{im.height}">')
    return f'<div class="bilder">{"".join(parts)}</div>' if parts else ""


def find_image(web: SimWeb, host, path: str) -> SimImage | None:
    """The image a path of a host names, or None."""
    stem = path[len(PREFIX):].rsplit(".", 1)[0]
    owner, _, kind = stem.rpartition("-")
    if kind not in _SIZES:
        return None
    if owner.startswith("p"):
        try:
            pid = int(owner[1:])
        except ValueError:
            return None
        if not host.start <= pid < host.start + host.size:
            return None
        for im in page_images(web, web.page(pid)):
            if im.url == host.base + path:
                return im
        return None
    if owner.startswith(f"h{host.hid}") and kind in ("logo", "icon"):
        url = host.base + path
        w, h = _SIZES[kind]
        return SimImage(url, kind, w, h, _served(web.seed, url))
    return None


# ------------------------------------------------------------------- drawing
def _map(r: Random, w: int, h: int, labels: int) -> Image.Image:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (w, h), (242, 239, 233))
    d = ImageDraw.Draw(img)
    for _ in range(r.randint(1, 3)):    # parks
        x, y = r.randrange(w), r.randrange(h)
        d.polygon([(x + r.randint(-80, 80), y + r.randint(-60, 60)) for _ in range(5)], fill=(200, 230, 190))
    if r.random() < 0.7:                # a river or a lake
        pts = [(0, r.randrange(h))]
        for i in range(1, 7):
            pts.append((w * i // 6, max(0, min(h, pts[-1][1] + r.randint(-60, 60)))))
        d.line(pts, fill=(170, 210, 240), width=r.randint(10, 22))
    grid_x = sorted(r.randrange(w) for _ in range(r.randint(5, 10)))
    grid_y = sorted(r.randrange(h) for _ in range(r.randint(4, 8)))
    for x in grid_x:                    # minor streets: white with a grey casing
        x2 = x + r.randint(-60, 60)
        d.line([(x, 0), (x2, h)], fill=(190, 190, 190), width=7)
        d.line([(x, 0), (x2, h)], fill=(255, 255, 255), width=5)
    for y in grid_y:
        y2 = y + r.randint(-50, 50)
        d.line([(0, y), (w, y2)], fill=(190, 190, 190), width=7)
        d.line([(0, y), (w, y2)], fill=(255, 255, 255), width=5)
    for _ in range(r.randint(1, 2)):    # major roads
        a = (r.randrange(w), 0)
        b = (r.randrange(w), h)
        d.line([a, b], fill=(230, 160, 70), width=10)
        d.line([a, b], fill=(250, 210, 130), width=7)
    for _ in range(r.randint(6, 20)):   # buildings
        x, y = r.randrange(w), r.randrange(h)
        d.rectangle([x, y, x + r.randint(6, 18), y + r.randint(6, 14)], fill=(217, 208, 201))
    for _ in range(labels):
        d.text((r.randrange(w - 60), r.randrange(h - 12)), r.choice(("Hauptstr.", "Markt", "Bahnhof", "Am Wall",
               "Ring", "Park", "Schloss", "Hafen")), fill=(90, 90, 90))
    mx, my = r.randrange(40, w - 40), r.randrange(40, h - 40)   # the marker
    d.ellipse([mx - 9, my - 24, mx + 9, my - 6], fill=(220, 40, 40))
    d.polygon([(mx - 7, my - 12), (mx + 7, my - 12), (mx, my)], fill=(220, 40, 40))
    return img


def _photo(r: Random, w: int, h: int) -> Image.Image:
    from PIL import Image, ImageDraw, ImageFilter

    top = tuple(r.randint(60, 200) for _ in range(3))
    bottom = tuple(r.randint(20, 140) for _ in range(3))
    img = Image.new("RGB", (w, h))
    d = ImageDraw.Draw(img)
    for y in range(h):
        t = y / h
        d.line([(0, y), (w, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))
    for _ in range(r.randint(4, 12)):
        x, y = r.randrange(w), r.randrange(h)
        rad = r.randint(15, 90)
        d.ellipse([x - rad, y - rad, x + rad, y + rad], fill=tuple(r.randint(0, 255) for _ in range(3)))
    img = img.filter(ImageFilter.GaussianBlur(r.uniform(2, 6)))
    noise = Image.effect_noise((w, h), r.uniform(10, 30)).convert("RGB")
    return Image.blend(img, noise, 0.12)


def _flat(r: Random, w: int, h: int, kind: str) -> Image.Image:
    from PIL import Image, ImageDraw

    bg = (255, 255, 255) if kind == "diagram" else tuple(r.randint(0, 255) for _ in range(3))
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    if kind == "diagram":
        d.line([(30, h - 30), (w - 10, h - 30)], fill=(0, 0, 0), width=2)
        d.line([(30, 10), (30, h - 30)], fill=(0, 0, 0), width=2)
        n = r.randint(4, 9)
        colour = tuple(r.randint(0, 200) for _ in range(3))
        for i in range(n):
            x = 40 + i * (w - 60) // n
            d.rectangle([x, r.randint(20, h - 40), x + (w - 60) // n - 8, h - 31], fill=colour)
    else:
        fg = tuple(255 - c for c in bg)
        d.ellipse([8, 8, h - 8, h - 8], fill=fg)
        d.text((h + 6, h // 2 - 6), r.choice(("Meier & Sohn", "Bäckerei", "Praxis", "Kanzlei", "Studio")), fill=fg)
        if kind == "banner":
            d.rectangle([w - 140, 20, w - 20, h - 20], outline=fg, width=3)
    return img


@lru_cache(maxsize=512)
def image_bytes(seed: int, url: str, kind: str, served: str) -> tuple[str, bytes]:
    """(content type, body) of an image as simweb serves it."""
    r = Random(hash64(seed, "imgdraw", url))
    w, h = _SIZES[kind]
    if served == "not_image":
        return "image/jpeg", b"<!DOCTYPE html><html><body><h1>Bild nicht gefunden</h1></body></html>"
    if kind in ("map", "citymap"):
        img = _map(r, w, h, 4 if kind == "map" else 14)
    elif kind == "photo":
        img = _photo(r, w, h)
    else:
        img = _flat(r, w, h, kind)
    ext = _EXT[kind]
    buf = io.BytesIO()
    if ext == "png":
        img.save(buf, "PNG", optimize=False)
        ctype = "image/png"
    else:
        img.save(buf, "JPEG", quality=r.randint(70, 90))
        ctype = "image/jpeg"
    body = buf.getvalue()
    if served == "truncated":
        body = body[: len(body) // 2]
    elif served == "corrupt":
        body = b"\x89PNG\r\n\x1a\n" + bytes(r.randrange(256) for _ in range(2000))  # a signature, then noise
    return ctype, body


def training_set(seed: int, per_kind: int) -> list[tuple[str, bytes, bool]]:
    """(kind, bytes, is_map) of ``per_kind`` images of every drawn kind (no icons), for `scrapy train`."""
    out = []
    for kind in ("map", "citymap", "photo", "logo", "banner", "diagram"):
        for i in range(per_kind):
            _, body = image_bytes(seed, f"http://train.example/{kind}/{i}", kind, "ok")
            out.append((kind, body, kind in MAP_KINDS))
    return out


def write_training_folder(folder, seed: int = 7, per_kind: int = 30) -> int:
    """Write a labelled folder (``map/`` and ``other/``) of simweb images; returns the count."""
    from pathlib import Path

    root = Path(folder)
    (root / "map").mkdir(parents=True, exist_ok=True)
    (root / "other").mkdir(parents=True, exist_ok=True)
    n = 0
    for kind, body, is_map in training_set(seed, per_kind):
        ext = "png" if body[:4] == b"\x89PNG" else "jpg"
        (root / ("map" if is_map else "other") / f"{kind}-{n}.{ext}").write_bytes(body)
        n += 1
    return n


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Write a labelled folder of simweb images (map/ and other/).")
    ap.add_argument("folder")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--per-kind", type=int, default=30)
    a = ap.parse_args()
    print(write_training_folder(a.folder, a.seed, a.per_kind), "images written to", a.folder)
