"""US street addresses in text: "1600 Main St Ste 200, Austin, TX 78701".

Anchored on a state (two-letter USPS code or full name) after a comma-separated
place name, optionally followed by a ZIP code; the house number and street
are looked for in a bounded window before the place, so the cost is linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain

from geofocus.geoparser import usfields
from geofocus.geoparser.de import RawAddress
from geofocus.geoparser.digits import FIVE_DIGITS, FiveDigits
from geofocus.geoparser.gazetteer import Gazetteer, fold
from geofocus.geoparser.model import WorkLimit
from geofocus.geoparser.ussplit import (
    DIRECTION_WORDS,
    NUMBERED_UNIT_NAMES,
    NUMBERED_UNIT_WORDS,
    UNIT_WORDS,
    split_before,
)
from geofocus.geoparser.ussplit import TYPES as _SPLIT_TYPES

STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
    "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon",
    "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
    "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia",
    "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
    "PR": "Puerto Rico",
}
_BY_NAME = {v.lower(): k for k, v in STATES.items()}
_BY_NAME_WRITTEN = frozenset(STATES.values())  # the states' names as written ("New Mexico")
_BY_NAME["d.c."] = "DC"
# AP style abbreviations (news, press releases, letterheads: "Chicago, Ill. 60601"); an anchor only
# with a ZIP after them ("Miss.", "Wash.", "Ind." are words too).
AP_STATES = {
    "Ala.": "AL", "Ariz.": "AZ", "Ark.": "AR", "Calif.": "CA", "Colo.": "CO", "Conn.": "CT", "Del.": "DE",
    "Fla.": "FL", "Ga.": "GA", "Ill.": "IL", "Ind.": "IN", "Kan.": "KS", "Kans.": "KS", "Ky.": "KY",
    "La.": "LA", "Md.": "MD", "Mass.": "MA", "Mich.": "MI", "Minn.": "MN", "Miss.": "MS", "Mo.": "MO",
    "Mont.": "MT", "Neb.": "NE", "Nebr.": "NE", "Nev.": "NV", "Okla.": "OK", "Ore.": "OR", "Oreg.": "OR",
    "Pa.": "PA", "Penn.": "PA", "Tenn.": "TN", "Tex.": "TX", "Va.": "VA", "Vt.": "VT", "Wash.": "WA",
    "Wis.": "WI", "Wisc.": "WI", "Wyo.": "WY", "W.Va.": "WV", "N.Mex.": "NM", "N.Dak.": "ND", "S.Dak.": "SD",
}
_AP_BY_FOLDED = {written.lower().rstrip("."): code for written, code in AP_STATES.items()}


def state_code(text: str) -> str:
    """USPS code of a state written as code or name ("Texas" -> "TX")."""
    text = text.strip().rstrip(".")
    if text.upper().replace(".", "") in STATES:
        return text.upper().replace(".", "")
    return _BY_NAME.get(text.lower()) or _AP_BY_FOLDED.get(text.lower(), text.upper())


# Codes, names and dotted codes ("N.C.", "N.Y."; "D.C." among them).
# Codes, names and dotted codes ("N.C.", "N.Y.", "D.C."; one pattern, checked against the codes
# where an anchor is taken: a long alternation costs at every comma of a page).


def _by_first_letter(alternatives: list[str]) -> str:
    """``a|b|c`` for literal alternatives, grouped by their first letter, in the same order within
    each group ("A(?:L|K|labama)|C(?:A|O)"): the same matches as the flat alternation (alternatives
    with different first letters never match at one position), but the engine tries one group
    where it tried all of them (the state patterns run at every comma and line end of a page)."""
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        groups.setdefault(alternative[0], []).append(alternative[1:])
    return "|".join(f"{re.escape(first)}(?:{'|'.join(re.escape(rest) for rest in rests)})"
                    for first, rests in groups.items())


_STATE_ALT = (_by_first_letter(sorted([*STATES, *STATES.values(), *AP_STATES], key=len, reverse=True))
              + r"|[A-Z]\.[A-Z]\.?")  # "D.C." and "D.C" (the last dot left out: "Washington D.C 20500")
_SUFFIX = (
    r"St|Street|Ave|Av|Avenue|Blvd|Boulevard|Rd|Road|Dr|Drive|Ln|Lane|Way|Ct|Court|Pl|Place|"
    r"Pkwy|Parkway|Hwy|Highway|Cir|Circle|Ter|Terrace|Sq|Square|Trl|Trail|Loop|Plz|Plaza|"
    r"Expy|Expressway|Fwy|Freeway|Pike|Row|Walk|Alley|Aly|Crossing|Xing|Run|Path|Pass|Park|"
    r"Center|Ctr|Turnpike|Tpke|Bend|Cv|Cove|Trace|Commons|Mall|Pt|Point|Landing|Ridge|Hts|"
    r"Heights|Glen|Grove|Crescent|Cres"
)
# A word of a street's name; also a letter in quotes, as streets named with a letter are written ('450 "B" Street',
# "the 'K' St. entrance"; in a JSON string the quotes escaped: '450 \\"B\\" Street').
_WORD = r"""(?:[A-Z0-9][A-Za-z0-9'.-]*|\\?["'][A-Z]\\?["'](?= ))"""
_STREET = (
    rf"(?:(?:[NSEW]|N\.|S\.|E\.|W\.|NE|NW|SE|SW|North|South|East|West) )?"
    rf"(?:(?:{_WORD} ){{1,6}}?(?:{_SUFFIX})\.?(?: (?:[NSEW]|NE|NW|SE|SW|North|South|East|West)\.?(?![\w-]))?"
    rf"|Broadway|(?:(?:US|U\.S\.|State|County|Farm to Market|FM) )?(?:Highway|Hwy|Route|Rte|Road|Rd)"
    rf" [0-9]{{1,4}}[A-Z]?|(?:Avenue|Interstate|I-) ?[0-9A-Z]{{1,4}})"
)
# Without a street suffix ("1001 Avenida De Las Americas"): only before a ZIP code.
_STREET_LOOSE = r"(?:[A-Z][a-z'.-]+ |(?:de|del|la|las|los|of|the) ){0,5}[A-Z][a-z'.-]+"
_ORDINALS = "First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth"
# A wing of the floor after a unit, ending its field ("Suite 210 W,", "35th Floor North\n"): part of the unit.
_WING = r"(?: (?:North|South|East|West|[NS]\.?[EW]\.?|[NSEW]\.?)(?=,|\n))?"
_UNIT = (r"(?:,? (?:Suites?|Sutie|Siute|Suit|Suiet|Stuie|Ste|Apt|Unit|Fl|Floor|Rm|Room|Bldg|Building|Dept)\.?"
         r" ?#?[\w-]{1,6}(?:/[\w-]{1,6})?" + _WING +
         r"|,? No\.? ?#?[\w-]{1,6}(?:/[\w-]{1,6})?"  # (no wing: "Highway No. 130 North" is the road's direction)
         +
         r"|,? (?:" + "|".join(sorted({*NUMBERED_UNIT_WORDS, *(w.upper() for w in NUMBERED_UNIT_WORDS)}, reverse=True))
         + r")\.? ?#? ?(?:[A-Za-z]{0,2}-?\d[\w-]{0,6}|[A-Z])(?![\w-])"  # "PMB 123", "Pier 39" (ussplit)
         # "ECM # 90772": a mail service's box ("NW #106": the street's quadrant and its unit)
         r"|,? (?!(?:NE|NW|SE|SW) )[A-Z]{2,4} # ?\d[\w-]{0,6}(?![\w-])"
         r"|,? (?:M\.S\.|MSC) ?#?(?=[\w-]{0,6}\d)[A-Z0-9][\w-]{0,6}(?![\w-])"  # "M.S. 413", "MSC 1234": mail stops
         r"|,? #[\w-]{1,6}|,? (?:[1-9]\d{0,2}(?:st|nd|rd|th)|" + _ORDINALS
         + r") (?:Floor|Fl\.?|floor|fl\.)" + _WING +  # "23rd Floor", "4th floor"
         r"|,? (?:Garden|Lower|Upper|Ground|Main|Street|Plaza|Concourse|Lobby) (?:Level|Floor)"
         r"|,? (?:Level|Lvl\.?) \d{1,2}"
         r"|,? (?:Entrance|Door|Gate|Wing|Dock) (?:[A-Z]|\d{1,3}[A-Z]?)(?![\w-])"  # "Entrance A", "Door 3"
         r"|,? (?:Mezzanine|Lobby|Basement|Penthouse)(?=,|\n))")  # "Garden Level", "Level 2", "Mezzanine"
_CITY = r"(?P<city>[A-Z][A-Za-z.'-]*(?:[ -](?:(?:of|de|del|la|las|los|the|on) )?[A-Z][A-Za-z.'-]*){0,3})"
# What may stand between the street (and its unit) and the city besides a unit, none of it kept: the name of
# a room or an area after a floor ("4th Floor Conference Room", "Second Floor Atrium": the unit is the
# floor); a field or a line naming a building, a hall or a room ("City Hall Tower, Suite 9100", "Committee
# Room One"; the unit after it is kept); a mail stop ("MS: 99-3-1", "Mail Stop 4"). A named field holds one
# of the words of such names within its first 60 characters and no digit, and is neither a unit word with
# its letter or number ("Room A", "Office 301A", "Building C Suite 202": a unit, which usaddress reads) nor
# a quadrant ("NW North Tower"); the city after it is required, so a field that is the city ("Valley
# Center") stays the city.
_UNIT_WORDS = r"(?:Suites?|Ste|Apt|Unit|Fl|Floor|Rm|Room|Bldg|Building|Dept|No|Office|Wing|Level)"
_PLACE_WORDS = (r"Tower|Towers|Building|Bldg|Hall|Center|Centre|Plaza|Complex|Annex|Atrium|Room|Wing|Chambers?|"
                r"Auditorium|Lobby|Courthouse|Library|Offices?|Headquarters")
_PLACE_FIELD = (rf"(?:,? ?\n|, ?)(?=[^,\n]{{0,60}}?\b(?:{_PLACE_WORDS})\b)(?!{_UNIT_WORDS}\.? ?#?[A-Z0-9][\w-]{{0,6}}\b"
                rf"|(?:[NSEW]|NE|NW|SE|SW)\b)"
                rf"[A-Z][A-Za-z.'&-]*(?: (?:[A-Z][A-Za-z.'&-]*|of|the|and|&)){{0,6}}")
_MAIL_STOP_FIELD = (r"(?:,? ?\n|,? )(?P<stop>(?:MS|M/S|Mail Stop|Mailstop|Mail Code|MAIL STOP|MAIL CODE)"
                    r"(?:[:#] ?| #?|-)(?!\d{5}(?![\w-]))(?=[\w-]{0,10}\d)[A-Z0-9][\w-]{0,10})")
# (with a digit: not "MSU"; not five digits: "MS 39201" is a state and its ZIP)
_ASIDE = (r"(?:(?:(?<=Floor)|(?<=Fl\.)|(?<=Fl))(?P<room>(?: [A-Z][a-z]+){1,3}))?"
          rf"(?:{_PLACE_FIELD}(?P<unit2>{_UNIT})?(?:{_PLACE_FIELD})?)?(?:{_MAIL_STOP_FIELD})?")
# Fields of a row ("123 Main St;Chicago;IL;60601", "123 Main St | Chicago | IL | 60601") are
# separated like the parts of a line; a house number may be a field of its own when it starts one
# ("1600,Pennsylvania Ave NW,Washington,DC,20500", quoted SQL fields read one per line).
_BEFORE = re.compile(
    rf"(?:(?<![\w#/-])(?<![Bb][Oo][Xx] )(?P<number>[1-9]\d{{0,5}}[A-Z]?(?:-\d{{1,4}})?|One|Two) (?!\d{{3,}} )"
    rf"|(?<![^\n,;|])(?P<field_number>[1-9]\d{{0,5}}[A-Z]?) ?[,;|\n] ?(?!\d+ ))(?P<street>{_STREET})"
    rf"(?P<unit>{_UNIT})?{_ASIDE}(?: ?,|\n|,\n| ?[;|·•] ?) ?{_CITY} ?[,;|·•]? ?$"
)
_BEFORE_LOOSE = re.compile(
    rf"(?<![\w#/-])(?P<number>[1-9]\d{{0,5}}[A-Z]?(?:-\d{{1,4}})?) (?P<street>{_STREET_LOOSE})"
    rf"(?P<unit>{_UNIT})?(?: ?,|\n|,\n) ?{_CITY} ?,? ?$"
)
_COMPANY = {"inc", "inc.", "llc", "ltd", "ltd.", "corp", "corp.", "co", "co.", "company", "group", "lp", "llp",
            "pc", "pllc", "associates", "partners", "foundation", "university", "college", "church"}
_COPYRIGHT = re.compile(r"©|\(c\)|copyright|since|founded|est\.", re.I)


def _loose_ok(found: re.Match[str], before: str) -> bool:
    """A street without suffix: not "© 2024 Acme Inc", not a year, not a company."""
    number = found.group("number")
    if number.isdigit() and len(number) == 4 and 1900 <= int(number) <= 2099:
        line_start = before.rfind("\n", 0, found.start()) + 1
        if _COPYRIGHT.search(before, line_start, found.start()) or int(number) >= 1950:
            return False
    words = found.group("street").lower().split()
    if set(words) & _COMPANY or len(number) < 2:
        return False  # "Serving 5 Counties, Austin, TX 78701"
    # The number starts the address: nothing but a label or punctuation before it.
    line_start = max(before.rfind("\n", 0, found.start()), 0)
    lead = before[line_start : found.start()].strip(" \n")
    return (not lead or lead.endswith((":", ",", "|", "·", "•", "-", "–"))
            or lead.lower().endswith(" at") or lead.lower() == "at")


_QUADRANTS = {"N", "S", "E", "W", "NE", "NW", "SE", "SW", "N.E", "N.W", "S.E", "S.W",
              "NORTHEAST", "NORTHWEST", "SOUTHEAST", "SOUTHWEST"}
_NOT_STREET = {"box", "p.o.", "po", "suite", "ste", "floor", "room", "unit", "apt", "order", "call", "phone"}
# Anchors, found by scans the regex engine can run fast (a literal "," or a
# digit first): ", ST[ ZIP]" and "ST ZIP" without the comma. The ZIP may stand on the next line
# ("Denver,\nCO\n80209": microdata, table cells and form fields, one part per element).
_COMMA_STATE = re.compile(
    rf",[ \n]?(?P<state>{_STATE_ALT})(?!\.\w)\.?(?:(?: ?, ?| |[ \t]*\n[ \t]*| [-–—] )(?P<zip>\d{{5}})(?:-\d{{4}})?)?"
    r"(?!\w|-\w)"
)
# Preceded by a lower-case letter or "." and a space: checked after the match, so that the
# pattern starts with the codes' first letters (a fast scan) rather than a lookbehind.
# The end of a quoted value is the end of its line ("42370 Bob Hope Drive, Rancho Mirage CA"), as in code and data;
# so is the end of a sentence ("Meet me at 123 Elm Street, Boise Idaho.", "... 9 Oak St, Tulsa OK. Then"), and the
# state may be written out there ("Boise Idaho"), as people write it in prose and messages. Weak anchors all: a
# street with a type word must come before.
_CODES_AND_NAMES = _by_first_letter(sorted([*STATES, *STATES.values()], key=len, reverse=True))
_STATE_AT_LINE_END = re.compile(rf"(?P<state>{_CODES_AND_NAMES})(?=[ \t]*(?:\n|$)|\.?[\"'](?!\w)|\.(?:[ \t\n]|$))")
# "TX 78701", "TX, 78701", "TX,78701" (CSV), "TX ,&nbsp;78701" (a template's stray space), "TX\n78701" (table
# cells, one field per line).
_STATE_BEFORE_ZIP = re.compile(rf"(?<=[ \n,;|·•])(?P<state>{_STATE_ALT})\.?(?: ?, ?| |\n| ?[;|·•] ?| [-–—] )$")
# Any case ("mobile al 36608", "RHODE ISLAND 02914"): a weak anchor, taken only
# when a street with a type word is found before it.
_STATE_BEFORE_ZIP_ANY_CASE = re.compile(rf"(?<=[ \n,;|·•])(?P<state>{_STATE_ALT})\.?(?:,? |,|\n| ?[;|·•] ?)$",
                                        re.I)
# A place (or the country) written between the state and its ZIP, on the same line: ", Seattle 98034" after
# "Kirkland, WA"; ", USA 78701".
_PLACE_THEN_ZIP = re.compile(r",[ \t]?(?:(?:[A-Z][a-z][A-Za-z.'-]{0,20}|USA|US|U\.S\.A\.)[ \t]){1,3}"
                             r"(?P<zip>\d{5})(?:-\d{4})?(?!\w|-\w)")
# Not a ZIP when a word or "-" and a word follow ("60601-ish"); "60473--em--" (a feed's markup) is one.
_ZIP_TAIL = re.compile(r"(?:-?\d{4})?(?!\w|-\w)")


def _known_state(written: str) -> bool:
    """A dotted code names a state ("N.C."), not "e.g." or "A.B."; codes and names always do."""
    return "." not in written or state_code(written) in STATES


_OTHER_COUNTRY_AFTER = re.compile(
    r"[ ,;]*(?:Canada|UK|U\.K\.|United Kingdom|England|Scotland|Wales|Ireland|Australia|New Zealand|Germany|"
    r"Deutschland|France|Mexico|México|Italy|Italia|Spain|España|Netherlands|Belgium|Switzerland|Austria|"
    r"Japan|China|India|Brazil|Brasil)\b")


def _city_names_by_zip(gaz: Gazetteer) -> dict[str, tuple[str, tuple[str, ...]]]:
    """ZIP of the region -> (state, the folded names of its city: name and aliases)."""
    index = getattr(gaz, "_us_zip_names", None)
    if index is None:
        by_city = {c.name: c for c in gaz.region.cities}
        index = {}
        for code, entry in gaz.postcodes.items():
            city = by_city.get(entry[2])
            if city is not None:
                index[code] = (city.state, tuple(fold(n) for n in (city.name, *city.aliases)))
        gaz._us_zip_names = index  # type: ignore[attr-defined]
    return index


def _city_before_zip(text: str, begin: int, zip_code: str, gaz: Gazetteer) -> str | None:
    """The state of the region city whose name ends right before its own ZIP, without a state between
    ("1200 Getty Center Dr., Los Angeles 90049"), or None."""
    known = _city_names_by_zip(gaz).get(zip_code)
    if known is None:
        return None
    before = fold(text[max(0, begin - 40):begin]).rstrip(" ,")
    for name in known[1]:
        if before.endswith(name) and (len(before) == len(name) or not before[-len(name) - 1].isalnum()):
            return known[0]
    return None


# Where a value or a field starts: a line, a quote, a label's colon, a cell.
_FIELD_STARTS = "\n\"'>:;|\t"


def _town_before_zip(text: str, begin: int, gaz: Gazetteer) -> str | None:
    """The state of the ZIP at ``begin`` (the pack's ``zip3_states``) when the ZIP ends a field that holds
    nothing else before it but a house number, a street with a type word and a town of one to three
    capitalised words, without a state ("380 New York St. Redlands 92373", "9 Maple Dr, Salem 97301"); else None.
    Not for a ZIP of the region: its city is read before it (``_city_before_zip``), and a word there that is no
    name of the ZIP's places ("12 Oak St Warehouse 30301") must not make an address of the region."""
    if text[begin:begin + 5] in gaz.postcodes:
        return None
    low = max(0, begin - 80)
    start = max(text.rfind(c, low, begin) for c in _FIELD_STARTS)
    if start < 0 and low > 0:
        return None
    field = text[start + 1:begin]
    words = field.replace(",", " ").split()
    if words and not _NUMBER_WORD.fullmatch(words[0]):
        # Prose: the street starts after "at" or a comma ("... is located at 3315 Mission Drive, Santa Cruz
        # 95065", "Woodside High School, 199 Churchill Avenue, Woodside, 94062"), the rest as in a field.
        starts = [m.start("number") for m in _STREET_IN_PROSE.finditer(field)]
        if not starts:
            return None
        words = field[starts[-1]:].replace(",", " ").split()
    if len(words) < 4 or not _NUMBER_WORD.fullmatch(words[0]):
        return None
    typed = max((i for i, w in enumerate(words[:-1]) if i > 1 and w.lower().rstrip(".") in TYPE_WORDS), default=0)
    if not typed:
        return None
    town = words[typed + 1:]
    if town and town[0].startswith("#"):
        town = town[1:]  # "825 Southwood Drive #5, South San Francisco 94080"
    elif (len(town) > 2 and town[0].lower().rstrip(".") in UNIT_WORDS
          and (any(c.isdigit() for c in town[1]) or len(town[1]) == 1)):
        town = town[2:]  # "..., Suite B, Santa Cruz 95065", "..., Room 306, San Bruno 94066"
    while town and town[0].lower().rstrip(".") in DIRECTION_WORDS:
        town = town[1:]  # "Main St NW Salem": the street's direction
    if not 1 <= len(town) <= 3 or not all(w[:1].isupper() and w.isalpha() for w in town):
        return None
    if any(w.lower() in TYPE_WORDS or w.lower() in UNIT_WORDS or w.lower() in NUMBERED_UNIT_NAMES
           or w.upper() in _COUNTRY_AS_CITY for w in town):
        # "Main St Suite 12345", "Ave Ste B, PMB 53289" (a box's number), "123 Main St, Anytown, USA 12345" (a
        # sample: no state, a country)
        return None
    state = gaz.region.raw.get("zip3_states", {}).get(text[begin:begin + 3])
    return state if isinstance(state, str) else None


_NUMBER_WORD = re.compile(r"[1-9]\d{0,5}[A-Z]?")
# A house number after "at" or a comma in a sentence: where a street starts in prose.
_STREET_IN_PROSE = re.compile(r"(?:\bat|,)[ \t\n]+(?P<number>[1-9]\d{0,5}[A-Z]?)[ \t\n]+[A-Z0-9]")


def _anchors(text: str, limit: WorkLimit, gaz: Gazetteer | None = None,
             digits: FiveDigits | None = None) -> list[tuple[int, str, str | None, int, bool]]:
    """(state start, state as written, ZIP or None, end, weak) in text order; ``digits``: the scan of
    ``text`` for five digits to record (see :mod:`geofocus.geoparser.digits`)."""
    found: dict[int, tuple[int, str, str | None, int]] = {}
    weak: set[int] = set()
    zips: set[int] = set()  # where the ZIP of an anchor found starts: the ZIP scan below skips them
    candidate = limit.candidate
    for m in _COMMA_STATE.finditer(text):
        if not candidate():
            break
        state, zip_code = m.group("state", "zip")
        if zip_code is None and state in AP_STATES:
            continue  # "..., Miss. Smith": an AP abbreviation counts only before a ZIP
        if "." not in state or _known_state(state):
            at = m.start("state")
            end = m.end()
            if zip_code is None and text.startswith(",", end):
                # "Kirkland, WA, Seattle 98034": a place between the state and the ZIP on the same line (the
                # metro area's name); the ZIP is the address's, the city the one before the state.
                later = _PLACE_THEN_ZIP.match(text, end)
                if later is not None and text[end + 1:later.start("zip")].strip(" \t,") in _BY_NAME_WRITTEN:
                    continue  # "Indiana, Pennsylvania 15705": a place named like a state, then its state
                if later is not None:
                    zip_code, end = later.group("zip"), later.end()
                    zips.add(later.start("zip"))
            found[at] = (at, state, zip_code, end)
            if zip_code and m.group("zip"):
                zips.add(m.start("zip"))
    # "1435 North Wells Street Chicago IL" at the end of a line: no comma, no ZIP; weak.
    for m in _STATE_AT_LINE_END.finditer(text):
        if not limit.candidate():
            break
        at = m.start()
        before = text[at - 2] if at >= 2 else ""
        if at < 2 or text[at - 1] != " " or not (before.islower() and before.isascii() or before == "."):
            continue
        if m.start("state") not in found:
            found[m.start("state")] = (m.start("state"), m.group("state"), None, m.end())
            weak.add(m.start("state"))
    # "10502 shadow ridge ln apt 103 louisville ky", "610 EAST MAIN MARION KANSAS": a line that starts
    # with a house number and ends with a state in any case, no ZIP; weak (a street type is needed).
    for line_start in _number_line_starts(text):
        if not limit.candidate():
            break
        state_at = _state_ending_line(text, line_start)
        if state_at is not None and state_at[0] not in found:
            found[state_at[0]] = (state_at[0], state_at[1], None, state_at[2])
            weak.add(state_at[0])
    for begin in (digits.scan() if digits is not None else (m.start() for m in FIVE_DIGITS.finditer(text))):
        if not limit.candidate():
            break
        end = begin + 5
        if begin in zips or begin and text[begin - 1].isalnum():
            continue
        tail = _ZIP_TAIL.match(text, end)
        if tail is None:
            continue
        # Cheap test first: a state name or code ends in a letter or "." just before.
        j = begin - 1
        while j >= 0 and text[j] in " ,\n;|·•":
            j -= 1
        if j < 0 or not (text[j].isalpha() or text[j] == "."):
            continue
        state = _STATE_BEFORE_ZIP.search(text, max(0, begin - 24), begin)
        if state is None:
            state = _STATE_BEFORE_ZIP_ANY_CASE.search(text, max(0, begin - 24), begin)
            if state is not None:
                weak.add(state.start("state"))
        if state is None and gaz is not None and text[begin - 1:begin] in (" ", ","):
            if _OTHER_COUNTRY_AFTER.match(text, tail.end()):
                continue  # "3 Charlotte Road, Austin, 78701, Canada": no state, and another country
            own_state = _city_before_zip(text, begin, text[begin:end], gaz)
            if own_state is not None and begin not in found:
                # The ZIP stands where the state would: the anchor is the ZIP, the state its city's.
                found[begin] = (begin, own_state, text[begin:end], tail.end())
            elif begin not in found:
                zip_state = _town_before_zip(text, begin, gaz)
                if zip_state is not None:
                    # "380 New York St. Redlands 92373": a typed street, a town and its ZIP as the whole value or
                    # line; the state is the ZIP's (weak: a typed street is needed).
                    found[begin] = (begin, zip_state, text[begin:end], tail.end())
                    weak.add(begin)
            continue
        if state is None or not _known_state(state.group("state")):
            continue
        at = state.start("state")
        if at not in found:
            found[at] = (at, state.group("state"), text[begin:end], tail.end())
        elif found[at][2] is None:
            # The state was found without its ZIP, which follows in another field: "San Francisco, CA |
            # 94158" (a row's cells), "Baltimore MD\n21202" (one part per line).
            found[at] = (at, found[at][1], text[begin:end], tail.end())
    return [(*found[k], k in weak) for k in sorted(found)]


_LINE_NUMBER = re.compile(r"\n[1-9]")
_STATE_ANY_CASE = {**{code.lower(): code for code in STATES}, **_BY_NAME}
_COUNTRY_WORDS = ("united states", "usa", "u.s.a.", "us")


def _number_line_starts(text: str) -> Iterator[int]:
    if text[:1] in "123456789" and text:
        yield 0
    for m in _LINE_NUMBER.finditer(text):
        yield m.start() + 1


def _state_ending_line(text: str, line_start: int) -> tuple[int, str, int] | None:
    """(start, state as written, line end) of a state name or code that ends the line at ``line_start``."""
    end = text.find("\n", line_start, line_start + 161)
    if end < 0:
        end = len(text)
        if end - line_start > 160:
            return None
    # A tab separates fields as a space separates words ("1600 Pennsylvania Avenue<TAB>washington<TAB>dc", a
    # tab-separated row): read as a space (one character for one, so that the offsets stay those of ``text``).
    line = text[line_start:end].replace("\t", " ").rstrip(" .,")
    folded = line.lower()
    for country in _COUNTRY_WORDS:
        if folded.endswith(" " + country):
            line = line[: -len(country) - 1].rstrip(" ,")
            folded = line.lower()
            break
    words = line.rsplit(" ", 3)
    for n in (3, 2, 1):  # "district of columbia", "new york", "ky"
        if len(words) <= n:
            continue
        tail = " ".join(words[-n:])
        if tail.lower() in _STATE_ANY_CASE:
            return line_start + len(line) - len(tail), tail, end
    return None


def region_city_index(gaz: Gazetteer) -> dict[tuple[str, str], str]:
    """(folded name or alias, state) -> the region city's name."""
    index = getattr(gaz, "_us_city_index", None)
    if index is None:
        index = {}
        for city in gaz.region.cities:
            for name in (city.name, *city.aliases):
                index[(fold(name), city.state)] = city.name
        gaz._us_city_index = index  # type: ignore[attr-defined]
    return index


# A township is a municipality of its own, never a neighbourhood of a city, even where the USPS accepts its name
# for a ZIP of the city ("White Bear Township, MN 55110", a ZIP of St. Paul): "Township", "Twp", "Tp", "Charter
# Township", "Town of ..." (the pack's list of towns of their own, ``zip_towns``, has incorporated places only).
_TOWNSHIP = re.compile(r"\b(?:township|twp|tp)\b|^town of ")


def membership(gaz: Gazetteer, city_text: str, state: str | None, zip_code: str | None,
               region_cities: dict[tuple[str, str], str] | None = None) -> tuple[str | None, bool]:
    """(region city, in region) of a US address.

    A ZIP code of the region counts when the place written is the ZIP's city,
    one of its aliases or a USPS-acceptable name of the ZIP; without a ZIP the
    city and state must name a region city.
    """
    region_cities = region_cities if region_cities is not None else region_city_index(gaz)
    folded = fold(city_text)
    canonical = region_cities.get((folded, state or ""))
    if canonical is None and not state:
        matches = {v for (n, _s), v in region_cities.items() if n == folded}
        canonical = matches.pop() if len(matches) == 1 else None
    if zip_code:
        known = gaz.postcodes.get(zip_code)
        if known is not None:
            entry = gaz.region.raw.get("postcodes", {}).get(zip_code, [])
            accepted = {fold(known[2])}
            if len(entry) > 3 and isinstance(entry[3], list):
                accepted.update(fold(n) for n in entry[3])
            if canonical is not None and canonical == known[2]:
                return canonical, True
            if _TOWNSHIP.search(folded):
                return canonical, False  # "White Bear Township, MN 55110": a township the USPS accepts for the ZIP
            if folded in accepted:
                return known[2], True
            if folded in _zip_towns(gaz).get(zip_code, ()):
                return canonical, False  # "South Fulton, GA 30336": a town of its own with the city's ZIP
            if len(accepted) > 1 and _usps_long(folded) in {_usps_long(n) for n in accepted}:
                return known[2], True  # "Jackson Heights" for the USPS's "Jackson Hts"
            if canonical is None and state and (folded, state) in _far_towns(gaz):
                return None, False  # "Springfield, IL 60652": a town far from the city whose ZIP is written
            if (canonical is None and state and (len(entry) <= 3 or zip_code not in _zip_towns(gaz))
                    and fold(known[2]) not in folded
                    and any(c.state == state for c in gaz.region.cities if c.name == known[2])):
                # A neighbourhood or borough written as the place ("Jamaica, NY 11424", "Harlem, NY 10027"):
                # the region's ZIP in the state of its city, no other city of the region named, no other
                # place name known for the ZIP ("Spokane Valley, WA 99206" is another city, "Spokane Vly" to
                # the USPS; a town the USPS accepts for the ZIP is out above) and no longer name of the city
                # ("South San Francisco"). The place stays as written. Names the USPS accepts for the ZIP besides
                # the city's are no other city when the pack lists no town of its own for it (``zip_towns``): the
                # city's neighbourhoods ("Forest Hills, NY 11375", whose ZIP the USPS also calls "Flushing").
                return None, True
            return canonical, False
        if canonical is None:
            # A district the USPS files its own ZIPs under ("Sylmar, CA 91342", "Kingwood, TX 77339"): in the
            # region when the ZIP is of the district's state (the pack's ``zip3_states``), written as is.
            district_state = _district_state(gaz, folded, state)
            zip_state = gaz.region.raw.get("zip3_states", {}).get(zip_code[:3])
            return None, district_state is not None and district_state == zip_state
        prefixes = gaz.region.raw.get("zip_prefixes", {}).get(f"{canonical}, {state}", [])
        return canonical, any(zip_code.startswith(p) for p in prefixes)
    if canonical is None and state:
        # A neighbourhood without ZIP that the USPS accepts as the place of a ZIP of a region city in the
        # same state ("Flushing, NY", "Roxbury, MA", "Long Island City, NY"): in the region, written as is.
        if (folded, state) in _accepted_names(gaz) or _district_state(gaz, folded, state) is not None:
            return None, True
    return canonical, canonical is not None


def _district_state(gaz: Gazetteer, folded: str, state: str | None) -> str | None:
    """The state of a region city one of whose districts (the pack's ``districts``) is named ``folded``, if
    ``state`` is that state or none is written."""
    districts = getattr(gaz, "_us_districts", None)
    if districts is None:
        districts = {(fold(name), city.rsplit(", ", 1)[1])
                     for city, names in gaz.region.raw.get("districts", {}).items() for name in names}
        gaz._us_districts = districts  # type: ignore[attr-defined]
    if state:
        return state if (folded, state) in districts and (folded, state) not in _far_towns(gaz) else None
    states = {s for name, s in districts if name == folded and (folded, s) not in _far_towns(gaz)}
    return states.pop() if len(states) == 1 else None


# The USPS's abbreviations in place names ("Jackson Hts", "Colorado Spgs", "Sprngfld Gdns"), written out.
_USPS_PLACE_WORDS = {"hts": "heights", "spgs": "springs", "vly": "valley", "pt": "point", "xing": "crossing",
                     "ctr": "center", "gdns": "gardens", "mt": "mount", "ft": "fort", "st": "saint", "sta": "station",
                     "vlg": "village", "lk": "lake", "bch": "beach", "hbr": "harbor", "pk": "park",
                     "spfd": "springfield", "sprngfld": "springfield", "n": "north", "s": "south", "e": "east",
                     "w": "west"}


def _usps_long(folded: str) -> str:
    return " ".join(_USPS_PLACE_WORDS.get(word, word) for word in folded.replace(".", "").split())


def _zip_towns(gaz: Gazetteer) -> dict[str, frozenset[str]]:
    """ZIP -> the folded names of the towns of their own that the USPS accepts for it besides the region
    city (the pack's ``zip_towns``: "South Fulton" for Atlanta's 30336, "Parma" for Cleveland's 44129)."""
    towns = getattr(gaz, "_us_zip_towns", None)
    if towns is None:
        towns = {code: frozenset(fold(n) for n in names) for code, names in gaz.region.raw.get("zip_towns", {}).items()}
        gaz._us_zip_towns = towns  # type: ignore[attr-defined]
    return towns


def _far_towns(gaz: Gazetteer) -> frozenset[tuple[str, str]]:
    """(folded name, state) of the towns of their own far from every region city of their state (the pack's
    ``far_towns``)."""
    towns = getattr(gaz, "_us_far_towns", None)
    if towns is None:
        towns = frozenset((fold(name), state) for state, names in gaz.region.raw.get("far_towns", {}).items()
                          for name in names)
        gaz._us_far_towns = towns  # type: ignore[attr-defined]
    return towns


# No ZIP starts with 000 to 004 (the USPS's first prefix is 005) or is above 99950 (Ketchikan, Alaska, the last):
# "00000" and "99999" are a form's or a sample's placeholders.
_UNASSIGNED_ZIP3 = frozenset(("000", "001", "002", "003", "004"))
_LAST_ZIP = 99950


def no_zip(zip_code: str) -> bool:
    """Whether the five digits of ``zip_code`` are no ZIP's ("00000", "99999")."""
    digits = zip_code[:5]
    return digits.isdigit() and (digits[:3] in _UNASSIGNED_ZIP3 or int(digits) > _LAST_ZIP)


def _accepted_names(gaz: Gazetteer) -> frozenset[tuple[str, str]]:
    """(folded place name, state) of the USPS-acceptable names of the region's ZIPs (``postcodes`` entries'
    fourth field), the state being that of the ZIP's city."""
    names = getattr(gaz, "_us_accepted_names", None)
    if names is None:
        states = {c.name: c.state for c in gaz.region.cities}
        found: set[tuple[str, str]] = set()
        for entry in gaz.region.raw.get("postcodes", {}).values():
            if len(entry) > 3 and isinstance(entry[3], list) and entry[2] in states:
                found.update((fold(n), states[entry[2]]) for n in entry[3])
        names = frozenset(found)
        gaz._us_accepted_names = names  # type: ignore[attr-defined]
    return names


def _direction_only(street: str) -> bool:
    """Whether ``street`` is nothing but directions ("South", "N.E."): the wing of a floor, no street's name."""
    words = street.lower().replace(".", "").split()
    return bool(words) and all(w in DIRECTION_WORDS for w in words)


def _split_address(before: str, start: int, state_text: str, zip_code: str | None, end: int, weak: bool,
                   gaz: Gazetteer, region_cities: dict[tuple[str, str], str], anchor: str,
                   limit: WorkLimit) -> RawAddress | None:
    """The token splitter's reading of the words before a state, when the patterns found nothing;
    failing that, usaddress's reading of the whole span (see :func:`_tagged_address`)."""
    if ";" in before or "|" in before:
        before = before.replace(";", ",").replace("|", ",")  # "2443 Rayburn HOB; Washington DC": a field separator
    window = before.rstrip(" ,\n")
    comma_before_state = "," in before[len(window):] or window.endswith(",")
    split = split_before(window)
    if split is None and comma_before_state and zip_code is not None and not weak:
        split = split_before(window + ",")  # the comma read too: "100 Spear St, CA 94105" (no city)
    if split is not None and not split.city and (zip_code is None or weak or not comma_before_state):
        split = None  # no city: only a ZIP after a comma names the place ("900 Sycamore Dr, TN 38361")
    if split is not None:
        if (weak or (zip_code is None and not comma_before_state)) and not split.typed:
            split = None
        elif zip_code is None and len(state_text) == 2 and not comma_before_state and not split.typed:
            split = None  # "Main Austin TX" without comma, ZIP or street type: too weak
    if split is None:
        return _tagged_address(before, window, start, state_text, zip_code, end, weak or (
            zip_code is None and not comma_before_state), gaz, region_cities, anchor, limit)
    words = split.street.lower().split()
    if not words or words[0] in _NOT_STREET:
        return None
    if weak and not usfields.names_look_like_names(
            split.city.split(), split.city if _city_is_field(before, split.city) and (
                zip_code is not None or (fold(split.city), state_code(state_text)) in region_cities)
            else window[split.start:]):
        return None  # "12 Oak Street is where we meet in": no place
    state = state_code(state_text)
    canonical, in_region = membership(gaz, split.city, state, zip_code, region_cities)
    if not split.city and in_region and zip_code in gaz.postcodes:
        canonical = gaz.postcodes[zip_code][2]  # no city written: the region ZIP's city
    return RawAddress(
        street=split.street,
        house_number=split.number,
        postcode=zip_code,
        city=canonical or split.city or None,
        city_text=f"{split.city}, {state}" if split.city else state,
        in_region=in_region,
        start=start - len(before) + split.start,
        end=end,
        state=state,
        unit=split.unit,
    )


def _city_is_field(before: str, city: str) -> bool:
    """Whether ``city``, the last words of ``before``, is a field of its own: a comma or a tab before it and between
    it and the state ("500 Elm Street, dallas, tx 75202", "1600 Pennsylvania Avenue<TAB>washington<TAB>dc": a row of
    data or a form's input typed in small letters). Such a city need not be capitalised in mixed-case text, when a
    ZIP follows or it is a city of the region: prose ("200 Park Avenue stands tall in new york") sets no place off by
    separators, and small words set off ("3 Main Street, done, in") name no town the reader knows."""
    body = before.rstrip(" \t\n,")
    if not city or not body.lower().endswith(city.lower()) or not any(s in before[len(body):] for s in ",\t"):
        return False
    return body[:len(body) - len(city)].rstrip(" ")[-1:] in (",", "\t")


_NUMBER_START = re.compile(r"(?<![\w#/.-])(?:[1-9]\d{0,5}|[NSEWnsew]\d{1,4} ?[NSEWnsew]\d{1,5})"
                           r"(?:-?[A-Za-z]|-\d{1,4}[A-Za-z]?)?(?![\w/])")
_LEAD_OK = (":", ",", "|", "·", "•", "-", "–", ";", ">", "(", "\"", "'", "@")  # "@": "Venue @ 12 Main St" (at)
TYPE_WORDS = frozenset(t.rstrip(".") for t in _SPLIT_TYPES)
# A label before a street without type word must say it is a place ("Address:", "Visit us:"), not
# "Price: 199 Dollars Phoenix, AZ" or "Score: 21 Points Boston, MA".
_PLACE_LABEL = re.compile(r"(?i)\b(?:address|addr|adresse|office|location|located|visit|find us|mail|hq|"
                          r"headquarters|contact|store|shop|studio|where|directions|venue|campus|clinic|showroom)")


def _sentence_ended(lead: str) -> bool:
    """Whether prose before a house number ends a sentence or a remark, so that the address starts after it
    ("... not Ringlers itself) 1223 S.W. Stark Portland, OR", "Come by! 233 East Fulton Grand Rapids, MI");
    not an area code ("(503) 384 ...") nor an abbreviation's dot ("Ste. 12", "No. 5")."""
    if lead.endswith(")"):
        opening = lead.rfind("(")
        return opening >= 0 and not any(c.isdigit() for c in lead[opening:])
    if lead.endswith(("!", "?")):
        return True
    word = lead[:-1].rsplit(None, 1)[-1] if lead.endswith(".") and lead[:-1].strip() else ""
    return (len(word) > 2 and word.isalpha() and word[-1].islower() and word.lower() not in TYPE_WORDS
            and word.lower() not in UNIT_WORDS)


def _tagged_address(before: str, window: str, start: int, state_text: str, zip_code: str | None, end: int,
                    weak: bool, gaz: Gazetteer, region_cities: dict[tuple[str, str], str], anchor: str,
                    limit: WorkLimit) -> RawAddress | None:
    """usaddress's reading of "number ... state [ZIP]" where the hand-written splitter found no
    boundary: streets without a type word and without a comma before the city ("233 East Fulton
    Grand Rapids, MI 49503", "115 Broadway San Francisco CA"), grid streets, units anywhere.

    The span must start at a house number that starts the address (at a line start, or after a
    label or punctuation) and usaddress must read all of it as one address, names capitalised in
    mixed-case text (:func:`usfields.read`).  A weak anchor (no ZIP, no comma before the state)
    with a street without type word counts only when the place is a city of the region."""
    tried = 0
    for m in reversed(list(_NUMBER_START.finditer(window))):
        if tried == 3 or limit.field_splits <= 0:
            break
        line_start = window.rfind("\n", 0, m.start()) + 1
        lead = window[line_start:m.start()].strip()
        if lead and not (lead.endswith(_LEAD_OK) or lead.lower() == "at" or lead.lower().endswith(" at")
                         or _sentence_ended(lead)):
            continue
        if "\n" in window[m.start():].strip():
            continue  # one line: a line break inside is read by the other readings
        tried += 1
        limit.field_splits -= 1
        reading = usfields.read(window[m.start():] + before[len(window):] + anchor, TYPE_WORDS)
        if reading is None:
            continue
        if _norm_number(reading.number) != _norm_number(m.group(0)):
            continue
        if reading.street.lower().split()[0] in _NOT_STREET or fold(reading.city).upper() in _QUADRANTS:
            continue
        state = state_code(state_text)
        canonical, in_region = membership(gaz, reading.city, state, zip_code, region_cities)
        if not reading.typed:
            if (weak or zip_code is None) and canonical is None:
                return None  # no type word, no ZIP: only a city of the region makes it an address
            if (lead.endswith(":") and not _PLACE_LABEL.search(lead)) or lead.endswith("@"):
                continue  # "@ 199 Dollars Phoenix, AZ": after "@" only a typed street
        return RawAddress(
            street=reading.street,
            house_number=reading.number,
            postcode=zip_code,
            city=canonical or reading.city,
            city_text=f"{reading.city}, {state}",
            in_region=in_region,
            start=start - len(before) + m.start(),
            end=end,
            state=state,
            unit=reading.unit,
        )
    return None


def extract(text: str, gaz: Gazetteer, limit: WorkLimit | None = None,
            digits: FiveDigits | None = None) -> Iterator[RawAddress]:
    """US addresses in ``text``, in order; ``in_region`` by ZIP or by city and state. ``digits``, if
    given, records the scan of ``text`` for five digits (see :mod:`geofocus.geoparser.digits`).

    Where the patterns found an address, usaddress re-reads the fields of its span
    (see :mod:`geofocus.geoparser.usfields`)."""
    limit = limit if limit is not None else WorkLimit()
    region_cities = region_city_index(gaz)
    for raw in chain(_extract(text, gaz, limit, digits), _city_anchored(text, gaz, limit),
                     _left_out_fields(text, gaz, limit), _labelled_towns(text, gaz, limit),
                     _headed_streets(text, gaz, limit)):
        limit.field_splits -= 1
        raw = _refined(raw, text, gaz, region_cities) if limit.field_splits >= 0 else raw
        if not any(c.isalpha() for c in raw.street) or _direction_only(raw.street):
            continue  # "Phone: 312 555 0100, Chicago, IL": digits alone are no street, nor is "5 South" (a wing)
        if raw.postcode and no_zip(raw.postcode):
            continue  # "New York, NY 99999": a placeholder ZIP, no address
        if _measured(raw.street):
            continue  # "44 sq. ft. 000 Columbia Ave.", "2 acres Columbia Ave.": a quantity, no house number
        if raw.city and raw.city.upper().replace(".", "").replace(" ", "") in _COUNTRY_AS_CITY:
            continue  # "1600 Main St, USA, New York, NY": "New York" read as the state, the country as its city
        if raw.city and ('"' in raw.city or ":" in raw.city or raw.city.endswith("'")):
            # 'addressLocality": "Houston', "city: 'BOSTON'": a reading across the fields of data (the keys
            # read them); an apostrophe inside a name stays ("Coeur d'Alene").
            continue
        if raw.street[1:4].strip("\\")[:1] in ("'", '"') or raw.street[:1] in ("'", '"', "\\"):
            # '450 "B" Street' (also with the quotes escaped in a JSON string; usaddress leaves the first one
            # out): the street is named with the letter, "B Street"
            raw.street = _QUOTED_LETTER.sub(r"\1", raw.street)
        if raw.street.endswith(")") and "(" not in raw.street:
            raw.street = raw.street[:-1].rstrip()  # "City Hall (900 Bagby St.)\nHouston, TX": the bracket's end
        if raw.street[-1:] in ('"', "'") and raw.street.count(raw.street[-1]) == 1:
            # '["410 E Sixth St", "Austin, TX 78701"]' (an array of an address's lines: Yelp's display_address,
            # addressLines): the closing quote of the street's string, which usaddress keeps on the type word
            raw.street = raw.street[:-1].rstrip()
        if raw.unit and raw.unit[-1:] in ('"', "'") and raw.unit.count(raw.unit[-1]) == 1:
            raw.unit = raw.unit[:-1].rstrip()  # '"Suite 200", "Austin, TX"': the unit's string, likewise
        if raw.city and raw.state is None and " " in raw.city:
            glued = _STATE_NAME_AFTER_PLACE.match(raw.city)
            if glued is not None:
                # "123 Elm Street, Boise Idaho" read by a place-only reading: the state's name, written after the
                # city without a comma, is no part of the city's.
                code = _BY_NAME[glued.group("state").lower()]
                canonical, in_region = membership(gaz, glued.group("place"), code, raw.postcode, region_cities)
                raw.city, raw.state, raw.in_region = canonical or glued.group("place"), code, in_region
        if raw.city and raw.city[:1].islower() and " " in raw.city:
            # "900 Bagby St in downtown Houston, TX": a word of the sentence before the city's name.
            place = raw.city.split(" ", 1)[1]
            if place[:1].isupper():
                canonical, in_region = membership(gaz, place, raw.state, raw.postcode, region_cities)
                raw.city, raw.in_region = canonical or place, in_region
        if raw.street.count(" ") >= 3:
            raw.street = _without_complex_name(raw.street)  # "14 Millett Drive Taylor Brook Mall Auburn, ME"
        if raw.city and " " in raw.city and any(word in raw.city for word in _COMPLEX_NAMES):
            place = _COMPLEX_BEFORE_PLACE.sub("", raw.city, count=1)
            if place != raw.city:
                # "900 Elm Road Lakeview Office Complex Salem, OR": the complex's name read as the place's first words
                canonical, in_region = membership(gaz, place, raw.state, raw.postcode, region_cities)
                raw.city, raw.in_region = canonical or place, in_region
        if raw.city and " " in raw.city and raw.state and (fold(raw.city), raw.state) not in region_cities:
            whole = _neighbourhood_then_city(raw.city, raw.state, raw.postcode, gaz, region_cities)
            if whole is not None:
                raw.city, raw.in_region = whole  # "Roxbury Boston MA 02119": a part of the city, then the city
        if raw.city and ("County" in raw.city or "Parish" in raw.city):
            # "Seattle, King County, WA 98103": a county written between the city and the state is no part of
            # the city's name.
            county = _COUNTY_PART.search(text, raw.start, raw.end)
            if county is not None and raw.city.endswith(county.group(1)) and len(raw.city) > len(county.group(1)):
                place = raw.city[:-len(county.group(1))].rstrip(" ,")
                canonical, in_region = membership(gaz, place, raw.state, raw.postcode, region_cities)
                raw.city, raw.in_region = canonical or place, in_region
        if raw.city and " " in raw.city and raw.state and raw.postcode and "," in text[raw.start:raw.end]:
            columns = _place_before_field(raw.city, raw.state, raw.postcode, text[raw.start:raw.end], gaz,
                                          region_cities)
            if columns is not None:
                raw.city, raw.in_region = columns  # "410 E Sixth St,Austin,Travis,TX,78701": a county's column
        if " at " in raw.street or " & " in raw.street:
            cross = _AT_CROSS_STREET.search(raw.street)
            if cross is not None:
                raw.street = raw.street[:cross.start("cut")]  # "Fifth Avenue at 82nd Street": the cross street goes
        if _MAIL_STOP.search(raw.street):
            continue  # "2 State House Station, Augusta, ME": a mail stop of a building, no street
        if raw.unit is None:
            raw.unit = _leading_unit(text, raw.start)
            if raw.unit is None:
                after = _UNIT_AFTER.match(text, raw.end) if raw.postcode else None
                if after is None:
                    after = _UNIT_NEXT_LINE.match(text, raw.end)
                if after is not None:
                    raw.unit = after.group("unit")
        elif not raw.unit:
            raw.unit = None  # a reading that looked for its unit and found none ("Dallas: 1500 Marilla St")
        elif raw.unit[:1] == "(" and raw.unit[-1:] == ")" and "(" not in raw.unit[1:]:
            raw.unit = raw.unit[1:-1].strip() or None  # "123 Main St (Suite 4), Dallas": a unit in brackets
        yield raw


# Units of measure after a number make it a quantity ("900 sq. ft.", "2 acres"); distances and times only
# before a word of prose ("3 miles down Columbia Ave", "5 minutes from"; "Miles Ave", "Mile Square Rd" are streets).
_MEASURES = frozenset("sq sq. sqft sq.ft. ft ft. feet foot acre acres ac. lbs lbs. lb lb. pounds percent %".split())
_DISTANCES = frozenset("mile miles mi mi. km kilometers yards yds minutes mins min. hours hrs blocks".split())


def _measured(street: str) -> bool:
    words = street.split()
    first = words[0].lower()
    return first in _MEASURES or (first in _DISTANCES and len(words) > 1 and words[1][:1].islower())


def _place_before_field(place: str, state: str, zip_code: str, span: str, gaz: Gazetteer,
                        region_cities: dict[tuple[str, str], str]) -> tuple[str, bool] | None:
    """(place, in region) of a place read together with the field after it, a row's columns city, county, state,
    ZIP ("Austin,Travis,TX,78701", "'Dallas', 'Dallas County'" without the word "County" as data often writes it):
    the words before the comma are a region city of the state or the city of the region's ZIP, the whole is no
    place the pack knows."""
    if membership(gaz, place, state, zip_code, region_cities)[0] is not None:
        return None
    words = place.split()
    known = gaz.postcodes.get(zip_code)
    for i in range(1, len(words)):
        first = " ".join(words[:i])
        city = region_cities.get((fold(first), state))
        if city is None and known is not None and fold(known[2]) == fold(first):
            city = known[2]
        if city is None:
            continue
        if re.search(rf"{re.escape(first)}[\"']?[ \t]*[,;|\t][ \t]*[\"']?{re.escape(' '.join(words[i:]))}", span):
            return city, membership(gaz, city, state, zip_code, region_cities)[1]
        return None
    return None


def _neighbourhood_then_city(place: str, state: str, zip_code: str | None, gaz: Gazetteer,
                             region_cities: dict[tuple[str, str], str]) -> tuple[str, bool] | None:
    """(region city, in region) of a place written as a part of a region city and then the city's name or
    alias, without a comma ("Roxbury Boston", "Astoria Queens", "Brooklyn New York", "Crown Heights Brooklyn
    NYC"): the part is a name of the same city, a USPS name of a region ZIP in the state, or any words when
    the ZIP is the city's.  Not a directional ("North Las Vegas", "East Los Angeles": towns of their own),
    nor a town of its own that shares the ZIP ("Highland Park Dallas 75205")."""
    words = place.split()
    for i in range(1, len(words)):
        name = " ".join(words[i:])
        city = region_cities.get((fold(name), state))
        if city is None:
            continue
        part = " ".join(words[:i])
        folded = fold(part)
        if words[0].lower().rstrip(".") in DIRECTION_WORDS or (zip_code and folded in _zip_towns(gaz).get(
                zip_code, ())):
            return None
        known = gaz.postcodes.get(zip_code) if zip_code else None
        if (region_cities.get((folded, state)) == city or (folded, state) in _accepted_names(gaz)
                or known is not None and known[2] == city):
            return city, membership(gaz, name, state, zip_code, region_cities)[1]
        return None
    return None


# The name of a mall, a centre or a building written between the street and the place ("14 Millett Drive Taylor
# Brook Mall Auburn, ME 04210", "200 N Main St, Westgate Mall, Suite 5, Denver"): a capitalised name ending in
# one of these words after a street's thoroughfare type word, no part of the street or of the place.
_COMPLEX_NAMES = ("Mall", "Center", "Centre", "Plaza", "Building", "Tower", "Complex", "Galleria", "Marketplace",
                  "Pavilion")
_COMPLEX_WORDS = frozenset(name.lower() for name in _COMPLEX_NAMES) | {"towers", "bldg"}
_THOROUGHFARE_WORDS = frozenset("st street ave avenue av rd road dr drive blvd boulevard ln lane way pkwy parkway hwy "
                                "highway ct court pl place ter terrace cir circle trl trail pike expy expressway fwy "
                                "freeway".split())
# (between commas after the street, before a unit or the place, which must follow: left out of the window before
# the state and of the span usaddress re-reads; not "10 Main St, Rockville Centre, NY", a place, nor a quadrant's
# tower, "1800 M Street, NW North Tower, Ste. 700", a unit)
_COMPLEX_BETWEEN = re.compile(rf"\b(?:{_SUFFIX})\.?(?:[ \t]+(?:[NSEW]|[NS][EW]|[NS]\.[EW]\.)\.?)?(?P<name>,[ \t]*"
                              r"(?!(?:[NS][EW]?|[EW]|North|South|East|West)\b)(?:[A-Z][\w.'&-]*[ \t]+){1,4}"
                              r"(?:" + "|".join(_COMPLEX_NAMES) + r")s?)"
                              r"(?=[ \t]*,[ \t]*[\w#][^\n]*\w)")

# (read by usaddress as the place's first words, before the place)
_COMPLEX_BEFORE_PLACE = re.compile(r"^(?:[A-Z][\w.'&-]*[ \t]+){1,4}(?:" + "|".join(_COMPLEX_NAMES)
                                   + r")s?[ \t,]+(?=[A-Z])")


# The name of a university, college or hospital written between the street and the place, as campus and hospital
# pages write their addresses ("500 W 120th St, Columbia University, New York, NY", "1200 Hale Library, Kansas
# State University, Manhattan, KS", "401 Bowen Thompson Student Union, Bowling Green State University,\nBowling
# Green, Ohio"): after the street's part (a house number first, at a line's start or after a comma), between
# commas, a place's part following it; read as the place, it made "Columbia University" a town.  A town named so
# stands last before the state ("State College, PA", "University, MS", "College Station, TX"), so a place must
# follow the name.
_INSTITUTION_WORDS = ("University", "College", "Institute", "Hospital")
_INSTITUTION_BETWEEN = re.compile(r"(?:^|[\n,])[ \t]*[1-9]\d{0,5}[A-Z]?[ \t]+[A-Z][^\n,]{2,60}(?P<name>,[ \t]*(?:"
                                  r"(?:[A-Z][\w.'&-]*[ \t]+){1,4}(?:" + "|".join(_INSTITUTION_WORDS) + r")"
                                  r"|(?:University|College)[ \t]+of(?:[ \t]+[A-Z][\w.'&-]*){1,3}))"
                                  r"(?=[ \t]*,[ \t\n]*[A-Z][^\n]*\w)")


# A contact field between the street's field and the place's in a row of data ("7,Blue Door,410 E Sixth
# St,512-555-0100,Austin,TX,78701", "('410 E Sixth St', 'info@bd.com', 'Austin', 'TX', '78701')"): a phone number, an
# e-mail address or a web address, which exports and tables put after the street (a line of its own in a block of
# lines, a field of quoted SQL values read one a line); read as a unit ("512-555-0100") or ending the reading. The
# street's field first (a house number first), then the contact field, a field after it.
_CONTACT_BETWEEN = re.compile(r"(?:^|[\n,;|\t(])[ \t]*[\"']?[1-9]\d{0,5}[A-Z]?[ \t]+[A-Za-z][^\n,;|\t\"']{2,60}"
                              r"[\"']?(?P<field>[ \t]*[,;|\t\n][ \t]*[\"']?"
                              r"(?:(?:\+?1[ .-]?)?(?:\(\d{3}\)[ ]?|\d{3}[.-])\d{3}[.-]\d{4}|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)[^\s,;|\"']+)[\"']?)"
                              r"(?=[ \t]*[,;|\t\n])")


def _without_complex_between(window: str) -> tuple[str, int]:
    """``window`` without a complex's name (``_COMPLEX_BETWEEN``), an institution's (``_INSTITUTION_BETWEEN``) or
    a contact field (``_CONTACT_BETWEEN``) between the street and the place, and how many characters went."""
    if "@" in window or "-" in window or ")" in window or "//" in window or window.count(".") > 1:
        contact = _CONTACT_BETWEEN.search(window)
        if contact is not None:
            field = contact.span("field")
            return window[:field[0]] + window[field[1]:], field[1] - field[0]
    if any(word in window for word in _INSTITUTION_WORDS):
        found = _INSTITUTION_BETWEEN.search(window)
        if found is not None:
            return window[:found.start("name")] + window[found.end("name"):], found.end("name") - found.start("name")
    if not any(word in window for word in _COMPLEX_NAMES):
        return window, 0
    found = _COMPLEX_BETWEEN.search(window)
    if found is None:
        return window, 0
    return window[:found.start("name")] + window[found.end("name"):], found.end("name") - found.start("name")


def _without_complex_name(street: str) -> str:
    """``street`` without a complex's name written after its thoroughfare type word (``_COMPLEX_WORDS``): the
    first such type word after a name word (with the direction after it), followed by two to five capitalised
    words, the last a complex word, none of them a thoroughfare type ("Millett Drive Taylor Brook Mall",
    "Peachtree Rd NE Phipps Plaza"; not "16th Street Mall", a street)."""
    words = street.split(" ")
    if words[-1].lower().rstrip(".") not in _COMPLEX_WORDS:
        return street
    for i in range(1, len(words) - 2):
        if words[i].lower().rstrip(".") in _THOROUGHFARE_WORDS:
            if words[i + 1].lower().replace(".", "") in DIRECTION_WORDS:
                i += 1  # "Peachtree Rd NE Phipps Plaza": the direction after the type word is the street's
            name = words[i + 1:]
            if 2 <= len(name) <= 5 and all(w[:1].isupper() and w.lower().rstrip(".") not in _THOROUGHFARE_WORDS
                                      for w in name):
                return " ".join(words[:i + 1])
            return street
    return street


# A county between the city and the state: ", King County," / ", East Baton Rouge Parish,".
# A place, then a state's name as its last words (no comma): "Boise Idaho", "Albany New York".
_STATE_NAME_AFTER_PLACE = re.compile(r"(?P<place>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,3}) (?P<state>"
                                     + _by_first_letter(sorted(STATES.values(), key=len, reverse=True)) + ")$")
_COUNTY_PART = re.compile(r",[ \t]*((?:[A-Z][\w.'-]*[ \t]+){1,4}(?:County|Parish)),")


# A mail stop named as a station of a building ("2 State House Station", "45 Capitol Station", Maine's and
# other states' codes for their offices' mail): a building's name before "Station", no street.
_MAIL_STOP = re.compile(r"(?i)\b(?:house|capitol|office|hall|building|center|centre)\s+(?:station|sta\.?)$")


# A note of the cross streets after the street's type word, right before the place: "633 Folsom St. between 2nd and
# 3rd streets, San Francisco", "55 Music Concourse Dr at Martin Luther King Jr Dr, San Francisco", "1200 Main St
# (between 12th & 13th), Kansas City", "500 Pine St near 5th Ave, Seattle": no part of the street; the windows
# before a state and the spans usaddress re-reads are read without it.
_CROSS_NOTE = re.compile(
    rf"\b(?:{_SUFFIX})\.?(?P<note>,?[ \t]\(?(?:(?:between|btwn\.?|b/t|b/w)[ \t](?:the[ \t])?[\w.'-]+(?:[ \t][\w.'-]+)"
    rf"{{0,2}}[ \t](?:and|&)[ \t][\w.'-]+(?:[ \t][\w.'-]+){{0,2}}"
    rf"|(?:at|@|near|off|corner of)[ \t](?:the corner of[ \t])?"
    rf"(?!\d+[A-Z]?[ \t])(?:[A-Z0-9][\w'.-]*[ \t]){{1,5}}(?:{_SUFFIX})\.?)\)?)(?=[ \t]*(?:,|\n))")
# (in a window before a state: only the place after it)
_PLACE_ENDS_WINDOW = re.compile(r"[ \t]*(?:,|\n)[ \t]*[A-Z][^\n,]{0,40},?[ \t]*$")


def _without_cross_note(window: str, span: bool = False) -> tuple[str, int]:
    """``window`` without a note of the cross streets before its place (see ``_CROSS_NOTE``; in a window before
    a state, only the place after the note; in an address's ``span``, its place and state), and how many
    characters went."""
    tail = window[-110:]
    if not any(w in tail for w in ("betw", "btw", "b/", " at ", " @ ", "near ", "off ", "corner")):
        return window, 0
    note = _CROSS_NOTE.search(window)
    if note is not None and not span and _PLACE_ENDS_WINDOW.match(window, note.end("note")) is None:
        note = None
    if note is None:
        return window, 0
    return window[:note.start("note")] + window[note.end("note"):], note.end("note") - note.start("note")


# A cross street after the street's type word: "Fifth Avenue at 82nd Street", "Main St & 3rd Ave".
_AT_CROSS_STREET = re.compile(rf"\b(?:{_SUFFIX})\.?(?P<cut> (?:at|&) .*$)")
# A unit written before the house number, maybe with the building's name between: "Room 202, 2300 N.
# Lincoln Blvd.", "Room 4200, Legislative Office Building 300 Capitol Ave.", "State Capitol Room 403, 415
# S. Beretania St." (the office records of legislatures write them so); the name may have small words
# ("Unit 42, Land of Bargains Shopping Paradise, 12 Highway 101").
# The unit may be a numbered floor ("2nd Floor, City Hall, 121 N LaSalle St", "5th Floor Board Room 735
# Randolph St") or the number of a room named by its use ("Conference Room 5301"; in "State Capitol Room 403"
# the name is the building's), a building with its number or letter, a numbered floor or a "#", a mail stop
# ("City Hall Room-202, 1400 JFK Boulevard", "Building 4, 500 Main St", "Floor 3", "#300", "MS 12"; a building's
# number right before the house number is the building's name: "Annex, Building 3 1200 Main St."), and may end
# the line before the street's
# line ("Chambers, \n2nd Floor \n121 N. LaSalle St"; a record's "name" field, then its "address" field).
_UNIT_BEFORE = (r"(?:(?:(?:(?:Conference|Board|Meeting|Community|Hearing|Committee|Council|Training) )?(?:Room|Rm\.?)"
                r"|Suites?|Sutie|Siute|Suiet|Stuie|Ste\.?|Unit|Apt\.?|ROOM|RM\.?|SUITE|STE\.?|UNIT|APT\.?)[ -]?"
                r"(?:[A-Z][a-z]{2,12} |[A-Z]{2,4} (?![A-Z]{2} \d{5}(?!\d)))?#?"
                r"(?:[A-Za-z]-?)?\d[A-Za-z0-9-]{0,7}(?:/\d[A-Za-z0-9-]{0,7})?"
                r"|(?:Building|Bldg\.?|BUILDING|BLDG\.?)[ -]?#?(?:[A-Z]-?)?\d{1,3}[A-Z]?(?![\w-])(?![ \t]+\d)"
                r"|(?:Building|Bldg\.?|BUILDING|BLDG\.?) [A-Z](?![\w-])(?![ \t]+\d)"
                r"|(?:Floor|Fl\.|FLOOR|FL\.) ?\d{1,3}(?![\w-])"
                r"|(?:(?<![^\n])|(?<=, )|(?<=,)|(?<=\n ))#[A-Za-z]?\d[A-Za-z0-9-]{0,6}(?![\w-])"
                r"|(?:MS|M/S|M\.S\.|MSC|Mail Stop|Mailstop|Mail Code|MAIL STOP|MAIL CODE)(?:[:#] ?| #?|-)"
                r"(?!\d{5}(?![\w-]))(?=[\w-]{0,10}\d)[A-Z0-9][\w-]{0,10}"  # not "MS 39201": a state and ZIP
                r"|(?:[1-9]\d{0,2}(?:st|nd|rd|th|ST|ND|RD|TH)|" + _ORDINALS + "|" + _ORDINALS.upper()
                + r") (?:Floor|Fl\.?|FLOOR|FL\.?|floor|fl\.))")
_LEADING_UNIT = re.compile(
    rf"(?:^|(?<=[\s:,;(\"']))(?P<unit>{_UNIT_BEFORE}),? "
    r"(?:(?:[A-Z][A-Za-z.'&-]*|of|the|and|at|on|&|(?:Building|Bldg\.?) [0-9A-Z]{1,3}),? ){0,6}$")
# The unit may have its building's name after it on that line ("Location": "Room 350, Public Service Center").
_UNIT_ENDS_LINE = re.compile(rf"(?:^|(?<=[\s:,;(\"']))(?P<unit>{_UNIT_BEFORE})"
                             r"(?:,[ \t]*[A-Z][A-Za-z.'&-]*(?:[ \t]+(?:[A-Z][A-Za-z.'&-]*|of|the|and|&)){0,5})?"
                             r"[ \t]*[\"']?[ \t]*,?[ \t]*$")
# A unit after the ZIP, in the same field ("Cleveland, OH 44115 - Room 4-407", "Chicago, IL 60601, 2nd Floor")
# or as the next field of the same record that names the place ("address": "..., MN 55415", "name": "Room
# 350, Public Service Center"); not one that starts the next address ("..., TX 77002 | Suite 5, 900 Bagby St").
_UNIT_AFTER = re.compile(
    r"[ \t]*(?:[-–—,|][ \t]*|[\"'][ \t]*,[ \t]*\n?[ \t]*[\"']?(?:name|location|room|place|venue|building|unit|suite|"
    rf"floor)[\"']?[ \t]*[:=][ \t]*[\"'])(?!#)(?P<unit>{_UNIT_BEFORE})(?![\w-])(?![ \t]*,?[ \t]*[1-9]\d{{0,5}} )")
# A unit alone on the line after the place ("151 N. Franklin Street, Chicago, IL" / "Floor 34"; "..., TX 77002" /
# "Suite 300"): the line holds nothing else, and the next line starts no address whose unit it would be.
_UNIT_NEXT_LINE = re.compile(rf"[ \t,]*\n[ \t]*(?P<unit>{_UNIT_BEFORE})[ \t]*,?[ \t]*(?:\n(?![ \t]*[1-9])|$)")
# What may stand before the house number on its line when the unit is on the line above: a key or a label.
_LINE_LEAD = re.compile(r"[ \t]*(?:[\"']?[A-Za-z_]{1,20}[\"']?[ \t]*[:=][ \t]*)?[\"']?[ \t]*$")


# A unit's word ending a line, its number on the next ("Room" / "MRE 2D-296, 445 South Street").
_UNIT_WORD_ENDS_LINE = re.compile(r"(?<![\w-])(?:Room|Rm\.?|Suite|Ste\.?|Unit|Apt\.?|ROOM|RM\.?|SUITE|STE\.?|UNIT|"
                                  r"APT\.?)[ \t]*\n")


# A building or floor unit before the house number needs a comma after it: without one the building's number is
# part of its name ("Annex, Building 3 1200 Main St.").
_BUILDING_OR_FLOOR = re.compile(r"(?:Building|Bldg|BUILDING|BLDG|Floor|Fl\.|FLOOR|FL\.)")


# A name right before "Building 2" makes it the name of the addressed building, not a part of it ("Cisco Building
# 2" / "3800 Zanker Road", "Wells Fargo Building 3, 100 Main St"): a capitalised word and one space before it.
_NAMED_BUILDING = re.compile(r"(?<![\w.'&-])[A-Z][\w.'&-]* $")


def _unit_of(text: str, found: re.Match[str]) -> str | None:
    unit = found.group("unit")
    if unit[:4].lower() in ("buil", "bldg") and _NAMED_BUILDING.search(
            text, max(0, found.start("unit") - 40), found.start("unit")):
        return None
    return unit


# A floor in a sentence before the address: "held on the 3rd floor of The Student Center, located at 2121 Euclid
# Avenue", "on the second floor of 100 Main St." (the floor "of" the building at that number).
_PROSE_FLOOR = re.compile(r"(?<![\w-])(?P<unit>(?:[1-9]\d{0,2}(?:st|nd|rd|th)|(?i:" + _ORDINALS + r")) (?:floor|Floor))"
                          r" of (?:(?:[A-Z][\w.'&-]*|of|the|and|&)[ \t]?,?[ \t]){0,8}(?:(?:located|situated),?[ \t])?"
                          r"(?:at[ \t])?$")


# A line break escaped in a string literal, once or more ("\\n", "\\\\n" in JSON inside JSON): as spaces and a break,
# the same length.
_ESCAPED_BREAK = re.compile(r"\\+n")


def _as_break(escape: re.Match[str]) -> str:
    return " " * (len(escape.group(0)) - 1) + "\n"


def _breaks_unescaped(text: str) -> str:
    """``text`` with its escaped line breaks as breaks (``_ESCAPED_BREAK``; same length, so offsets hold)."""
    return _ESCAPED_BREAK.sub(_as_break, text) if "\\n" in text else text


def _leading_unit(text: str, number_at: int) -> str | None:
    low = max(0, number_at - 245)  # all this looks at: the number's line and the line above, 120 characters each
    if "\\n" in text[low:number_at]:
        # Lines of a string literal, their breaks escaped ("Courthouse\\nRoom 114\\n600 Main Street"): the same
        # lines with the breaks as breaks (same length).
        return _leading_unit(_ESCAPED_BREAK.sub(_as_break, text[low:number_at]), number_at - low)
    line_start = text.rfind("\n", max(0, number_at - 120), number_at) + 1
    if number_at - line_start > 120:
        return None
    if number_at > line_start and " of " in text[max(line_start, number_at - 120):number_at]:
        prose = _PROSE_FLOOR.search(text, max(line_start, number_at - 120), number_at)
        if prose is not None:
            return prose.group("unit")
    if number_at > line_start:
        found = _LEADING_UNIT.search(text, max(line_start, number_at - 120), number_at)
        if found is not None and not (_BUILDING_OR_FLOOR.match(found.group("unit"))
                                      and "," not in text[found.end("unit"):number_at]):
            return _unit_of(text, found)
    if line_start == 0:
        return None
    wrapped = _UNIT_WORD_ENDS_LINE.search(text, max(0, line_start - 40), line_start) if number_at > line_start else None
    if wrapped is not None and wrapped.end() == line_start:
        # A unit wrapped between its word and its number ("Office: Bellcore Room" / "MRE 2D-296, 445 South
        # Street"): read as one line.
        above = text.rfind("\n", max(0, line_start - 121), line_start - 1) + 1
        found = _LEADING_UNIT.search(text[above:line_start - 1].rstrip() + " " + text[line_start:number_at])
        if found is not None and not _BUILDING_OR_FLOOR.match(found.group("unit")):
            return found.group("unit")
    if not _LINE_LEAD.match(text, line_start, number_at):
        return None
    # The line above ends in a unit and holds no address of its own (no five digits).
    above = text.rfind("\n", max(0, line_start - 121), line_start - 1) + 1
    if line_start - 1 - above > 120 or FIVE_DIGITS.search(text, above, line_start - 1):
        return None
    found = _UNIT_ENDS_LINE.search(text, above, line_start - 1)
    return _unit_of(text, found) if found is not None else None


def _norm_number(number: str) -> str:
    return number.replace(" ", "").lower()


_ROW_SEPARATOR = re.compile(r" ?[;|·•] ?")
# A dash between words as the separator of a line's fields ("District Attorney - 230 Strand St. - Courthouse Annex -
# St. Helens, OR 97051"): read like a comma. Not between numbers ("1200 - 1210 Main St").
_DASH_FIELD = re.compile(r"(?<=[A-Za-z.]) [-–—] (?=[A-Z])")


def _is_year(number: str) -> bool:
    return len(number) == 4 and number.isdigit() and 1900 <= int(number) <= 2099


# Street types that begin no place's name (unlike "St" for Saint, "Park City", "Center Point", "Glen Ellyn",
# "Grove City", "Terrace Park"): after a street, such a word is the street's, never the place's.
_NO_PLACE_START = frozenset("mall ave avenue av blvd boulevard rd road dr drive ln lane hwy highway pkwy parkway "
                            "sq square plz plaza expy expressway fwy freeway cir circle trl xing aly alley street "
                            "ct".split())


_ROAD_BY_NUMBER = frozenset("road rd highway hwy route rte".split())
# A unit of ``ussplit.NUMBERED_UNIT_WORDS`` or a mail service's box ("PMB 123", "Hangar 3", "ECM # 90772").
_NUMBERED_UNIT = re.compile(r"(?:(?i:" + "|".join(NUMBERED_UNIT_WORDS) + r")\.? ?#? ?\w|[A-Z]{2,4} ?# ?\d)")


def _refined(raw: RawAddress, text: str, gaz: Gazetteer, region_cities: dict[tuple[str, str], str]) -> RawAddress:
    if isinstance(raw, (_AsideRead, _PlaceFirstRead, _CellRead)):
        return raw
    span = text[raw.start:raw.end]
    span = _breaks_unescaped(span)  # "Goodlett Pl\\nSan Francisco": a break, as the window read it
    if "U" in span:
        span = _COUNTRY_IN_SPAN.sub("", span)  # "1600 Main St, USA, New York, NY": the country is no part of the place
    if ";" in span or "|" in span:
        span = _ROW_SEPARATOR.sub(", ", span)  # "123 Main St;Chicago;IL;60601": fields of a row
    if " - " in span or " – " in span or " — " in span:
        # "1164 NW Bond St. - Bend, OR": fields between dashes, no "St. Bend"; a field without digits between the
        # street's and the place's is a building's name ("230 Strand St. - County Annex - St. Helens"), no place.
        parts = _DASH_FIELD.split(span)
        span = ", ".join(part for k, part in enumerate(parts)
                         if k in (0, len(parts) - 1) or any(c.isdigit() for c in part))
    span = _without_cross_note(span, span=True)[0]  # "633 Folsom St. between 2nd and 3rd streets, San Francisco"
    span = _without_complex_between(span)[0]  # "200 N Main St, Westgate Mall, Suite 5, Denver"
    fields = usfields.split(span)
    if fields is None or _norm_number(fields.number) != _norm_number(raw.house_number):
        return raw
    if fold(fields.city).upper() in _QUADRANTS:
        return raw
    if fields.city.lower().rsplit(" ", 1)[-1] in _STATE_ANY_CASE:
        return raw  # "Columbus OHIO": the state read as part of the place
    if raw.unit and fields.unit is None and raw.unit.lower() in fields.city.lower():
        return raw  # "42 W. Madison Street, Garden Level\nChicago": the unit read as part of the place
    # (a unit of two parts is compared without its comma: "Suite 400, 4 North" read as "Suite 400 4")
    written_unit = " ".join(raw.unit.replace(",", " ").split()) if raw.unit else ""
    cut = written_unit.replace(fields.unit, "", 1).strip() if written_unit and fields.unit and (
        fields.unit != written_unit) and fields.unit in written_unit else ""
    if cut and fields.city.startswith(cut + " ") and span.partition(raw.unit or "")[2][:1] in ("\n", ","):
        # "Suite 325 East\nPhiladelphia", "Suite 200 West, Denver": a word of the unit, a break after the unit,
        # read as part of the place
        return raw
    moved = raw.street[len(fields.street):].strip() if raw.street.startswith(fields.street + " ") else ""
    last_word = raw.street.rsplit(" ", 1)[-1].lower().rstrip(".")
    if (moved and fields.city.startswith(moved + " ") and last_word in TYPE_WORDS
            and (span.partition(raw.street)[2][:1] in ("\n", ",") or last_word in _NO_PLACE_START)):
        # "1401 79th Street Causeway\nMiami": the street's last type word, a line break or comma after it, read
        # as part of the place (without the break usaddress knows better: "800 N. Lindberg St. Louis MO");
        # "2146 University Square Mall Tampa": a type word that begins no place's name, even without a break.
        return raw
    if (moved and fields.unit and raw.unit is None and moved == fields.unit and moved[:1].isdigit()
            and fields.street.rsplit(" ", 1)[-1].lower().rstrip(".") in _ROAD_BY_NUMBER):
        return raw  # "8100 Park Road 4 W": the road's number (and direction) read as a unit
    extra = fields.street[len(raw.street):] if fields.street.startswith(raw.street) else ""
    if raw.unit and extra[:1] in (" ", ",") and extra.strip(" ,") and raw.unit.startswith(extra.strip(" ,") + " "):
        return raw  # "1985 N. Central, Board Room 2": the room's name read as part of the street
    if raw.unit and extra[:1] == " " and raw.unit.endswith(extra):
        return raw  # "230 S. Dearborn St., 35th floor SW": the wing of the unit read as the street's direction
    if (raw.unit and extra[:1] in (" ", "\n") and extra.strip() == raw.unit.lstrip("#")
            and span.partition(raw.street)[2][:1] == "\n"):
        return raw  # "2200 Elm Ave" / "12" / "Dallas": the unit on a line of its own read as part of the street
    unit = fields.unit
    if unit is not None and unit == written_unit:
        unit = raw.unit  # "Suite 700, 7 E": the unit as written, with the comma between its parts
    if unit is not None and raw.unit == "#" + unit:
        unit = raw.unit  # a bare unit on a line of its own, written as one ("#250B")
    if unit is None and raw.unit and _NUMBERED_UNIT.match(raw.unit) and raw.unit not in fields.street and (
            raw.unit not in fields.city):
        unit = raw.unit  # "Hangar 3", "Box 45" after the street: a unit the CRF labels as no field of its own
    if unit is not None and raw.postcode is None and unit.isdigit() and len(unit) == 5:
        raw.postcode, unit = unit, None  # "200 E Randolph St., 60601 Chicago, IL": the ZIP before the city
    canonical, in_region = membership(gaz, fields.city, raw.state, raw.postcode, region_cities)
    written = raw.city_text.rsplit(",", 1)[0].strip() if raw.city_text else ""
    if written.startswith(fields.city + " ") and re.search(
            rf"\b{re.escape(written)}[ \t,]*(?:{_STATE_ALT})\.?(?:[ \t,]|$)", span):
        return raw  # "Santa Fe New Mexico 87508": the place's last word read as part of the state
    if written.startswith(fields.city + " ") and re.search(rf"\b{re.escape(written)}[ \t,]*\d{{5}}", span):
        return raw  # "Costa Mesa 92627" without a state: the place's last word read as the state
    if raw.in_region and not in_region and written != fields.city and (
            written.startswith(fields.city + " ") or written.endswith(" " + fields.city)):
        return raw  # "Los Angeles 90049" without a state, read as the place "Los" in the state "Angeles"
    if unit is not None and raw.unit and unit == raw.unit + " in":
        unit = raw.unit  # "Suite 3 in Palo Alto": the preposition before the place read as part of the unit
    raw.street, raw.unit = fields.street, unit
    raw.city, raw.city_text, raw.in_region = canonical or fields.city, f"{fields.city}, {raw.state}", in_region
    return raw


# Every reading needs a house number followed by a space and a word ("1600 Main", "100 5th",
# "N165 W2123 Tartan", "2615 1/2 Main", "One Main"); a cheap test before the costly ones.
# A line of words alone (no digit, no comma), or a letter's attention line, between a street's line and the place's
# line at the window's end.
# No word of a unit or a part of a building in it ("Gate C", "Fifth Floor", "Garden Level", "North Tower Entrance":
# units and asides, which the readers know), no letter standing alone.
_NOTE_LINE = re.compile(r"\n[ \t]*(?![^\n]*\b(?:Suite|Unit|Apt|Room|Floor|Fl|Building|Bldg|Gate|Entrance|Door|Wing|"
                        r"Dock|Level|Lobby|Mezzanine|Basement|Penthouse|Garden|Lower|Upper|Ground|Tower|Hall|Plaza|"
                        r"Concourse|Annex|Center|Centre)\b)"
                        r"(?:[A-Z][a-z]+(?:[-'’][a-z]+)?(?:[ \t]+(?:[A-Za-z][a-z]+(?:[-'’][a-z]+)?|a|&|-)){1,7}"
                        # or a letter's attention line ("ATTN: David H. Hansson", "Attn. Legal Department", "c/o ...")
                        r"|(?:ATTN|Attn|Attention|ATTENTION|c/o|C/O)[:.]?[ \t]+[A-Z][A-Za-z.,'’& -]{1,50})[ \t]*"
                        r"(?=\n[ \t]*[A-Z][A-Za-z.'-]*"
                        r"(?:[ \t-][A-Za-z.'-]+){0,3}[ \t]*,?[ \t]*$)")
# The line before such a note: a house number and a street's words, maybe a unit on a line of its own after it.
_STREET_LINE_BEFORE = re.compile(r"(?:^|\n)[ \t]*[1-9]\d{0,5}[A-Z]? [A-Z][^\n]{2,60}(?:\n[ \t]*(?:#|Suite|Ste\.?|Unit|"
                                 r"Apt\.?|Room|Rm\.?|Floor|Fl\.?|Bldg\.?|Building)[ \t]?[\w-]{1,8}[ \t]*)?$")
_ZIP_BEFORE_STATE = re.compile(r"(?<=[A-Za-z.]),[ \t]?(?P<zip>\d{5})(?:-\d{4})?[ \t]?,[ \t]?$")
_QUOTED_LETTER = re.compile(r"""^\\?["']?([A-Z])\\?["'](?= )""")
_ADDRESS_START = re.compile(r"""\d[\w/-]* +(?:[\w#]|\\?["'][A-Z]\\?["'] )|\b(?:One|Two|one|two|ONE|TWO) """)
# A line break between two words (or after a dotted abbreviation) of a wrapped paragraph.
_WRAPPED_BREAK = re.compile(r"(?<=[\w.])\n(?=\w)")
# A house number in its own field ("1600,Pennsylvania Ave NW,"): read by the pattern only.
_FIELD_NUMBER_START = re.compile(r"(?<![^\n,;|])[1-9]\d{0,5}[A-Z]? ?[,;|\n] ?[A-Z]")


# The country between the street and the city: "1600 Main St, USA, New York, NY 10001", "233 S Wacker Dr, United
# States, Chicago, IL" (left out of the window before the state: the city is the part after it).
_COUNTRY = r"(?<=[\w.])[ \t]*,[ \t]*(?:USA|U\.S\.A\.?|U\.S\.|US|United States(?: of America)?)[ \t]*"
_COUNTRY_AS_CITY = frozenset(("USA", "US", "UNITEDSTATES", "UNITEDSTATESOFAMERICA"))
_COUNTRY_BETWEEN = re.compile(rf"{_COUNTRY}(?=,[ \t]*[A-Z][A-Za-z.'-]*(?:[ \t][A-Za-z.'-]+){{0,3}}[ \t]*,?[ \t]*$)")
_COUNTRY_IN_SPAN = re.compile(rf"{_COUNTRY}(?=,[ \t]*[A-Z][A-Za-z.'-]*(?:[ \t][A-Za-z.'-]+){{0,3}}[ \t]*,?[ \t]*"
                              rf"(?:{_STATE_ALT})\.?(?![^\W_]))")


# A place name broken over two source lines ("972 Mission St, 5th floor, San\nFrancisco, CA 94103", "Salt\nLake City,
# UT"): a capitalised word ends the line and the next line starts with a capitalised word and the state's comma.
_CITY_BROKEN = re.compile(r"(?<![^\s,])[A-Z][A-Za-z.'-]*\n[A-Z][A-Za-z.'-]*(?:[ \t][A-Z][A-Za-z.'-]*){0,2},?[ \t]*$")


def _city_rejoined(gaz: Gazetteer, before: str, found: re.Match[str], state_text: str, zip_code: str | None,
                   region_cities: dict[tuple[str, str], str]) -> bool:
    """Whether the reading of the joined window ``found`` has the line break inside its city, and the city so
    joined is a place the pack knows: a region city of the state, or a name the USPS accepts for the ZIP."""
    if "\n" not in before[found.start("city"):found.end("city")] or "\n" in before[found.start():found.start("city")]:
        return False
    city = found.group("city").strip()
    if " " not in city:
        return False
    return membership(gaz, city, state_code(state_text), zip_code, region_cities)[0] is not None


def _extract(text: str, gaz: Gazetteer, limit: WorkLimit | None = None,
             digits: FiveDigits | None = None) -> Iterator[RawAddress]:
    limit = limit if limit is not None else WorkLimit()
    region_cities = region_city_index(gaz)
    for start, state_text, zip_code, end, weak in _anchors(text, limit, gaz, digits):
        if not limit.anchor():
            break
        if not weak and _PLACE_THEN_SIGN.match(text, end) is not None:
            place_first = _place_first(text, start, state_text, zip_code, end, gaz, region_cities)
            if place_first is not None:
                yield place_first
        if not weak and zip_code is None and _LINE_END_AFTER_PLACE.match(text, end) is not None:
            labelled = _labelled_place_then_street(text, start, state_text, end, gaz, region_cities)
            if labelled is not None:
                yield labelled
        # A line break escaped in a string literal ("Room 114\\n600 Main Street\\nDallas, TX" in JSON): a break for
        # the window's readers too (same length, so the offsets hold), not a letter of a word.
        before = _breaks_unescaped(text[max(0, start - 160) : start])
        if not before.endswith((", ", ",", " ", "\n", ",\n", ";", "|")):
            continue
        at = start  # where ``before`` ends, for the offsets (less what a country between street and city took)
        if zip_code is None and not weak and before[-7:-1].rstrip(" ,\t")[-1:].isdigit():
            zip_first = _ZIP_BEFORE_STATE.search(before, max(0, len(before) - 16))
            if zip_first is not None:
                # The ZIP between the city and the state ("1925 Main St, Niagara Falls, 14305, NY", a database's
                # columns joined in their order): the address's ZIP, the city before it.
                zip_code = zip_first.group("zip")
                at -= zip_first.end() - zip_first.start() - 2
                before = before[:zip_first.start()] + ", "
        country = _COUNTRY_BETWEEN.search(before) if "U" in before else None
        if country is not None:
            before = before[:country.start()] + before[country.end():]
            at -= country.end() - country.start()
        before, cut = _without_complex_between(before)  # "200 N Main St, Westgate Mall, Suite 5, Denver"
        at -= cut
        noted = False  # a note line left out of ``before``: the span of the text holds it, usaddress must not re-read
        if zip_code is not None and not weak and "\n" in before:
            note = _NOTE_LINE.search(before)
            if (note is not None and _STREET_LINE_BEFORE.search(before, 0, note.start()) is not None
                    and _BEFORE.search(before) is None):
                # A note on its own line between the street and the place ("5100 El Paraiso Ave.\nWalk-ins
                # welcome\nSacramento, CA 95824": a listing's hours or services): no part of the address.
                before = before[:note.start()] + before[note.end():]
                at -= note.end() - note.start()
                noted = True
        spaced = _ADDRESS_START.search(before) is not None
        if spaced:
            before, cut = _without_cross_note(before)
            at -= cut
        # Prose hard-wrapped in a page's source ("Center, 600 East Fourth\nStreet, Charlotte, NC 28202",
        # "Center, 101\nEastway Drive, ..."): a line break inside the number and street of a paragraph,
        # which a browser shows as a space; read once more with such breaks as spaces (same offsets).
        joined = (_WRAPPED_BREAK.sub(" ", before) if not weak and "\n" in before
                  and (zip_code is not None or _CITY_BROKEN.search(before) is not None) else before)
        if not spaced and _FIELD_NUMBER_START.search(before) is None and (
                joined is before or _ADDRESS_START.search(joined) is None):
            continue  # no house number followed by a word: ", TX 78701, TX 78701, ..."
        found = None if weak else _BEFORE.search(before)
        if found is None and zip_code is not None and not weak:
            found = _BEFORE_LOOSE.search(before)
            if found is not None and not _loose_ok(found, before):
                found = None
        if found is None and joined is not before:
            again = _BEFORE.search(joined) if joined != before else None
            # the break inside the number, the street or its unit ("Suite\n260"), not before the city
            if again is not None and again.group("number") and not _zip_ending_line(before, again.start()) and (
                    zip_code is not None and "\n" in before[again.start():max(again.end("street"), again.end("unit"))]
                    or _city_rejoined(gaz, before, again, state_text, zip_code, region_cities)):
                found = again
        if found is not None and _direction_only(found.group("street")):
            found = None  # "Room 1210, 12 West": a floor and its wing, no street; the splitter reads the unit
        if found is None:
            if not spaced and (joined is before or _ADDRESS_START.search(joined) is None):
                continue
            raw = None if not spaced else _split_address(before, at, state_text, zip_code, end, weak, gaz,
                                                         region_cities, text[start:end], limit)
            if raw is None and joined is not before and joined != before:
                raw = _wrapped_split(before, joined, at, state_text, zip_code, end, gaz, region_cities,
                                     text[start:end], limit)
            if raw is not None:
                yield _AsideRead(**vars(raw)) if noted else raw
            continue
        words = found.group("street").lower().split()
        if not words or words[0] in _NOT_STREET or words[-1] in _NOT_STREET:
            continue
        if found.group("city").strip().rstrip(".").upper() in _QUADRANTS:
            continue  # "1800 M Street, NW, Washington, DC": "Washington" is the city here, not the state
        state = state_code(state_text)
        if zip_code is None and len(state_text) == 2 and "," not in before[-3:]:
            continue  # "Main St Austin TX" without comma or ZIP: too weak
        city_text = found.group("city").strip()
        canonical, in_region = membership(gaz, city_text, state, zip_code, region_cities)
        street = found.group("street")
        unit = _matched_unit(found)
        field_number = found.groupdict().get("field_number")
        number: str = found.group("number") or field_number or ""
        if field_number and _is_year(number):
            continue  # "2024,North Ave,Chicago,IL": a year column before a street column
        yield (_AsideRead if noted or _skipped_aside(found) else RawAddress)(
            street=street,
            unit=unit or None,
            house_number=number,
            postcode=zip_code,
            city=canonical or city_text,
            city_text=f"{city_text}, {state}",
            in_region=in_region,
            start=at - (len(before) - found.start()),
            end=end,
            state=state,
        )


_BOX_BEFORE = re.compile(r"(?i:\bbox|#|\bno\.?)[ \t]*$")
_ZIP_AT_BREAK = re.compile(r"\d{5}(?:-\d{4})?[\"',;]*[ \t]*\n")


def _zip_ending_line(before: str, number_at: int) -> bool:
    """Whether the number at ``number_at`` is the ZIP that ends an address on its line, after the state
    ("Snellville, GA 30078\nPineville Road, Buena Vista, GA 31803": one address a line, the next one without
    house number), which a hard wrap must not join to the street on the next line."""
    return (_ZIP_AT_BREAK.match(before, number_at) is not None
            and _STATE_BEFORE_ZIP.search(before[max(0, number_at - 24):number_at]) is not None)


def _wrapped_split(before: str, joined: str, at: int, state_text: str, zip_code: str | None, end: int,
                   gaz: Gazetteer, region_cities: dict[tuple[str, str], str], anchor: str,
                   limit: WorkLimit) -> RawAddress | None:
    """The token splitter's (or usaddress's) reading of a hard-wrapped window ``joined`` (``before`` with the
    line breaks between words as spaces, same offsets), when the break falls inside the house number and the
    street ("located at 101\\nTremont Street (2nd floor), Boston, MA 02108": the pattern does not read the unit in
    brackets, usaddress does not read across the break), or None."""
    raw = _split_address(joined, at, state_text, zip_code, end, False, gaz, region_cities, anchor, limit)
    if raw is None or not raw.house_number or not raw.street:
        return None
    offset = raw.start - (at - len(before))
    head = raw.house_number + " " + raw.street
    if offset < 0 or not joined.startswith(head, offset):
        return None  # the reading's words are not the window's own at its start
    if not before[before.rfind("\n", 0, offset) + 1:offset].strip():
        return None  # the number alone on its line: fields one per line ("2\nPenn\nPlz\n15\nFl"), no paragraph
    if _BOX_BEFORE.search(before, max(0, offset - 12), offset):
        return None  # "PO Box 156\nHasbrouck Heights, NJ": a box number, the place on the next line
    if _zip_ending_line(before, offset):
        return None
    return raw if "\n" in before[offset:offset + len(head)] else None


# The place written before the street in a sentence: "headquartered in Washington, DC at 1800 F St. NW", "our
# office in Seattle, WA at 1000 2nd Ave, Suite 300": "in"/"of"/"from" and the city before the state, "at"/"on"
# and a numbered street with a type word after it.
# Also with a part of the city named ("in downtown Portland, OR") and a relative clause or a floor between the state
# and the street, maybe across a line break of the source ("Portland, OR,\nwhich is on the 9th floor of 1414 NW
# Northrup Street": the floor is the unit).
_PLACE_LEAD = re.compile(rf"(?<![\w-])(?:in|of|from|In)[ \t](?:(?:downtown|uptown|midtown|central)[ \t])?{_CITY},"
                         r"[ \t]?$")
_PLACE_CLAUSE = r",?[ \t]*\n?[ \t]*(?:(?:which|that) is[ \t]+|located[ \t]+)?(?:at|on)"
_PLACE_THEN_SIGN = re.compile(_PLACE_CLAUSE + " ")
_PLACE_THEN_STREET = re.compile(
    _PLACE_CLAUSE + r"(?: the (?P<floor>(?:[1-9]\d{0,2}(?:st|nd|rd|th)|(?i:" + _ORDINALS + r")) floor) of)?"
    rf" (?P<number>[1-9]\d{{0,5}}[A-Z]?(?:-\d{{1,4}})?) (?P<street>{_STREET})(?P<unit>{_UNIT})?(?![\w-])")


def _place_first(text: str, start: int, state_text: str, zip_code: str | None, end: int, gaz: Gazetteer,
                 region_cities: dict[tuple[str, str], str]) -> RawAddress | None:
    """The address of "in CITY, ST at NUMBER STREET", the state's anchor at ``start``..``end``, or None."""
    lead = _PLACE_LEAD.search(text, max(0, start - 60), start)
    after = _PLACE_THEN_STREET.match(text, end) if lead is not None else None
    if lead is None or after is None:
        return None
    street = after.group("street")
    words = street.lower().split()
    if not words or words[0] in _NOT_STREET:
        return None
    if street.endswith(".") and (len(words[-1]) > 5 or words[-1].rstrip(".").upper() in _QUADRANTS):
        street = street[:-1]  # the sentence's full stop after "Street", "NW"; "St." keeps its dot
    state = state_code(state_text)
    city_text = lead.group("city")
    canonical, in_region = membership(gaz, city_text, state, zip_code, region_cities)
    return _PlaceFirstRead(street=street, unit=_matched_unit(after) or after.group("floor") or None,
                           house_number=after.group("number"), postcode=zip_code, city=canonical or city_text,
                           city_text=f"{city_text}, {state}", in_region=in_region, start=lead.start("city"),
                           end=after.end(), state=state)


# A labelled line naming the place, the street on the next line without a place of its own: "### Location:
# Cambridge, Massachusetts, USA" / "### [Stata Center](...) Building (32 Vassar Street) / G882", "Where: Chicago, IL"
# / "Merchandise Mart, 222 W Merchandise Mart Plaza, 8th Floor" (meeting pages).
_LINE_END_AFTER_PLACE = re.compile(r"(?:[ \t]*,?[ \t]*(?:USA|U\.S\.A\.|United States))?[ \t*_]*(?:\n|$)")
_PLACE_LABEL_THEN_CITY = re.compile(
    rf"(?:^|\n)[ \t#*>_-]*(?:Location|Where|Venue|Place|Address)[ \t*_]*:[ \t*_]*{_CITY}[ \t]*,[ \t]*$")
_STREET_ON_LINE = re.compile(
    rf"(?<![\w#/.,-])(?P<number>[1-9]\d{{0,5}}[A-Z]?) (?P<street>{_STREET})(?P<unit>{_UNIT})?(?![\w-])")
# (a place of the street's own after it: read by its own anchor)
_OWN_PLACE_AFTER = re.compile(r"[ \t]*,[ \t]*[A-Z][a-z]+")


def _labelled_place_then_street(text: str, start: int, state_text: str, end: int, gaz: Gazetteer,
                                region_cities: dict[tuple[str, str], str]) -> RawAddress | None:
    """The address of a labelled place line and the street on the next line (see ``_PLACE_LABEL_THEN_CITY``),
    or None."""
    label = _PLACE_LABEL_THEN_CITY.search(text, max(0, start - 80), start)
    if label is None:
        return None
    line_end = text.find("\n", end - 1 if text[end - 1:end] == "\n" else end)
    if line_end < 0:
        return None
    next_end = text.find("\n", line_end + 1)
    next_end = len(text) if next_end < 0 else next_end
    found = _STREET_ON_LINE.search(text, line_end + 1, next_end)
    if found is None or _OWN_PLACE_AFTER.match(text, found.end()) is not None:
        return None
    street = found.group("street")
    words = street.lower().split()
    if not words or words[0] in _NOT_STREET or words[-1] in _NOT_STREET or words[0] in _MONTHS:
        return None
    state = state_code(state_text)
    city_text = label.group("city")
    canonical, in_region = membership(gaz, city_text, state, None, region_cities)
    return _PlaceFirstRead(street=street, unit=_matched_unit(found) or None, house_number=found.group("number"),
                           postcode=None, city=canonical or city_text, city_text=f"{city_text}, {state}",
                           in_region=in_region, start=found.start(), end=found.end(), state=state)


@dataclass
class _PlaceFirstRead(RawAddress):
    """An address written place first ("in Washington, DC at 1800 F St. NW"): usaddress, re-reading the span
    in its order, would not read it, so the pattern's fields stand."""


@dataclass
class _CellRead(RawAddress):
    """An address read from a row of one-element arrays or of quoted values (see ``_CELL_BEFORE_CITY``,
    ``_FIELD_BEFORE_CITY``): usaddress, re-reading the span, would take the quotes and brackets between the cells in,
    so the pattern's fields stand."""


@dataclass
class _AsideRead(RawAddress):
    """An address whose pattern reading skipped a room's or a building's name or a mail stop between the
    street and the city: usaddress, re-reading the span, takes them for the street or the unit
    ("4th Floor Conference Room"), so the pattern's fields stand."""


def _matched_unit(found: re.Match[str]) -> str:
    """The unit ``_BEFORE`` read after the street, or after a building's line it skipped, or else the mail stop
    ("MS 1234", "Mail Stop 7A": usaddress labels a mail stop as the occupancy, like a suite) ("" if none)."""
    groups = found.groupdict()
    return (groups.get("unit") or groups.get("unit2") or groups.get("stop") or "").strip(" ,")


def _skipped_aside(found: re.Match[str]) -> bool:
    """Whether ``_BEFORE``'s match skipped words between the street (or its unit) and the city."""
    after = found.end("unit") if found.group("unit") else found.end("street")
    return bool(found.string[after:found.start("city")].strip(" ,;|·•\n"))


# A region city written without state or ZIP after a street with a type word: "24 Broadway, Manhattan",
# "Venue: 1500 Valencia Street, San Francisco" (event listings, test strings), the house number also after
# the street ("Broadway 24, Manhattan"). Names that are also common words, persons' names or other well-known
# places are left out: without a state they say too little ("100 Main St, Portland" may be in Maine).
_CITY_ONLY_LEFT_OUT = frozenset(fold(n) for n in (
    "Arlington", "Glendale", "Portland", "Richmond", "Aurora", "Columbus", "Lincoln", "Lexington", "Augusta",
    "Mobile", "Birmingham", "Durham", "Norfolk", "Rochester", "Buffalo", "Toledo", "Mesa", "Plano", "Cleveland",
    "Kansas City", "Washington", "Charlotte", "Madison", "Austin", "Irving", "Garland", "Fremont", "Jackson",
    "Aurora", "Stockton", "Chesapeake", "Riverside", "Newark", "Lubbock", "Montgomery", "Greensboro", "Wichita",
    "Santa Ana", "Glendale", "Anaheim", "Long Beach", "Virginia Beach", "Boise", "LA", "L.A.", "SF", "S.F.", "KC",
    "D.C.", "Indy", "Vegas", "Philly", "NOLA", "ABQ", "OKC", "Queens"))
# What may follow the city: the end of the line or field, or the country.
_CITY_ONLY_END = re.compile(r"[ \t]*(?:$|\n|[;|)\]\"'`]|\.(?:\s|$)|,[ \t]*(?:USA|US|United States)?[ \t]*(?:$|\n))")
_UPPER_TYPE = re.compile(r"(?<=[A-Za-z0-9.] )(?:ST|AV|RD|DR|LN|CT|PL|SQ|WY)(?=,? ?$)")
# A state or a ZIP at the start of the next line: "Boston,\nMA".
_STATE_OR_ZIP_NEXT = re.compile(rf"[ \t]*(?:\d{{5}}|(?:{_STATE_ALT})\.?(?![^\W_]))")
# A street value with its house number written after it ("street1": "Broadway 1", "streetAddress":
# "Southwest 4th Avenue 1600"): a street with a type word, not a numbered road ("County Road 12", "Route 66").
_NUMBER_LAST = re.compile(rf"(?!\d)(?P<street>{_STREET}) (?P<number>[1-9]\d{{0,5}}[A-Z]?)")
_NUMBERED_ROAD = re.compile(r"(?:^|\s)(?:Highway|Hwy|Route|Rte|Interstate|I-|(?:US|U\.S\.|State|County|FM"
                            r"|Farm to Market|Ranch to Market|RM|SR|CR|Township|Twp) (?:Road|Rd))\.?$", re.I)


def number_written_last(street: str) -> tuple[str, str] | None:
    """``(number, street)`` of a street value written "street number" (see ``_NUMBER_LAST``), or None."""
    found = _NUMBER_LAST.fullmatch(street)
    if found is None or _NUMBERED_ROAD.search(found.group("street")) or _is_year(found.group("number")):
        return None
    return found.group("number"), found.group("street")


# The house number after the street: "Broadway 24, ".
_NUMBER_AFTER = re.compile(rf"(?<![\w#/.-])(?!\d)(?P<street>{_STREET}) (?P<number>[1-9]\d{{0,4}}[A-Z]?)(?: ?,|\n) ?$")


# The street may have no type word when a direction starts it, as in the grid of a city ("Chicago: 555 W.
# Monroe", "Houston: 1200 N. Shepherd, Suite 4"): the city's label says it is an address.
_CITY_COLON_STREET = re.compile(rf"[ \t]?:[ \t]*(?P<number>[1-9]\d{{0,5}}[A-Z]?) (?P<street>{_STREET}"
                                r"|(?:[NSEW]\.?|North|South|East|West) [A-Z][a-z]{2,}(?: [A-Z][a-z]{2,})?)"
                                # A room's name after a "Room:" label before the floor is left out: "555 W. Monroe
                                # Room: Lincoln Room 4th floor" (the floor is the unit).
                                r"(?:,? Room: [A-Z][A-Za-z'-]*(?: [A-Z][A-Za-z'-]*){0,3}(?=,? (?:[1-9]\d{0,2}"
                                r"(?:st|nd|rd|th)|" + _ORDINALS + r") (?:Floor|Fl\.?|floor|fl\.)))?"
                                rf"(?P<unit>{_UNIT})?(?=[ \t]*(?:$|\n|[,;)\"'<\\]))")


_TYPED_STREET = re.compile(_STREET)


def _city_only_pattern(gaz: Gazetteer) -> re.Pattern[str] | None:
    pattern = getattr(gaz, "_us_city_only", False)
    if pattern is False:
        written = {n for c in gaz.region.cities for n in (c.name, *c.aliases)
                   if fold(n) not in _CITY_ONLY_LEFT_OUT and n[:1].isupper()}
        names = sorted(written | {n.upper() for n in written}, key=len, reverse=True)  # "SEATTLE" too
        groups: dict[str, list[str]] = {}
        for name in names:
            groups.setdefault(name[0], []).append(re.escape(name[1:]))
        # First letters first, without a lookbehind: the engine skips to them fast.
        pattern = re.compile("(?:" + "|".join(f"{re.escape(k)}(?:{'|'.join(v)})" for k, v in groups.items())
                             + r")(?![^\W_])") if names else None
        gaz._us_city_only = pattern  # type: ignore[attr-defined]
    return pattern  # type: ignore[return-value]


def named_city_state(gaz: Gazetteer, written: str) -> str | None:
    """The state of the region city a record's city key names with a name left out of the city-only reading
    (``_CITY_ONLY_LEFT_OUT``: "Madison", "Austin", "Portland"), or None.

    Those names are left out where a line ends in them, for they are also people's names and towns of several
    states. A key that names the value a city ("city": "Madison", ``setCity("Madison")``, a ``city`` column)
    settles the first doubt; of the towns of that name the region's is the one a record without a state most
    likely means (the pack's cities are the largest of their names), as a region city's other names are read."""
    if fold(written) not in _CITY_ONLY_LEFT_OUT:
        return None
    return _region_city(region_city_index(gaz), written)[1]


def _region_city(region_cities: dict[tuple[str, str], str], written: str) -> tuple[str | None, str | None]:
    """(canonical name, state) of the region city written ``written`` (the first of its states), or (None, None)."""
    folded = fold(written)
    for (name, state), city in region_cities.items():
        if name == folded:
            return city, state
    return None, None


# A line of a list of places, each named before a colon and its address ("Chicago: 555 W. Monroe St\nSpringfield:
# 524 S. 2nd Street, Suite 220"): the place's name, one to three capitalised words, not a label of a field.
_PLACE_LABEL_LINE = re.compile(r"[ \t\"'*>•-]*(?P<place>[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2})(?=[ \t]?:)")
_FIELD_LABELS = frozenset(fold(w) for w in (
    "Address Addresses Location Locations Office Offices Venue Venues Where Place Site Mail Mailing Parking Entrance "
    "Directions Phone Fax Hours Room Suite Main Headquarters Branch Campus Note Notes Meeting Meetings Event Events "
    "Street Physical Postal Shipping Billing Home Work Visit Visitors Delivery Pickup Drop Deliveries Return Returns "
    "Remit Payments Payment Contact Contacts Lobby Building Floor Center Hall Library Clinic Store Shop Warehouse "
    "Plant Factory Lab School Station Court Courthouse Annex Tower Online Virtual Zoom Webex Livestream Also Or And "
    "Then Next Previous New Old Former Current Temporary Alternate Alternative Primary Secondary Other North South "
    "East West Downtown Uptown Midtown Time Date When Cost Price Tickets Admission Registration Info Information "
    "Meet Start Finish End Route Ceremony Reception Dinner Lunch Breakfast Party Rain Backup Overflow Shuttle Bus "
    "Transit Metro Train Airport Hotel Accommodation Lodging Session Sessions Workshop Keynote Check Rehearsal"
).split())


def _sibling_places(text: str, line_start: int, line_end: int, pattern: re.Pattern[str],
                    region_cities: dict[tuple[str, str], str]) -> Iterator[RawAddress]:
    """The lines right before and after a region city's labelled line (``line_start``..``line_end``) written the same
    way for another place: "Springfield: 524 S. 2nd Street, Suite 220" after "Chicago: 555 W. Monroe St" (a list of
    meeting places or offices). The list's form says the label is a place; out of the region unless the name is a
    region city's, with no state to tell more. A field's label ("Parking:", "Mail:") is no place."""
    for at in _adjacent_line_starts(text, line_start, line_end):
        label = _PLACE_LABEL_LINE.match(text, at)
        if label is None or fold(label.group("place")) in _FIELD_LABELS or pattern.fullmatch(label.group("place")):
            continue  # a region city's line is read by the loop; a field's label is no place
        found = _CITY_COLON_STREET.match(text, label.end())
        if found is None or _TYPED_STREET.fullmatch(found.group("street")) is None and len(found.group("number")) < 2:
            continue
        words = found.group("street").lower().split()
        if not words or words[0] in _NOT_STREET:
            continue
        canonical, state = _region_city(region_cities, label.group("place"))
        unit = (found.group("unit") or "").strip(" ,")
        yield RawAddress(street=found.group("street"), house_number=found.group("number"), postcode=None,
                         city=canonical or label.group("place"), city_text=label.group("place"),
                         in_region=canonical is not None, start=found.start("number"), end=found.end(), state=state,
                         unit=unit)


def _adjacent_line_starts(text: str, line_start: int, line_end: int) -> list[int]:
    """Where the line before and the line after a line start (a line break or its escape "\\n" in a JSON string)."""
    starts = []
    if line_start >= 2:
        cut = line_start - 2 if text[line_start - 2:line_start] == "\\n" else line_start - 1
        if cut >= 0 and text[cut:line_start] in ("\n", "\\n"):
            prev_plain = text.rfind("\n", max(0, cut - 200), cut)
            prev_escaped = text.rfind("\\n", max(0, cut - 200), cut)
            starts.append(max(prev_plain + 1 if prev_plain >= 0 else max(0, cut - 200),
                              prev_escaped + 2 if prev_escaped >= 0 else 0))
    rest = text[line_end:line_end + 200]
    plain, escaped = rest.find("\n"), rest.find("\\n")
    nxt = min((i + 1 for i in (plain,) if i >= 0), default=-1)
    if escaped >= 0 and (nxt < 0 or escaped + 2 < nxt):
        nxt = escaped + 2
    if nxt >= 0:
        starts.append(line_end + nxt)
    return starts


# The place first in a sentence without a state: "in Chicago, at the Merchandise Mart, 222 W Merchandise Mart Plaza",
# "in downtown Seattle, at 1000 4th Ave": "in" before a region city, then "at"/"on", maybe a venue's name, and a
# numbered street with a type word.
_IN_BEFORE_CITY = re.compile(r"(?<![\w-])(?:in|In)[ \t](?:(?:downtown|uptown|midtown|central)[ \t])?$")
_CITY_THEN_STREET = re.compile(
    r",[ \t]*(?:(?:which|that) is[ \t]+|located[ \t]+)?(?:at|on)[ \t](?:(?:the[ \t])?[A-Z][\w'&.-]*"
    r"(?:[ \t](?:[A-Z][\w'&.-]*|of|the|and|&)){0,6},?[ \t]+(?:at[ \t]+)?)?"
    rf"(?P<number>[1-9]\d{{0,5}}[A-Z]?) (?P<street>{_STREET})(?P<unit>{_UNIT})?(?![\w-])(?![ \t]*,?[ \t]*[A-Z][a-z]+,)")


_MONTHS = frozenset("january february march april may june july august september october november december".split())


# The place after the street and "in", no state: "located at 1101 34th Avenue in Seattle.", "at 2801 Mission Street
# in San Francisco", "500 West Temple Street, Room 381B, at the Kenneth Hahn Hall of Administration in Los Angeles"
# (a building's name after "at" may stand between). The house number and the street's type word say it is a
# street, the region city's name after "in" where it is; a year is no house number ("in 1999 Pike Place ...").
_STREET_IN_CITY = re.compile(
    rf"(?<![\w#/$.,-])(?P<number>[1-9]\d{{0,5}}[A-Z]?) (?P<street>{_STREET})(?P<unit>{_UNIT})?"
    r"(?:,[ \t]+at[ \t]+(?:the[ \t]+)?[A-Z][\w'&.-]*(?:[ \t](?:[A-Z][\w'&.-]*|of|the|and|&)){0,6})?"
    r"(?:[ \t]+|[ \t]*\n[ \t]*)in[ \t]+(?:downtown[ \t]+)?$")  # (a hard wrap before "in")
_STREET_IN_PROSE_NUMBER = re.compile(r"[1-9]\d{0,5}[A-Z]? [A-Z0-9]")
_YEAR_BEFORE = re.compile(r"(?i)\b(?:in|since|of|by|from|until|before|after|during|circa)[ \t]+$")
# What the house number follows in such a sentence: "at", "to", "on", a label's colon, a comma, a bracket or the
# line's start; not an article or a count's words ("the 3 Mile Run in Boston", "The 5 Points Plaza in Denver").
_STREET_IN_LEAD = re.compile(r"(?:^|[\n:(,;\"'>*]|\b(?i:at|to|on|is|are|from|@))[ \t]*$")
# After the city: neither a longer name ("in Dallas County", "in Seattle Center") nor a state or a ZIP (the
# state's anchor reads "in Seattle, WA 98101").
_CITY_IN_END = re.compile(rf"(?![ \t]+[A-Z0-9])(?![\w-])(?![ \t]*,?[ \t]*(?:\d{{5}}|(?:{_STATE_ALT})\.?(?![^\W_])))")


def _city_first_read(first: re.Match[str], written: str,
                     region_cities: dict[tuple[str, str], str]) -> RawAddress | None:
    """The address of "in CITY, at [VENUE,] NUMBER STREET" (see ``_CITY_THEN_STREET``), or None."""
    street = first.group("street")
    words = street.lower().split()
    if not words or words[0] in _NOT_STREET or words[-1] in _NOT_STREET:
        return None
    if words[0] in _MONTHS and int(first.group("number").rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) <= 31:
        return None  # "in Denver, on 12 March Street festivals ...": a date
    if street.endswith(".") and (len(words[-1]) > 5 or words[-1].rstrip(".").upper() in _QUADRANTS):
        street = street[:-1]  # the sentence's full stop after "Street", "NW"; "Rd." keeps its dot
    canonical, city_state = _region_city(region_cities, written)
    if canonical is None:
        return None
    return _PlaceFirstRead(street=street, unit=(first.group("unit") or "").strip(" ,") or None,
                           house_number=first.group("number"), postcode=None, city=canonical, city_text=written,
                           in_region=True, start=first.start("number"), end=first.end(), state=city_state)


# A place's label at a line's start, then a house number, a street with a type word (and a unit), a comma and a
# town that ends the line or the sentence, without state or ZIP: "Where:  25 Washington Avenue, Morristown.",
# "Venue: 88 Harbor Rd, Mystic" (invitations, event listings, mails). The label says it is a place and the
# street's type word that it is a street; the town is outside the region (a region city's name is read by
# ``_city_anchored``, or left to a state, as ``_CITY_ONLY_LEFT_OUT`` says). A literal ":" starts the search, the
# labels' last letters tested first (a JSON key's colon follows a quote).
# A town's word: capitalised, or two capitals and a name's prefix between ("McFarland", "DeKalb", "O'Fallon").
_TOWN_WORD = r"[A-Z](?:[a-z]+|(?:[a-z]{1,2}|')[A-Z][a-z]+)"
_LABELLED_TOWN = re.compile(
    r":(?<=[eEnNsS*_]:)(?:" + "|".join(f"(?<=(?i:{label}){bold}:)" for bold in ("", r"\*\*", "__")
                                         for label in ("where", "location", "venue", "address", "place"))
    + r")[ \t]*(?P<number>[1-9]\d{0,5}[A-Z]?) (?P<street>" + _STREET
    + r")(?P<unit>" + _UNIT + r")?, (?P<town>" + _TOWN_WORD + "(?: " + _TOWN_WORD + r"){0,2})"
    r"(?=[ \t]*(?:$|\n|\.(?:\s|$)))")
_COUNTY_WORD = re.compile(r"\b(?:County|Parish)\b")  # a county may hold a region city: it says too little
_LABEL_AT_LINE_START = re.compile(r"[ \t*>•_-]*[A-Za-z]+[*_]*[ \t]*")


# A sentence's "located at" (or "is at", "are at") before the same: the words that a place's label says in prose
# ("The club is located at 1109 Hilton Street, Redwood City."); the town also after "in" ("located at 333 Gellert
# Blvd., Suite 206 in Daly City."), a remark in brackets may follow the street ("(at Tilton Avenue corner)"), and a
# hard wrap may break the sentence ("located" / "at 270 Escuela Avenue, Mountain View.").
_LOCATED_AT_TOWN = re.compile(
    r"\b(?:[Ll]ocated|is|are)[ \t]*\n?[ \t]*at[ \t\n]+(?P<number>[1-9]\d{0,5}[A-Z]?) (?P<street>" + _STREET
    + r")(?P<unit>" + _UNIT + r")?(?:[ \t]+\([^()\n]{1,40}\))?(?:, |[ \t]+in[ \t]+)"
    r"(?P<town>" + _TOWN_WORD + r"(?:(?: |[ \t]*\n[ \t]*)" + _TOWN_WORD + r"){0,2})"
    # What ends the town: the sentence's full stop, a phone number in brackets, ", and".
    r"(?=\.(?:\s|$)|[ \t]*\((?=\d)|,[ \t]+and\b)")
# (At a line's end the town may go on in the next line, "San" / "Jose.": a region city's name so broken is read
# here, which the region city's reader cannot.)


# A list's sections headed by a city and its state alone on a line ("**PORTLAND, OR**", "### Austin, TX",
# "<h3>Denver, CO</h3>"), each with the meeting place's labelled line naming only the street, maybe after the
# venue's name ("**Location:** 205 NW 4th Ave", "Where: The Ethical Society, 1906 Rittenhouse Square. The room is
# in the basement."): event listings by city, chapters, branches. The heading is the street's place; the label
# and the street's type word say the line is an address. A place after the street is read by the other readers;
# a heading that names no region city is left alone ("**Jane Roe, MD**" may head a person's entry).
_LABELLED_STREET_ONLY = re.compile(
    r":(?<=[eEnNsS*_]:)(?:" + "|".join(f"(?<=(?i:{label}){bold}:)" for bold in ("", r"\*\*", "__")
                                         for label in ("where", "location", "venue", "address", "place"))
    + r")[*_]*[ \t]*(?:(?:[Tt]he[ \t]+)?[A-Z][\w'&.-]*(?:[ \t](?:[A-Z][\w'&.-]*|of|the|and|&)){0,6},[ \t]+)?"
    r"(?P<number>[1-9]\d{0,5}[A-Z]?) (?P<street>" + _STREET + r")(?P<unit>" + _UNIT + r")?"
    r"(?=[ \t]*(?:$|\n|\.(?:[ \t]|$)|[ \t]\(|[ \t][-–—][ \t]))")
_HEADING_PLACE = re.compile(r"[ \t#*_>]*(?:<h[1-6][^>\n]{0,80}>)?[ \t*_]*"
                            r"(?P<city>[A-Za-z][A-Za-z.'-]*(?: [A-Za-z.'-]+){0,3}),"
                            r"[ \t]*(?P<state>[A-Z]{2})[ \t*_]*(?:</h[1-6]>)?[ \t]*")
_HEADING_LINES = 12  # a section's lines between its heading and the place's line


def _headed_streets(text: str, gaz: Gazetteer, limit: WorkLimit) -> Iterator[RawAddress]:
    """Streets on a place's labelled line under a heading that names the city and state (``_LABELLED_STREET_ONLY``,
    ``_HEADING_PLACE``)."""
    if ":" not in text:
        return
    region_cities = region_city_index(gaz)
    for m in _LABELLED_STREET_ONLY.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _LABEL_AT_LINE_START.fullmatch(text, line_start, m.start()) is None:
            continue  # the label starts its line
        words = m.group("street").lower().split()
        if words[0] in _NOT_STREET or words[-1] in _NOT_STREET:
            continue
        heading = None
        end = line_start - 1
        for _ in range(_HEADING_LINES):
            if end <= 0:
                break
            start = text.rfind("\n", 0, end) + 1
            heading = _HEADING_PLACE.fullmatch(text, start, end)
            if heading is not None:
                break
            end = start - 1
        if heading is None or heading.group("state") not in STATES or not limit.anchor():
            continue
        state, city_text = heading.group("state"), heading.group("city")
        canonical, in_region = membership(gaz, city_text, state, None, region_cities)
        if not in_region:
            continue  # "**Jane Roe, MD**": only a region city's name says the heading is a place
        street = m.group("street")
        if street.endswith(".") and (len(words[-1]) > 5 or words[-1].rstrip(".").upper() in _QUADRANTS):
            street = street[:-1]  # the sentence's full stop after "Square", "NW"; "St." keeps its dot
        yield RawAddress(street=street, house_number=m.group("number"), postcode=None,
                         city=canonical or city_text, city_text=city_text, in_region=True,
                         start=m.start("number"), end=m.end(), state=state,
                         unit=(m.group("unit") or "").strip(" ,") or None)


def _labelled_towns(text: str, gaz: Gazetteer, limit: WorkLimit) -> Iterator[RawAddress]:
    """Addresses on a place's labelled line that end in a town without state or ZIP (see ``_LABELLED_TOWN``),
    or in a sentence after "located at" (``_LOCATED_AT_TOWN``)."""
    labelled = _LABELLED_TOWN.finditer(text) if ":" in text else iter(())
    located = _LOCATED_AT_TOWN.finditer(text) if " at" in text or "\nat" in text else iter(())
    region_cities = region_city_index(gaz)
    region_names = {name for name, _state in region_cities}
    for m in chain(labelled, located):
        if m.re is _LABELLED_TOWN:
            line_start = text.rfind("\n", 0, m.start()) + 1
            if _LABEL_AT_LINE_START.fullmatch(text, line_start, m.start()) is None:
                continue  # the label starts its line: "Where:", not "Tell us where: ..."
        if not limit.anchor():
            continue
        town = " ".join(m.group("town").split())
        canonical, city_state = None, None
        if "\n" in m.group("town"):
            if fold(town) not in _CITY_ONLY_LEFT_OUT:
                canonical, city_state = _region_city(region_cities, town)  # "San" / "Jose."
            if canonical is None:
                continue  # another town broken by the wrap: a name's end and a sentence's start are not told apart
        if canonical is None and (fold(town) in region_names or fold(town).split()[-1] in _FIELD_LABELS
                                  or state_code(town) in STATES or _COUNTY_WORD.search(town)):
            # "..., Austin.", "..., Main Hall.", "..., Texas.", "..., Cook County.": no town of its own ("South San
            # Francisco" is one: a label's word may begin a town's name)
            continue
        words = m.group("street").lower().split()
        if words[0] in _NOT_STREET or words[-1] in _NOT_STREET:
            continue
        unit = (m.group("unit") or "").strip(" ,") or None
        yield RawAddress(street=m.group("street"), house_number=m.group("number"), postcode=None,
                         city=canonical or town, city_text=town, in_region=canonical is not None,
                         start=m.start("number"), end=m.end("town"), state=city_state, unit=unit)


# A table written a column's cells at a time, each cell a one-element array, one a line or on one line
# ('[\n  "2200 Roaring Camp Dr"\n],\n[\n  "Sacramento"\n]', '["2200 Roaring Camp Dr"], ["Sacramento"]'): a cell that
# is only a region city's name, right after a cell that is only a typed street with its house number.
_CELL_BEFORE_CITY = re.compile(r'"(?P<cell>[^"\n]{4,80})"[ \t]*\n?[ \t]*\],?[ \t]*\n?[ \t]*\[[ \t]*\n?[ \t]*"$')
_CELL_AFTER_CITY = re.compile(r'"[ \t]*\n?[ \t]*\]')
_STREET_CELL = re.compile(rf"(?P<number>[1-9]\d{{0,5}}[A-Z]?) (?P<street>{_STREET})(?P<unit>{_UNIT})?")


def _cell_street(text: str, start: int, end: int, written: str,
                 region_cities: dict[tuple[str, str], str]) -> RawAddress | None:
    """The address of a street's cell and a region city's cell in one-element arrays (``_CELL_BEFORE_CITY``)."""
    if _CELL_AFTER_CITY.match(text, end) is None:
        return None
    window = max(0, start - 120)
    found = _CELL_BEFORE_CITY.search(text, window, start)
    if found is None:
        return None
    return _street_value_read(found, "cell", end, written, region_cities)


# A row of quoted values (SQL's VALUES, a quoted CSV line, a literal list) with the street's value right before the
# place's, no state or ZIP in the row ("(7, 'Harbor Books', '1201 Alaskan Way', 'Seattle', '2065550100')"):
# the place's value is only a region city's name, the street's only a typed street with its house number, in the same
# quotes, a comma between.
_FIELD_BEFORE_CITY = re.compile(r"(?P<quote>['\"])(?P<field>[^'\"\n]{4,80})(?P=quote)[ \t]*[,;][ \t]*(?P=quote)$")
_FIELD_AFTER_CITY = re.compile(r"['\"][ \t]*[,;)\]\n]")
_ROW_ZIP = re.compile(r"['\"]\d{5}(?:-\d{4})?['\"]|(?<![\w.-])\d{5}(?![\w.-])")
_NEXT_FIELD = re.compile(r"['\"][ \t]*[,;][ \t]*['\"]?([A-Za-z][A-Za-z .]{1,19}?)['\"]?[ \t]*(?:[,;)\]\n]|$)")


def _field_street(text: str, start: int, end: int, written: str,
                  region_cities: dict[tuple[str, str], str]) -> RawAddress | None:
    """The address of a street's value and a region city's value next to it in a row (``_FIELD_BEFORE_CITY``)."""
    if _FIELD_AFTER_CITY.match(text, end) is None:
        return None
    following = _NEXT_FIELD.match(text, end)
    state = state_code(following.group(1)) if following is not None else None
    line_start = text.rfind("\n", max(0, start - 400), start) + 1
    line_end = text.find("\n", end, end + 400)
    if _ROW_ZIP.search(text, line_start, line_end if line_end >= 0 else min(len(text), end + 400)) is not None:
        return None  # a ZIP's value in the row: the readers of rows and records read it with its ZIP
    found = _FIELD_BEFORE_CITY.search(text, max(0, start - 100), start)
    if found is None or found.group("quote") != text[start - 1]:
        return None
    return _street_value_read(found, "field", end, written, region_cities, state if state in STATES else None)


def _street_value_read(found: re.Match[str], group: str, end: int, written: str,
                       region_cities: dict[tuple[str, str], str], state: str | None = None) -> RawAddress | None:
    """The address of a value that is only a typed street with its house number (``found``'s ``group``: an array's
    cell, a row's field) and the region city ``written`` in the value after it, ending at ``end``; ``state``: the
    state's value after the city's ("'Phoenix', 'AZ'": in the region; "'Portland', 'ME'": another town of the name,
    an address outside it)."""
    value = found.group(group)
    street = _STREET_CELL.fullmatch(value.strip())
    if street is None:
        return None
    words = street.group("street").lower().split()
    if words[0] in _NOT_STREET or words[-1] in _NOT_STREET:
        return None
    if state is None:
        canonical, city_state = _region_city(region_cities, written)
    else:
        canonical, city_state = region_cities.get((fold(written), state)), state
    if canonical is None and state is None:
        return None
    begin = found.start(group) + (len(value) - len(value.lstrip()))
    return _CellRead(street=street.group("street"), house_number=street.group("number"), postcode=None,
                     city=canonical or written, city_text=written, in_region=canonical is not None, start=begin,
                     end=end, state=city_state, unit=(street.group("unit") or "").strip(" ,") or None)


def _street_in_city(text: str, start: int, end: int, written: str,
                    region_cities: dict[tuple[str, str], str]) -> RawAddress | None:
    """The address of "NUMBER STREET in CITY" (see ``_STREET_IN_CITY``) for the region city at ``start``..``end``."""
    if _CITY_IN_END.match(text, end) is None:
        return None
    window = max(0, start - 160)
    if _STREET_IN_PROSE_NUMBER.search(text, window, start) is None:
        return None  # no house number before a word: the costlier search is not needed ("I live in Chicago")
    found = _STREET_IN_CITY.search(text[window:start])
    if found is None:
        return None
    number, street = found.group("number"), found.group("street")
    lead_at = window + found.start()
    if (_STREET_IN_LEAD.search(text, max(0, lead_at - 12), lead_at) is None
            or _is_year(number) and _YEAR_BEFORE.search(text, max(0, lead_at - 12), lead_at)):
        return None
    words = street.lower().split()
    if words[0] in _NOT_STREET or words[-1] in _NOT_STREET or words[0] in _MONTHS:
        return None
    canonical, city_state = _region_city(region_cities, written)
    if canonical is None:
        return None
    return RawAddress(street=street, house_number=number, postcode=None, city=canonical, city_text=written,
                      in_region=True, start=lead_at, end=end, state=city_state,
                      unit=(found.group("unit") or "").strip(" ,") or None)


def _left_out_in_quotes_pattern(gaz: Gazetteer) -> re.Pattern[str] | None:
    """A region city's name of ``_CITY_ONLY_LEFT_OUT`` as a quoted value of its own ("'Madison'"), cached."""
    pattern = getattr(gaz, "_us_left_out_quoted", False)
    if pattern is False:
        names = sorted({city for (name, _state), city in region_city_index(gaz).items()
                        if name in _CITY_ONLY_LEFT_OUT and fold(city) == name and city[:1].isupper()},
                       key=len, reverse=True)
        # The quote first: a scan for two characters, not for the names' many first letters.
        pattern = re.compile("['\"](?:" + "|".join(map(re.escape, names)) + ")['\"]") if names else None
        gaz._us_left_out_quoted = pattern  # type: ignore[attr-defined]
    return pattern  # type: ignore[return-value]


def _left_out_fields(text: str, gaz: Gazetteer, limit: WorkLimit) -> Iterator[RawAddress]:
    """A typed street's value and, in the next value of the row or array, a region city's name that the city-only
    reading leaves out ("'2749 Blackhawk Trail', 'Madison'", '["110 W Liberty St"], ["Austin"]'): a value of its
    own is a place's field, not a person's name in a sentence, as a record's city key says (see
    ``named_city_state``). The rest as ``_city_anchored`` reads such values of the other region cities."""
    if "'" not in text and '"' not in text:
        return
    pattern = _left_out_in_quotes_pattern(gaz)
    if pattern is None:
        return
    region_cities = region_city_index(gaz)
    for m in pattern.finditer(text):
        if not limit.candidate():
            return
        start, end = m.start() + 1, m.end() - 1
        read = _quoted_value_read(text, start, end, text[start:end], region_cities)
        if read is not None and limit.anchor():
            yield read


def _quoted_value_read(text: str, start: int, end: int, written: str,
                       region_cities: dict[tuple[str, str], str]) -> RawAddress | None:
    """The address of the region city ``written`` at ``start``..``end`` as a quoted value of its own and the typed
    street's value before it: a one-element array's cell (``_cell_street``) or a row's field (``_field_street``)."""
    quote = text[start - 1:start]
    if quote not in ("'", '"') or text[end:end + 1] != quote:
        return None
    return (_cell_street(text, start, end, written, region_cities) if quote == '"' else None) or (
        _field_street(text, start, end, written, region_cities))


def _city_anchored(text: str, gaz: Gazetteer, limit: WorkLimit) -> Iterator[RawAddress]:
    """Addresses ending in a region city without state or ZIP (see ``_CITY_ONLY_LEFT_OUT``)."""
    pattern = _city_only_pattern(gaz)
    if pattern is None or limit.region_cities is False:
        return  # none in the page text: none in its other readings either (see WorkLimit)
    if limit.region_cities is None:
        limit.region_cities = False
    region_cities = region_city_index(gaz)
    siblings_read: set[int] = set()
    for m in pattern.finditer(text):
        limit.region_cities = True
        if not limit.candidate():
            return
        start, end = m.span()
        if text[end:end + 1] == ":" or text[end:end + 2] == " :":
            # The city as a line's label, the address after it: "Houston: 900 Bagby St, Suite 100" (lists of
            # offices, meeting places).
            found_after = _CITY_COLON_STREET.match(text, end)
            # A line break or its escape in a JSON string ("summary": "...\\nHouston: 900 Bagby St\\n").
            escaped = text.rfind("\\n", 0, start)
            line_start = max(text.rfind("\n", 0, start) + 1, escaped + 2 if escaped >= 0 else 0)
            if found_after is not None and not text[line_start:start].strip(" \t\"'*>•-") and limit.anchor():
                canonical, city_state = _region_city(region_cities, m.group(0))
                words = found_after.group("street").lower().split()
                street_found = found_after.group("street")
                if len(found_after.group("number")) < 2 and _TYPED_STREET.fullmatch(street_found) is None:
                    continue  # "Chicago: 3 North Stars": a grid street without type word needs a longer number
                if canonical is not None and words and words[0] not in _NOT_STREET:
                    unit = (found_after.group("unit") or "").strip(" ,")  # "": none, and none to look for
                    own = RawAddress(street=found_after.group("street"), house_number=found_after.group("number"),
                                     postcode=None, city=canonical, city_text=m.group(0), in_region=True,
                                     start=found_after.start("number"), end=found_after.end(), state=city_state,
                                     unit=unit)
                    siblings = [r for r in _sibling_places(text, line_start, found_after.end(), pattern, region_cities)
                                if r.start not in siblings_read]
                    siblings_read.update(r.start for r in siblings)
                    yield from (r for r in siblings if r.start < own.start)  # in text order
                    yield own
                    yield from (r for r in siblings if r.start > own.start)
            continue
        if text[end:end + 1] == "," and _IN_BEFORE_CITY.search(text, max(0, start - 20), start):
            # "in Chicago, at the Merchandise Mart, 222 W Merchandise Mart Plaza.": the place first in a sentence,
            # no state (the state's anchor reads "in Chicago, IL at ..."); the venue's name may stand between.
            first = _CITY_THEN_STREET.match(text, end)
            if first is not None and limit.anchor():
                city_first = _city_first_read(first, m.group(0), region_cities)
                if city_first is not None:
                    yield city_first
                    continue
        quoted = _quoted_value_read(text, start, end, m.group(0), region_cities)
        if quoted is not None and limit.anchor():
            yield quoted
            continue
        if text[start - 3:start] == "in " or text[start - 9:start] == "downtown ":
            street_in = _street_in_city(text, start, end, m.group(0), region_cities)
            if street_in is not None and limit.anchor():
                yield street_in
                continue
        if start < 2 or text[start - 1] not in " ,\n" or (text[start - 1] == " " and text[start - 2] not in ",·•|"):
            continue  # a comma (or a line break, a separator sign: "425 Market St · San Francisco") before the city
        if text[start - 2].isalnum() and text[start - 1] != "\n":
            continue
        tail = _CITY_ONLY_END.match(text, end)
        if tail is None or _STATE_OR_ZIP_NEXT.match(text, tail.end()) is not None:
            continue  # a state or a ZIP after it (also on the next line) is read by the state's anchor
        if not limit.anchor():
            return
        before = _breaks_unescaped(text[max(0, start - 120):start])  # an escaped line break, as in ``_extract``
        found = _BEFORE.search(before + m.group(0))
        if found is None and _UPPER_TYPE.search(before):
            # "1900 SE A ST, San Francisco": a type word of two capitals, which the second reading leaves as
            # written (it title-cases longer words only); the same length, so the offsets hold.
            before = _UPPER_TYPE.sub(lambda t: t.group(0).title(), before)
            found = _BEFORE.search(before + m.group(0))
        aside = False
        if found is not None and found.group("city") == m.group(0) and found.group("number"):
            street, number = found.group("street"), found.group("number")
            aside = _skipped_aside(found)
            unit = _matched_unit(found) or None
            begin = start - len(before) + found.start()
        else:
            after = _NUMBER_AFTER.search(before)
            if after is None:
                continue
            street, number, unit = after.group("street"), after.group("number"), None
            begin = start - len(before) + after.start()
            if _is_year(number):
                continue  # "Broadway 2024, Manhattan": a year after the street
        words = street.lower().split()
        if not words or words[0] in _NOT_STREET or words[-1] in _NOT_STREET:
            continue
        canonical, city_state = _region_city(region_cities, m.group(0))
        if canonical is None:
            continue
        yield (_AsideRead if aside else RawAddress)(
            street=street, house_number=number, postcode=None, city=canonical, city_text=m.group(0), in_region=True,
            start=begin, end=end, state=city_state, unit=unit)
