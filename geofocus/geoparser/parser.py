"""GeoParser: the addresses of a page and whether the page is relevant for a region."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import chain

from geofocus.geoparser import de, structured, us
from geofocus.geoparser.digits import FiveDigits
from geofocus.geoparser.gazetteer import SAMPLE_WORDS, Gazetteer, fold
from geofocus.geoparser.keyvalue import (
    KeyedAddress,
    attribute_addresses,
    form_addresses,
    keyed_addresses,
    property_addresses,
    row_addresses,
    vcard_addresses,
    xml_addresses,
)
from geofocus.geoparser.labels import labelled_addresses, osm_xml_text
from geofocus.geoparser.mend import (
    decode_query_values,
    fold_yaml_strings,
    join_broken_names,
    join_wrapped_numbers,
    join_wrapped_towns,
    unescape_string_letters,
    unquote_printable,
)
from geofocus.geoparser.model import Address, ParseResult, WorkLimit
from geofocus.geoparser.nominatim import display_name_addresses
from geofocus.geoparser.reshape import (
    join_concatenated,
    repair_mojibake,
    reshape,
    statement_literals,
    tags_as_breaks,
    unfold,
)
from geofocus.geoparser.sqlinsert import insert_addresses
from geofocus.geoparser.tablerows import table_row_addresses
from geofocus.geoparser.text import html_to_text, map_places
from geofocus.geoparser.ussplit import NUMBERED_UNIT_NAMES, TYPE_ALTERNATIVES, UNIT_WORDS, street_value
from geofocus.regions import Region

__all__ = ["GeoParser", "html_to_text"]

_DE_STREET_NUMBER = re.compile(
    r"^(?P<street>.*?[^\d\s,])[\s,]*(?P<number>[1-9]\d{0,3}(?:\s?[a-zA-Z])?(?:\s?[-–/+]\s?\d{1,4}(?:\s?[a-zA-Z])?|\s(?:bis|und)\s\d{1,4}|\su\.\s?\d{1,4})?)$"
)
# "Marktplatz 5 und 7", "Heerstraße 114 bis 118": the range "5-7", as the text reader gives it.
_DE_WORD_RANGE = re.compile(r"\s?(?:bis|und|u\.)\s?")
_US_NUMBER_STREET = re.compile(r"^(?P<number>[1-9]\d{0,5}[A-Z]?(?:-\d{1,4})?)\s+(?P<street>\S.*)$")
# Typographic bullets that footers put between the parts of an address, besides "·" and "•".
_BULLETS = "\u2219\u22c5\u2027\u25cf\u25aa\u25e6\u2981\u2b29\u2e31"
_BULLET_SIGN = re.compile(f"[{_BULLETS}]")
# Other separators a one-line footer or imprint puts between an address's parts, each between two spaces:
# "Kulturetage // Bahnhofstraße 11 // 26122 Oldenburg", "||", "»", "~", stars and arrows ("+" is none: "Straße +
# Hausnummer:" labels a field). Read as the "·" the readers know. Tested first by single characters (a fast scan
# each; a needle of two characters costs ten times one), then replaced by one pass.
_SEPARATOR_CHARS = ("/", "|", "»", "~", "✦", "★", "☆", "►", "▸", "→")
_SEPARATOR = re.compile(r" (?://|\|\||[»~✦★☆►▸→]) (?=\S)")
_POSTCODE_CLEAN = re.compile(r"^(?:D|DE)\s*-\s*", re.I)
_ZERO_LOST = re.compile(r"[1-9]\d{3}")  # 01067 to 09999 read as a number


# How structured data names the region's country (folded, without dots), and the form of its postcodes.
_COUNTRY_NAMES = {
    "US": {"us", "usa", "united states", "united states of america", "america"},
    "DE": {"de", "deu", "d", "germany", "deutschland", "allemagne", "germania", "brd",
           "bundesrepublik deutschland"},
}
_POSTCODE_FORM = {"US": re.compile(r"\d{5}(?:-?\d{4})?"), "DE": re.compile(r"\d{5}")}
_ZIP_ONLY = re.compile(r"\d{5}(?:-\d{4})?")
# A German street's last word, which no US street's name ends with, or a German letter in the name: a record with such
# a street and no state is a German one, its five-digit postcode no ZIP ({"street": "Chausseestraße", "zip": "10115",
# "city": "Berlin"}, a Berlin open-data record's "Möckernkiez 6", 10963).
_GERMAN_STREET_END = re.compile(
    r"[äöüßÄÖÜ]|(?i:stra(?:ss|ß)e|str\.|gasse|allee|weg|platz|damm)(?: ?[1-9][\w /-]{0,12})?$")
# ZIPs a writer types for "any ZIP" (12345 is Schenectady's, but a record with a street and that ZIP alone is a form's
# or a test's): only where nothing else in the record names the place.
_SAMPLE_ZIPS = frozenset(("12345", "11111", "22222", "33333", "44444", "55555", "54321", "98765", "01234"))
_STATE_SUBDIVISION = re.compile(r"US[-.]([A-Z]{2})")
# A street that ends in its type word after a name ("Rosewood Dr", "Town Center Drive", "E Market St", "Main St N";
# not a type word alone or after a direction alone: "Ridge", "South Park", "W Grove", a name whose type a record left
# out, as usaddress's tagged training records do) or is a road's number ("Hwy 119", "State Highway 37", "US-41").
_TYPED_STREET = re.compile(r"(?<![\w.'-])(?!(?i:[NSEW]|[NS][EW]|North|South|East|West)\.? )\w[\w.'-]* (?i:"
                           + TYPE_ALTERNATIVES + r")\.?"
                           r"(?: (?:[NSEW]|[NS][EW]|North|South|East|West)\.?)?$"
                           r"|\b(?i:hwy|highway|route|rte|loop|road|us|sr|fm|cr|county road)[ -]\d{1,4}[A-Z]?$")


def _sample_zip(postcode: str) -> bool:
    """Whether the ZIP is no ZIP ("00000", "99999") or one a writer types for any ZIP ("12345")."""
    return postcode[:5] in _SAMPLE_ZIPS or us.no_zip(postcode[:5])


def _names_a_state(value: str) -> bool:
    """Whether a state key's value names a US state ("TX", "Texas", "Tex.", "US-TX"), not a district or a region."""
    value = value.strip()
    subdivision = _STATE_SUBDIVISION.fullmatch(value)
    return us.state_code(subdivision.group(1) if subdivision else value) in us.STATES


# A cross street or a landmark in brackets after the street: "(at 9th Ave)", "(between 5th & 6th Aves)",
# "(near Main St)", "(corner of Elm)". The sign starts with a literal: one fast scan of a page.
_CROSS_WORDS = r"(?:at|between|btwn\.?|betw\.?|near|off|corner of|on the corner of|cnr\.?|@|entrance on|enter on)"
_CROSS_STREET_SIGN = re.compile(r"\(" + _CROSS_WORDS + r" ", re.I)
_CROSS_STREET = re.compile(r" ?\(" + _CROSS_WORDS + r" [^()\n]{1,60}\)", re.I)

_JSON_LD_OPEN = re.compile(r"<script[^<>]*?application/ld\+json[^<>]*>", re.I)


def _without_json_ld(markup: str) -> str:
    """The markup without its JSON-LD blocks, which the structured-data pass reads as a whole."""
    if "ld+json" not in markup:
        return markup
    parts, pos = [], 0
    for match in _JSON_LD_OPEN.finditer(markup):
        if match.start() < pos:
            continue
        parts.append(markup[pos:match.start()])
        end = markup.find("</script", match.end())
        pos = len(markup) if end < 0 else end
    parts.append(markup[pos:])
    return "".join(parts)


def _opened_unreadable_json_ld(markup: str) -> str:
    """The markup with each JSON-LD block that the structured-data pass cannot read turned into text: one cut off
    before its ``</script>`` (an excerpt, a truncated page) or one that is no JSON (an unescaped quote, a template's
    tag left in). Its script tags go, so the text and key-value passes read its content, and the structured pass,
    which reads all blocks of a page at once, is not spoiled by it for the readable ones."""
    if "ld+json" not in markup:
        return markup
    parts: list[str] = []
    pos = 0
    block_end = 0  # the end of the last block looked at: an opening tag written inside a block is no block
    for match in _JSON_LD_OPEN.finditer(markup):
        if match.start() < block_end:
            continue
        end = markup.find("</script", match.end())
        block_end = len(markup) if end < 0 else end
        if end >= 0 and structured.is_json(markup[match.end():end]):
            continue  # readable: stays a script for the structured pass
        parts.append(markup[pos:match.start()])
        if end < 0:
            parts.append("\n" + markup[match.end():])
            pos = len(markup)
            break
        parts.append("\n" + markup[match.end():end] + "\n")
        gt = markup.find(">", end)
        pos = len(markup) if gt < 0 else gt + 1
    if not parts:
        return markup
    parts.append(markup[pos:])
    return "".join(parts)


# Pages longer than this get only JSON-LD from the structured-data pass.
STRUCTURED_MAX_CHARS = 1_000_000


def _same_place(one: str | None, other: str | None) -> bool:
    """Whether two names of a place name the same one, one the other's start ("Frankfurt am Main", "Frankfurt")."""
    a, b = fold(one or ""), fold(other or "")
    if not a or not b:
        return False
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return long == short or long.startswith(short + " ")


# The USPS abbreviations (Publication 28) of street suffixes and directions, for telling one US address written
# twice, once short and in capitals and once in full ("6 WARREN PL, ROXBURY, MA 02119" beside "6 Warren Place,
# Boston, MA 02119" in a record of an address and its normalised form).
_USPS_WORDS = {
    "street": "st", "avenue": "ave", "av": "ave", "road": "rd", "highway": "hwy", "boulevard": "blvd", "drive": "dr",
    "lane": "ln", "court": "ct", "place": "pl", "parkway": "pkwy", "circle": "cir", "terrace": "ter", "trail": "trl",
    "plaza": "plz", "square": "sq", "expressway": "expy", "freeway": "fwy", "crossing": "xing", "heights": "hts",
    "point": "pt", "north": "n", "south": "s", "east": "e", "west": "w", "northeast": "ne", "northwest": "nw",
    "southeast": "se", "southwest": "sw", "center": "ctr", "turnpike": "tpke", "alley": "aly", "cove": "cv",
}
_NOT_WORD = re.compile(r"[^\w]+")


def _usps_street(street: str) -> str:
    """A US street's comparison form: case folded, punctuation gone, suffix and direction words abbreviated."""
    return " ".join(_USPS_WORDS.get(word, word) for word in _NOT_WORD.sub(" ", fold(street)).split())


def _us_state_named(state: str | None) -> bool:
    """Whether a record's state value names a US state in a German reading (no German Land's code is one; "DE" is
    left out: a German record may write its country there)."""
    if not state:
        return False
    return _names_a_state(state) and us.state_code(state.strip()) != "DE"


def _unit_only(street: str) -> bool:
    """Whether a street read German-style from a US record's value is a unit's word ("Suite 310", "Box 45")."""
    word = street.strip().lower()
    return word in UNIT_WORDS or word in NUMBERED_UNIT_NAMES


def _fuller(one: Address, other: Address) -> bool:
    """Whether ``one`` is the fuller writing of the same street as ``other``: not in capitals where the other
    is, else longer ("Warren Place" over "WARREN PL")."""
    one_caps, other_caps = one.street.isupper(), other.street.isupper()
    if one_caps != other_caps:
        return other_caps
    return len(one.street) > len(other.street)


# A US street's house numbers go up by two on each side: three or more consecutive numbers of one street and ZIP
# ("111 Main St", "112 Main St", "113 Main St", ... in a test's contacts) are a generated sequence, no addresses.
_ENUMERATED_RUN = 3


def _without_enumerations(addresses: list[Address]) -> list[Address]:
    """``addresses`` without those whose house numbers are a run of ``_ENUMERATED_RUN`` or more consecutive
    numbers of one street and ZIP."""
    numbers: dict[tuple[str, str | None], set[int]] = {}
    for address in addresses:
        if address.house_number.isdigit():
            numbers.setdefault((_usps_street(address.street), address.postcode), set()).add(int(address.house_number))
    enumerated: set[tuple[str, str | None, int]] = set()
    for (street, postcode), found in numbers.items():
        for number in found:
            if number - 1 not in found:  # a run's first number
                run = range(number, next(n for n in range(number, number + len(found) + 1) if n not in found))
                if len(run) >= _ENUMERATED_RUN:
                    enumerated.update((street, postcode, n) for n in run)
    if not enumerated:
        return addresses
    return [a for a in addresses if not (a.house_number.isdigit() and (
        _usps_street(a.street), a.postcode, int(a.house_number)) in enumerated)]


class _Seen:
    """What one parse has found, indexed so that adding an address costs the same however many there
    are (a list scan per address made a page of thousands of addresses quadratic)."""

    def __init__(self) -> None:
        self.keys: set[tuple[str, str, str, str]] = set()
        # (street, number, city), has a postcode -> index of the first such address
        self.by_place: dict[tuple[tuple[str, str, str], bool], int] = {}
        # (street, number, postcode) -> index of the first such address
        self.by_code: dict[tuple[str, ...], int] = {}
        # (street, number) -> index of the first such address without a postcode, and with one
        self.without_code: dict[tuple[str, ...], int] = {}
        self.with_code: dict[tuple[str, ...], int] = {}
        # (street in its USPS comparison form, number, postcode) -> index of the first such US address
        self.by_usps: dict[tuple[str, str, str], int] = {}

    def index_at(self, index: int, key: tuple[str, str, str, str], address: Address) -> None:
        self.by_place.setdefault(((key[0], key[1], key[3]), bool(address.postcode)), index)
        if address.postcode:
            self.by_code.setdefault(key[:3], index)
            if address.country == "US":
                self.by_usps.setdefault((_usps_street(address.street), key[1], address.postcode), index)
            self.with_code.setdefault(key[:2], index)
        else:
            self.without_code.setdefault(key[:2], index)


# The local part of a US phone number ("228-9858", "555.0100") where a street's name should start.
_PHONE_LOCAL_START = re.compile(r"\d{3}[-.]\d{4}(?!\d)")


class GeoParser:
    """Finds the street addresses of a page and decides its relevance for a region.

    ``parse`` is pure (no I/O, no shared mutable state), so one parser can be
    used from several threads; it never raises on odd input.
    """

    def __init__(self, region: Region, structured_data: bool = True):
        self.region = region
        self.gazetteer = Gazetteer(region)
        fmt = region.raw.get("address_format") or ("us" if region.country == "US" else "de")
        self.address_format = fmt
        self._extract = us.extract if fmt == "us" else de.extract
        self.structured_data = structured_data

    def parse(self, markup: str | bytes, url: str | None = None) -> ParseResult:
        """Addresses of ``markup`` (HTML or plain text); ``.relevant`` is eval(page)."""
        if isinstance(markup, bytes):
            markup = markup.decode("utf-8", errors="replace")
        if not isinstance(markup, str):
            markup = str(markup)
        result = ParseResult()
        seen = _Seen()
        markup = unfold(markup)  # iCalendar/vCard lines folded with a leading space
        markup = unquote_printable(markup)  # mail text: "Deelb=F6genkamp 4", "Potsda=\nm"
        markup = fold_yaml_strings(markup)  # a YAML string's escaped line break: "M\xFC\" / "  nster"
        markup = _opened_unreadable_json_ld(markup)
        text = join_broken_names(html_to_text(markup))  # "Henning-von-Tresckow- Straße 9"
        text = unescape_string_letters(text)  # "Hafenweg 30, M\xFCnster" in a YAML dump: the place as written
        text = decode_query_values(text)  # "?address=Hamburg,+Holstenwall+9": the value on a line of its own
        if self.address_format == "us":
            text = join_wrapped_numbers(text)  # "Visit us at 1217" / "Barranca Dr. Suite B, El Paso, Texas."
            text = join_wrapped_towns(text)  # "12 Airport Boulevard, San" / "Mateo, CA 94401"
        if "<" in text and "&" in markup and ("&lt;" in markup or "&LT;" in markup or "&#60;" in markup
                                              or "&#x3" in markup):
            # "City Hall&lt;br&gt;500 Oak Ave": the page shows the tags, a reader the lines (a "<" the markup
            # writes as itself is no tag of the page: "<a<a<a" is left as it is)
            text = tags_as_breaks(text)
        if any(sign in text for sign in _BULLETS):  # no scan at all in text without characters above U+00FF
            text = _BULLET_SIGN.sub("·", text)  # "Lange Straße 4 ∙ 26122 Oldenburg": the readers know "·" and "•"
        if "\\" in text and "\\r\\n" in text:
            # A Windows line break escaped in a string literal ("545 4th St\\r\\nOakland, CA\\r\\n94607" in JSON):
            # read as the escaped line break alone, which the readers take for a break ("\\r" would stay a word's
            # letters: "4th St\\r").
            text = text.replace("\\r\\n", "\\n")
        if "\\" in text and ("\\," in text or "\\;" in text):
            # The escapes of iCalendar and vCard text where no property starts a line (a piece of a folded
            # DESCRIPTION, a feed's copy): "1700 Summit Ave.\, St. Paul\, MN 55105".
            text = text.replace("\\,", ",").replace("\\;", ";")
        # String literals joined in program text, a line-break constant between ("'Peterstraße 3' . PHP_EOL .
        # '26121 Oldenburg'", "\"1500 Marilla St\" + System.lineSeparator() + \"Dallas, TX 75201\""): one string.
        text = join_concatenated(text)
        if any(sign in text for sign in _SEPARATOR_CHARS) and _SEPARATOR.search(text) is not None:
            text = _SEPARATOR.sub(" · ", text)  # "Bahnhofstraße 11 // 26122 Oldenburg"
        if "(" in text and _CROSS_STREET_SIGN.search(text) is not None:
            text = _CROSS_STREET.sub("", text)  # "350 W 42nd St (at 9th Ave), New York": the cross street goes
        budget = WorkLimit.for_size(len(markup))
        limit = replace(budget)
        digits = FiveDigits(text)  # the postcode reader's scan of the page text, for the row reader
        for raw in self._extract(text, self.gazetteer, limit, digits):
            address = self._address(raw.street, raw.house_number, raw.postcode, raw.city,
                                    raw.in_region, state=raw.state, unit=raw.unit)
            if self._add(result, seen, address):
                limit.found()
        # The same text with the syntax between address parts taken out (quoted
        # fields, JSON keys, Markdown, escapes, capitals, mojibake), and address
        # parts named by keys anywhere in the markup, in any order; and the same text read as the
        # string literals of its program statements (a PDF's cells, a line each).
        for reshaped in (reshape(text), statement_literals(text)):
            if reshaped is None:
                continue
            # Each reading gets its anchors and candidates afresh (see model.ANCHOR_CHARS): thousands of
            # anchors the page text cannot read leave this reading its share.
            limit.renew(budget)
            # The lists of cities read without postcode or state (other German cities, US region cities
            # alone) are read in the page text and keyed fields only: their addresses end a field there.
            scanned = limit.other_cities, limit.region_cities
            limit.other_cities = limit.region_cities = False
            for raw in self._extract(reshaped, self.gazetteer, limit):
                if self._add(result, seen, self._address(raw.street, raw.house_number, raw.postcode, raw.city,
                                                         raw.in_region, state=raw.state, unit=raw.unit)):
                    limit.found()
            limit.other_cities, limit.region_cities = scanned
        # Parts named by labels in the page text: "Straße: ..." / "PLZ: ...", table cells, OSM tags.
        # Pre-filled form fields: <input name="plz" value="26121">.
        limit.renew(budget)
        read_texts: set[str] = set()
        # Assignments without spaces (keyword arguments, form data) are read in text that is no markup: the
        # markup itself if it has no tags, else the page text (in markup they are attributes).
        markup_is_text = "<" not in markup
        assigned = (keyed_addresses(text, limit, assignments="only")
                    if not markup_is_text and "=" in text else iter(()))
        keyed_in_markup = keyed_addresses(_without_json_ld(markup), limit,
                                          assignments="also" if markup_is_text else "")
        osm_text = osm_xml_text(markup)  # <tag k="addr:street" v="..."/>: attributes, no page text
        osm = labelled_addresses(osm_text, limit) if osm_text is not None else iter(())
        for keyed in chain(keyed_in_markup, assigned, labelled_addresses(text, limit), osm,
                           form_addresses(markup, limit), xml_addresses(markup, limit),
                           attribute_addresses(markup, limit), vcard_addresses(text, limit),
                           property_addresses(text, limit), insert_addresses(text, limit),
                           display_name_addresses(text, limit),
                           row_addresses(text, limit, us=self.address_format == "us", digits=digits,
                                         known_street=self._known_street),
                           table_row_addresses(markup, self.gazetteer.city_by_fold, limit)
                           if self.address_format == "us" else iter(())):
            if limit.anchors <= 0:
                limit.truncated = True  # the page's anchors are spent: reading more costs without finding
                break
            if "country" in keyed.parts and not self._own_country_named(keyed.parts["country"]):
                continue  # "country_iso_3": "FRA": another country's record ("13 Rue Yves Toudic", "75010" "Paris")
            if self.address_format == "de" and _us_state_named(keyed.parts.get("state")):
                continue  # "state": "IL", "<State>Illinois</State>": a US record, its five-digit ZIP no German postcode
            if ("country" in keyed.parts and self.address_format == "de"
                    and _ZERO_LOST.fullmatch(keyed.parts.get("postcode", ""))):
                # A German postcode that lost its leading zero in a number-typed field ("plz": 1307, "country": "DE"; a
                # PLZ column beside a Land column): a key names it the postcode and a German record's postcode has
                # five digits (an Austrian or Swiss record's four, so the record must name Germany).
                keyed.parts["postcode"] = "0" + keyed.parts["postcode"]
            written = keyed.text(us=self.address_format == "us")
            no_place = not ({"city", "postcode_city", "place_line"} & keyed.parts.keys())
            if written is None and ("label" in keyed.parts or "name" in keyed.parts):
                # No place among the parts, the object's name names the region's city: "Polizeiinspektion
                # Oldenburg": {"street": "Friedhofsweg", "house_number": 30}, "name: awb_oldenburg_de".
                city = self._city_in_name(keyed.parts.get("label") or keyed.parts["name"])
                if city is not None:
                    keyed.parts["city"] = city
                    written = keyed.text(us=self.address_format == "us")
            if no_place and "city" not in keyed.parts and self.address_format == "de" and "postcode" in keyed.parts:
                # A record with street and postcode keys but no place ("plz": "10551", "strasse":
                # "Turmstraße", "hausnr": "75"): the postcode is the place.
                place_by_postcode = self._keyed_without_place(keyed.parts, keyed.named)
                if place_by_postcode is not None:
                    if self._add(result, seen, place_by_postcode):
                        limit.found()
                    continue
            if (self.address_format == "us" and "state" in keyed.parts and not _names_a_state(keyed.parts["state"])
                    and _ZIP_ONLY.fullmatch(keyed.parts.get("postcode", ""))):
                # "region": "Center City" (a city's own data: the region is a district), "region": "Midwest": a
                # state key whose value names no state says nothing of the place, and the record's ZIP names it;
                # the record is read without the key. Without a ZIP the key stays, and the record unread: "region":
                # "Ontario" may be another country's province ("82 Whitney Ave", "Hamilton").
                del keyed.parts["state"]
                written = keyed.text(us=True)
            if (self.address_format == "us" and "state" not in keyed.parts
                    and _GERMAN_STREET_END.search(keyed.parts.get("street", ""))):
                continue  # a German record: its postcode names no US state (10115 is Berlin's, not New York's)
            if (written is not None and self.address_format == "us" and "state" not in keyed.parts
                    and "postcode_city" not in keyed.parts and "place_line" not in keyed.parts):
                if "city" not in keyed.parts:
                    # A street and a ZIP without city or state (a CSV row, a record): a ZIP of the region names
                    # its city. Another ZIP names no city, but a record's keys that name the street and the ZIP
                    # ({"postal_code": "94588", "address": "4501 Rosewood Dr"}, a store list, a city's vote
                    # sites) say where it is: an address outside the region, the ZIP's prefix naming its state.
                    # Only one object's named keys (not a row's columns, not parts joined by nearness) and a ZIP
                    # that is no placeholder.
                    zip_place = self._zip_city(keyed.parts.get("postcode"))
                    if zip_place is None:
                        outside = self._street_and_zip_outside(keyed)
                        if outside is not None and self._add(result, seen, outside):
                            limit.found()
                        continue
                    keyed.parts["city"], keyed.parts["state"] = zip_place
                else:
                    # A city and a ZIP without state ("city": "Cupertino", "zip": "95014"): the ZIP's prefix
                    # names the state.
                    state = self._zip_state(keyed.parts.get("postcode"))
                    if state is not None:
                        keyed.parts["state"] = state
                written = keyed.text(us=True)
                if (written is not None and keyed.named and keyed.place_after_street and not keyed.crosses_objects
                        and "state" not in keyed.parts and "postcode" not in keyed.parts):
                    # A record's street and town keys without state or ZIP ({"address": "5200 Arden Way", "city":
                    # "Carmichael"}, a polling place, a venue): keys that name both parts say what a labelled line
                    # "Address: 5200 Arden Way, Carmichael" says, and are read by the same rule (a town, no state).
                    # Only one object's parts, the town after the street: parts joined by nearness alone (a town
                    # ending one record of a list, the next record's street) are confirmed by no state or ZIP.
                    state = us.named_city_state(self.gazetteer, keyed.parts["city"]) if "city" in keyed.parts else None
                    if state is not None:
                        keyed.parts["state"] = state  # "city": "Madison": see ``us.named_city_state``
                        written = keyed.text(us=True)
                    else:
                        written = f"Address: {written}"
            if written is None or written in read_texts:
                continue  # the same parts read before: the same addresses
            written = repair_mojibake(written)  # values read from the markup: "UniversitÃ¤tsstraÃŸe 11"
            read_texts.add(written)
            for raw in self._extract(written, self.gazetteer, limit):
                if self._add(result, seen, self._address(raw.street, raw.house_number, raw.postcode, raw.city,
                                                         raw.in_region, state=raw.state, unit=raw.unit)):
                    limit.found()
        places = map_places(markup)  # in markup, and the links of Markdown and plain text
        if places:
            # The places of map links and embeds: an address the page shows in no other way ("Uptown Whittier"
            # linked to ".../maps/place/6741+Greenleaf+Ave,+Whittier,+CA+90601"); one the page writes (perhaps
            # without ZIP or with its suite: "151 N. Franklin Street, Chicago, IL") is not read again.
            shown = {(a.house_number, _usps_street(a.street)) for a in result.all_addresses}
            for raw in self._extract(places, self.gazetteer, limit):
                if (raw.house_number, _usps_street(raw.street)) not in shown:
                    self._add(result, seen, self._address(raw.street, raw.house_number, raw.postcode, raw.city,
                                                          raw.in_region, state=raw.state, unit=raw.unit))
        if self.structured_data and "<" in markup:
            # Microdata, RDFa and microformats mark up visible text, which the
            # text pass has read; once it found the address, their (costly)
            # extraction could only repeat it.  JSON-LD is invisible text.
            syntaxes = structured.syntaxes_present(markup, ("json-ld",) if result.all_addresses else None)
            if not result.all_addresses and len(markup) > STRUCTURED_MAX_CHARS:
                # rdflib and mf2py on a multi-megabyte page cost seconds.
                syntaxes = [s for s in syntaxes if s == "json-ld"]
            if syntaxes:
                for record in structured.extract(markup, url, syntaxes):
                    if record.free_text:
                        for raw in self._extract(record.street_address, self.gazetteer, limit):
                            self._add(result, seen, self._address(
                                raw.street, raw.house_number, raw.postcode, raw.city, raw.in_region,
                                (record.lat, record.lon), raw.state, raw.unit))
                        continue
                    structured_address = self._from_structured(record)
                    if structured_address is not None:
                        self._add(result, seen, structured_address)
            og_record = structured.opengraph_address(markup)
            if og_record is not None:
                og_address = self._from_structured(og_record)
                if og_address is not None:
                    self._add(result, seen, og_address)
            point = structured.geo_position(markup)
            if point is not None:
                self._attach_point(result, point)
        if self.address_format == "us" and len(result.all_addresses) >= _ENUMERATED_RUN:
            result.all_addresses = _without_enumerations(result.all_addresses)
        result.truncated = limit.truncated
        return result

    def _zip_city(self, postcode: str | None) -> tuple[str, str] | None:
        """(city, state) of a ZIP of the region, or None."""
        known = self.gazetteer.postcodes.get((postcode or "")[:5])
        if known is None:
            return None
        state = next((c.state for c in self.region.cities if c.name == known[2]), None)
        return (known[2], state) if state else None

    def _street_and_zip_outside(self, keyed: KeyedAddress) -> Address | None:
        """The address of a record's street and ZIP keys without city or state, the ZIP none of the region's
        ({"postal_code": "94588", "address": "4501 Rosewood Dr"}): outside the region, without city, in the state
        the ZIP's prefix names. The keys say which value is the street and which the ZIP, so no town is read from
        the street's words ("1000 Town Center Drive" is no street "Town Center" in a town "Drive"): the value is
        read as a structured record's street is, and its street must end in a type word or a highway's number.
        Only one object's named keys (not a row's columns, not parts joined by nearness) and a ZIP of five digits
        that is no placeholder."""
        postcode = keyed.parts.get("postcode", "")
        if not keyed.named or keyed.crosses_objects or not _ZIP_ONLY.fullmatch(postcode) or _sample_zip(postcode):
            return None
        state = self._zip_state(postcode)
        if state is None:
            return None
        keyed.parts["state"] = state
        written = keyed.text(us=True)  # "4501 Rosewood Dr, CA 94588": the street line, then the state and ZIP
        if written is None:
            return None
        street_line = written.rsplit(", ", 1)[0]
        found = self._from_structured(structured.StructuredAddress(street_line, postcode, None, state, None))
        if found is None or not _TYPED_STREET.search(found.street):
            return None
        return found

    def _zip_state(self, postcode: str | None) -> str | None:
        """The state of a ZIP by its three-digit prefix (the pack's ``zip3_states``), or None."""
        if not postcode or len(postcode) < 5 or not postcode[:5].isdigit():
            return None
        state = self.region.raw.get("zip3_states", {}).get(postcode[:3])
        return state if isinstance(state, str) else None

    def _keyed_without_place(self, parts: dict[str, str], named: bool = True) -> Address | None:
        """The address of keyed parts with a street and a German postcode but no place: in the region when
        the postcode is one of the region's (its place is the postcode's), else outside it. ``named``: keys
        name the parts (not so a data row's columns, whose street must have a street word)."""
        postcode = _POSTCODE_CLEAN.sub("", parts.get("postcode", "").strip())
        if "street" not in parts or "city" in parts or "postcode_city" in parts or not _POSTCODE_FORM["DE"].fullmatch(
                postcode):
            return None
        gaz = self.gazetteer
        found = de.keyed_street(f"{parts['street']} {parts.get('number', '')}", postcode, gaz, named)
        if found is None:
            return None
        street, number = found
        in_region = postcode in gaz.postcodes
        return self._address(street, number, postcode, (gaz.postcodes[postcode][2] or None) if in_region else None,
                             in_region)

    def _known_street(self, name: str) -> bool:
        """Whether ``name`` is a street of the region pack."""
        return self.gazetteer.street_coords(name) is not None

    def _city_in_name(self, name: str) -> str | None:
        """The region's city as written in ``name`` (a key naming an object), or None; a confusable
        ("Oldenburg in Holstein") is none."""
        gaz = self.gazetteer
        if gaz.city_anywhere is None:
            return None
        for match in gaz.city_anywhere.finditer(name):
            found = gaz.match_city(name, match.start())
            if found is not None and found.canonical is not None:
                return found.text
        return None

    # -- building addresses -------------------------------------------------

    def _address(self, street: str, number: str, postcode: str | None, city: str | None,
                 in_region: bool, point: tuple[float | None, float | None] = (None, None),
                 state: str | None = None, unit: str | None = None) -> Address:
        gaz = self.gazetteer
        city_record = gaz.cities.get(f"{city}, {state}") or gaz.cities.get(city or "")
        lat = lon = None
        precision = None
        if point[0] is not None and point[1] is not None:
            lat, lon, precision = point[0], point[1], "point"
        elif in_region and (coords := gaz.street_coords(street)) is not None:
            lat, lon, precision = coords[0], coords[1], "street"
        elif in_region and postcode and postcode in gaz.postcodes:
            lat, lon, precision = gaz.postcodes[postcode][0], gaz.postcodes[postcode][1], "postcode"
        elif in_region and city_record is not None and city_record.lat is not None:
            lat, lon, precision = city_record.lat, city_record.lon, "city"
        return Address(
            street=street,
            house_number=number,
            postcode=postcode,
            city=city,
            country=self.region.country,
            lat=lat,
            lon=lon,
            precision=precision,
            in_region=in_region,
            state=state,
            unit=unit,
        )

    @staticmethod
    def _add(result: ParseResult, seen: _Seen, address: Address) -> bool:
        """Add ``address`` to ``result`` unless read before; True if it was new to this parse."""
        if SAMPLE_WORDS.search(address.street):
            return False  # a sample street, whichever reader found it: "123 Example Street", "1234 Any Street"
        if _PHONE_LOCAL_START.match(address.street):
            return False  # "503 228-9858(W)" above a place line: an area code and a phone number, no street
        key = address.key()
        if key in seen.keys:
            return False
        seen.keys.add(key)
        place = (key[0], key[1], key[3])
        # The first address of the same street, number and city read with a postcode if this one has
        # none, or without one if this one has one.
        other_form = seen.by_place.get((place, not address.postcode))
        if other_form is not None:
            # "Müggenweg 15 ... Oldenburg" read once with and once without its postcode: keep the one with it.
            if address.postcode:
                result.all_addresses[other_form] = address
                seen.index_at(other_form, key, address)
            return True
        if not address.postcode:
            index = seen.with_code.get(key[:2])
            if index is not None:
                earlier = result.all_addresses[index]
                if earlier.in_region == address.in_region and _same_place(earlier.city, address.city):
                    return True  # read before with its postcode (see below)
        if address.postcode:
            # The same street and number read before without a postcode and with the name of the same place
            # written longer or shorter ("Kundenstraße 15", "Frankfurt am Main" from the other cities' list; then
            # "69876" / "Frankfurt" from the record's keys): one address, the one with the postcode.
            index = seen.without_code.get(key[:2])
            if index is not None:
                earlier = result.all_addresses[index]
                if (earlier.postcode is None and earlier.in_region == address.in_region
                        and _same_place(earlier.city, address.city)):
                    result.all_addresses[index] = address
                    seen.index_at(index, key, address)
                    return True
            # The same street, number and postcode read twice (the page text and its second
            # reading: "Mill St.\\nDenver", a country code after the postcode): one address,
            # the reading that places it in the region wins.
            index = seen.by_code.get(key[:3])
            if index is not None:
                if address.in_region and not result.all_addresses[index].in_region:
                    result.all_addresses[index] = address
                    seen.index_at(index, key, address)
                return True
            if address.country == "US":
                # One US address written twice, short and in capitals and in full ("6 WARREN PL, ROXBURY, MA
                # 02119" and "6 Warren Place, Boston, MA 02119"): one address, the fuller writing (the one in
                # the region if only one is).
                index = seen.by_usps.get((_usps_street(address.street), key[1], address.postcode))
                if index is not None:
                    earlier = result.all_addresses[index]
                    if (address.in_region and not earlier.in_region) or (
                            address.in_region == earlier.in_region and _fuller(address, earlier)):
                        result.all_addresses[index] = address
                        seen.index_at(index, key, address)
                    return True
        result.all_addresses.append(address)
        seen.index_at(len(result.all_addresses) - 1, key, address)
        return True

    def _from_structured(self, record: structured.StructuredAddress) -> Address | None:
        gaz = self.gazetteer
        if not self._own_country(record):
            return None  # "3 Charlotte Road, City of London, EC2A 3PE, UK" on a page read for the US
        # The region's order first ("1600 Main St" / "Schloßplatz 1"), then the other one:
        # structured data is written by hand as often as by a template.
        written = record.street_address
        if self.address_format == "de" and "," in written:
            written = de.street_without_supplement(written)  # "streetAddress": "Elisabethstraße 7, 2. OG"
        us_match = _US_NUMBER_STREET.match(written)
        de_match = _DE_STREET_NUMBER.match(written)
        unit = None
        with_unit = street_value(written) if self.address_format == "us" else None
        if with_unit is not None:
            number, street, unit = with_unit  # "streetAddress": "1200 Main Street, Suite 400"
        elif us_match is not None and (self.address_format == "us" or de_match is None):
            number, street = us_match.group("number"), us_match.group("street")
        elif de_match is not None and not (self.address_format == "us" and _unit_only(de_match.group("street"))):
            street = de_match.group("street").strip()
            number = _DE_WORD_RANGE.sub("-", de_match.group("number")).replace(" ", "")
        else:
            return None
        if gaz.samples.search(street):
            return None
        postcode = _POSTCODE_CLEAN.sub("", record.postcode).strip() if record.postcode else None
        if postcode and self.address_format == "us" and len(postcode) > 5 and postcode[:5].isdigit():
            postcode = postcode[:5]  # a ZIP+4 ("77002-1234", "770021234"): the ZIP, as the text readers give it
        if postcode and self.address_format == "us" and us.no_zip(postcode):
            return None  # "postalCode": "99999": a placeholder, as the text readers take it
        locality = " ".join(record.locality.split()) if record.locality else None
        canonical = None
        written_state = (record.region or "").strip()
        state = us.state_code(written_state) if written_state else None
        if locality:
            if self.address_format == "us":
                for city in self.region.cities:
                    names = {fold(n) for n in (city.name, *city.aliases)}
                    if fold(locality) in names and (not state or state == city.state):
                        canonical = city.name
                        break
            else:
                match_city = gaz.match_city(locality, 0)
                if match_city is not None and match_city.canonical is not None:
                    canonical = match_city.canonical
        known = gaz.postcodes.get(postcode) if postcode else None
        if postcode:
            in_region = known is not None and (
                canonical is not None or not locality or fold(locality).startswith(fold(known[2]))
            )
            if in_region and canonical is None:
                canonical = known[2]  # type: ignore[index]
        else:
            in_region = canonical is not None and fold(canonical) not in gaz.ambiguous
        point = (record.lat, record.lon)
        return self._address(street, number, postcode, canonical or locality, in_region, point, state, unit)

    def _own_country_named(self, written: str) -> bool:
        """Whether the country values of a keyed record (joined by "|") name no other country than the region's:
        a name or a code of letters that is not the region country's counts as another country."""
        own = _COUNTRY_NAMES.get(self.region.country, {fold(self.region.country)})
        for value in written.split("|"):
            folded = fold(value).replace(".", "").strip()
            if folded and folded.replace(" ", "").isalpha() and folded not in own:
                return False
        return True

    def _own_country(self, record: structured.StructuredAddress) -> bool:
        """Whether structured data's address may be of the region's country: no other country named,
        and a postcode of the country's form (five digits; the US also ZIP+4)."""
        country = self.region.country
        if record.country:
            written = fold(record.country).replace(".", "").strip()
            if written and written not in _COUNTRY_NAMES.get(country, {fold(country)}):
                return False
        if record.postcode:
            code = _POSTCODE_CLEAN.sub("", record.postcode).strip()
            form = _POSTCODE_FORM.get(country)
            if form is not None and not form.fullmatch(code):
                return False
        return True

    def _attach_point(self, result: ParseResult, point: tuple[float, float]) -> None:
        """A page-wide geo meta tag locates its one address of the region."""
        inside = result.addresses
        bbox = self.region.bbox
        if len(inside) != 1 or inside[0].precision in ("point", "street"):
            return
        lat, lon = point
        if bbox is not None and not (bbox[0] <= lon <= bbox[2] and bbox[1] <= lat <= bbox[3]):
            return
        inside[0].lat, inside[0].lon, inside[0].precision = lat, lon, "point"
