"""Address parts named by labels in the page text: forms, tables, definition lists, OSM tags.

Pages write an address as labelled fields as often as in lines:
``Straße: Lange Straße 4`` / ``PLZ: 26121`` / ``Ort: Oldenburg`` (an Impressum or a form
summary), a table or a definition list with the label in one cell and the value in the next
(``<tr><td>Straße</td><td>Lange Straße 4</td></tr>``, which :func:`~geofocus.geoparser.text.
html_to_text` turns into a label line followed by a value line), Markdown tables
(``| PLZ | 26121 |``), OpenStreetMap tags (``addr:street=Lange Straße`` / ``addr:housenumber=4``)
and properties files (``plz=26121``).  The labels say which value is which part, in any order and
any language the table below knows; the parts are put together in the order the extractors
read (see :class:`~geofocus.geoparser.keyvalue.KeyedAddress`), and the extractors decide whether
they make an address.

One regex pass finds the lines that start with a label-like word (at most 40 characters, then
``:``, ``=``, ``|`` or the line end); only those cost a dictionary look-up, so the cost is linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import chain

from geofocus.geoparser.keyvalue import KeyedAddress
from geofocus.geoparser.model import WorkLimit

# Labels, folded (lower case, ß as ss, umlauts without dots, no spaces or punctuation), by role.
LABELS = {
    "street": (
        "strasse", "str", "strassehausnummer", "strasseundhausnummer", "strassehausnr", "strassenr",
        "strasseundnr", "strasseuhausnr", "strasseuhnr", "strassehnr", "strassenummer", "anschrift",
        "adresse", "postanschrift", "hausanschrift", "firmenanschrift", "geschaftsadresse", "sitz",
        "firmensitz", "street", "streetaddress", "streetandnumber", "streetnumberandname", "streetname",
        "address", "addressline1", "address1", "addr", "road", "straat",
    ),
    "number": ("hausnummer", "hausnr", "hnr", "nr", "housenumber", "housenr", "streetnumber", "number", "no"),
    "postcode": ("plz", "postleitzahl", "zip", "zipcode", "postalcode", "postcode", "postal"),
    "city": ("ort", "stadt", "wohnort", "gemeinde", "city", "town", "locality", "cityname"),
    "postcode_city": ("plzort", "plzundort", "plzstadt", "ortplz", "postleitzahlort", "postleitzahlundort",
                      "zipcity", "postcodecity", "cityzip", "zipandcity", "postalcodecity"),
    "state": ("state", "statecode", "stateprovince"),
    "unit": ("suite", "unit", "apt", "apartment", "addressline2", "address2"),
    # The parts of a US street's name on lines of their own ("predirectional: N", "street: Highland",
    # "suffix: St"), joined by ``KeyedAddress.text`` as in keyed records.
    "predirection": ("predirectional", "predirection", "predir", "streetpredirection"),
    "street_type": ("suffix", "streetsuffix", "streettype"),
    "postdirection": ("postdirectional", "postdirection", "postdir", "streetpostdirection"),
}
_ROLE_OF = {label: role for role, labels in LABELS.items() for label in labels}
_FOLD = str.maketrans({"ß": "ss", "ä": "a", "ö": "o", "ü": "u", " ": None, "_": None, "-": None,
                       ".": None, "/": None, ",": None, "&": None, "*": None, "(": None, ")": None,
                       "+": None, "\t": None})
# A line that starts with a label (after bullets, table bars, bold marks): the label, at most 30
# characters, ends at ":", "=", "|" or the line end.  Possessive and bounded: each line costs at
# most 30 steps, and a longer line without a separator fails at once.  "addr:" (OSM keys) is part of
# no label.  The pattern is scanned for after a line break (a literal first: a fast scan), and
# matched at the start of the text.
# The first two letters of a label, in any case, before the label is read: most lines fail here.
# Written as character classes ("[Aa][DdNnPp]|..."): a case-insensitive alternation of the same
# costs four times the whole scan.
_SECONDS: dict[str, set[str]] = {}
for _label in (label for labels in LABELS.values() for label in labels):
    _SECONDS.setdefault(_label[0], set()).add(_label[1])
_HEADS = "|".join(f"[{first.upper()}{first}][{''.join(sorted(c.upper() + c for c in seconds))}]"
                  for first, seconds in sorted(_SECONDS.items()))
_FIRSTS = "".join(first.upper() + first for first in sorted(_SECONDS))
# A tab separates too: "Straße\tLange Straße 4" (a table copied as text, a TSV export).
_LABEL_BODY = (r"[ \t|*>•-]*+(?:addr:)?(?P<label>(?=[" + _FIRSTS + "])(?:" + _HEADS + r")[^\n:=|\t]{0,28}+)"
               r"(?:[ ]*+(?P<sep>[:=|\t])|(?=\n)|\Z)")
_LABEL_AT = re.compile(_LABEL_BODY)
_LABEL_AFTER_BREAK = re.compile(r"\n" + _LABEL_BODY)
_VALUE_EDGE = " \t|*\"'"
# Lines between the fields of one address (a blank cell, a note): more and they are two records.
_MAX_GAP = 3
_MAX_VALUE = 120
# Labelled lines read per page: a form or an Impressum has tens; a page of nothing but labels
# ("Straße\n" * 70,000) costs 2 us a line, so the reading stops here (and says so).
MAX_LABELS = 2000


def _role(label: str) -> str | None:
    folded = label.lower().translate(_FOLD)
    if folded.endswith("und"):  # "PLZ und" of "PLZ und Ort" cut at a line end: no label
        return None
    return _ROLE_OF.get(folded)


_INLINE_COLON = re.compile(r"[ \t]*:[ \t]*")


def _inline_fields(role: str, value: str) -> list[tuple[str, str]]:
    """``value`` cut where another label starts on the same line: "Lange Straße 4, PLZ: 26121, Ort:
    Oldenburg" after "Straße:", "123 Main St | City: Chicago | State: IL" after "Address:"."""
    fields: list[tuple[str, str]] = []
    start = 0
    for colon in _INLINE_COLON.finditer(value):
        head = value[start:colon.start()]
        words = head.split(" ")
        # The label is the last one to three words before the colon, after a space or a separator.
        for n in (1, 2, 3):
            if len(words) <= n:
                break
            label = " ".join(words[-n:]).lstrip(",;|")
            next_role = _role(label)
            if next_role is not None:
                fields.append((role, head[: len(head) - len(label)].strip(_VALUE_EDGE + ",;")))
                role, start = next_role, colon.end()
                break
    fields.append((role, value[start:].strip(_VALUE_EDGE + ",;")))
    return fields


def labelled_addresses(text: str, limit: WorkLimit) -> Iterator[KeyedAddress]:
    """Groups of labelled address parts in ``text`` (output of ``html_to_text``), in text order."""
    current: KeyedAddress | None = None
    last_line = -10
    line_number = 0
    counted_to = 0
    first = _LABEL_AT.match(text)
    budget = MAX_LABELS
    for match in chain((first,) if first is not None else (), _LABEL_AFTER_BREAK.finditer(text)):
        role = _role(match.group("label"))
        if role is None:
            continue
        budget -= 1
        if budget < 0 or not limit.candidate():
            limit.truncated = True
            break
        start = match.start() if match.group(0)[:1] != "\n" else match.start() + 1
        line_end = text.find("\n", match.end())
        if line_end < 0:
            line_end = len(text)
        value = text[match.end():line_end].strip(_VALUE_EDGE) if match.group("sep") else ""
        value_end = line_end
        if not value:
            # The label alone on its line (a table cell, a <dt>): the value is the next line,
            # unless that is a label too.
            next_end = text.find("\n", line_end + 1)
            if next_end < 0:
                next_end = len(text)
            following = text[line_end + 1:next_end].strip(_VALUE_EDGE)
            next_label = _LABEL_AT.match(text, line_end + 1)
            if not following or (next_label is not None and _role(next_label.group("label")) is not None
                                 and (next_label.group("sep") or next_label.end() == next_end)):
                continue
            value, value_end = following, next_end
        value = " ".join(value.split())
        if not value or len(value) > 3 * _MAX_VALUE:
            continue
        line_number += text.count("\n", counted_to, start)
        counted_to = start
        fields = _inline_fields(role, value) if ":" in value else [(role, value)]
        for role, value in fields:
            if not value or len(value) > _MAX_VALUE:
                continue
            if current is not None and (line_number - last_line > _MAX_GAP + 1 or role in current.parts):
                yield current
                current = None
            if current is None:
                current = KeyedAddress(start=start)
            current.parts[role] = value
            current.end = value_end
            last_line = line_number + text.count("\n", start, value_end)
    if current is not None:
        yield current


# OpenStreetMap XML (an API or Overpass answer, a .osm file): ``<tag k="addr:street" v="Lange Straße"/>``, one
# element per tag, the address tags of a node, way or relation in a row (sorted by key).
_OSM_TAG = re.compile(r"""<tag\s+k=["']addr:([a-z_:]{1,30})["']\s+v=["']([^"'<>\n]{1,120})["']"""
                      r"""|</(?:node|way|relation)>""")


def osm_xml_text(markup: str) -> str | None:
    """The address tags of OpenStreetMap XML in ``markup`` as the ``addr:street=...`` lines that
    :func:`labelled_addresses` reads, the elements apart (a gap of lines between them), or None."""
    if 'k="addr:' not in markup and "k='addr:" not in markup:  # one scan of the page
        return None
    lines = []
    for match in _OSM_TAG.finditer(markup):
        lines.append(f"addr:{match.group(1)}={match.group(2)}" if match.group(1) else "\n" * (_MAX_GAP + 1))
    return "\n".join(lines) + "\n"
