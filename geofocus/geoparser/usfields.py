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


def tag(span: str) -> list[tuple[str, str]] | None:
    """usaddress's (token, label) pairs of ``span``, or None (not installed, too long, or the CRF failed)."""
    if not ENABLED or len(span) > 200:
        return None
    try:
        with _LOCK:
            return usaddress.parse(span.replace("\\n", ", ").replace("\n", ", "))
    except Exception:  # noqa: BLE001 - a CRF on odd input; the hand-written reading stands
        return None


def split(span: str) -> Fields | None:
    """usaddress's fields of ``span`` ("1600 Main St Ste 200, Austin, TX 78701"), or None."""
    tokens = tag(span)
    if tokens is None:
        return None

    def joined(labels: tuple[str, ...]) -> str:
        # Tokens keep their commas ("Street,"); "#" is a token of its own ("# 3002").
        return " ".join(t.strip(",") for t, label in tokens if label in labels).replace("# ", "#").strip(" ,")

    number, street, city = joined(("AddressNumber", "AddressNumberSuffix")), joined(_STREET), joined(("PlaceName",))
    if not number or not street or not city:
        return None
    if street.lower() in _TYPE_WORDS:
        return None  # "1 Dr. Carlton B. Goodlett Place": a title read as the street's type, the name as a building
    if any(w.lower().rstrip(".,") in _UNIT_WORDS for w in city.split()):
        return None  # "Fifth Floor, Boston": a unit read as part of the place
    if city.lower() in _TYPE_WORDS:
        return None  # "12 Main St TX 75201": the street's type word read as the place
    if not names_look_like_names(street.split() + city.split(), span):
        return None  # "12 Oak Street is where we meet in": prose read as street and place
    unit = joined(_UNIT) or None
    if unit is not None and unit.lower() in _PROSE_WORDS:
        unit = None  # "at 123 Main Street in Chicago, Illinois": the preposition of a sentence, no unit
    return Fields(number=number, street=street, unit=unit, city=city)


# Label groups of a whole address in reading order: number, street, unit, place, state, ZIP.
_ORDER = {
    "AddressNumberPrefix": 0, "AddressNumber": 0, "AddressNumberSuffix": 0,
    **{label: 1 for label in _STREET},
    **{label: 2 for label in (*_UNIT, "BuildingName")},
    "PlaceName": 3, "StateName": 4, "ZipCode": 5,
}
# Words of prose, never part of a street or place name ("25 apples in Chicago IL"); not "a", "i",
# "us", "no", which name streets ("I St SE", "A Avenue", "US Highway 71", "Highway No 202").
_PROSE = frozenset(
    "an and are as at be been but by can could did do does for from had has have he her his if in into is it its "
    "me my not on or our she so than that their them then there these they this those to was we were what when "
    "where which who will with would you your all any over per more most about after before between since serving "
    "call phone fax tel email visit located offices office years year".split()
)
# Street type words that are never the whole place (not those that name towns too: "Vista", "Park", "Center").
_TYPE_WORDS = frozenset(("st", "st.", "ave", "ave.", "av", "rd", "rd.", "dr", "dr.", "blvd", "blvd.", "ln", "ln.",
                         "ct", "ct.", "pl", "pl.", "pkwy", "pkwy.", "hwy", "hwy.", "cir", "ter", "sq", "trl", "plz",
                         "street", "avenue", "road", "drive", "boulevard", "lane", "court", "place", "parkway",
                         "highway", "circle", "terrace", "square", "trail", "plaza", "way"))
# Words of a sentence that the CRF may label as a unit when an address is written in prose.
_PROSE_WORDS = frozenset("in at on near of and the by from to for with off between across".split())
_UNIT_WORDS = frozenset("suite ste apt apartment unit fl flr floor rm room bldg building dept lot "
                        "sutie siute suit suiet stuie".split())  # "Sutie 165": misspellings of "suite" too
_CONNECTING = frozenset("of the de la del los las le du da di von van y".split())
_COMPANY = frozenset("inc llc ltd corp co company corporation foundation group lp llp pc pllc".split())


def names_look_like_names(words: list[str], span: str) -> bool:
    """No word of prose or a company among ``words``, and in mixed-case ``span`` each one capitalised
    ("101 points in Dallas", "200 Park Avenue stands tall in New York" are prose)."""
    for word in words:
        lowered = word.lower().strip(",")
        if lowered in _PROSE or lowered.rstrip(".") in _COMPANY:
            return False
    letters = [c for c in span if c.isalpha()]
    mixed = any(c.isupper() for c in letters) and any(c.islower() for c in letters)
    return not mixed or all(w[:1].isupper() or w[:1].isdigit() or w.lower() in _CONNECTING for w in words)


@dataclass
class Reading:
    """usaddress's reading of a span that starts at its house number and ends at the state (and ZIP)."""

    number: str
    street: str
    unit: str | None
    city: str
    typed: bool  # the street has a type word (StreetNamePostType/PreType): strong evidence


def read(span: str, types: frozenset[str]) -> Reading | None:
    """The whole of ``span`` read as one address (number, street, unit, place, state, ZIP in this order),
    or None when usaddress reads anything else in it (a recipient, a landmark, a PO box, prose) or the
    words do not look like names.  ``types`` are the street type words (St, Ave, ...)."""
    tokens = tag(span)
    if not tokens or tokens[0][1] != "AddressNumber":
        return None
    group = 0
    parts: dict[str, list[str]] = {"number": [], "street": [], "name": [], "unit": [], "city": [], "state": []}
    typed = False
    for token, label in tokens:
        rank = _ORDER.get(label)
        if rank is None or rank < group:
            return None
        group = rank
        word = token.strip(",")
        if rank == 0:
            parts["number"].append(word)
        elif rank == 1:
            parts["street"].append(word)
            if label == "StreetName":
                parts["name"].append(word)
            elif label in ("StreetNamePostType", "StreetNamePreType") and word.lower().rstrip(".") in types | {
                    w.rstrip(".") for w in types}:
                typed = True
        elif rank == 2 and label != "BuildingName":
            parts["unit"].append(word)
        elif rank == 3:
            parts["city"].append(word)
        elif rank == 4:
            parts["state"].append(word)
    while parts["street"] and parts["street"][-1] in _PROSE_WORDS:
        # "at 410 N. Dearborn in Chicago, IL": the sentence's preposition read as the street's type
        parts["street"].pop()
    if not parts["name"] or not parts["city"] or not parts["state"]:
        return None
    if len(parts["street"]) > 7 or len(parts["city"]) > 4 or len(parts["unit"]) > 4 or len(parts["number"]) > 2:
        return None
    names = parts["name"] + parts["city"]
    if not names_look_like_names(names, span):
        return None
    if names[0].lower() in _CONNECTING or parts["city"][0].lower() in _CONNECTING:
        return None
    if any(w.lower().rstrip(".") in _UNIT_WORDS for w in parts["city"]):
        return None  # "Fifth Floor, Boston": a unit read as part of the place
    if len(parts["city"]) == 1 and parts["city"][0].lower().strip(",") in _TYPE_WORDS:
        return None  # "12 Main St TX 75201": the street's type word read as the place
    if not all(any(c.isalpha() for c in w) or w.isdigit() for w in names):
        return None
    number = " ".join(parts["number"])
    if not typed and number.isdigit() and len(number) == 4 and 1900 <= int(number) <= 2099:
        return None  # "2019 Annual Report, Austin": a year, not a house number
    unit = " ".join(parts["unit"]).replace("# ", "#").strip(" ,") or None
    if unit is not None and unit.lower() in _PROSE_WORDS:
        unit = None  # "... Main Street in Chicago": a preposition, no unit
    return Reading(number=number, street=" ".join(parts["street"]).strip(" ,"), unit=unit,
                   city=" ".join(parts["city"]).strip(" ,"), typed=typed)
