"""Addresses written as keys and values anywhere in a page: JSON, JavaScript, YAML, form fields.

``{"postalCode": "26122", "addressLocality": "Oldenburg", "streetAddress":
"Lange Straße 1"}`` outside a JSON-LD script element, in any key order,
``street: {name: "Lange Straße", number: "1"}``, ``zip_city = "26122
Oldenburg"``, YAML lines (``address: 300 E 8th`` / ``suite: 961`` / ``city: Austin``):
the keys say which value is which part, so the parts are put together in the order the
extractors read ("street number, postcode city").
The scan looks for a ``:``/``=`` followed by a quoted value or a number, reads
the key just before it, and keeps only keys that name an address part, so the
cost is linear in the page size.
"""

from __future__ import annotations

import csv
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from geofocus.geoparser.de import GERMAN_STREET_LINE, is_street_name, is_supplement, street_without_supplement
from geofocus.geoparser.digits import FiveDigits
from geofocus.geoparser.model import WorkLimit
from geofocus.geoparser.us import STATES, number_written_last, state_code
from geofocus.geoparser.ussplit import DIRECTION_WORDS, TYPE_ALTERNATIVES
from geofocus.geoparser.ussplit import TYPES as _STREET_TYPES

# ":" (JSON, JavaScript, YAML, Python dicts), "=>" (PHP) or "=" with a space beside it
# (assignments): an HTML attribute (href="...") is no key/value pair and is skipped at once.
# A value is quoted, a number, an object ("{"), or (YAML, ``key: value`` lines) the rest of the
# line without quotes, markup or colons, at most 120 characters (possessive and colon-free, so
# that a run of colons or long lines cost one pass: no value is tried twice); up to four spaces may
# stand after the colon (values aligned by hand: ``address_city:  Chicago, IL 60647``).
# A quoted value may start on the next line ("street2":\n      "Apt 20": JSON wrapped over the lines
# of a YAML cassette or a log), or be the first string of an array, on its line or the next (FHIR's address
# lines: "line": [\n "Lange Straße 5"\n ]). Last, an unquoted value that ends at a quote (group 5), read when its key
# starts the quoted string: a label and its value as one string of code (``getByText('Straße: Lange Str. 4')``,
# ``'Ort: 26122 Oldenburg'``: a bare number is one only when no word follows it).
_VALUE = re.compile(r"""[:=](?:(?<=:)|(?<=[ \t]=)|(?=[> \t]))>?[ \t]*(?:\n[ \t]*(?=["'])|\[[ \t]*\n?[ \t]*(?=["']))?"""
                    r"""(?:"([^"\n]{1,120})"|'([^'\n]{1,120})'|"""
                    r"""(?:(?<=: )|(?<=:  )|(?<=:   )|(?<=:    ))([^\s"'{\[<:][^\n"'<:]{0,119}+)$|"""
                    r"""(\d{4,5})\b(?![ \t]+[^\W\d])|\{|(?<=: )([^\s"'{\[<:][^\n"'<:]{0,119}+)(?=["']))""",
                    re.M)
# The same pattern split by its first character: a pattern that starts with a literal is scanned
# for with a fast search, one that starts with a class ("[:=]") is tried at every position
# (5 times slower on normal pages, where no value is found at all).
_VALUE_TAIL = _VALUE.pattern.split("))", 1)[1]
_VALUE_COLON = re.compile(r":" + _VALUE_TAIL, re.M)
_VALUE_EQUALS = re.compile(r"=(?:(?<=[ \t]=)|(?=[> \t]))" + _VALUE_TAIL, re.M)
# Assignments without spaces, in text that is no markup (code, the text of a page): keyword arguments
# (``strasse="Jahnalle", hausnummer="1"``, ``street1='6512 Greene Rd.'``) and form data
# (``--data-urlencode "addresses[0][primary_line]=2261 Market Street"``, ``-d "city=San Francisco"``,
# ``?zip=94114&city=...``): a quoted value, or an unquoted one up to the quote or ``&`` that ends it
# (group 5). In markup this is every attribute (``class="x"``), so the markup is not scanned for it.
_VALUE_ASSIGN = re.compile(r"""=(?<=[\w\]]=)(?:"([^"\n]{1,120})"|'([^'\n]{1,120})'|()()"""
                           r"""([^\s"'&<>=\[\]{}][^\n"'&<>=]{0,119}+)(?=["'&]))""")


# A test's assertion names the part in the accessor it checks: ``expect(venue.street_address).to eq '317 SW Alder
# St'`` (RSpec), ``expect(place.city).toBe("Portland")`` (Jest), ``assert venue.zip == "97204"`` (pytest); the key
# is the accessor's last name, before the ")" or the "==" where the match starts (before the "==", the key's
# search skips the space).
# Two patterns, each starting with a literal (which the engine scans for fast).
_ASSERTED = r"""[ \t]*\(?[ \t]*(?:"([^"\n]{1,120})"|'([^'\n]{1,120})')()()"""
_VALUE_EXPECT = re.compile(r"\)\.(?:to(?:_not)?[ \t]+eql?|toBe|toEqual|toStrictEqual)" + _ASSERTED)
_VALUE_EQUAL_EQUAL = re.compile(r"==(?<=[ \t]==)" + _ASSERTED)
# A setter or a builder names the part in its method, the value its one argument: ``address.setStreet("Lange
# Straße 4")``, ``$a->setPostcode('26122')``, ``Address.builder().street("Lange Straße").houseNumber("4")``,
# ``.withCity("Oldenburg")``; the key is the method's name without "set" or "with" (see ``_key_role``). The match
# starts at the "(" (a literal: a fast scan), right after a letter or digit.
_METHOD_BEFORE = re.compile(r"(?<![\w$])([A-Za-z_]\w{1,40})$")
# A key and its value as the two string arguments of a call: ``inputData.put("homeCity", "Dallas")`` (a Java map),
# ``params.set('zip', '75201')``, ``form.append("street", "...")``; the key is the first argument
# (``_PAIR_KEY``). The match starts at the "(" right after a letter, as a setter's does.
_VALUE_PAIR = re.compile(r"""\((?<=[A-Za-z]\()[ \t]*["'][A-Za-z_][\w.-]{1,40}["'][ \t]*,[ \t]*"""
                         r"""(?:"([^"\n]{1,120})"|'([^'\n]{1,120})')()()[ \t]*\)""")
_PAIR_KEY = re.compile(r"""\([ \t]*["']([A-Za-z_][\w.-]{1,40})["']""")
# A method's name may end in a digit ("withAddressLine1", "setStreet2").
_VALUE_CALL = re.compile(r"""\((?<=[A-Za-z0-9]\()[ \t]*(?:"([^"\n]{1,120})"|'([^'\n]{1,120})')()()[ \t]*\)""")
# A member initialised in braces with one string, its name right before the "{": a C++ designated initialiser's
# ``.address_line{"1600 Amphitheatre Parkway"}``, ``std::string city{"Dallas"}``; read as a setter's argument.
_VALUE_BRACED = re.compile(r"""\{(?<=[A-Za-z0-9_]\{)[ \t]*"([^"\n]{1,120})"()()()[ \t]*\}""")


def _values(text: str, assignments: str = "") -> Iterator[re.Match[str]]:
    """The matches of ``_VALUE`` in ``text``, as ``_VALUE.finditer`` gives them (each search starts where
    the last match ended; the patterns cannot match at the same position); with ``assignments="also"`` those
    of ``_VALUE_ASSIGN`` too, with ``"only"`` those alone."""
    if assignments == "only":
        yield from _VALUE_ASSIGN.finditer(text)
        return
    if assignments:
        yield from _merged(_values(text), _VALUE_ASSIGN, text)
        return
    pos = 0
    colon = _VALUE_COLON.search(text)
    equals = _VALUE_EQUALS.search(text)
    while colon is not None or equals is not None:
        if equals is None or (colon is not None and colon.start() < equals.start()):
            match = colon
        else:
            match = equals
        assert match is not None
        yield match
        pos = match.end()
        if colon is not None and colon.start() < pos:
            colon = _VALUE_COLON.search(text, pos)
        if equals is not None and equals.start() < pos:
            equals = _VALUE_EQUALS.search(text, pos)


def _not_overlapping(matches: Iterator[re.Match[str]]) -> Iterator[re.Match[str]]:
    """``matches`` (in text order) without those that start inside the one yielded before."""
    end = -1
    for match in matches:
        if match.start() >= end:
            yield match
            end = match.end()


def _merged(matches: Iterator[re.Match[str]], pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``matches`` and those of ``pattern`` in ``text``, in text order, none overlapping one yielded before."""
    other = pattern.search(text)
    for match in matches:
        while other is not None and other.start() < match.start():
            yield other
            other = pattern.search(text, other.end())
        if other is not None and other.start() < match.end():
            other = pattern.search(text, match.end())
        yield match
    while other is not None:
        yield other
        other = pattern.search(text, other.end())


# A quoted capitalised key before an object: the object's name ("Stadtbibliothek Oldenburg": {...}).
_NAME_KEY_BEFORE = re.compile(r"""(["'])([A-ZÄÖÜ][^"'\n{}:,=]{1,60})\1[ \t]*$""")
# A house number's key and a bare number of a few digits in the field after a street's value.
_BARE_NUMBER_AFTER = re.compile(
    r"""["']?[ \t]*,[ \t\n]*["']?(?:house_?number|housenr|hausnummer|hausnr|hsnr|hnr|nr|number|nummer|street_?number)"""
    r"""["']?[ \t]*(?::|=>?)[ \t]*([1-9]\d{0,3}[a-zA-Z]?)\b""", re.I)
# German keys are written with their letters: "Straße", "Hausnummer", "Straße_Nr" (GeoJSON of open data).
# A key may end in an array's index (FHIR Shorthand's "* line[+] = ...", "line[0] = ...": the first of the lines),
# and stand after a dot of its own: a C or C++ designated initialiser (``.locality = "Mountain View"``,
# ``.postal_code = "94043"``), whose key has nothing before it but the dot.
_KEY_BEFORE = re.compile(r"""(?<![\w.-])(?:\.(?=[A-Za-z_]))?["'\[]?([A-Za-zÄÖÜäöüß_][A-Za-z0-9ÄÖÜäöüß_.-]{1,40}+)"""
                         r"""(?:\[(?:\d{1,2}|[+=])\])?["'\]]?[ \t]*=?>?$""")
_INDEX_END = re.compile(r"\[(?:\d{1,2}|[+=])$")
# Where a match of _KEY_BEFORE that ends at a value can start: the characters of its end ("'] =>, spaces and a
# line break) come off the window's end, and the key is the run of word characters that ends there, with a quote
# or bracket before it. The search starts there (the same match as from the window's start, in a few steps
# rather than one try at each of its 44 positions).
# A quoted key of two to four words: "Zip Code", "Street Address", "Postal Code".
_SPACED_KEY_BEFORE = re.compile(r"""(?<![\w.-])["']([A-Za-z][a-z]*(?: [A-Za-z][a-z]*){1,3})["'][ \t]*=?>?$""")
_KEY_END = " \t=>\"']\n"
_KEY_RUN = re.compile(r"[\w.-]*")


def _key_before(text: str, start: int) -> re.Match[str] | None:
    """``_KEY_BEFORE.search(text, max(0, start - 44), start)``."""
    low = max(0, start - 44)
    window = text[low:start].rstrip(_KEY_END)
    if window[-1:] in "+=0123456789" and (index := _INDEX_END.search(window)) is not None:
        window = window[:index.start()]
    elif window[-1:] == "[":
        window = window[:-1]  # the index "[=]" ("line[=].extension"), its "=]" stripped as a key's end
    run = _KEY_RUN.match(window[::-1])
    return _KEY_BEFORE.search(text, max(low, low + len(window) - run.end() - 1), start)  # type: ignore[union-attr]


ROLES = {
    "street": ("streetaddress", "street", "strasse", "straße", "streetname", "address1", "addressline1", "adresse",
               "anschrift", "road", "addr", "addressstreet", "streetandnumber", "strassehausnummer", "line1",
               "address", "street1", "streetline1", "streetaddress1", "addressline", "strasseundhausnummer",
               "primaryline", "lineone", "strhnr", "strassehnr", "strassenr", "strnr", "strassehausnr",
               "addresslines", "line", "strname", "strassenname",
               # Google's address components ("street_number": "333", "route": "West Ocean Blvd") and the
               # records that copy their names
               "route"),
    # "hsnr": the house number of land registers and the GIS exports made from them ("Strname", "Hsnr", "Plz").
    "number": ("housenumber", "hausnummer", "streetnumber", "hnr", "hsnr", "number", "nr", "housenr", "nummer",
               "hausnr", "streetno", "houseno", "buildingnumber", "primarynumber",
               "housenumberorname"),
    "postcode": ("postalcode", "postcode", "zip", "zipcode", "plz", "postleitzahl", "postal", "postalzone",
                 "postcodecode", "plzzustellbezirk", "plzstrasse", "plzhausanschrift", "plzanschrift"),
    "city": ("addresslocality", "city", "ort", "town", "stadt", "place", "cityname", "ortname", "ortsname"),
    # "locality" names the city in most records (Pelias, Google's components) but a part of it where a "city" key
    # stands beside it (Photon's and Mapbox's features: "city": "Washington", "locality": "Golden Triangle"): the
    # record's city only when it has no other (``_with_city``); so do the smaller places of OSM's address keys
    # (Nominatim: "village": "Sag Harbor", "hamlet") and a geocoder's "municipality" (TomTom, Azure).
    "locality": ("locality", "village", "hamlet", "municipality"),
    "postcode_city": ("zipcity", "plzort", "postcodecity", "ortplz", "cityzip", "zipandcity"),
    # The US place line in one value, city, state and ZIP ("formatted_city_state_zip": "ARLINGTON, VA, 22201-9998",
    # "lastLine": "Denver CO 80202", "csz": "Austin, TX 78701"): the address's tail as written.
    "place_line": ("citystatezip", "citystatezipcode", "citystatepostalcode", "citystatepostal", "citystate",
                   "formattedcitystatezip", "lastline", "cityline", "csz", "localityline"),
    "state": ("addressregion", "region", "state", "statecode", "province", "provincecode", "countrysubentity",
              "stateabbreviation", "administrativearea"),
    # What a record is called: it may name the place the other parts leave out ("name: awb_oldenburg_de").
    "name": ("name", "title"),
    "unit": ("suite", "unit", "apt", "apartment", "room", "floor", "address2", "addressline2", "line2",
             "streetaddress2", "extendedaddress", "street2", "streetline2", "secondaryline", "additionalstreetname",
             "linetwo", "linethree", "address3", "addressline3", "line3", "streetaddress3", "street3", "streetline3",
             # the USPS's "secondary address" (SmartyStreets' "Secondary": "APT 2", Faker's "secondaryAddress")
             "secondary", "secondaryaddress"),
    # The parts of a US street's name in keys of their own (geocoders' components: "number": "1657",
    # "predirectional": "W", "street": "Broad", "suffix": "St"), joined to the street's value (``_us_street``).
    "predirection": ("predirectional", "predirection", "predir", "streetpredirection", "streetpredirectional",
                     "directionalprefix", "prefixdirection"),
    "street_type": ("suffix", "streetsuffix", "streettype", "suffixtype"),
    "postdirection": ("postdirectional", "postdirection", "postdir", "streetpostdirection", "streetpostdirectional",
                      "directionalsuffix", "suffixdirection"),
    # The country a record names ("country_iso_3": "FRA", "countryCode": "USA"): kept with the record, so that
    # the reader can leave another country's address alone; several of them join (see ``_grouped``).
    "country": ("country", "countrycode", "countryname", "countryiso", "countryiso2", "countryiso3"),
    # A unit in two keys, its word and its number ("secondary_designator": "Fl", "secondary_number": "15").
    "unit_word": ("secondarydesignator", "unitdesignator", "unittype"),
    "unit_number": ("secondarynumber", "unitnumber"),
}
# Words before a part's key that say whose address it is: "address_city", "billing_zip", "venue_street", and the
# two ends of a shipment or an order ("from_zip" / "to_street", "origin_city", "recipient_street", a parcel
# service's "shipperCountryCode" / "consigneePostalCode" / "receiverCity"), a parcel's place.
_KEY_PREFIXES = ("address", "addr", "postal", "mailing", "billing", "shipping", "physical", "location", "venue",
                 "office", "business", "home", "work", "from", "to", "origin", "destination", "sender", "recipient",
                 "pickup", "delivery", "shipper", "consignee", "receiver",
                 # a parcel's or a service's place in county and utility data ("SITUS_ZIP", "SITESTREET",
                 # "PropertyCity", "premise_address")
                 "situs", "site", "property", "premise")
_KEY_PREFIX_INITIALS = frozenset(prefix[0] for prefix in _KEY_PREFIXES)
_BARE_UNIT = re.compile(r"[0-9A-Za-z-]{1,6}")
# A unit names a number or a letter ("Suite 250B", "#3", "Apt A", "B-12", "Suite A and B"), or a floor
# spelled out ("Fifth Floor"); "Auditorium" or "OFR Conference Room" name a room, not a unit.
_UNIT_VALUE = re.compile(
    r"[^\n]*\d[^\n]*|(?:[A-Za-z.]+ )?#?[A-Z](?: (?:and|&) [A-Z])?|[A-Za-z]+(?:st|nd|rd|th) (?:Floor|Fl\.?)"
    r"|Penthouse|PH", re.I)


def _is_unit(value: str) -> bool:
    # An identifier is no unit: a generated sample fills a key with its own name ("address_line_2":
    # "address_line_26"), and no unit is written with an underscore.
    return _UNIT_VALUE.fullmatch(value) is not None and "_" not in value


_ROLE_OF = {key: role for role, keys in ROLES.items() for key in keys}
# A geocoder's record may name an address by its street line, with no street key of its own ("name": "518 3rd
# Street", "locality": "New York": Pelias's and Photon's features): a name that is a house number and a street with
# a type word is then the street ("Blue Bottle Coffee", "7 Eleven" name a place).
_NAME_AS_STREET = re.compile(r"[1-9]\d{0,5}[A-Z]? (?:[A-Z0-9][\w.'-]* ){1,5}(?i:" + TYPE_ALTERNATIVES
                             + r")\.?(?: (?:[NS][EW]?|[EW])\.?)?")


def _street_of(parts: dict[str, str]) -> str | None:
    """The record's street: its street key's value, a house number's value that is the whole street line, or a name
    that is a street line (``_NAME_AS_STREET``) in a record with a town ("title: 100 Main Street" with a ZIP alone
    may title anything)."""
    street = parts.get("street")
    if street is None and _NAME_AS_STREET.fullmatch(parts.get("number", "")):
        return parts["number"]  # "streetName": "", "streetNumber": "120 Pike St": the number's key holds the line
    if (street is None and "name" in parts and ("city" in parts or "locality" in parts)
            and _NAME_AS_STREET.fullmatch(parts["name"])):
        return parts["name"]
    return street


# A house number has at most six digits in a row (45500 Fremont Blvd, 712046 Rge Road 34); more are an account's.
_NO_HOUSE_NUMBER = re.compile(r"\d{7}")
# Values this far apart belong to different objects.
_GAP = 400


@dataclass
class KeyedAddress:
    parts: dict[str, str] = field(default_factory=dict)
    start: int = 0
    end: int = 0
    parent: str | None = None  # the key of an enclosing object: "street" for {name, number}
    named: bool = True  # False: the parts are a data row's columns, which no key names
    # True when parts of different objects joined by nearness ({"locality": "A"}, {"street": ...}): the
    # record's state or ZIP must then confirm the reading.
    crosses_objects: bool = False
    place_after_street: bool = False  # the town's key written after the street's, as a page writes them

    def text(self, us: bool) -> str | None:
        """The parts in the order a page writes them, or None if there is no street and place."""
        p = self.parts
        street = (_street_of(p) or "") if us else p.get("street", "")
        number = p.get("number", "")
        place = (p.get("postcode_city") or " ".join(x for x in (p.get("postcode"), p.get("city")) if x)
                 or p.get("place_line", ""))
        if not street or not place:
            return None
        if us:
            street = _us_street(street, p)
            if number and street.startswith(number + " "):
                number = ""  # "delivery_line_1": "2 Penn Plz" and a component's "primary_number": "2": written once
            if number == street and _NAME_AS_STREET.fullmatch(number):
                # "streetNumber": "100 Church Street" beside an empty "streetName" and a "name" of the same line: the
                # number's key holds the whole street line, written once.
                number = ""
            if not number and not street[:1].isdigit() and street[-1:].isdigit():
                written_last = number_written_last(street)  # "street1": "Broadway 1"
                if written_last is not None:
                    number, street = written_last
            state = p.get("state")
            if state and _ISO_SUBDIVISION.fullmatch(state):
                state = state[3:]  # "addressRegion": "US-OR" or "US.OR" (ISO 3166-2 codes)
            city, locality_state = _us_locality(p.get("city"))
            state = state or locality_state  # "addressLocality": "Fremont, California" and no region key
            postcode = p.get("postcode")
            if postcode and state and _ZIP_WITHOUT_ZERO.fullmatch(postcode) and state_code(state) in _ZERO_STATES:
                # "zip": "2111" with "state": "MA": a ZIP read as a number (a spreadsheet, a database column)
                # lost its leading zero; only the states whose ZIPs start with 0 have such values.
                postcode = "0" + postcode
            state_zip = " ".join(y for y in (state, postcode) if y)
            tail = ", ".join(x for x in (city, state_zip) if x) or p.get("place_line", "")
            unit = p.get("unit", "") or " ".join(x for x in (p.get("unit_word"), p.get("unit_number")) if x)
            if unit and not _is_unit(unit):
                unit = ""  # "room: Auditorium", "room: Mumford Room": a named room is no part of the address
            if unit:
                # "suite: 250B" -> "#250B"; "suite: Suite 961", "23rd Floor" as written.
                bare = _BARE_UNIT.fullmatch(unit) and (len(unit) == 1 or any(c.isdigit() for c in unit))
                unit = ", " + ("#" + unit if bare else unit)
            return f"{number} {street}{unit}, {tail}".strip()
        if not number and not any(c.isdigit() for c in street) and GERMAN_STREET_LINE.fullmatch(p.get("unit", "")):
            # The street in the second line, a name or c/o in the first (UN/CEFACT's "LineOne": "Hans Muster",
            # "LineTwo": "Kundenstraße 15"): the line with the house number is the street.
            street = p["unit"]
        if not number and "," in street:
            street = street_without_supplement(street)  # "Hugo-Eckener-Ring 1, FAC, Building 234, D7.01"
        if street[:1].islower():
            # "strasse": "adalbert-stifter-straße": a street key's value in lower case, capitalised as written
            # on pages, so that the readers take it for a name.
            street = " ".join("-".join(part[:1].upper() + part[1:] for part in word.split("-"))
                              for word in street.split(" "))
        return f"{street} {number}".strip() + f"\n{place}"


def _is_direction(value: str) -> bool:
    """A direction word, with at most one dot after it ("W", "NW.", "North")."""
    return value.lower().removesuffix(".") in DIRECTION_WORDS


def _us_street(street: str, parts: dict[str, str]) -> str:
    """The street with the parts of its name that the record gives in keys of their own: a direction before
    and after it, its type word ("Broad" + "W", "St" -> "W Broad St"); each only when its value is such a
    word and the street does not already hold it ("street": "W Broad St" with "suffix": "St")."""
    words = street.split()
    if not words:
        return street
    before, after = parts.get("predirection", ""), [parts.get("street_type", ""), parts.get("postdirection", "")]
    if before and _is_direction(before) and words[0].lower() != before.lower():
        words.insert(0, before)
    if after[0] and after[0].lower() in _STREET_TYPES and words[-1].lower() != after[0].lower():
        words.append(after[0])
    if after[1] and _is_direction(after[1]) and words[-1].lower() != after[1].lower():
        words.append(after[1])
    return " ".join(words)


_ISO_SUBDIVISION = re.compile(r"US[-.][A-Z]{2}")
_NOT_A_PLACE = re.compile(r"[A-Z]{2}|USA?|U\.S\.A?\.?|United States(?: of America)?")
_STATE_NAMES = frozenset(name.lower() for name in STATES.values())
# The states whose ZIPs start with 0 (New England, New Jersey): a four-digit ZIP of theirs lost its zero.
_ZERO_STATES = frozenset(("CT", "MA", "ME", "NH", "NJ", "RI", "VT"))
_ZIP_WITHOUT_ZERO = re.compile(r"[1-9]\d{3}(?:-\d{4})?")


def _us_locality(value: str | None) -> tuple[str | None, str | None]:
    """(city, state) of a locality value with commas: the city is the last of its parts that is no state or
    country ("Boston, Boston", "Parkview, Johannesburg", "Brooklyn, New York, NY"), the state the first part
    after it that is a state's code or name ("Fremont, California"), if any."""
    if not value or "," not in value:
        return value, None
    parts = [part.strip() for part in value.split(",") if part.strip()]
    places = [i for i, part in enumerate(parts)
              if not _NOT_A_PLACE.fullmatch(part) and (i == 0 or (part.lower() not in _STATE_NAMES
                                                                  and not _is_state_zip(part)))]
    if not places:
        return value, None
    city_at = places[-1]
    state = next((part for part in parts[city_at + 1:]
                  if part.lower() in _STATE_NAMES or (len(part) == 2 and part in STATES) or _is_state_zip(part)),
                 None)
    return parts[city_at], state


# A state with its ZIP after the city in one value ("venue_city: Chicago, IL 60647", "Houston, Texas 77002").
_STATE_ZIP = re.compile(r"([A-Za-z][A-Za-z .]{1,20}?)[ \t]+\d{5}(?:-\d{4})?")


def _is_state_zip(part: str) -> bool:
    match = _STATE_ZIP.fullmatch(part)
    return match is not None and (match.group(1).lower() in _STATE_NAMES or match.group(1) in STATES)


# A US place line, the city, a comma and the state with its ZIP ("Whittier, CA 90601", "San Antonio, Texas
# 78201-5039"): what a record's second or third address line holds when the first is the street.
_CITY_THEN_STATE_ZIP = re.compile(
    r"[A-Za-z][A-Za-z .'-]{0,40}?,[ \t]*([A-Za-z][A-Za-z .]{1,20}?[ \t]+\d{5}(?:-\d{4})?)")


def _is_place_line(value: str) -> bool:
    match = _CITY_THEN_STATE_ZIP.fullmatch(value)
    return match is not None and _is_state_zip(match.group(1))


def _key_role(key: str, parent: str | None, call: bool = False) -> str | None:
    """The part of an address a key names, or None; ``call``: the key is a method's name, whose value is its
    argument ("setStreet", "withCity", "addAddressLine", "street"): a setter's "set" or "with" or an adder's "add"
    comes off, and no method names the record ("name", "title"). A fluent builder's word before the part ("atStreet",
    "inCity") or a value class named for its owner ("new AddressStreet(...)", "new AddressZipCode(...)") names the
    part in its last words, as an owned key does (not a line: "addLine(...)" adds a line of any text)."""
    folded = key.lower().replace("_", "").replace("-", "").replace("ß", "ss").rsplit(".", 1)[-1]
    if call:
        if folded.startswith("set") and folded[3:] in _ROLE_OF:
            folded = folded[3:]
        elif folded.startswith("with") and folded[4:] in _ROLE_OF:
            folded = folded[4:]
        elif folded.startswith("add") and folded[3:] in _ROLE_OF and folded[3:] != "line":
            # A builder's adder of a repeated field: ``.addAddressLine("1600 Amphitheatre Parkway")``, protobuf's
            # ``addAddressLines(...)``; not a bare "addLine(...)", which adds a line of any text.
            folded = folded[3:]
        role = _ROLE_OF.get(folded)
        if role is None and not folded.endswith("line"):
            role = _owned_key_role(key)
        return role if role != "name" else None
    if parent == "street" and folded in ("name", "streetname"):
        return "street"
    if parent == "street" and folded in ("number", "housenumber", "nr"):
        return "number"
    role = _ROLE_OF.get(folded)
    if role is None and folded[:1] in _KEY_PREFIX_INITIALS:
        for prefix in _KEY_PREFIXES:
            if folded.startswith(prefix) and len(folded) > len(prefix) + 2:
                role = _ROLE_OF.get(folded[len(prefix):])
                if role is not None:
                    return role if role != "name" else None
    if role is None:
        role = _owned_key_role(key)
    return role


def column_role(name: str) -> str | None:
    """The part of an address a column's name names, as a key's ("postal_code" -> "postcode"), or None."""
    return _key_role(name, None)


# Keys that name the part of one whose address it is in words of their own, in camel case or with underscores
# ("parentHomeStreetAddress1", "parentHomeCity", "employer_zip_code", "clinicZipCode"): the role of the longest
# run of the key's last words that is a part's key. Words that name something other than an address's part when
# they end a key are left out ("phoneNumber", "userName", "emailAddress", "workPlace", "salesRegion", "appState",
# "chatRoom"; a state the ZIP names).
_KEY_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_NOT_OWNED = frozenset(("number", "nr", "nummer", "name", "title", "address", "addr", "place", "region", "road",
                        "postal", "country", "countrycode", "countryname", "suffix", "unit", "line1", "line2", "state",
                        "room", "floor", "province"))


@lru_cache(maxsize=4096)
def _owned_key_role(key: str) -> str | None:
    """The role of the last words of ``key`` after at least one word of its owner, or None."""
    words = _KEY_WORDS.findall(key.rsplit(".", 1)[-1])
    if len(words) < 2 or len(words) > 8:
        return None
    for first in range(1, len(words)):
        tail = "".join(words[first:]).lower()
        if tail in _NOT_OWNED:
            continue
        role = _ROLE_OF.get(tail)
        if role is not None and role != "name":
            return role
    return None


# A form's fields as PDF libraries give them, key and value each a PDF string literal in brackets inside the quotes
# ("(City)": "(Portland)", pdfrw's and pypdf's field names and values): read without the brackets. Only a quoted
# string that is one bracketed literal, before a ":" (a key) or the end of a value.
_PDF_LITERAL = re.compile(r"""(?<![\w\\])"\(([^"()\n]{1,120})\)"(?=[ \t]*(?:[:,}\]]|\n|$))""")


def keyed_addresses(text: str, limit: WorkLimit, assignments: str = "") -> Iterator[KeyedAddress]:
    """Groups of address parts written as key/value pairs, in text order; with ``assignments="also"`` (text
    that is no markup) ``key="value"`` and ``key=value"`` without spaces too (see ``_VALUE_ASSIGN``), with
    ``"only"`` those alone (the text of a page whose markup was read for the others)."""
    if (":" not in text and "=" not in text and ").to" not in text and '("' not in text and "('" not in text
            and '{"' not in text):
        return
    if '\\"' in text:
        # JSON written as a string inside JSON or JavaScript ("address_json": "{\"street_address\": \"45500
        # Fremont Blvd\", \"zip_code\": ...}"): its keys and values are read with their quotes unescaped.
        text = text.replace('\\"', '"')
    if '"(' in text and _PDF_LITERAL.search(text) is not None:
        text = _PDF_LITERAL.sub(r'"\1"', text)
    fields = _keyed_fields(text, limit, assignments)
    yield from _grouped(fields, street_required=True, text=text if "{" in text else None)


_BRACE = re.compile(r"[{}]")
# The innermost objects a field's scope keeps: records nest a few levels; a run of "{" (hostile or broken text)
# must not make each field's scope as long as the run (the comparisons would cost its length per field).
_SCOPE_DEPTH = 12
# A "{" opens an object when a key follows it ({"address": ..., {'plz': ..., {\n  address: '...'): a stray brace
# of prose or a template's placeholder ("{name}") opens none.
_OBJECT_START = re.compile(r"""\{[ \t]*\n?[ \t]*(?:["'][\w.-]{1,40}["']|[A-Za-z_][\w.-]{0,39})[ \t]*:""")
# How many fields ahead a nested object is looked through for a street of its own.
_LOOKAHEAD = 64

Field = tuple[int, int, int, str, str]


def _scoped(text: str, fields: Iterable[Field]) -> Iterator[tuple[Field, tuple[int, ...]]]:
    """Each field with the objects it stands in: the offsets of the ``{`` of objects open at its position,
    outermost first (the braces are read as the fields come, once; braces inside quoted values are not told
    apart, which only makes a scope end early)."""
    stack: list[int] = []  # -1: a brace that opens no object (its "}" closes it all the same)
    braces = _BRACE.finditer(text)
    brace = next(braces, None)
    for part in fields:
        while brace is not None and brace.start() < part[0]:
            if brace.group() == "{":
                stack.append(brace.start() if _OBJECT_START.match(text, brace.start()) else -1)
            elif stack:
                stack.pop()
            brace = next(braces, None)
        yield part, tuple(b for b in stack[-_SCOPE_DEPTH:] if b >= 0)


# The keys of an object that is a street's parts ({"name": ..., "number": ...}), and the calls of JSON builders that
# open a nested object named by their argument (closed by ``closeObject()``, ``endObject()``, ``writeEndObject()``).
_STREET_OBJECT_KEYS = frozenset(("street", "strasse", "straße", "streetaddress", "street_address"))
_OBJECT_CALLS = frozenset(("object", "putobject", "startobject", "beginobject", "writeobjectfieldstart"))
# The calls of UI tests that type a value into a field, and the field's label or name as the last string before
# the call (at most 80 characters before it, on its line); a label's signs are no part of the key ("PLZ / Ort",
# "Empfänger *", "#zip").
_FILL_CALLS = frozenset(("fill", "type", "sendKeys"))
_FILL_LABEL = re.compile(r"""["']([^"'\n]{1,40})["'][^"'\n]{0,60}[.)]$""")
_NOT_KEY_SIGNS = re.compile(r"[^\wäöüÄÖÜß]+")
_FILLED_AFTER = re.compile(r"[ \t]*\}?[ \t]*\)\.(?:fill|type|sendKeys)\(")


def _keyed_fields(text: str, limit: WorkLimit, assignments: str = "") -> Iterator[tuple[int, int, int, str, str]]:
    parent: str | None = None
    parent_end = -1
    values = _values(text, assignments)
    if assignments != "only" and ").to" in text:
        values = _merged(values, _VALUE_EXPECT, text)
    if assignments != "only" and " ==" in text:
        values = _not_overlapping(_merged(values, _VALUE_EQUAL_EQUAL, text))  # "== 'x'": "= 'x'" is no second value
    if assignments != "only":
        values = _merged(values, _VALUE_CALL, text)  # its search for "(" costs less than a test for '("' and "('"
        values = _merged(values, _VALUE_BRACED, text)  # a scan for "{" (a literal first), cheaper than a test for '{"'
        if '",' in text or "'," in text:
            values = _merged(values, _VALUE_PAIR, text)
    for match in values:
        if not limit.candidate():
            break
        if match.re is _VALUE_CALL or match.re is _VALUE_BRACED:
            # the method's name right before the "(", also after a ")" (a builder's chain: ".build().street("),
            # or the member's before the "{"
            key_match = _METHOD_BEFORE.search(text, max(0, match.start() - 42), match.start())
            if (key_match is not None and key_match.group(1).lower() in _OBJECT_CALLS
                    and (match.group(1) or match.group(2) or "").lower() in _STREET_OBJECT_KEYS):
                # A JSON builder's nested object named by its call: ``.object("street")`` ... ``.closeObject()``
                # (Pact's PactDslJsonBody), ``putObject("street")`` (Jackson): the keys inside belong to the street,
                # as in ``"street": {...}``.
                parent, parent_end = "street", text.find("Object()", match.end(), match.end() + 300)
                continue
            if key_match is not None and key_match.group(1) in _FILL_CALLS:
                # A UI test types the value into a field it finds by its label or name, the last string before
                # the call: ``getByRole('textbox', { name: 'PLZ' }).fill('10115')``, ``getByLabel('Straße')
                # .fill(...)``, ``cy.get('#zip').type(...)``, ``findElement(By.id("city")).sendKeys(...)``.
                key_match = _FILL_LABEL.search(text, max(0, key_match.start() - 80), key_match.start())
        elif match.re is _VALUE_PAIR:
            key_match = _PAIR_KEY.match(text, match.start())
        else:
            key_match = _key_before(text, match.start())
        if match.group(0).endswith("{"):
            # "street": {"name": ..., "number": ...}: the keys inside belong to the street.
            if key_match is not None and key_match.group(1).lower() in _STREET_OBJECT_KEYS:
                parent, parent_end = "street", text.find("}", match.end(), match.end() + 300)
                continue
            # "Polizeiinspektion Oldenburg": {"street": ..., "house_number": ...}: an object named by a
            # quoted key, which may name the place its parts leave out.
            label = (_NAME_KEY_BEFORE.search(text, max(0, match.start() - 64), match.start())
                     if text[match.start() - 1:match.start()] in ("\"", "'") else None)
            if label is not None:
                yield match.start(), label.start(), match.end(), "label", label.group(2)
            continue
        if key_match is None:
            continue
        in_parent = parent if match.start() < parent_end else None
        if key_match.re is _FILL_LABEL:
            role = _key_role(_NOT_KEY_SIGNS.sub("", key_match.group(1)), None)
            role = role if role != "name" else None
        else:
            role = _key_role(key_match.group(1), in_parent, call=match.re is _VALUE_CALL or match.re is _VALUE_BRACED)
        if role is None and text[key_match.start(1) - 1:key_match.start(1)] == " ":
            # A quoted key of words ("Zip Code": "97222", a spreadsheet's column as a JSON key): the last word
            # alone names no part, the words together may.
            spaced = _SPACED_KEY_BEFORE.search(text, max(0, key_match.start(1) - 40), match.start())
            if spaced is not None:
                role = _key_role(spaced.group(1).replace(" ", ""), in_parent)
                key_match = spaced
        if role is None or (role == "name" and _FILLED_AFTER.match(text, match.end())):
            continue  # (the name of the field a UI test fills is the key of the value it types: no record's name)
        # An unquoted value ends before the brackets that close its object ("house_number": 30}).
        unquoted = (match.group(3) or "").rstrip(" \t}],")
        if match.re is not _VALUE_ASSIGN and match.re.groups >= 5 and match.group(5):
            # Ended by a quote: a labelled value inside one string ('Straße: Lange Str. 4'), whose key follows the
            # same quote and is no quoted key of its own ("'house_number': 12, 'zip'", "street: O'Farrell St").
            if (text[key_match.start(1) - 1:key_match.start(1)] != text[match.end()]
                    or text[key_match.end(1):key_match.end(1) + 1] in ("'", '"')):
                continue
            unquoted = match.group(5).rstrip(" \t")
        if match.re is _VALUE_ASSIGN and match.group(5):
            # An unquoted assigned value is form data: its key follows a quote, "&", "?" or "[".
            if text[key_match.start(1) - 1:key_match.start(1)] not in ("\"", "'", "&", "?", "["):
                continue
            unquoted = match.group(5)
        value = " ".join((match.group(1) or match.group(2) or unquoted or match.group(4) or "").split())
        if not value:
            continue
        if role == "number" and _NO_HOUSE_NUMBER.search(value):
            # "billingNumber": "33333333330101", "customer_number": "0004711234": a key that reads as a house
            # number's (a prefix and "number") names an account; taken as the house number, it would push the
            # record's own ("shipperStreetNumber": "11d") into the next party's address.
            continue
        yield match.start(), key_match.start(), match.end(), role, value
        if role == "street":
            # The house number as a bare number of a few digits in the next field ("street": "Friedhofsweg",
            # "house_number": 30): the value pattern takes bare numbers of four or five digits only (pages are
            # full of "width": 300), so the field after a street is looked at for it.
            number = _BARE_NUMBER_AFTER.match(text, match.end())
            if number is not None:
                yield number.start(1), number.start(), number.end(), "number", number.group(1)


def _grouped(fields: Iterable[Field], street_required: bool, text: str | None = None) -> Iterator[KeyedAddress]:
    """Address parts ``(position, start, end, role, value)`` grouped into addresses: a part starts a new
    group when it is more than ``_GAP`` characters after the group's end, or its role is already in it, or it
    is the name of an object (``label``: the parts after it are that object's).

    With ``text`` (whose braces make objects, see ``_scoped``), a record collects its parts within its object
    whatever the distance (``"zip"`` ten lines after ``"address"``, behind nested objects), and a part of an
    object nested in the record's that holds no street of its own (``"from": {"name": ...}``; the fields up to
    the object's end are looked through, at most ``_LOOKAHEAD``) never ends the record: it joins it when the
    record lacks its role (not as the record's name)."""
    scoped = _scoped(text, fields) if text is not None else ((f, ()) for f in fields)
    ahead: deque[tuple[Field, tuple[int, ...]]] = deque()
    has_street: dict[int, bool] = {}

    def street_inside(obj: int, role: str) -> bool:
        """Whether the object starting at ``obj`` (of the part of ``role`` at hand) holds a street of its own."""
        known = has_street.get(obj)
        if known is None:
            known = role == "street"
            seen = 0
            for later in ahead:
                if obj not in later[1] or known:
                    break
                known = later[1][-1] == obj and later[0][3] == "street"
                seen += 1
            while not known and seen < _LOOKAHEAD and (not ahead or obj in ahead[-1][1]):
                item = next(scoped, None)
                if item is None:
                    break
                ahead.append(item)
                seen += 1
                if obj not in item[1]:
                    break
                known = item[1][-1] == obj and item[0][3] == "street"
            has_street[obj] = known
        return known

    current: KeyedAddress | None = None
    current_scope: tuple[int, ...] = ()
    part_scopes: dict[str, tuple[int, ...]] = {}  # the objects of the current record's parts, where known
    last_role: str | None = None
    while True:
        item = ahead.popleft() if ahead else next(scoped, None)
        if item is None:
            break
        (position, start, end, role, value), scope = item
        if role == "unit" and _is_place_line(value):
            # "address_line_2: Whittier, CA 90601" (or line 3 after a suite): numbered address lines hold the
            # place after the street, not only a unit.
            role = "place_line"
        previous_role, last_role = last_role, role
        if current is not None and current_scope:
            if scope == current_scope and role not in current.parts and role != "label":
                current.parts[role] = value  # the record's own object: no gap counts
                part_scopes[role] = scope
                current.end = end
                continue
            if scope == current_scope and role == "locality":
                # OSM's places from the smallest up ("hamlet", then "village"): the larger one is the address's.
                current.parts[role] = value
                current.end = end
                continue
            if (len(scope) > len(current_scope) and scope[:len(current_scope)] == current_scope
                    and not street_inside(scope[-1], role)):
                # A part of an object nested in the record's, without a street of its own: the record's when
                # the record lacks it ("location": {"zip": ...}), else (or a name: "from": {"name": ...}) the
                # nested object's; it never ends the record.
                if role not in current.parts and role not in ("name", "label"):
                    current.parts[role] = value
                    current.end = end
                continue
        if role == "country" and current is not None and position - current.end <= _GAP and (
                "country" not in current.parts or previous_role == "country"):
            # A record names its country in several keys, one after the other ("countryCode", "countryName"): no
            # new record. At most a few are kept (a page of nothing but country keys must not grow one string).
            # A country key after other parts of a record that has its country starts the next party's
            # ("shipperCountryCode": "DEU", ... "recipientCountryCode": "USA"), as any part read twice does.
            known = current.parts.get("country")
            if known is None:
                current.parts["country"] = value
            elif known.count("|") < 3:
                current.parts["country"] = f"{known}|{value}"
            current.end = end
            continue
        if (role == "street" and current is not None and current_scope and len(scope) > len(current_scope)
                and scope[:len(current_scope)] == current_scope and current.parts.keys() <= {"name", "label"}):
            # A named object's own address object ("name": "MVZ", then "address": [{"line": [...], "_line": [...],
            # "city": ...}]): the record is the address object's, its parts within it whatever the distance.
            current_scope = scope
            current.parts[role] = value
            part_scopes[role] = scope
            current.end = end
            continue
        if role == "unit" and current is not None and "unit" in current.parts and position - current.end <= _GAP:
            # A record's further address line, after the one read as its unit.
            if _NAME_AS_STREET.fullmatch(value) and not _NAME_AS_STREET.fullmatch(_street_of(current.parts) or ""):
                # Numbered address lines with the street in a later one than the first two (libaddressinput's
                # "street1": "Rm. 12-345A", "street2": "The Googleplex", "street3": "1600 Charleston Rd."): the line
                # of a house number and a typed street is the street, the first line that names a unit its unit.
                lines = [line for line in (current.parts.get("street"), current.parts["unit"]) if line]
                current.parts["unit"] = next((line for line in lines if _is_unit(line)), "")
                current.parts["street"] = value
                current.end = end
                continue
            if (scope == current_scope and _is_unit(value) and not _is_unit(current.parts["unit"])
                    and _street_of(current.parts) is not None):
                # A unit's key after a second line that names no unit ("street2": "c/o Jane Roe", "Street2": "rear
                # entrance", then "unit": "Apt 2", "Secondary": "APT 2"): the unit is the address's, the line before
                # it none of its parts (a care-of or a remark), and no next record starts.
                current.parts["unit"] = value
                current.end = end
                continue
            if scope == current_scope and not _is_unit(value) and not _is_place_line(value):
                # A third address line that names a building or a person after a street and a unit ("street2":
                # "Suite 300", "street3": "Harbor Steps Tower"): no part the address keeps, and no next record.
                current.end = end
                continue
        if (role == "street" and current is not None and "street" in current.parts and "unit" not in current.parts
                and position - current.end <= _GAP and is_supplement(value)):
            # A second address line that is a building or floor ("line": ["Lange Straße 5", "Erdgeschoss"], UBL's
            # "AddressLine"): the street's supplement, not the next record's street.
            current.parts["unit"] = value
            current.end = end
            continue
        if (current is not None and role in current.parts and role not in ("street", "label")
                and position - current.end <= _GAP and _inner_part_wins(part_scopes, role, scope, street_inside)):
            # A record's identifier beside its name, its address in an object of its own ("name": "Erika",
            # "number": "0816", "deliveryAddress": {"street": {"name": "II. Hagen", "number": "7"}, ...}): the part
            # of the object that holds the street is the address's, not a second record's.
            current.parts[role] = value
            part_scopes[role] = scope
            current.end = end
            continue
        if current is not None and (position - current.end > _GAP or role in current.parts or role == "label"):
            if not street_required or _street_of(current.parts) is not None:  # no street, no address
                yield _with_city(current)
            current = None
        if current is None:
            current = KeyedAddress(start=start)
            current_scope = scope
            part_scopes = {}
        elif scope != current_scope:
            current.crosses_objects = True
        current.parts[role] = value
        part_scopes[role] = scope
        current.end = end
    if current is not None and (not street_required or _street_of(current.parts) is not None):
        yield _with_city(current)


def _inner_part_wins(part_scopes: dict[str, tuple[int, ...]], role: str, scope: tuple[int, ...],
                     street_inside: Callable[[int, str], bool]) -> bool:
    """Whether a part read again (``role``, in the objects ``scope``) replaces the record's: the record's one stands
    in an object around this one, and this one's object holds the record's street (or a street, the record having
    none yet)."""
    outer = part_scopes.get(role)
    if outer is None or len(scope) <= len(outer) or scope[:len(outer)] != outer:
        return False
    street_scope = part_scopes.get("street")
    if street_scope is not None:
        return street_scope == scope
    return street_inside(scope[-1], role)


def _with_city(record: KeyedAddress) -> KeyedAddress:
    """``record`` with its "locality" as its city if it names no city of its own, else without it."""
    keys = list(record.parts)
    places = [at for at, key in enumerate(keys) if key in ("city", "locality")]
    street = _street_of(record.parts)
    street_key = next((key for key in ("street", "number", "name") if street is not None
                       and record.parts.get(key) == street), None)
    record.place_after_street = street_key is not None and bool(places) and keys.index(street_key) < min(places)
    locality = record.parts.pop("locality", None)
    if locality is not None:
        record.parts.setdefault("city", locality)
    return record


# Pre-filled form fields: <input name="strasse" value="Lange Straße 4">, in any attribute order.
_INPUT = re.compile(r"<input\b[^<>]{1,400}+>", re.I)
_NAME_ATTR = re.compile(r"""\b(?:name|id)=["']([\w.\[\]-]{1,60})["']""", re.I)
_VALUE_ATTR = re.compile(r"""\bvalue=(?:"([^"<>]{1,120})"|'([^'<>]{1,120})')""", re.I)


def form_addresses(markup: str, limit: WorkLimit) -> Iterator[KeyedAddress]:
    """Groups of address parts in the pre-filled fields of HTML forms, in page order."""
    if "<input" not in markup:  # one scan of the page (2% of a parse); "<INPUT" is left unread
        return
    yield from _grouped(_form_fields(markup, limit), street_required=False)


def _form_fields(markup: str, limit: WorkLimit) -> Iterator[tuple[int, int, int, str, str]]:
    for tag in _INPUT.finditer(markup):
        if not limit.candidate():
            break
        value_match = _VALUE_ATTR.search(tag.group(0))
        name_match = _NAME_ATTR.search(tag.group(0))
        if value_match is None or name_match is None:
            continue
        # "address[street]", "form.plz": the last part names the field.
        role = _key_role(name_match.group(1).replace("[", ".").replace("]", ""), None)
        value = " ".join((value_match.group(1) or value_match.group(2) or "").split())
        if role is None or not value:
            continue
        yield tag.start(), tag.start(), tag.end(), role, value


# Address parts as the attributes of one element: XML records (``<Adresse Strasse="Lange Straße" Hausnummer="5"
# PLZ="26122" Ort="Oldenburg"/>``) and HTML data attributes of a store list (``<li data-street="Lange Straße 5"
# data-zip="26122" data-city="Oldenburg">``). Read only when the markup has a street's attribute (a few substring
# tests), then the elements that have one.
_ATTRIBUTE_SIGNS = ('treet="', 'trasse="', 'traße="', 'TRASSE="')
_ATTRIBUTE_ELEMENT = re.compile(r"""<[A-Za-z][\w:.-]{0,40}"""
                                r"""(?:[ \t\n]+[\w:.-]{1,40}=(?:"[^"<>\n]{0,200}"|'[^'<>\n]{0,200}'))*"""
                                r"""[ \t\n]+(?:data-)?(?i:street|streetaddress|strasse|straße|str|addressstreet)="""
                                r"""[^<>]{0,600}?>""")
_ATTRIBUTE = re.compile(r"""(?:^|[ \t\n])([\w:.-]{1,40})=(?:"([^"<>\n]{1,120})"|'([^'<>\n]{1,120})')""")


def attribute_addresses(markup: str, limit: WorkLimit) -> Iterator[KeyedAddress]:
    """Groups of address parts written as the attributes of one element each, in page order."""
    if not any(sign in markup for sign in _ATTRIBUTE_SIGNS):
        return
    yield from _grouped(_attribute_fields(markup, limit), street_required=True)


def _attribute_fields(markup: str, limit: WorkLimit) -> Iterator[tuple[int, int, int, str, str]]:
    for element in _ATTRIBUTE_ELEMENT.finditer(markup):
        if not limit.candidate():
            break
        for attribute in _ATTRIBUTE.finditer(element.group(0)):
            name = attribute.group(1)
            role = _key_role(name[5:] if name.lower().startswith("data-") else name, None)
            value = " ".join((attribute.group(2) or attribute.group(3) or "").split())
            if role is None or role == "name" or not value:
                continue
            at = element.start() + attribute.start(1)
            yield at, at, element.start() + attribute.end(), role, value


# Address parts as the elements of XML data (UBL and UN/CEFACT invoices, feeds, API responses):
# "<cbc:StreetName>Schlossplatz 1</cbc:StreetName>", "<cbc:PostalZone>26122</cbc:PostalZone>", "<City>..</City>",
# in any order. Read only when a closing tag names a street (one scan of the page's closing tags first).
_XML_SIGN = re.compile(r"</(?:[A-Za-z][\w.-]{0,20}:)?(?i:street|streetname|streetaddress|addressline1|address1|"
                       r"line1|lineone|strasse)>")
# HL7 FHIR writes each value in a "value" attribute ("<line value="Lange Straße 5">", "<city value="Bremen"/>",
# "<postalCode value="28195"/>"); a line element holds its street's parts as extensions before its end tag.
_XML_VALUE_SIGN = re.compile(r"<(?:[A-Za-z][\w.-]{0,20}:)?(?i:line|street|streetname|streetaddress|addressline1|"
                             r"address1|line1|strasse)[ \t]+value=\"")
# A value may be a CDATA section ("<Strasse><![CDATA[Schellstr. 47]]></Strasse>": school registers, exports).
_XML_FIELD = re.compile(r"<(?:[A-Za-z][\w.-]{0,20}:)?([A-Za-z][\w.-]{1,40})(?:>[ \t]*(?:<!\[CDATA\[)?([^<>\n]{1,120}?)"
                        r"(?:\]\]>)?[ \t]*</(?:[A-Za-z][\w.-]{0,20}:)?\1>"
                        r"|[ \t]+value=\"([^\"<>\n]{1,120})\"[ \t]*(/?)>)")
# How far the end tag of a value element with children may be (a FHIR line's two extensions: 500 characters).
_XML_CHILDREN = 2000


def xml_addresses(markup: str, limit: WorkLimit) -> Iterator[KeyedAddress]:
    """Groups of address parts written as XML elements named by the parts, in text order."""
    if "</" not in markup or (_XML_SIGN.search(markup) is None and (
            'value="' not in markup or _XML_VALUE_SIGN.search(markup) is None)):
        return
    yield from _grouped(_xml_fields(markup, limit), street_required=True)


def _xml_fields(markup: str, limit: WorkLimit) -> Iterator[tuple[int, int, int, str, str]]:
    for element in _XML_FIELD.finditer(markup):
        if not limit.candidate():
            break
        role = _key_role(element.group(1), None)
        value = " ".join((element.group(2) or element.group(3) or "").split())
        if role is None or role == "name" or not value:
            continue
        end = element.end()
        if element.group(3) and not element.group(4):
            # A value element with children ends at its end tag: the parts after it are the next fields, however
            # long the extensions inside.
            closing = markup.find(f"</{element.group(0)[1:element.start(1) - element.start()]}{element.group(1)}>",
                                  end, end + _XML_CHILDREN)
            if closing >= 0:
                end = closing
        yield element.start(), element.start(), end, role, value


# vCard's structured address (RFC 6350 6.3.1, also vCard 2.1/3.0): "ADR;TYPE=work:;;Escherweg 2;Oldenburg;;26121;
# Germany": post office box, extended address, street, locality, region, postal code, country, in this order.
_VCARD_ADR = re.compile(r"^(?:item\d+\.)?ADR\b[^:\n]{0,80}+:([^\n]{1,400}+)$", re.M)


def vcard_addresses(text: str, limit: WorkLimit) -> Iterator[KeyedAddress]:
    """The ADR properties of vCards in ``text`` (unfolded, unescaped: see ``reshape.unfold``)."""
    if "ADR" not in text:  # the property name in capitals, as vCard writers write it
        return
    for match in _VCARD_ADR.finditer(text):
        if not limit.candidate():
            break
        fields = [" ".join(f.split()) for f in match.group(1).split(";")]
        if len(fields) < 6:
            continue
        _box, extended, street, locality, region, postcode = fields[:6]
        parts = {role: value for role, value in (("street", street), ("city", locality), ("state", region),
                                                   ("postcode", postcode), ("unit", extended)) if value}
        yield KeyedAddress(parts=parts, start=match.start(), end=match.end())


# Rows of data: SQL ``VALUES`` tuples and CSV lines, whose columns put the postcode after the city, often
# with a state or country between ("'162 E Superior Street', 'Chicago', 'IL', 'USA', '60611'",
# "N'Tauentzienstraße 8', N'Berlin', NULL, N'Germany', N'10789'"): the page text reads a place only
# after its postcode (German) or a ZIP right after the state (US), so the columns are put in that order.
# A row is a line with a postcode field; lines longer than this are not read as rows.
_ROW_MAX = 1500
# Five digits (digits.FIVE_DIGITS, a search of the postcode reader's record); the digits around are
# checked after.
_DIGITS = re.compile(r"[0-9]*")  # the rest of a longer number
# The delimiter between fields (a comma inside a quoted value splits it too: such a value is no
# street field of this form, and one pass of re.split keeps the cost linear).
_ROW_SPLIT = re.compile(r"[ \t]*[,;\t|][ \t]*")  # the page text writes a tab as " | "
_ROW_QUOTES = " \t'\"`"
_ROW_ZIP = re.compile(r"\d{5}(?:-\d{4})?")
_ROW_US_STREET = re.compile(r"[1-9]\d{0,5}[A-Za-z]? (?:[NSEW]\.? )?[A-Za-z0-9][\w .'-]{1,60}")
_ROW_DE_STREET = re.compile(r"[A-ZÄÖÜ][\w .'äöüß-]{1,60}[\w.] [1-9]\d{0,3}(?: ?[-/] ?\d{1,4})?(?: ?[a-zA-Z])?")
# A German house number in a column of its own ("30", "7 a", "62 - 70", "2-4", "16/18").
_ROW_DE_NUMBER = re.compile(r"[1-9]\d{0,3}(?: ?[a-zA-Z])?(?: ?[-/] ?[1-9]\d{0,3}(?: ?[a-zA-Z])?)?")
# Two house numbers after a street's name in one field of a row parted by semicolons or tabs (the page text writes a
# tab as " | "): "Ruppiner Chaussee 240,268;Haus 17;13503".
_TWO_NUMBERS = re.compile(r"""(?:^|[;\t|])[ \t]*["']?(?P<name>[A-ZÄÖÜ][^;\t|\d"']{1,60}) [1-9]\d{0,3}[a-z]?"""
                          r"""(?P<comma> ?, ?)(?P<second>[1-9]\d{0,3}[a-z]?)[ \t]*["']?(?=[;\t|])""")
# A street field's house number at its end ("Westring 358", "Bahnhofstraße 7 a", "Pestalozzistraße 62 - 70").
_ROW_NUMBER_END = re.compile(r" [1-9]\d{0,3}(?: ?[-/] ?\d{1,4})?(?: ?[a-zA-Z])?$")
# The addition to a house number in a column of its own ("Hausnummernzusatz": "a").
_ROW_LETTER = re.compile(r"[a-hA-H]")
# A street's name with a type word at its end (any case): "Bagby St", "BAGBY ST", "N Main Street".
_ROW_US_NAME = re.compile(r"(?:[NSEW]\.? )?[A-Za-z0-9][\w .'-]{0,50} (?i:st|street|ave|avenue|blvd|boulevard|rd|road|"
                          r"dr|drive|ln|lane|way|ct|court|pl|place|pkwy|parkway|cir|circle|ter|terrace|hwy|highway|"
                          r"trl|trail|sq|square|plz|plaza|loop|row|walk|aly|alley)\.?(?: (?:[NSEW]|NE|NW|SE|SW))?")
# The same at the start of a street field, a unit may follow ("West Higgins Road Suite 450").
_ROW_US_TYPED = re.compile(_ROW_US_NAME.pattern + r"(?![\w'-])")
# A place's name; a qualifier in brackets after it ("Oldenburg (Oldb)", "Halle (Saale)", "Frankfurt (Oder)").
_ROW_PLACE = re.compile(r"[A-ZÄÖÜ][\w.'äöüß-]*(?: [A-Za-zÄÖÜ][\w.'äöüß-]*){0,3}(?: \([A-ZÄÖÜ][\w.'äöüß -]{1,20}\))?")
_ROW_STATE = re.compile(r"[A-Z]{2}")
_ROW_EMPTY = {"", "null", "none", "nil", "n/a", "-"}
_ROW_COUNTRY = {
    "US": {"us", "usa", "u.s.a.", "united states", "united states of america"},
    "DE": {"de", "deu", "d", "germany", "deutschland"},
}


def row_addresses(text: str, limit: WorkLimit, us: bool, digits: FiveDigits | None = None,
                  known_street: Callable[[str], bool] | None = None) -> Iterator[KeyedAddress]:
    """Addresses in rows of SQL ``VALUES`` or CSV whose street field comes before its place and
    postcode fields (``us``: the region's country writes "number street"). ``digits``: the five-digit
    numbers of ``text`` as the postcode reader found them (see :mod:`geofocus.geoparser.digits`).
    ``known_street``: whether a name without a street word is a street of the region ("Lappan"), whose house
    number may stand in a column of its own."""
    if "," not in text and ";" not in text and "|" not in text and "\t" not in text:
        return
    search = (digits if digits is not None and digits.text is text else FiveDigits(text)).search
    done_until = -1
    own = _ROW_COUNTRY["US" if us else "DE"]
    others = _ROW_COUNTRY["DE" if us else "US"]
    street_form = _ROW_US_STREET if us else _ROW_DE_STREET
    headers = _Headers(text)
    read_rows: set[str] = set()
    begin = search(0)
    while begin is not None:
        if begin < done_until:
            begin = search(done_until)
            continue
        if not limit.candidate():
            return
        end = begin + 5
        if begin > 0 and text[begin - 1].isdigit() or end < len(text) and text[end].isdigit():
            begin = search(_DIGITS.match(text, end).end())  # type: ignore[union-attr]
            continue
        if not _whole_field(text, begin, end):
            begin = search(end)  # "Ruf 0441 00001", "26122 Oldenburg": no field of its own
            continue
        cut = text.rfind("\n", max(0, begin - _ROW_MAX), begin)
        line_end = text.find("\n", end, end + _ROW_MAX)
        if line_end < 0 and len(text) - end < _ROW_MAX:
            line_end = len(text)
        if line_end < 0 or (cut < 0 and begin > _ROW_MAX):
            # A line too long to be a row: its other postcodes are skipped in one step.
            next_line = text.find("\n", end)
            done_until = len(text) if next_line < 0 else next_line
            begin = search(done_until)
            continue
        done_until = line_end
        begin = search(done_until)
        line_start = cut + 1
        line = text[line_start:line_end]
        if line in read_rows:
            continue  # the same row again (a list's repeated lines): the same address
        read_rows.add(line)
        columns = headers.columns(line_start)
        address = columns.address(line) if columns is not None else None
        second, name = None, ""
        if address is None:
            if not us and ("\t" in line or ";" in line or "|" in line):
                two = _TWO_NUMBERS.search(line)
                if two is not None:
                    # Two house numbers of one building in the street's field of a row whose columns a semicolon or
                    # a tab parts ("Ruppiner Chaussee 240,268;Haus 17;13503"): the row is read with the first,
                    # and the address again with the second.
                    line, second = line[:two.start("comma")] + line[two.end("second"):], two.group("second")
                    name = two.group("name")
            fields = [_row_value(f) for f in _ROW_SPLIT.split(_row_body(line), 60)]
            address = _row_address(fields, street_form, own, others, us, known_street)
        if address is not None:
            address.start, address.end = line_start, line_end
            yield address
            street = address.parts.get("street", "")
            # The second number is the street's only when it stood in the street's own field: two numbers in a
            # building's column ("Friesenstr. 16;Haus 25, 25a;10965") name no second address of the street.
            if second is not None and _ROW_NUMBER_END.search(street) and _ROW_NUMBER_END.sub("", street) == name:
                yield KeyedAddress(parts={**address.parts, "street": _ROW_NUMBER_END.sub(f" {second}", street)},
                                   start=line_start, end=line_end, named=address.named)


class _Columns:
    """The address columns a header line names ("Straße;Hausnummer;PLZ;Ort", "id,name,city,zipcode,street,
    house_number", "hnr,hnr_zusatz,str_name,plz,ort_name"), by their index; its delimiter is the header's."""

    def __init__(self, delimiter: str, roles: dict[str, int], width: int):
        self.delimiter, self.roles, self.width = delimiter, roles, width

    def address(self, line: str) -> KeyedAddress | None:
        """The address of a data row under the header: the named columns' values (the header names the street's
        column, so its value needs no street word), or None if the row has other columns than the header."""
        try:
            fields = next(csv.reader([line], delimiter=self.delimiter))
        except csv.Error:
            return None
        if len(fields) != self.width:
            return None
        values = {role: " ".join(fields[at].strip(_ROW_QUOTES).split()) for role, at in self.roles.items()}
        if values.get("number_suffix") and values.get("number"):
            values["number"] += values["number_suffix"]  # "12" and "a" in columns of their own: "12a"
        parts = {role: value for role, value in values.items()
                 if value and value.lower() not in _ROW_EMPTY and role != "number_suffix"}
        if "street" not in parts or not ({"postcode", "city", "postcode_city"} & parts.keys()):
            return None
        return KeyedAddress(parts=parts)


# A header line's fields that name the parts of an address (the roles of ``_key_role``; the addition to a house
# number in a column of its own: "hnr_zusatz", "Hausnummernzusatz", "Zusatz" right after the number's column).
_HEADER_ROLES = frozenset(("street", "number", "postcode", "city", "postcode_city", "country", "state", "unit"))
_HEADER_DELIMITERS = (";", "\t", ",", "|")


class _Headers:
    """The header lines of the blocks of data rows in a text: a block is the run of lines between blank lines, its
    header its first line. Found once per block, in text order (rows are read in text order)."""

    def __init__(self, text: str):
        self.text = text
        self.block_end = -1
        self.current: _Columns | None = None

    def columns(self, row_start: int) -> _Columns | None:
        if row_start > self.block_end:
            block_start = self.text.rfind("\n\n", 0, row_start) + 2 if row_start else 0
            block_start = max(block_start, 0) if block_start > 1 else 0
            end = self.text.find("\n\n", row_start)
            self.block_end = len(self.text) if end < 0 else end
            header_end = self.text.find("\n", block_start, row_start)
            self.current = (_header_columns(self.text[block_start:header_end])
                            if 0 <= header_end < row_start else None)
        return self.current


def _header_columns(line: str) -> _Columns | None:
    """The address columns ``line`` names as a header, or None: it must name a street's column and a place's
    (a postcode's, a town's), and hold no postcode (a data row does)."""
    if len(line) > _ROW_MAX or not line.strip():
        return None
    delimiter = max(_HEADER_DELIMITERS, key=line.count)
    if not line.count(delimiter):
        return None
    try:
        names = next(csv.reader([line.strip()], delimiter=delimiter))
    except csv.Error:
        return None
    roles: dict[str, int] = {}
    numbers: list[int] = []
    for at, name in enumerate(names):
        name = name.strip(_ROW_QUOTES)
        if _ROW_ZIP.search(name):
            return None
        folded = name.lower().replace("_", "").replace("-", "").replace(" ", "")
        if "zusatz" in folded and numbers and numbers[-1] == at - 1:
            roles["number_suffix"] = at
            continue
        role = _key_role(name.replace(" ", ""), None) if name else None
        if role == "number":
            numbers.append(at)
        elif role in _HEADER_ROLES and role not in roles:
            roles[role] = at
    if "street" not in roles or not ({"postcode", "city", "postcode_city"} & roles.keys()):
        return None
    if numbers:
        # The house number's column is the one nearest the street's ("Nummer,Schulname,Straße,Hausnummer": the
        # first "Nummer" numbers the rows).
        roles["number"] = min(numbers, key=lambda at: abs(at - roles["street"]))
        if roles.get("number_suffix", -2) != roles["number"] + 1:
            roles.pop("number_suffix", None)
    return _Columns(delimiter, roles, len(names))


_FIELD_BEFORE = re.compile(r"""(?:^|[,;|\t(\n])[ \t]*(?:N?['"])?$""")
_FIELD_AFTER = re.compile(r"""(?:-[0-9]{4})?(?:['"])?[ \t]*(?:$|[,;|\t)\n])""")


def _whole_field(text: str, begin: int, end: int) -> bool:
    """Whether the digits at ``text[begin:end]`` are a field of their own (a ZIP+4 too)."""
    if end < len(text) and text[end] not in ",;|\t)\n'\"- ":
        return False  # the common case in prose, tested without a pattern
    # A letter or digit right before, or before one space ("DC 20006"), is no field's start: _FIELD_BEFORE's
    # match ends in a delimiter, a space, a tab or a quote, and has a delimiter (or the text's start) before
    # its spaces. Tested without the pattern: a list of such lines costs one test per line.
    before = text[begin - 2:begin] if begin > 1 else ""
    if before[1:] == " ":
        before = before[:1]
    if before[-1:].isalnum():
        return False
    return (_FIELD_BEFORE.search(text, max(0, begin - 6), begin) is not None
            and _FIELD_AFTER.match(text, end) is not None)


def _row_body(line: str) -> str:
    """A row without the brackets of an SQL tuple around it ("(1, 'Lange Straße 4', ...)"); a closing bracket that
    ends its last field stays ("...;26122;Oldenburg (Oldb)")."""
    body = line.strip(" \t[];,")
    if body.startswith("("):
        body = body[1:]
    if body.endswith(")") and "(" not in body[max(body.rfind(","), body.rfind(";"), body.rfind("\t")) + 1:]:
        body = body[:-1]
    return body.strip(" \t[];,")


def _row_value(field: str) -> str:
    """A field without its quotes (SQL Server's N'...' too) and doubled spaces."""
    if field[:2] == "N'":
        field = field[1:]
    return " ".join(field.strip(_ROW_QUOTES).split())


def _row_address(fields: list[str], street_form: re.Pattern[str], own: set[str], others: set[str],
                 us: bool, known_street: Callable[[str], bool] | None = None) -> KeyedAddress | None:
    """The address of one row's fields: a street, then within five fields a place and the postcode."""
    if len(fields) < 3:
        return None
    for at, value in enumerate(fields):
        rest = at + 1
        if us and value.isdigit() and len(value) <= 6 and value[0] != "0" and not (
                len(value) == 4 and 1900 <= int(value) <= 2099) and at + 1 < len(fields) and (
                _ROW_US_NAME.fullmatch(fields[at + 1]) and not street_form.fullmatch(fields[at + 1])):
            # The house number in a column of its own ("NUMBER,STREET,UNIT,CITY,REGION,POSTCODE" of address
            # lists, "900,BAGBY ST,,HOUSTON,TX,77002"): the street must have a type word, and no number of
            # its own ("2,24 Second Avenue": an id before a street).
            value, rest = f"{value} {fields[at + 1]}", at + 2
        number_column = False
        if not us and rest < len(fields) and _ROW_DE_NUMBER.fullmatch(fields[rest]) and _is_row_street(
                value, known_street):
            # The house number in a column of its own after the street's name ("Straße,Hausnummer,PLZ,Ort":
            # "Lundweg,30,24941,Flensburg"): the name must have a street word ("Hans Müller,42,...": a person's age),
            # and the postcode a place after it ("Lange Straße,4,26121,3" are no address's columns).
            value, rest, number_column = f"{value} {fields[rest]}", rest + 1, True
            if rest < len(fields) and _ROW_LETTER.fullmatch(fields[rest]):
                value, rest = value + fields[rest], rest + 1  # "Lundweg,30,a,...": the number's addition
        # A street field has a digit at its start (US) or near its end (German): tested before the pattern.
        if not (value[:1].isdigit() if us else any(c.isdigit() for c in value[-7:])) or not street_form.fullmatch(
                value):
            continue
        parts: dict[str, str] = {"street": value}
        for offset, later in enumerate(fields[rest:rest + 6], rest):
            folded = later.lower()
            if folded in _ROW_EMPTY or folded in own:
                continue
            if folded in others:
                return None  # a row of another country
            if _ROW_ZIP.fullmatch(later):
                if number_column and "city" not in parts:
                    place = fields[offset + 1] if offset + 1 < len(fields) else ""
                    if _ROW_PLACE.fullmatch(place) is not None:
                        return KeyedAddress(parts={"street": value, "postcode": later, "city": place})
                    if at > 0 and _ROW_PLACE.fullmatch(fields[at - 1]) is not None:
                        # The place before the street ("Oldenburg,Staulinie,11a,26122"): the postcode names it (the
                        # column before may be a name as well: its value is not taken for the place).
                        return KeyedAddress(parts={"street": value, "postcode": later}, named=False)
                    break
                if "city" not in parts and not us:
                    # A street and its postcode, no place ("Magazinstr. 5;Haus 03 ;10179;1.236"): the parser
                    # names the postcode's place if the street has a street word (GeoParser._keyed_without_place).
                    return KeyedAddress(parts={"street": value, "postcode": later}, named=False)
                if "city" not in parts and not ("unit" not in parts and _ROW_US_TYPED.match(value[
                        value.index(" ") + 1:])):
                    break
                # US: a street with a type word and its ZIP in the next field, no city ("1343 North California
                # Avenue,60622"): the parser names the city of a region ZIP (GeoParser._zip_city); no key names the
                # columns, so another ZIP gives no address (an id or a count may stand where a ZIP would).
                parts["postcode"] = later
                return KeyedAddress(parts=parts, named=False)
            if us and "city" in parts and "state" not in parts and _ROW_STATE.fullmatch(later):
                parts["state"] = later
            elif us and "city" not in parts and "unit" not in parts and _is_unit(later) and any(
                    c.isdigit() for c in later) and not later[:1].isdigit():
                parts["unit"] = later  # "Suite 100", "Apt 2" ("2nd Floor" is read by the text pass)
            elif not us and "city" not in parts and is_supplement(later):
                continue  # a building or floor column between street and place ("Haus 03", "Altbau")
            elif "city" not in parts and _ROW_PLACE.fullmatch(later):
                parts["city"] = later
            else:
                break
    return None if us else _row_postcode_first(fields, known_street)


def _is_row_street(name: str, known_street: Callable[[str], bool] | None) -> bool:
    """Whether a row's column is a street's name before a house number's column: a street word, or a street of the
    region."""
    return is_street_name(name) or (known_street is not None and _ROW_PLACE.fullmatch(name) is not None
                                    and known_street(name))


def _row_postcode_first(fields: list[str], known_street: Callable[[str], bool] | None = None) -> KeyedAddress | None:
    """A German row whose postcode column comes before the street's ("Ort;PLZ;Straße;Hausnummer": "Kiel;24118;
    Westring 358", "Eutin;23701;Bahnhofstraße;7 a"; "24118,Kiel,Westring 358"; "24118;Westring;358;Kiel"): the
    street right after the postcode and its place, or between the postcode and its place; its number in it or in
    the next columns."""
    for at, value in enumerate(fields[:-1]):
        if not _ROW_ZIP.fullmatch(value) or len(value) != 5:
            continue
        place_before = fields[at - 1] if at > 0 and _ROW_PLACE.fullmatch(fields[at - 1]) else None
        street, after = _row_street(fields, at + 1, known_street)
        place = place_before or (fields[after] if street and after < len(fields) else "")
        if street is None or not _ROW_PLACE.fullmatch(place):
            if place_before is not None or not _ROW_PLACE.fullmatch(fields[at + 1]):
                continue
            place = fields[at + 1]  # "24118,Kiel,Westring 358": the place between postcode and street
            street, after = _row_street(fields, at + 2, known_street)
            if street is None:
                continue
        return KeyedAddress(parts={"street": street, "postcode": value, "city": place})
    return None


def _row_street(fields: list[str], at: int,
                known_street: Callable[[str], bool] | None = None) -> tuple[str | None, int]:
    """The German street at column ``at`` with its number (in it, or in the next column, an addition in the column
    after: "Lundweg;30;a"), and the index of the column after it; (None, at) if none. The street's name must be a
    street's ("Herr Müller 3" after a postcode is no street: no street word stands where the postcode confirms none)."""
    if at >= len(fields):
        return None, at
    street, after = fields[at], at + 1
    if after < len(fields) and _ROW_DE_NUMBER.fullmatch(fields[after]) and _is_row_street(street, known_street):
        street, after = f"{street} {fields[after]}", after + 1
        if after < len(fields) and _ROW_LETTER.fullmatch(fields[after]):
            street, after = street + fields[after], after + 1
    elif not (_ROW_DE_STREET.fullmatch(street) and _is_row_street(_ROW_NUMBER_END.sub("", street), known_street)):
        return None, at
    if _ROW_DE_STREET.fullmatch(street) and any(c.isdigit() for c in street[-9:]):
        return street, after
    return None, at


# Content lines of iCalendar and vCard data (RFC 5545 3.1, RFC 6350 3.3) and their extensions (X- properties,
# the VVENUE draft): ``NAME[;PARAM=...]*:VALUE``, the name in capitals, the value the whole rest of the line
# (``ADDRESS:1945 NW Quimby`` / ``CITY:Portland`` / ``REGION;X-ABBREV=or:Oregon`` / ``POSTALCODE:97209``).
# Consecutive lines whose names are address parts are one record. Read only when the text has "CITY" in capitals
# (CITY, X-CITY: one substring test, 0.6 ms per MB; a test of each place name cost 2.5 ms per MB, 3-6% of a parse
# of plain pages), then in one pass over the lines. A record without a CITY line (LOCALITY, or a postal code
# alone) is not read.
_PROPERTY_LINE = re.compile(r"^[ \t]*+(?:X-)?([A-Z][A-Z0-9-]{1,30}+)(?:;[^:\n]{0,120}+)?:([^\n]{0,200}+)$", re.M)
_PROPERTY_ROLES = frozenset(("street", "city", "locality", "state", "postcode", "unit"))


def property_addresses(text: str, limit: WorkLimit) -> Iterator[KeyedAddress]:
    """Records of consecutive iCalendar/vCard property lines naming address parts, in text order: a line that
    is no property line, or a part named twice, ends a record."""
    if "CITY" not in text:
        return
    current = KeyedAddress(start=-1, end=-2)
    for line in _PROPERTY_LINE.finditer(text):
        if not limit.candidate():
            break
        role = _key_role(line.group(1), None)
        if line.start() != current.end + 1 or role in current.parts:
            if "street" in current.parts:
                yield _with_city(current)
            current = KeyedAddress(start=line.start())
        current.end = line.end()
        value = " ".join(line.group(2).replace("\\,", ",").replace("\\;", ";").split())
        if role in _PROPERTY_ROLES and value:
            current.parts[role] = value
    if "street" in current.parts:
        yield _with_city(current)
