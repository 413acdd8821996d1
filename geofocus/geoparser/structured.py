"""Addresses in structured data: schema.org PostalAddress (JSON-LD, microdata,
RDFa), hCard/h-adr microformats, Open Graph business tags, and geo meta tags.

Extraction is delegated to ``extruct``, which is thorough but costs tens of
milliseconds on a large page, so it only runs on the syntaxes whose markers
appear in the raw markup (a substring test costs microseconds).
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

# Markers of each syntax, and of an address in it: extruct runs only on pages
# that have both (a page whose microdata is a product or a breadcrumb is skipped).
_MARKERS = {
    "json-ld": (("application/ld+json",), ("streetaddress", '"address"')),
    "microdata": (("itemprop",), ("streetaddress",)),
    "rdfa": (("typeof=", "vocab=", "property="), ("streetaddress",)),
    "microformat": (("vcard", "h-card", "h-adr", "adr"),
                    ("street-address", "p-adr", "h-adr", 'class="adr', "class='adr", " adr ", ' adr"')),
}
assert all(any(stem in m for stem in ("street", "adr", '"address"'))
           for _s, markers in _MARKERS.values() for m in markers)
# The markers are looked for in the markup's UTF-8 bytes with the ASCII letters lower-cased (bytes.lower,
# five times faster than str.lower on a page with umlauts): the same answers as in the lower-cased text,
# since the bytes of other characters are never ASCII, and the only other characters that str.lower turns
# into ASCII are the Kelvin sign (into "k") and "İ" (into "i" and a combining dot): no marker has a "k"
# or ends in "i".
assert all(m.isascii() and "k" not in m and not m.endswith("i")
           for pair in _MARKERS.values() for markers in pair for m in markers)
_MARKER_BYTES = {name: (tuple(m.encode() for m in syntax), tuple(m.encode() for m in address))
                 for name, (syntax, address) in _MARKERS.items()}
_GEO_META = re.compile(
    r"<meta\b[^<>]*?(?:name|property)\s*=\s*[\"']?(?:geo\.position|icbm)[\"']?[^<>]*>", re.I
)
_CONTENT = re.compile(r"content\s*=\s*[\"']?\s*(-?\d{1,3}(?:\.\d+)?)\s*[;,]\s*(-?\d{1,3}(?:\.\d+)?)", re.I)


@dataclass
class StructuredAddress:
    street_address: str
    postcode: str | None
    locality: str | None
    region: str | None
    country: str | None
    lat: float | None = None
    lon: float | None = None
    free_text: bool = False  # a whole address as one string, to be read like page text


def syntaxes_present(markup: str, only: tuple[str, ...] | None = None) -> list[str]:
    """The structured-data syntaxes whose markers occur in ``markup`` (of ``only``, if given)."""
    head = markup if len(markup) < 4_000_000 else markup[:4_000_000]
    if only == ("json-ld",) and "+j" not in head and "+J" not in head:
        return []  # no "ld+json" in any case: two scans instead of lower-casing the page
    lowered = head.encode("utf-8", "surrogatepass").lower()
    # Every address marker contains one of these: most pages are done after three scans.
    if b"street" not in lowered and b"adr" not in lowered and b'"address"' not in lowered:
        return []
    return [
        name for name, (syntax, address) in _MARKER_BYTES.items()
        if (only is None or name in only) and any(m in lowered for m in syntax) and any(m in lowered for m in address)
    ]


def geo_position(markup: str) -> tuple[float, float] | None:
    """The coordinate of a ``geo.position`` or ``ICBM`` meta tag, if any."""
    if "geo.position" not in markup and "ICBM" not in markup and "icbm" not in markup:
        return None
    for tag in _GEO_META.finditer(markup):
        content = _CONTENT.search(tag.group(0))
        if content:
            lat, lon = float(content.group(1)), float(content.group(2))
            if -90 <= lat <= 90 and -180 <= lon <= 180:
                return lat, lon
    return None


# Open Graph's tags of a business or place (Facebook's "business:contact_data:street_address" ...
# "country_name", the older "og:street-address" ... "og:country-name"): the page's own address, in its head
# and never in its visible text. Each tag is bounded (no backtracking past a "<" or ">"); the scan starts with
# a literal.
_OG_META = re.compile(r"<meta\b[^<>]{0,300}?(?:property|name)\s*=\s*[\"']?(?:business:contact_data:|og:)"
                      r"(street[-_]address|postal[-_]code|locality|region|country[-_]name)[\"'\s/>]", re.I)
_OG_CONTENT = re.compile(r"\bcontent\s*=\s*(?:\"([^\"<>]*)\"|'([^'<>]*)')", re.I)
_OG_TAG_END = re.compile(r"[^<>]{0,600}>")


def opengraph_address(markup: str) -> StructuredAddress | None:
    """The address of a page's Open Graph business or place tags, if it names a street and a place."""
    if "contact_data:" not in markup and "og:street" not in markup:
        return None
    parts: dict[str, str] = {}
    for tag in _OG_META.finditer(markup):
        end = _OG_TAG_END.match(markup, tag.end() - 1)
        whole = markup[tag.start(): end.end() if end else tag.end()]
        content = _OG_CONTENT.search(whole)
        if content is not None:
            value = html.unescape(content.group(1) if content.group(1) is not None else content.group(2)).strip()
            if value:
                parts.setdefault(tag.group(1).lower().replace("-", "_"), value)
    street = parts.get("street_address")
    if not street or not (parts.get("postal_code") or parts.get("locality")):
        return None  # no address without a place: a street alone ("497 Rogers Ave") could be anywhere
    return StructuredAddress(street_address=" ".join(street.split()), postcode=parts.get("postal_code"),
                             locality=parts.get("locality"), region=parts.get("region"),
                             country=parts.get("country_name"))


def _key(name: str) -> str:
    """Last segment of a property IRI, lower-case, without hyphens."""
    return re.split(r"[/#:]", name)[-1].lower().replace("-", "").replace("_", "")


def _first_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        for item in value:
            text = _first_text(item)
            if text:
                return text
    if isinstance(value, dict):
        for key in ("@value", "value", "name", "@id"):
            if key in value:
                return _first_text(value[key])
        if "properties" in value:
            return _first_text(value["properties"].get("name"))
    return None


def _flat(node: dict[str, Any]) -> dict[str, Any]:
    flat = {_key(k): v for k, v in node.items() if isinstance(k, str)}
    props = node.get("properties")
    if isinstance(props, dict):  # mf2py style
        flat.update({_key(k): v for k, v in props.items()})
    return flat


def _coords(flat: dict[str, Any]) -> tuple[float | None, float | None]:
    geo = flat.get("geo")
    source = flat
    if isinstance(geo, list) and geo and isinstance(geo[0], dict):
        geo = geo[0]
    if isinstance(geo, dict):
        source = _flat(geo)
    try:
        lat = float(_first_text(source.get("latitude")) or "x")
        lon = float(_first_text(source.get("longitude")) or "x")
    except ValueError:
        return None, None
    return lat, lon


def _walk(node: Any, inherited: tuple[float | None, float | None], depth: int = 0) -> Iterator[StructuredAddress]:
    if depth > 30:
        return
    if isinstance(node, list):
        for item in node:
            yield from _walk(item, inherited, depth + 1)
        return
    if not isinstance(node, dict):
        return
    flat = _flat(node)
    lat, lon = _coords(flat)
    if lat is None:
        lat, lon = inherited
    street = _first_text(flat.get("streetaddress"))
    address = flat.get("address")
    if isinstance(address, list) and len(address) == 1:
        address = address[0]
    if isinstance(address, dict) and set(address) <= {"@value", "@language"}:
        address = address.get("@value")
    adr = flat.get("adr")
    if isinstance(adr, list) and adr and isinstance(adr[0], dict) and "street-address" not in adr[0]:
        # mf2py reads an "adr" nested in a classic "vcard" as text only.
        address = address or _first_text(adr[0].get("value"))
    if isinstance(address, str) and address.strip():
        # schema.org allows "address" as plain text: the text extractor reads it.
        yield StructuredAddress(street_address=" ".join(address.split()), postcode=None, locality=None,
                                region=None, country=None, lat=lat, lon=lon, free_text=True)
    if street:
        yield StructuredAddress(
            street_address=" ".join(street.split()),
            postcode=_first_text(flat.get("postalcode")),
            locality=_first_text(flat.get("addresslocality") or flat.get("locality")),
            region=_first_text(flat.get("addressregion") or flat.get("region")),
            country=_first_text(flat.get("addresscountry") or flat.get("countryname")),
            lat=lat,
            lon=lon,
        )
    for value in node.values():
        if isinstance(value, (dict, list)):
            yield from _walk(value, (lat, lon), depth + 1)


_LD_OPEN = re.compile(r"<script\b[^<>]*application/ld\+json[^<>]*>", re.I)
_SCRIPT_CLOSE = re.compile(r"</script", re.I)
# A script's content wrapped in a CDATA section, as XHTML pages write it ("<![CDATA[ {...} ]]>", also behind
# a JavaScript comment: "//<![CDATA[", "/*<![CDATA[*/" ... "/*]]>*/", "//]]>"): the JSON is between.
_CDATA = re.compile(r"\A\s*(?:/\*\s*|//\s*)?<!\[CDATA\[(?:\s*\*/)?(?P<body>.*?)(?:/\*\s*|//\s*)?\]\]>(?:\s*\*/)?\s*\Z",
                    re.S)


def is_json(body: str) -> bool:
    """Whether a JSON-LD script's content is JSON that the structured-data pass reads (a CDATA wrapper allowed)."""
    if "<![CDATA[" in body:
        wrapped = _CDATA.match(body)
        if wrapped is not None:
            body = wrapped.group("body")
    try:
        json.loads(body, strict=False)
    except ValueError:
        try:  # extruct's second try: comments and trailing commas removed
            from extruct.jsonld import HTML_OR_JS_COMMENTLINE, jstyleson

            jstyleson.loads(HTML_OR_JS_COMMENTLINE.sub("", body), strict=False)
        except Exception:  # jstyleson raises more than ValueError on broken input
            return False
    return True


def jsonld_document(markup: str) -> str:
    """A minimal HTML document holding only the page's JSON-LD scripts.

    extruct parses the whole page with lxml before it looks at the scripts;
    handing it just the scripts gives the same items at a fraction of the cost.
    """
    parts = ["<html><head>"]
    pos = 0
    while True:
        opening = _LD_OPEN.search(markup, pos)
        if opening is None:
            break
        closing = _SCRIPT_CLOSE.search(markup, opening.end())
        end = closing.start() if closing else len(markup)
        body = markup[opening.end() : end]
        if "<![CDATA[" in body:
            wrapped = _CDATA.match(body)
            if wrapped is not None:
                body = wrapped.group("body")
        parts.append(opening.group(0) + body + "</script>")
        if closing is None:
            break
        pos = closing.end()
    parts.append("</head><body></body></html>")
    return "".join(parts)


def extract(markup: str, url: str | None, syntaxes: list[str]) -> list[StructuredAddress]:
    """PostalAddress-like records of the given syntaxes; [] on any extractor failure."""
    if not syntaxes:
        return []
    found: list[StructuredAddress] = []
    try:
        import extruct

        data: dict[str, Any] = {}
        if "json-ld" in syntaxes:
            data.update(extruct.extract(jsonld_document(markup), base_url=url or "",
                                        syntaxes=["json-ld"], uniform=True, errors="ignore"))
        others = [s for s in syntaxes if s != "json-ld"]
        if others:
            data.update(extruct.extract(markup, base_url=url or "", syntaxes=others,
                                        uniform=True, errors="ignore"))
    except Exception as exc:  # extruct raises many kinds on broken markup
        logger.debug("structured data extraction failed for %(url)s: %(exc)r", {"url": url, "exc": exc})
        return []
    for items in data.values():
        found.extend(_walk(items, (None, None)))
    return found
