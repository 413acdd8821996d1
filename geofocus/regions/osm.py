"""Streets with coordinates from an OpenStreetMap extract (.osm XML or .osm.pbf).

Pure Python, no osmium needed: XML goes through lxml's incremental parser,
PBF through a small protobuf decoder of the fields a street list needs
(dense and plain nodes, ways with their tags and node references).  Both read
the file once and keep only node coordinates, so a city extract of a few
hundred megabytes fits in memory; for a whole country use a city extract
(e.g. cut with ``osmium extract``).
"""

from __future__ import annotations

import bz2
import gzip
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

# Ways that carry street names people write in addresses.
STREET_HIGHWAYS = frozenset(
    "motorway_link trunk primary secondary tertiary unclassified residential living_street pedestrian "
    "service road trunk_link primary_link secondary_link tertiary_link busway track".split()
)


class OSMError(ValueError):
    """The file is not a readable OSM extract."""


@dataclass
class Way:
    id: int
    tags: dict[str, str]
    refs: list[int]


@dataclass
class Extract:
    """What a pack needs from an extract: node coordinates, tagged nodes, ways."""

    nodes: dict[int, tuple[float, float]] = field(default_factory=dict)  # id -> (lat, lon)
    tagged_nodes: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    ways: list[Way] = field(default_factory=list)
    bounds: tuple[float, float, float, float] | None = None  # min lon, min lat, max lon, max lat


def read_extract(path: str | Path) -> Extract:
    """Read ``.osm``, ``.osm.gz``, ``.osm.bz2`` or ``.osm.pbf``; raises :class:`OSMError`."""
    path = Path(path)
    try:
        if path.name.endswith(".pbf"):
            return _read_pbf(path)
        return _read_xml(path)
    except OSError as exc:
        raise OSMError(f"cannot read OSM extract {path}: {exc}") from exc


def streets(extract: Extract) -> dict[str, tuple[float, float]]:
    """Street name -> representative point (the mean of its nodes, rounded)."""
    sums: dict[str, list[float]] = {}
    for way in extract.ways:
        name = way.tags.get("name")
        if not name or way.tags.get("highway") not in STREET_HIGHWAYS:
            continue
        points = [extract.nodes[r] for r in way.refs if r in extract.nodes]
        if not points:
            continue
        acc = sums.setdefault(name, [0.0, 0.0, 0])
        acc[0] += sum(p[0] for p in points)
        acc[1] += sum(p[1] for p in points)
        acc[2] += len(points)
    # Streets known only from house addresses (addr:street on nodes/buildings).
    for node_id, tags in extract.tagged_nodes:
        name = tags.get("addr:street")
        if name and name not in sums and node_id in extract.nodes:
            lat, lon = extract.nodes[node_id]
            sums[name] = [lat, lon, 1]
    return {name: (round(a[0] / a[2], 5), round(a[1] / a[2], 5)) for name, a in sorted(sums.items())}


def addresses(extract: Extract) -> Iterator[dict[str, str]]:
    """The ``addr:*`` tags of tagged nodes and ways (postcode, city, street)."""
    for _, tags in extract.tagged_nodes:
        if "addr:postcode" in tags or "addr:city" in tags:
            yield tags
    for way in extract.ways:
        if "addr:postcode" in way.tags or "addr:city" in way.tags:
            yield way.tags


# -- XML -----------------------------------------------------------------------

def _open_text(path: Path):
    if path.name.endswith(".gz"):
        return gzip.open(path, "rb")
    if path.name.endswith(".bz2"):
        return bz2.open(path, "rb")
    return path.open("rb")


def _read_xml(path: Path) -> Extract:
    out = Extract()
    try:
        with _open_text(path) as handle:
            for _, elem in etree.iterparse(handle, events=("end",), tag=("node", "way", "bounds"),
                                           resolve_entities=False, huge_tree=True):
                if elem.tag == "node":
                    try:
                        node_id = int(elem.get("id"))
                        out.nodes[node_id] = (float(elem.get("lat")), float(elem.get("lon")))
                    except (TypeError, ValueError):
                        elem.clear()
                        continue
                    tags = {t.get("k"): t.get("v") for t in elem.iterfind("tag")}
                    if tags:
                        out.tagged_nodes.append((node_id, tags))
                elif elem.tag == "way":
                    tags = {t.get("k"): t.get("v") for t in elem.iterfind("tag")}
                    refs = [int(nd.get("ref")) for nd in elem.iterfind("nd") if nd.get("ref", "").lstrip("-").isdigit()]
                    try:
                        out.ways.append(Way(int(elem.get("id")), tags, refs))
                    except (TypeError, ValueError):
                        pass
                else:
                    try:
                        out.bounds = (float(elem.get("minlon")), float(elem.get("minlat")),
                                      float(elem.get("maxlon")), float(elem.get("maxlat")))
                    except (TypeError, ValueError):
                        pass
                elem.clear()
    except etree.XMLSyntaxError as exc:
        raise OSMError(f"{path} is not OSM XML: {exc}") from exc
    if not out.nodes and not out.ways:
        raise OSMError(f"{path} holds no OSM nodes or ways")
    return out


# -- PBF -----------------------------------------------------------------------
# https://wiki.openstreetmap.org/wiki/PBF_Format: a sequence of
# [int32 BE length][BlobHeader][Blob], each Blob a zlib-compressed (or raw)
# HeaderBlock or PrimitiveBlock.

def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise OSMError("truncated varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 70:
            raise OSMError("varint too long")


def _fields(buf: bytes) -> Iterator[tuple[int, int, int | bytes]]:
    """(field number, wire type, value) of a protobuf message."""
    pos, end = 0, len(buf)
    value: int | bytes
    while pos < end:
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            length, pos = _varint(buf, pos)
            if pos + length > end:
                raise OSMError("truncated field")
            value, pos = buf[pos : pos + length], pos + length
        elif wire == 1:
            value, pos = int.from_bytes(buf[pos : pos + 8], "little"), pos + 8
        elif wire == 5:
            value, pos = int.from_bytes(buf[pos : pos + 4], "little"), pos + 4
        else:
            raise OSMError(f"unsupported protobuf wire type {wire}")
        yield number, wire, value


def _int(value: int | bytes) -> int:
    """A number field's value (a length-delimited one here is a malformed file)."""
    if not isinstance(value, int):
        raise OSMError("malformed PBF: bytes where a number belongs")
    return value


def _bytes(value: int | bytes) -> bytes:
    """A length-delimited field's value (a number here is a malformed file)."""
    if isinstance(value, int):
        raise OSMError("malformed PBF: a number where bytes belong")
    return value


def _packed(buf: bytes) -> list[int]:
    out, pos = [], 0
    while pos < len(buf):
        value, pos = _varint(buf, pos)
        out.append(value)
    return out


def _zigzag(n: int) -> int:
    return (n >> 1) ^ -(n & 1)


def _delta(values: list[int]) -> list[int]:
    out, acc = [], 0
    for v in values:
        acc += _zigzag(v)
        out.append(acc)
    return out


def _blob_data(blob: bytes) -> bytes:
    raw: bytes | None = None
    zdata: bytes | None = None
    for number, _, value in _fields(blob):
        if number == 1:
            raw = _bytes(value)
        elif number == 3:
            zdata = _bytes(value)
        elif number in (4, 6, 7):
            raise OSMError("only raw and zlib-compressed PBF blobs are supported")
    if raw is not None:
        return raw
    if zdata is not None:
        try:
            return zlib.decompress(zdata)
        except zlib.error as exc:
            raise OSMError(f"corrupt zlib blob: {exc}") from exc
    raise OSMError("empty PBF blob")


def _read_pbf(path: Path) -> Extract:
    out = Extract()
    with path.open("rb") as handle:
        first = True
        while True:
            size_bytes = handle.read(4)
            if not size_bytes:
                break
            if len(size_bytes) < 4:
                raise OSMError(f"{path}: truncated PBF block header")
            (size,) = struct.unpack(">I", size_bytes)
            if size > 64 * 1024:
                raise OSMError(f"{path} is not an OSM PBF file (block header of {size} bytes)")
            header = handle.read(size)
            kind, datasize = b"", 0
            for number, _, value in _fields(header):
                if number == 1:
                    kind = _bytes(value)
                elif number == 3:
                    datasize = _int(value)
            if first and kind != b"OSMHeader":
                raise OSMError(f"{path} is not an OSM PBF file (first block {kind!r})")
            first = False
            if datasize > 64 * 1024 * 1024:
                raise OSMError(f"{path}: PBF blob of {datasize} bytes exceeds the format limit")
            blob = handle.read(datasize)
            if len(blob) < datasize:
                raise OSMError(f"{path}: truncated PBF blob")
            data = _blob_data(blob)
            if kind == b"OSMHeader":
                _header_block(data, out)
            elif kind == b"OSMData":
                _primitive_block(data, out)
    if first:
        raise OSMError(f"{path} is empty")
    return out


def _header_block(data: bytes, out: Extract) -> None:
    for number, _, value in _fields(data):
        if number == 1:  # HeaderBBox, nanodegrees
            box = {n: _zigzag(_int(v)) for n, _, v in _fields(_bytes(value))}
            if len(box) == 4:
                out.bounds = (box[1] * 1e-9, box[4] * 1e-9, box[2] * 1e-9, box[3] * 1e-9)
        elif number == 4:  # required_features
            feature = _bytes(value).decode("utf-8", "replace")
            if feature not in ("OsmSchema-V0.6", "DenseNodes", "HistoricalInformation", "Sort.Type_then_ID"):
                raise OSMError(f"PBF requires unsupported feature {feature!r}")


def _primitive_block(data: bytes, out: Extract) -> None:
    strings: list[str] = []
    groups: list[bytes] = []
    granularity, lat_offset, lon_offset = 100, 0, 0
    for number, _, value in _fields(data):
        if number == 1:
            strings = [_bytes(s).decode("utf-8", "replace") for n, _, s in _fields(_bytes(value)) if n == 1]
        elif number == 2:
            groups.append(_bytes(value))
        elif number == 17:
            granularity = _int(value)
        elif number == 19:
            lat_offset = _int(value)
        elif number == 20:
            lon_offset = _int(value)

    def coord(raw: int, offset: int) -> float:
        return round(1e-9 * (offset + granularity * raw), 7)

    def tags_of(keys: list[int], vals: list[int]) -> dict[str, str]:
        return {strings[k]: strings[v] for k, v in zip(keys, vals, strict=False)
                if k < len(strings) and v < len(strings)}

    for group in groups:
        for number, _, value in _fields(group):
            if number == 1:  # Node
                node_id = lat = lon = 0
                keys: list[int] = []
                vals: list[int] = []
                for n, _, v in _fields(_bytes(value)):
                    if n == 1:
                        node_id = _zigzag(_int(v))
                    elif n == 2:
                        keys = _packed(_bytes(v))
                    elif n == 3:
                        vals = _packed(_bytes(v))
                    elif n == 8:
                        lat = _zigzag(_int(v))
                    elif n == 9:
                        lon = _zigzag(_int(v))
                out.nodes[node_id] = (coord(lat, lat_offset), coord(lon, lon_offset))
                if keys:
                    out.tagged_nodes.append((node_id, tags_of(keys, vals)))
            elif number == 2:  # DenseNodes
                ids: list[int] = []
                lats: list[int] = []
                lons: list[int] = []
                keys_vals: list[int] = []
                for n, _, v in _fields(_bytes(value)):
                    if n == 1:
                        ids = _delta(_packed(_bytes(v)))
                    elif n == 8:
                        lats = _delta(_packed(_bytes(v)))
                    elif n == 9:
                        lons = _delta(_packed(_bytes(v)))
                    elif n == 10:
                        keys_vals = _packed(_bytes(v))
                if not (len(ids) == len(lats) == len(lons)):
                    raise OSMError("DenseNodes with arrays of different lengths")
                kv = 0
                for node_id, lat, lon in zip(ids, lats, lons, strict=True):
                    out.nodes[node_id] = (coord(lat, lat_offset), coord(lon, lon_offset))
                    if keys_vals:
                        tags: dict[str, str] = {}
                        while kv < len(keys_vals) and keys_vals[kv] != 0:
                            if kv + 1 < len(keys_vals):
                                k, v2 = keys_vals[kv], keys_vals[kv + 1]
                                if k < len(strings) and v2 < len(strings):
                                    tags[strings[k]] = strings[v2]
                            kv += 2
                        kv += 1
                        if tags:
                            out.tagged_nodes.append((node_id, tags))
            elif number == 3:  # Way
                way_id = 0
                keys, vals, refs = [], [], []
                for n, _, v in _fields(_bytes(value)):
                    if n == 1:
                        way_id = _int(v)
                    elif n == 2:
                        keys = _packed(_bytes(v))
                    elif n == 3:
                        vals = _packed(_bytes(v))
                    elif n == 8:
                        refs = _delta(_packed(_bytes(v)))
                out.ways.append(Way(way_id, tags_of(keys, vals), refs))
