# ruff: noqa: E501  (a table of GeoNames rows, one a line)
"""Write the small OSM and GeoNames fixtures of tests/data (run once; output committed).

    python tools/make_osm_fixtures.py

tests/data/mini.osm and tests/data/mini.osm.pbf hold the same hand-made data
(a few Oldenburg streets, points rounded, ODbL-compatible facts); the PBF is
written with a minimal protobuf encoder (zlib blobs, DenseNodes), so the
reader is also tested on tests/data/mini_osmium.osm.pbf, the same data written
by libosmium through pyosmium (``pip install osmium``; only needed to
regenerate that file).
tests/data/mini_geonames.txt is a tiny file in the GeoNames postal-code dump
format (12 tab-separated columns).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from xml.sax.saxutils import quoteattr

OUT = Path(__file__).resolve().parent.parent / "tests" / "data"

# (id, lat, lon, tags)
NODES = [
    (1001, 53.13840, 8.21440, {}), (1002, 53.13880, 8.21520, {}),
    (1003, 53.14060, 8.21320, {}), (1004, 53.14140, 8.21400, {}),
    (1005, 53.13930, 8.20980, {}), (1006, 53.13970, 8.21020, {}),
    (1007, 53.15120, 8.16300, {}), (1008, 53.15480, 8.16500, {}),
    (1009, 53.14180, 8.21370, {"addr:street": "Lappan", "addr:housenumber": "1", "addr:postcode": "26122",
                               "addr:city": "Oldenburg", "tourism": "information"}),
    (1010, 53.13500, 8.21600, {}), (1011, 53.13520, 8.21640, {}),
    (1012, 53.1400, 8.2000, {"amenity": "bench"}),
]
# (id, refs, tags)
WAYS = [
    (2001, [1001, 1002], {"highway": "pedestrian", "name": "Schloßplatz"}),
    (2002, [1003, 1004], {"highway": "pedestrian", "name": "Lange Straße"}),
    (2003, [1005, 1006], {"highway": "residential", "name": "Theaterwall"}),
    (2004, [1007, 1008], {"highway": "tertiary", "name": "Carl-von-Ossietzky-Straße"}),
    (2005, [1010, 1011], {"highway": "secondary", "name": "Damm"}),
    (2006, [1003, 1005], {"waterway": "river", "name": "Haaren"}),  # not a street
    (2007, [1001, 1006], {"highway": "footway"}),  # no name
]
BOUNDS = (8.15, 53.12, 8.25, 53.16)  # min lon, min lat, max lon, max lat

GEONAMES = [
    # country, postcode, place, admin1 name, admin1 code, admin2 name, admin2 code, admin3 name,
    # admin3 code, lat, lon, accuracy
    ("DE", "26121", "Oldenburg", "Niedersachsen", "NI", "", "00", "Oldenburg (Oldenburg), Stadt", "03403", "53.1470", "8.2040", "4"),
    ("DE", "26122", "Oldenburg", "Niedersachsen", "NI", "", "00", "Oldenburg (Oldenburg), Stadt", "03403", "53.1410", "8.2150", "4"),
    ("DE", "26123", "Oldenburg", "Niedersachsen", "NI", "", "00", "Oldenburg (Oldenburg), Stadt", "03403", "53.1560", "8.2330", "4"),
    ("DE", "26129", "Oldenburg", "Niedersachsen", "NI", "", "00", "Oldenburg (Oldenburg), Stadt", "03403", "53.1500", "8.1650", "4"),
    ("DE", "26135", "Oldenburg", "Niedersachsen", "NI", "", "00", "Oldenburg (Oldenburg), Stadt", "03403", "53.1250", "8.2450", "4"),
    ("DE", "23758", "Oldenburg in Holstein", "Schleswig-Holstein", "SH", "", "00", "Kreis Ostholstein", "01055", "54.2920", "10.8870", "4"),
    ("DE", "26203", "Wardenburg", "Niedersachsen", "NI", "", "00", "Landkreis Oldenburg", "03458", "53.0630", "8.2000", "4"),
    ("DE", "26209", "Hatten", "Niedersachsen", "NI", "", "00", "Landkreis Oldenburg", "03458", "53.0700", "8.3200", "4"),
    ("DE", "26160", "Bad Zwischenahn", "Niedersachsen", "NI", "", "00", "Landkreis Ammerland", "03451", "53.1830", "8.0000", "4"),
    ("DE", "28195", "Bremen", "Bremen", "HB", "", "00", "Bremen, Stadt", "04011", "53.0760", "8.8080", "4"),
]


def write_xml(path: Path) -> None:
    lines = ["<?xml version='1.0' encoding='UTF-8'?>", '<osm version="0.6" generator="geofocus fixtures">',
             f'  <bounds minlon="{BOUNDS[0]}" minlat="{BOUNDS[1]}" maxlon="{BOUNDS[2]}" maxlat="{BOUNDS[3]}"/>']
    for node_id, lat, lon, tags in NODES:
        if tags:
            lines.append(f'  <node id="{node_id}" lat="{lat}" lon="{lon}">')
            lines += [f"    <tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in tags.items()]
            lines.append("  </node>")
        else:
            lines.append(f'  <node id="{node_id}" lat="{lat}" lon="{lon}"/>')
    for way_id, refs, tags in WAYS:
        lines.append(f'  <way id="{way_id}">')
        lines += [f'    <nd ref="{r}"/>' for r in refs]
        lines += [f"    <tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in tags.items()]
        lines.append("  </way>")
    lines.append("</osm>")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- minimal protobuf encoder ----------------------------------------------------

def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def zigzag(n: int) -> int:
    return (n << 1) ^ (n >> 63)


def field_varint(number: int, value: int) -> bytes:
    return varint(number << 3) + varint(value)


def field_bytes(number: int, value: bytes) -> bytes:
    return varint(number << 3 | 2) + varint(len(value)) + value


def packed(number: int, values: list[int]) -> bytes:
    return field_bytes(number, b"".join(varint(v) for v in values))


def delta_sint(values: list[int]) -> list[int]:
    out, prev = [], 0
    for v in values:
        out.append(zigzag(v - prev))
        prev = v
    return out


def block(kind: bytes, data: bytes) -> bytes:
    blob = field_varint(2, len(data)) + field_bytes(3, zlib.compress(data))
    header = field_bytes(1, kind) + field_varint(3, len(blob))
    return struct.pack(">I", len(header)) + header + blob


def write_pbf(path: Path) -> None:
    bbox = b"".join(field_varint(n, zigzag(round(v * 1e9))) for n, v in
                    ((1, BOUNDS[0]), (2, BOUNDS[2]), (3, BOUNDS[3]), (4, BOUNDS[1])))
    header = (field_bytes(1, bbox) + field_bytes(4, b"OsmSchema-V0.6") + field_bytes(4, b"DenseNodes")
              + field_bytes(16, b"geofocus fixtures"))
    strings = [""]

    def sid(text: str) -> int:
        if text not in strings:
            strings.append(text)
        return strings.index(text)

    granularity = 100
    ids = [n[0] for n in NODES]
    lats = [round(n[1] * 1e9 / granularity) for n in NODES]
    lons = [round(n[2] * 1e9 / granularity) for n in NODES]
    keys_vals: list[int] = []
    for _, _, _, tags in NODES:
        for k, v in tags.items():
            keys_vals += [sid(k), sid(v)]
        keys_vals.append(0)
    dense = packed(1, delta_sint(ids)) + packed(8, delta_sint(lats)) + packed(9, delta_sint(lons)) + packed(10, keys_vals)
    ways = b""
    for way_id, refs, tags in WAYS:
        keys = [sid(k) for k in tags]
        vals = [sid(v) for v in tags.values()]
        way = field_varint(1, way_id) + packed(2, keys) + packed(3, vals) + packed(8, delta_sint(refs))
        ways += field_bytes(3, way)
    table = b"".join(field_bytes(1, s.encode("utf-8")) for s in strings)
    primitive = (field_bytes(1, table) + field_bytes(2, field_bytes(2, dense)) + field_bytes(2, ways)
                 + field_varint(17, granularity))
    path.write_bytes(block(b"OSMHeader", header) + block(b"OSMData", primitive))


def write_geonames(path: Path) -> None:
    path.write_text("".join("\t".join(row) + "\n" for row in GEONAMES), encoding="utf-8")


def write_with_osmium(source: Path, path: Path) -> bool:
    """The same data written by libosmium (pyosmium), if installed: a PBF from a
    real writer (dense nodes, its own block layout) to test the reader on."""
    try:
        import osmium
    except ImportError:
        return False
    if path.exists():
        path.unlink()
    writer = osmium.SimpleWriter(str(path))

    class Copy(osmium.SimpleHandler):
        def node(self, n):
            writer.add_node(n)

        def way(self, w):
            writer.add_way(w)

    Copy().apply_file(str(source))
    writer.close()
    return True


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    write_xml(OUT / "mini.osm")
    write_pbf(OUT / "mini.osm.pbf")
    write_geonames(OUT / "mini_geonames.txt")
    if write_with_osmium(OUT / "mini.osm", OUT / "mini_osmium.osm.pbf"):
        print(f"wrote {OUT}/mini_osmium.osm.pbf with pyosmium")
    print(f"wrote {OUT}/mini.osm, mini.osm.pbf, mini_geonames.txt")
