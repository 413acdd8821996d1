"""The fields of a US address span, split by usaddress (a CRF trained on labelled US addresses).

The anchors and the window search of :mod:`geofocus.geoparser.us` decide
*where* an address is (house number to state and ZIP); usaddress then reads
*which words are which field* in that span, which it does better than the
hand-written splitter on its own labelled strings (measured in
docs/geoparser.md: fields 0.98-1.00 against 0.94-0.98).  Its reading is used
only when it agrees with the span on the house number and finds a street and
a place; otherwise, or when usaddress is not installed, the hand-written
reading stands.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

try:
    import usaddress
except ImportError:  # pragma: no cover - usaddress is in requirements.txt
    usaddress = None

ENABLED = usaddress is not None
# usaddress tags with one module-wide CRF tagger; the crawl parses pages in a thread pool.
_LOCK = threading.Lock()

_STREET = ("StreetNamePreDirectional", "StreetNamePreModifier", "StreetNamePreType", "StreetName",
           "StreetNamePostType", "StreetNamePostDirectional", "StreetNamePostModifier")
_UNIT = ("OccupancyType", "OccupancyIdentifier", "SubaddressType", "SubaddressIdentifier")


@dataclass
class Fields:
    number: str
    street: str
    unit: str | None
    city: str


def split(span: str) -> Fields | None:
    """usaddress's fields of ``span`` ("1600 Main St Ste 200, Austin, TX 78701"), or None."""
    if not ENABLED or len(span) > 200:
        return None
    try:
        with _LOCK:
            tokens = usaddress.parse(span.replace("\\n", ", ").replace("\n", ", "))
    except Exception:  # noqa: BLE001 - a CRF on odd input; the hand-written reading stands
        return None

    def joined(labels: tuple[str, ...]) -> str:
        # Tokens keep their commas ("Street,"); "#" is a token of its own ("# 3002").
        return " ".join(t.strip(",") for t, label in tokens if label in labels).replace("# ", "#").strip(" ,")

    number, street, city = joined(("AddressNumber", "AddressNumberSuffix")), joined(_STREET), joined(("PlaceName",))
    if not number or not street or not city:
        return None
    return Fields(number=number, street=street, unit=joined(_UNIT) or None, city=city)
