"""The report's interactive map: Leaflet through folium, working offline.

One circle marker per distinct address, clustered, coloured by precision (the address's own
point or street vs its postcode's centroid vs the city centre), with a popup naming the address
and linking the pages that carry it.  OpenStreetMap tiles load when the browser is online;
offline the map keeps a plain background and the markers.

folium points the page at CDNs for Leaflet, MarkerCluster, jQuery, Bootstrap and Font Awesome.
The map needs only the first two, and those are inlined into the HTML from the Debian packages
libjs-leaflet and libjs-leaflet.markercluster (tools/system-packages.txt), so the report needs no
network.  Without those files the CDN links stay and the map says that it needs the Internet.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from geofocus.metrics.addresses import AddressRecord

#: Where Leaflet's files are looked for (Debian's libjs-leaflet and libjs-leaflet.markercluster).
ASSET_DIRS = (Path("/usr/share/javascript/leaflet"), Path("/usr/share/nodejs/leaflet/dist"))
JS_FILES = ("leaflet.js", "leaflet.markercluster.js")
MINIFIED = {"leaflet.js": "leaflet.min.js", "leaflet.markercluster.js": "leaflet.markercluster.min.js"}
CSS_FILES = ("leaflet.css", "MarkerCluster.css", "MarkerCluster.Default.css")

#: precision -> (colour, words for the legend and the text)
PRECISION = {
    "point": ("#1a9850", "at the address (a coordinate on the page)"),
    "street": ("#1a9850", "at the street"),
    "postcode": ("#f28e2b", "at the postcode's centroid"),
    "city": ("#d62728", "at the city centre"),
    None: ("#777777", "of unknown precision"),
}


def find_assets() -> dict[str, str] | None:
    """The text of Leaflet's JS and CSS files, or None when they are not installed."""
    found: dict[str, str] = {}
    for name in JS_FILES + CSS_FILES:
        candidates = [folder / variant for folder in ASSET_DIRS
                      for variant in (MINIFIED.get(name, name), name)]
        path = next((p for p in candidates if p.is_file()), None)
        if path is None:
            return None
        # "</script>" inside the code would end the inline element early
        found[name] = path.read_text(encoding="utf-8", errors="replace").replace("</script", "<\\/script")
    return found


def precision_split(addresses: Sequence[AddressRecord]) -> dict[str, int]:
    """How many located addresses sit at their street (point or street), postcode, city."""
    split = {"street": 0, "postcode": 0, "city": 0, "unknown": 0, "unlocated": 0}
    for a in addresses:
        if not a.located():
            split["unlocated"] += 1
        elif a.precision in ("point", "street"):
            split["street"] += 1
        elif a.precision in ("postcode", "city"):
            split[a.precision] += 1
        else:
            split["unknown"] += 1
    return split


def describe_split(split: dict[str, int]) -> str:
    parts = [f"{split['street']} at their street", f"{split['postcode']} at their postcode's centroid"]
    if split["city"]:
        parts.append(f"{split['city']} at the city centre")
    if split["unknown"]:
        parts.append(f"{split['unknown']} of unknown precision")
    text = ", ".join(parts)
    if split["unlocated"]:
        text += f"; {split['unlocated']} without coordinates (not on the map)"
    return text


def _popup(a: AddressRecord, max_urls: int = 5) -> str:
    f = a.fields
    where = html.escape(f"{f.get('street') or ''} {f.get('house_number') or ''}, "
                        f"{f.get('postcode') or ''} {f.get('city') or ''}".strip(" ,"))
    links = "".join(f'<br><a href="{html.escape(u)}" target="_blank">{html.escape(u)}</a>'
                    for u in a.urls[:max_urls])
    more = f"<br>... and {len(a.urls) - max_urls} more pages" if len(a.urls) > max_urls else ""
    precision = html.escape(PRECISION.get(a.precision, PRECISION[None])[1])
    # Braces as character references: folium compiles each marker's script as a Jinja template once more, so
    # "{{ ... }}" written by a crawled page would be evaluated there (the browser shows the same characters).
    return f"<b>{where}</b><br><i>{precision}</i>{links}{more}".translate(_BRACES)


_BRACES = str.maketrans({"{": "&#123;", "}": "&#125;"})


def _marker(a: AddressRecord, lat: float, lon: float) -> Any:
    """An address's folium marker (a circle coloured by precision, with its popup)."""
    import folium

    return folium.CircleMarker(
        location=[lat, lon], radius=7, color="#333333", weight=1, fill=True,
        fill_color=PRECISION.get(a.precision, PRECISION[None])[0], fill_opacity=0.9,
        popup=folium.Popup(_popup(a), max_width=420),
        class_name=f"geofocus-address precision-{a.precision or 'unknown'}",
    )


#: Stand-ins for the values that differ between markers of one precision, in a rendered prototype.
_LAT, _LON = 1.2345678901234567, -7.654321098765432
_POPUP = "GeofocusPopupText7d1c"
_HEX_ID = re.compile(r"[0-9a-f]{32}")


class _MarkerScript:
    """The script of all address markers, written without a folium element per marker.

    folium renders each marker's and popup's script with Jinja and then compiles that text as a
    template once more (``Element(rendered)``): ~1 ms an address, for every build of the live
    report.  Here one marker per precision is rendered by folium (a prototype, with stand-ins for
    the location and the popup), and every address's script is the prototype's text with its own
    location, popup and fresh element ids: the same text folium writes, as long as no popup holds
    Jinja syntax (``{{``, ``{%``, ``{#``), which folium's second pass would evaluate; here it stays
    text.  When a prototype does not come out as expected (another folium), the caller falls back
    to folium's markers.
    """

    def __init__(self, parts: list[str]):
        self.parts = parts

    @classmethod
    def of(cls, located: Sequence[tuple[AddressRecord, float, float]], cluster: str) -> Any:
        from branca.element import Element, MacroElement
        from folium.utilities import escape_backticks, validate_location

        prototypes = {}
        for a, _lat, _lon in located:
            if a.precision not in prototypes:
                prototype = _prototype(a.precision)
                if prototype is None:
                    return None
                prototypes[a.precision] = prototype
        chunks: list[str] = []
        for a, lat, lon in located:
            pieces, ids, separator = prototypes[a.precision]
            if chunks:
                chunks.append(separator)
            fresh = {old: Element._generate_id() for old in ids}
            lat, lon = validate_location([lat, lon])  # folium's checks (a NaN still fails the build)
            values = {"loc": f"[{lat!r}, {lon!r}]", "popup": escape_backticks(_popup(a)).replace("\n", " "),
                      "cluster": cluster}
            for kind, text in pieces:
                chunks.append(text if kind == "text" else fresh[text] if kind == "id" else values[kind])
        script = "".join(chunks)

        class Text(Element):
            def render(self, **kwargs: Any) -> str:
                return script

        class Markers(MacroElement):
            def render(self, **kwargs: Any) -> None:  # type: ignore[override]
                self.get_root().script.add_child(Text(), name=self.get_name())  # type: ignore[attr-defined]

        return Markers()


def _prototype(precision: str | None) -> tuple[list[tuple[str, str]], set[str], str] | None:
    """One marker of this precision rendered by folium, cut into text and the slots that vary:
    ("text", literal), ("id", prototype element id), ("loc", ""), ("popup", ""), ("cluster", "")."""
    import folium
    from folium.plugins import MarkerCluster

    fmap = folium.Map(location=[0.0, 0.0], tiles=None)
    cluster = MarkerCluster().add_to(fmap)
    stand_in = AddressRecord(key=("", "", "", ""), fields={}, lat=_LAT, lon=_LON, precision=precision)
    marker = _marker(stand_in, _LAT, _LON)
    popup = next(iter(marker._children.values()))
    marker._children[popup.get_name()] = folium.Popup(_POPUP, max_width=420)
    marker._children[popup.get_name()]._parent = marker
    marker.add_to(cluster)
    root = fmap.get_root()
    root.render()
    script = root.script  # type: ignore[attr-defined]
    names = list(script._children)
    try:
        start = names.index(marker.get_name())
    except ValueError:
        return None
    if start < 1 or not names[start + 1:start + 2] or not names[start + 1].startswith("popup_"):
        return None
    # The script is its children's texts, each after the same separator: find that separator.
    whole = script.render()
    before, own, popup_text = (script._children[name].render() for name in names[start - 1:start + 2])
    at = whole.find(before) + len(before)
    own_at = whole.find(own, at)
    popup_at = whole.find(popup_text, own_at + len(own))
    separator = whole[at:own_at]
    if min(at - len(before), own_at, popup_at) < 0 or whole[own_at + len(own):popup_at] != separator:
        return None
    text = own + separator + popup_text
    location = repr([_LAT, _LON])
    if text.count(location) != 1 or text.count(_POPUP) != 1 or text.count(cluster.get_name()) != 1:
        return None
    cluster_id = cluster.get_name()
    pieces: list[tuple[str, str]] = []
    ids: set[str] = set()
    for i, piece in enumerate(re.split(f"({re.escape(location)}|{_POPUP}|{re.escape(cluster_id)})", text)):
        if i % 2:
            pieces.append(({location: "loc", _POPUP: "popup", cluster_id: "cluster"}[piece], ""))
            continue
        at = 0
        for match in _HEX_ID.finditer(piece):
            pieces.append(("text", piece[at:match.start()]))
            pieces.append(("id", match.group()))
            ids.add(match.group())
            at = match.end()
        pieces.append(("text", piece[at:]))
    if len(ids) != 3:  # the marker's, its popup's and the popup's html element's
        return None
    return pieces, ids, separator


def write_map(addresses: Sequence[AddressRecord], path: Path,
              bbox: tuple[float, float, float, float] | None, title: str = "", fast: bool = True) -> Path:
    """Write the map as a standalone HTML page (embedded by index.html in an iframe).

    ``fast`` False makes every marker a folium element (the reference the fast path is tested
    against)."""
    import folium  # a second of imports: only when a map is drawn
    from folium.elements import JSCSSMixin
    from folium.plugins import MarkerCluster

    located = [(a, a.lat, a.lon) for a in addresses if a.lat is not None and a.lon is not None]
    if located:
        lats = [lat for _, lat, _ in located]
        lons = [lon for _, _, lon in located]
        bounds = [[min(lats), min(lons)], [max(lats), max(lons)]]
    elif bbox:
        bounds = [[bbox[1], bbox[0]], [bbox[3], bbox[2]]]
    else:
        bounds = [[47.0, 5.0], [55.0, 15.0]]
    centre = [(bounds[0][0] + bounds[1][0]) / 2, (bounds[0][1] + bounds[1][1]) / 2]
    fmap = folium.Map(location=centre, zoom_start=12, tiles=None, control_scale=True)
    folium.TileLayer("OpenStreetMap", name="OpenStreetMap",
                     attr="&copy; OpenStreetMap contributors").add_to(fmap)
    # Clusters in a neutral blue, so that their colour is not read as a precision.
    cluster = MarkerCluster(name="addresses", options={"maxClusterRadius": 40}, icon_create_function=(
        "function (cluster) { return L.divIcon({html: '<div><span>' + cluster.getChildCount() + '</span></div>', "
        "className: 'marker-cluster geofocus-cluster', iconSize: new L.Point(36, 36)}); }"))
    cluster.add_to(fmap)
    markers = _MarkerScript.of(located, cluster.get_name()) if fast and located else None
    if markers is not None:
        markers.add_to(cluster)
    else:
        for a, lat, lon in located:
            _marker(a, lat, lon).add_to(cluster)
    if len(located) > 1 or bbox:
        fmap.fit_bounds(bounds, padding=(20, 20))
    root = cast(folium.Figure, fmap.get_root())  # a Map made without a parent is put in a new Figure
    # folium builds popups with jQuery's $(`<div>...</div>`)[0]; this is all of jQuery it needs.
    root.header.add_child(folium.Element(
        "<script>window.$ = window.$ || function (markup) { var t = document.createElement('template');"
        " t.innerHTML = String(markup).trim(); return [t.content.firstChild]; };</script>"), name="geofocus_dollar")
    assets = find_assets()
    if assets is not None:
        mixins: tuple[JSCSSMixin, ...] = (fmap, cluster)
        for element in mixins:
            element.default_js = []
            element.default_css = []
        inline = "".join(f"<style>{assets[name]}</style>" for name in CSS_FILES)
        inline += "".join(f"<script>{assets[name]}</script>" for name in JS_FILES)
        root.header.add_child(folium.Element(inline), name="geofocus_leaflet_inline")
    else:
        for element in (fmap,):  # keep Leaflet from the CDN, drop what the map does not use
            element.default_js = [js for js in element.default_js if js[0] == "leaflet"]
            element.default_css = [css for css in element.default_css if css[0] == "leaflet_css"]
    offline = "" if assets is not None else (
        "<div class='geofocus-note'>This map loads Leaflet from the Internet: install libjs-leaflet and "
        "libjs-leaflet.markercluster to make the report work offline.</div>")
    legend = "".join(
        f"<div><span style='background:{colour}'></span>{html.escape(words)}</div>"
        for key, (colour, words) in PRECISION.items() if key not in ("point", None))
    root.html.add_child(folium.Element(
        "<style>.folium-map{background:#e8edf2}"
        ".geofocus-cluster{background:rgba(70,100,150,.35)}.geofocus-cluster div{background:rgba(70,100,150,.8);"
        "color:#fff;font-weight:bold}"
        ".geofocus-legend{position:absolute;bottom:26px;right:10px;z-index:1000;background:#fff;"
        "padding:6px 9px;font:12px sans-serif;border:1px solid #aaa;border-radius:4px}"
        ".geofocus-legend span{display:inline-block;width:11px;height:11px;border-radius:50%;"
        "margin-right:6px;border:1px solid #333}"
        ".geofocus-note{position:absolute;top:10px;left:60px;z-index:1000;background:#fee;padding:6px;"
        "font:12px sans-serif}</style>"
        f"<div class='geofocus-legend' data-markers='{len(located)}'><b>{html.escape(title)}</b>"
        f"<div>{len(located)} addresses on the map</div>{legend}</div>{offline}"))
    partial = path.with_name(path.name + ".part")  # the live report replaces it while a browser reads it
    root.save(str(partial))
    partial.replace(path)
    return path
