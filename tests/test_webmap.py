"""The report's map (geofocus/reporting/webmap.py): the markers written from a folium prototype
per precision must be the page folium writes with one element per marker, up to element ids."""

from __future__ import annotations

import html
import random
import re

from geofocus.metrics.addresses import AddressRecord
from geofocus.reporting.webmap import write_map

BBOX = (7.9, 52.9, 8.5, 53.3)
PRECISIONS = ["point", "street", "postcode", "city", None, "odd precision"]
AWKWARD = ["`", "\\`", "\n", "\r\n", '"', "'", "<b>", "&amp;", "ß", "東京", "\\", "$", "</script>", " ", "%20"]


def same_up_to_ids(a: str, b: str) -> bool:
    """True if the two pages are the same once each element id is replaced by its rank."""
    def norm(text: str) -> str:
        ids: dict[str, str] = {}
        return re.sub(r"[0-9a-f]{32}", lambda m: ids.setdefault(m.group(), f"ID{len(ids)}"), text)
    return norm(a) == norm(b)


def awkward(rng: random.Random) -> str:
    return "".join(rng.choice(AWKWARD + ["Straße", "1", "a"]) for _ in range(rng.randint(0, 6)))


def addresses(rng: random.Random, n: int) -> list[AddressRecord]:
    out = []
    for i in range(n):
        located = rng.random() > 0.1
        out.append(AddressRecord(
            key=(str(i), "", "", ""),
            fields={"street": awkward(rng), "house_number": awkward(rng), "postcode": awkward(rng),
                    "city": rng.choice(["Oldenburg", awkward(rng)])},
            lat=rng.uniform(52.9, 53.3) if located else None, lon=rng.uniform(7.9, 8.5) if located else None,
            precision=rng.choice(PRECISIONS),
            urls=[f"http://ex{rng.randint(0, 9)}.de/{awkward(rng)}" for _ in range(rng.randint(0, 7))],
        ))
    return out


def test_fast_markers_are_folium_markers_up_to_ids(tmp_path):
    rng = random.Random(11)
    for n in (0, 1, 2, 40):
        found = addresses(rng, n)
        for bbox in (BBOX, None):
            write_map(found, tmp_path / "fast.html", bbox, title="Addresses <&>")
            write_map(found, tmp_path / "folium.html", bbox, title="Addresses <&>", fast=False)
            fast, reference = ((tmp_path / f"{name}.html").read_text() for name in ("fast", "folium"))
            assert fast.count("L.circleMarker(") == sum(a.located() for a in found)
            assert same_up_to_ids(fast, reference), (n, bbox)


def test_each_marker_gets_its_own_element_ids(tmp_path):
    found = addresses(random.Random(3), 30)
    write_map(found, tmp_path / "map.html", BBOX)
    text = (tmp_path / "map.html").read_text()
    markers = re.findall(r"var (circle_marker_[0-9a-f]{32}) = L\.circleMarker", text)
    popups = re.findall(r"var (popup_[0-9a-f]{32}) = L\.popup", text)
    assert len(markers) == len(set(markers)) == sum(a.located() for a in found)
    assert len(popups) == len(set(popups)) == len(markers)


def test_jinja_syntax_in_a_popup_stays_text(tmp_path):
    """folium compiles each rendered marker script as a template again: "{{ 7*7 }}" written by a crawled
    page became 49 and "{%" failed the build. With either way of writing the markers the popup shows the
    text as written, and nothing is evaluated."""
    found = [AddressRecord(key=("a", "", "", ""), fields={"street": "{{ 7*7 }} {% x", "city": "O"},
                           lat=53.1, lon=8.2, precision="street", urls=["http://a.de/{#x"])]
    for fast in (True, False):
        write_map(found, tmp_path / "map.html", BBOX, fast=fast)
        text = (tmp_path / "map.html").read_text()
        popup = html.unescape(re.search(r"var html_[0-9a-f]{32} = \$\(`(.*?)`\)", text, re.S).group(1))
        where = re.search(r"<b>(.*?)</b>", popup).group(1)
        assert where.startswith("{{ 7*7 }} {% x") and 'href="http://a.de/{#x"' in popup, fast
