"""Split the text before a US state anchor into house number, street, unit and city.

The regular expressions of :mod:`geofocus.geoparser.us` read the common,
well-punctuated form ("1600 Main St, Austin, TX").  Pages and data files also
write addresses in capitals or lower case, without the comma between street and
city ("1105 Central Street Evanston IL 60201"), with the unit anywhere ("# 26",
"Ste 900", ", 2nd Fl."), with quadrant words after the street ("3320 M Street
Northwest", "1800 M Street, NW, Washington") or with highway names ("FM 529").
This reads the words before the anchor as tokens, case-insensitively: the
house number, then the street up to its type word (St, Ave, ...), a
directional, a unit, and what is left before the state is the city.  The
window is bounded (the caller passes at most ~160 characters), so the cost per
anchor is constant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"#|,|\n|[A-Za-z0-9][A-Za-z0-9'.&/-]*")
# A remark in parentheses without a digit ("Austin (S)", "Room L15 (Lower Level)", "Main St (rear)"): no part of
# the street, unit or city; its words are not read as tokens (a remark with a digit, "(2nd floor)", is kept).
_REMARK = re.compile(r"\([^()\d\n]{1,40}\)")
_HOUSE_NUMBER = re.compile(r"^(?:[1-9]\d{0,5}(?:[A-Za-z]|-[A-Za-z]|-\d{1,4}[A-Za-z]?)?|[1-9]\d{0,5}-?[A-Za-z])$")
_FRACTION = re.compile(r"^\d/\d$")
# Wisconsin-style grid numbers: "N165 W2123" (two tokens) or "W156N9762" (one).
_GRID_PART = re.compile(r"^[NSEWnsew]\d{1,4}$")
_GRID_NUMBER = re.compile(r"^[NSEWnsew]\d{1,4}[NSEWnsew]\d{1,5}$")
# A rural grid number of one part, its direction letter and three to five digits: "W5445 Center Road",
# "N3302 Monroe Rd" (Wisconsin towns number the houses along a road by their distance on the county grid).
_GRID_SINGLE = re.compile(r"^[NSEW]\d{3,5}$")
# A token that may be the other half of a two-part grid number ("W210 N16570", "W206N W16282").
_GRID_HALF = re.compile(r"^[NSEWnsew]\d{1,5}[NSEWnsew]?$")
# A unit written without its word, alone between commas: "W. Monroe, 12C, Chicago", "Beverly Rd, B6-347B,".
_BARE_UNIT = re.compile(
    r"^(?:[A-Za-z]{0,2}-?\d{1,5}[A-Za-z]?|\d{1,5}-?[A-Za-z]{1,2}|[A-Za-z]{1,2}\d{1,3}-\d{1,4}[A-Za-z]?)$")
_YEAR_RANGE = re.compile(r"^(?:19|20)\d\d-(?:(?:19|20)\d\d|\d\d)$")
TYPES = frozenset(
    "st st. street ave ave. av avenue blvd blvd. bvd boulevard rd rd. road dr dr. drive ln ln. lane way ct ct. court "
    "pl pl. place pkwy pkwy. parkway hwy hwy. highway hgwy cir cir. ci circle ter ter. terrace sq square trl trl. "
    "trail loop plz plaza expy expressway fwy freeway pike row walk alley aly crossing xing run path pass "
    "turnpike tpke bend cv cove trace commons mall landing ridge hts heights grove crescent cres crst pt point "
    "center ctr park cswy causeway byp bypass ext extension hl hill holw hollow mnr manor vw view vis vista expwy "
    "gln glen sta station spur mews".split()
)
# The type words as a regular expression's alternatives, the longest first (so that "Street" is tried before "St").
TYPE_ALTERNATIVES = "|".join(sorted({re.escape(t.rstrip(".")) for t in TYPES}, key=len, reverse=True))
# Types that begin the street ("Avenue D", "Calle 5"), or name a road by its number ("FM 529", "Hwy 50").
_PREFIX_TYPES = frozenset("avenue ave calle via".split())
_ROUTE_WORDS = frozenset("hwy hwy. highway route rte fm cr sr us i interstate county state farm loop spur beltway"
                         .split())
# The words before "Road" of roads named by their number: "County Road 12", "Ranch Road 620", "Park Road 4",
# "Farm to Market Road 1960", "Ranch to Market Road 2222", "Forest Road 45", "Township Road 112".
_NUMBERED_ROADS = frozenset("county country state farm ranch park forest market township".split())
_DIRECTIONS = frozenset("n s e w n. s. e. w. ne nw se sw n.e. n.w. s.e. s.w.".split())
_COMPOUND_DIRECTIONS = frozenset("northeast northwest southeast southwest".split())
_WORD_DIRECTIONS = frozenset("north south east west".split())
_WING_DIRECTIONS = _DIRECTIONS | _COMPOUND_DIRECTIONS | _WORD_DIRECTIONS
# Every direction as a word of its own, without dots ("n", "ne", "north", "northeast").
DIRECTION_WORDS = frozenset(w for w in _DIRECTIONS if "." not in w) | _COMPOUND_DIRECTIONS | _WORD_DIRECTIONS
UNIT_WORDS = frozenset(
    "suite suites ste ste. apt apt. apartment unit fl fl. flr flr. floor rm rm. room bldg bldg. building dept dept. "
    "trlr lot spc space no no. # sutie siute suit suiet stuie".split()  # the misspellings of "suite" pages have
)
# The unit words that count only before a mark with a digit or a single letter ("Pier 39", "Hangar 3B", "PMB 123",
# "Box 45"): the secondary unit designators of USPS Publication 28 (Appendix C2) not in ``UNIT_WORDS`` and a private
# mailbox (PMB), as pages write them after the street. Without the mark they are words of names ("Pier 1 Imports"
# aside, "Box Elder", "Slip Road"). One list, read by the splitter here and by ``us._UNIT`` (the pattern).
NUMBERED_UNIT_WORDS = ("PMB", "Hangar", "Hngr", "Pier", "Slip", "Box", "Ofc", "Office", "Trailer", "Spc")
NUMBERED_UNIT_NAMES = frozenset(w.lower() for w in NUMBERED_UNIT_WORDS)  # as the splitter compares them
_UNIT_MARK_NUMBERED = re.compile(r"^(?:[A-Za-z]{0,2}-?\d[\w-]{0,6}|[A-Z])$")
# A unit named by a private mail service's own abbreviation and a number sign ("ECM # 90772", "CMB #12"): two to
# four capitals, "#", a number.
_ABBREVIATION = re.compile(r"^[A-Z]{2,4}$")
# A level or floor named without a number ("Garden Level", "Lower Level", "Ground Floor") or a level by
# its number ("Level 2"), and the parts of a building named alone ("Mezzanine", "Lobby"): units too.
_LEVEL_NAMES = frozenset("garden lower upper ground main street plaza concourse lobby mezzanine".split())
_LEVEL_WORDS = frozenset("level lvl lvl. floor".split())
_LONE_UNITS = frozenset("mezzanine lobby basement penthouse".split())
# Parts of a building named by a letter or a short number ("Entrance A", "Door 3", "Gate B", "Wing 2"): a unit
# when the letter or number ends the field.
_LETTERED_UNITS = frozenset("entrance door gate wing dock".split())
_UNIT_MARK = re.compile(r"^(?:[A-Z]|\d{1,3}[A-Z]?)$")
# Rooms named by their use ("Conference Room 5301"), not by their building ("Capitol Room 346").
_ROOM_USES = frozenset("conference board meeting community hearing committee council training".split())
_ORDINAL = re.compile(r"^(?:\d{1,3}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                      r"eleventh|twelfth|top|ground|main|lower|upper)$", re.I)
_CITY_WORD = re.compile(r"^[A-Za-z][A-Za-z.'-]*$")
_COMPANY = frozenset("inc inc. llc ltd ltd. corp corp. co co. company group lp llp pc pllc corporation foundation "
                     "university college".split())
_INSTITUTIONS = frozenset("university college".split())


@dataclass
class Split:
    number: str
    street: str
    unit: str | None
    city: str
    start: int  # offset of the house number in the window
    typed: bool  # the street ends in a type word (or is a route): strong evidence


def _unit_at(tokens: list[tuple[str, int]], i: int) -> int:
    """Index past a unit starting at ``i`` ("Suite 100", "# 26", "#3002", "2nd Fl."), or ``i``."""
    n = len(tokens)
    if i < n and tokens[i][0].startswith("#") and len(tokens[i][0]) > 1:
        return i + 1
    if i + 1 < n and tokens[i][0].lower().rstrip(".") in NUMBERED_UNIT_NAMES:
        j = i + 2 if tokens[i + 1][0] == "#" else i + 1
        return j + 1 if j < n and _UNIT_MARK_NUMBERED.match(tokens[j][0]) else i  # "PMB 123", "Pier 39"
    if i + 2 < n and tokens[i + 1][0] == "#" and _ABBREVIATION.match(tokens[i][0]) and tokens[i + 2][0][:1].isdigit():
        return i + 3  # "ECM # 90772"
    if i < n and tokens[i][0].lower() in UNIT_WORDS:
        j = i + 1
        if j < n and tokens[j][0] == "#":
            j += 1
        if j < n and len(tokens[j][0]) <= 8 and tokens[j][0] not in (",", "\n"):
            if tokens[i][0].lower() in ("no", "no."):
                return j + 1  # "Highway No. 130 North": the direction is the road's
            return _past_wing(tokens, j + 1)
        return i
    if i + 1 < n and _ORDINAL.match(tokens[i][0]) and tokens[i + 1][0].lower().rstrip(".") in ("fl", "flr", "floor"):
        return _past_wing(tokens, i + 2)
    if (i + 2 < n and tokens[i + 1][0].lower() in ("room", "rm", "rm.") and tokens[i][0].lower() in _ROOM_USES
            and any(c.isdigit() for c in tokens[i + 2][0]) and len(tokens[i + 2][0]) <= 8):
        return i + 3  # "Conference Room 5301": the number of a room named by its use
    if i + 1 < n and tokens[i][0][:1].isupper() and tokens[i][0].lower() in _LEVEL_NAMES and (
            tokens[i + 1][0].lower() in _LEVEL_WORDS):
        return i + 2  # "Garden Level", "Lower Level"
    if i + 1 < n and tokens[i][0][:1].isupper() and tokens[i][0].lower() in _LETTERED_UNITS and _UNIT_MARK.match(
            tokens[i + 1][0]) and (i + 2 == n or tokens[i + 2][0] in (",", "\n")):
        return i + 2  # "Entrance A", "Door 3"
    if i + 1 < n and tokens[i][0].lower() in ("level", "lvl", "lvl.") and tokens[i + 1][0].isdigit() and len(
            tokens[i + 1][0]) <= 2:
        return i + 2  # "Level 2"
    if i < n and tokens[i][0][:1].isupper() and tokens[i][0].lower() in _LONE_UNITS and (
            i + 1 == n or tokens[i + 1][0] in (",", "\n")):
        return i + 1  # "Mezzanine,"
    return i


def _past_wing(tokens: list[tuple[str, int]], j: int) -> int:
    """Index past a wing of the floor at ``j`` that ends the field ("Suite 325 East", "35th floor SW",
    "Room 301 N.E."), or ``j``: a direction after a unit's mark is the unit's, not the street's or the city's."""
    if j < len(tokens) and tokens[j][0].lower() in _WING_DIRECTIONS and (
            j + 1 == len(tokens) or tokens[j + 1][0] in (",", "\n")):
        return j + 1
    return j


def _skip_breaks(tokens: list[tuple[str, int]], i: int) -> int:
    while i < len(tokens) and tokens[i][0] in (",", "\n"):
        i += 1
    return i


def split_before(window: str) -> Split | None:
    """The address that ends at the end of ``window`` (the state follows it), or None."""
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(window)]
    if "(" in window:
        remarks = [(m.start(), m.end()) for m in _REMARK.finditer(window)]
        tokens = [t for t in tokens if not any(a < t[1] < b for a, b in remarks)]
    if len(tokens) < 3:
        return None
    # Try house numbers from the right: the last one that gives a whole address wins.
    for k in range(len(tokens) - 3, -1, -1):
        word = tokens[k][0]
        lead = window[:tokens[k][1]].rstrip(" \t") if word == "0" else ""
        if word == "0" and lead[-1:] in ("", "\n", ",", ":", "'", '"') and not (
                lead[-1:] in ("'", '"') and lead[-2:-1].isdigit()) and (
                window[tokens[k][1] + 1:tokens[k][1] + 2] not in ("'", '"')):  # 6' 0" (a height) is no house number
            # House number zero: a lot or a garage without a number of its own ("0 Charles St, Boston, MA"), also
            # in parcel and permit data; only where the address's line, field or value starts, before a typed
            # street.
            split = _split_from(tokens, k, window)
            if split is not None and split.typed:
                return split
            continue
        if not (_HOUSE_NUMBER.match(word) or _GRID_NUMBER.match(word)
                or (_GRID_PART.match(word) and _GRID_PART.match(tokens[k + 1][0]))
                or (_GRID_SINGLE.match(word) and not (k > 0 and _GRID_HALF.match(tokens[k - 1][0]))
                    and not _GRID_HALF.match(tokens[k + 1][0]))):
            continue
        if _YEAR_RANGE.match(word):
            continue  # "1999-2003 The OpenLDAP Foundation": copyright years
        if (k > 1 and tokens[k - 1][0].lower() in _DIRECTIONS | _WORD_DIRECTIONS
                and _HOUSE_NUMBER.match(tokens[k - 2][0])):
            continue  # "164 South 100 West": a grid street, its house number is the first one
        if k > 0 and _GRID_PART.match(tokens[k - 1][0]) and _GRID_PART.match(word):
            continue  # the second half of "N165 W2123"
        if k > 0 and (tokens[k - 1][0].lower() in UNIT_WORDS or tokens[k - 1][0].lower() in _ROUTE_WORDS
                      or k > 1 and tokens[k - 1][0].lower() in ("road", "rd", "rd.")
                      and tokens[k - 2][0].lower() in _NUMBERED_ROADS
                      or tokens[k - 1][0][:1].isdigit() and not _other_field(window, tokens, k)
                      ) and not _after_building(tokens, k):
            if _after_named_room(tokens, k):
                split = _split_from(tokens, k, window)
                if split is not None and split.typed:
                    return split  # "5th Floor Board Room 735 Randolph St Detroit": the room has a name
            continue  # "Suite 200", "Hwy 50", "555 1234"
        split = _split_from(tokens, k, window)
        if split is not None:
            return split
    return None


_BUILDING_WORDS = frozenset("building bldg bldg.".split())


def _name_word(token: str) -> bool:
    """A capitalised word of a name ("Capitol", "Office"), not a number, type word or unit word."""
    low = token.lower()
    return (token[:1].isupper() and not token[:1].isdigit() and low not in TYPES and low not in UNIT_WORDS
            and low not in _ROUTE_WORDS)


def _after_building(tokens: list[tuple[str, int]], k: int) -> bool:
    """The house number at ``k`` follows a building's name, not a unit: "Capitol Building 500 E. Capitol
    Ave.", "Centennial Office Building 658 Cedar St.", "Complex, Building 1 1900 Kanawha Blvd."."""
    prev = tokens[k - 1][0].lower()
    if prev in _BUILDING_WORDS:
        return k > 1 and _name_word(tokens[k - 2][0])
    # "Building 1 1900 Kanawha": the number before is the building's.
    return (prev.isdigit() and len(prev) <= 2 and k > 1 and tokens[k - 2][0].lower() in _BUILDING_WORDS
            and k + 1 < len(tokens) and not tokens[k + 1][0][:1].isdigit())


def _after_named_room(tokens: list[tuple[str, int]], k: int) -> bool:
    """The house number at ``k`` follows a room named by a word, not numbered by it: "Board Room 735
    Randolph St", "Community Room 12 Oak Ave" (the number before the street is the house's)."""
    return (k > 1 and tokens[k - 1][0].lower() in ("room", "rm", "rm.") and _name_word(tokens[k - 2][0])
            and not _ORDINAL.match(tokens[k - 2][0]))


def _po_box_at(tokens: list[tuple[str, int]], i: int) -> int:
    """Index past a post-office box at ``i`` ("P.O. Box 942849", "PO Box 12"), or ``i``."""
    n = len(tokens)
    j = i
    if j < n and tokens[j][0].lower() in ("p.o.", "po", "p.o"):
        j += 1
    elif j + 1 < n and tokens[j][0].lower() in ("p.", "p") and tokens[j + 1][0].lower() in ("o.", "o"):
        j += 2
    else:
        return i
    if j + 1 < n and tokens[j][0].lower() == "box" and tokens[j + 1][0][:1].isdigit():
        return j + 2
    return i


def _other_field(window: str, tokens: list[tuple[str, int]], k: int) -> bool:
    """Whether the number before token ``k`` is in another field: a quote, colon or "=" between them
    (``"1": "3101 patterson ave"``, a key or an id), not a space ("555 1234")."""
    between = window[tokens[k - 1][1] + len(tokens[k - 1][0]):tokens[k][1]]
    return any(c in between for c in "\"':=")


def _split_from(tokens: list[tuple[str, int]], k: int, window: str) -> Split | None:
    number = tokens[k][0]
    i = k + 1
    if _GRID_PART.match(number) and i < len(tokens) and _GRID_PART.match(tokens[i][0]):
        number = f"{number} {tokens[i][0]}"
        i += 1
    if i < len(tokens) and _FRACTION.match(tokens[i][0]):
        number = f"{number} {tokens[i][0]}"
        i += 1
    rest = tokens[i:]
    # Up to the first line break or comma: the street (and maybe unit and city without comma).
    cut = next((j for j, (t, _p) in enumerate(rest) if t in (",", "\n")), len(rest))
    head = rest[:cut]
    if not head or len(head) > 9:
        return None
    words = [t.lower() for t, _p in head]
    street_end = None  # index in head just past the street
    typed = False
    # A route: "FM 529", "US Highway 1", "County Road ZZZ", "Hwy 50 W".
    for j, w in enumerate(words[:-1]):
        if w.rstrip(".") in ("hwy", "highway", "route", "rte", "fm", "cr", "sr", "road", "rd", "loop", "spur",
                             "beltway") and (
                any(c.isdigit() for c in words[j + 1]) or (w in ("road", "rd") and j > 0 and words[j - 1] == "county")):
            if w in ("road", "rd") and not (j > 0 and words[j - 1] in _NUMBERED_ROADS):
                continue
            street_end = j + 2
            if street_end < len(words) and words[street_end] in TYPES:
                street_end += 1  # "FM 620 Road North": the road's type word after its number
            typed = True
            break
    if street_end is None and words[0].rstrip(".") in _PREFIX_TYPES and len(words) > 1:
        street_end, typed = 2, True  # "Avenue D"
        if words[1] == "of" and len(words) > 2:
            # "Avenue of the Americas", "Avenue of the fellows": the name runs to the comma or line end.
            street_end = len(words) if cut < len(rest) else 0
            if street_end == 0 or not all(_CITY_WORD.match(t) for t, _p in head):
                return None
    if street_end is None:
        # The last type word that leaves a place after it (or ends the segment before a comma).
        candidates = [j for j, w in enumerate(words) if w in TYPES and j > 0]
        if candidates:
            tail_has_city = cut < len(rest)  # a comma or line follows: the city may be after it
            good = [j for j in candidates if j + 1 < len(words) or tail_has_city]
            if good:
                j = good[-1]
                # "Main St St Louis": the second "St" is Saint.
                if words[j] in ("st", "st.") and j - 1 in candidates:
                    j -= 1
                street_end, typed = j + 1, True
    if street_end is None:
        # A building of several names without type word, the place after it: "2159 Rayburn House Office
        # Building Washington DC", "311 Hart Senate Office Building, Washington".
        for j, w in enumerate(words):
            if (w in _BUILDING_WORDS and j >= 2 and all(_name_word(t) for t, _p in head[:j])
                    and (j + 1 == len(words) and cut < len(rest) or j + 1 < len(words)
                         and not any(c.isdigit() for c in words[j + 1]))):
                street_end, typed = j + 1, True
                break
    if street_end is None:
        # No type word: the street runs to the comma ("10 S Dearborn, Chicago").
        if cut == len(rest):
            return None
        unit_at = next((j for j in range(len(head)) if _unit_at(head, j) > j), len(head))
        street_end = unit_at
        if street_end == 0 or street_end > 4:
            return None
        # Without a type word only a name counts: capitalised words ("101 points, Dallas" is prose),
        # and no year as house number ("2019 Annual Report, Austin").
        if not all(t[:1].isupper() or t[:1].isdigit() for t, _p in head[:street_end]):
            return None
        if all(w in _WING_DIRECTIONS for w in words[:street_end]):
            return None  # "Suite #5685, 5 South": a floor and its wing; no street is named by a direction alone
        if number.isdigit() and len(number) == 4 and 1900 <= int(number) <= 2099 and words[0] not in _DIRECTIONS:
            return None  # (a year is not followed by "W. Polk": "1950 W. Polk, Chicago" is an address)
    if not typed and _GRID_SINGLE.match(number):
        return None  # "Model E350 Van, Dallas": a one-part grid number goes with a street of a type word
    # A directional after the type: "Pennsylvania Ave NW", "M Street Northwest".
    if street_end < len(head):
        w = words[street_end]
        if w in _DIRECTIONS or w in _COMPOUND_DIRECTIONS or (w in _WORD_DIRECTIONS and typed):
            street_end += 1
    street_tokens = head[:street_end]
    street = window[street_tokens[0][1]: street_tokens[-1][1] + len(street_tokens[-1][0])]
    # Unit on the same segment, or in a segment of its own after commas.
    i2 = street_end
    unit_start = i2
    i2 = _unit_at(head, i2)
    unit_tokens = head[unit_start:i2]
    remaining = head[i2:] + rest[cut:]
    # ", NW," (or ", NE Suite 2000") after the street: part of the street.
    pos = _skip_breaks(remaining, 0)
    if pos + 1 < len(remaining) and remaining[pos][0].lower() in _DIRECTIONS | _COMPOUND_DIRECTIONS and (
            remaining[pos + 1][0] in (",", "\n") or _unit_at(remaining, pos + 1) > pos + 1):
        street = f"{street} {remaining[pos][0]}"
        remaining = remaining[pos + 1:]
    # Units, several at most three ("Building 100, Suite 120", "14th Floor, Room 1418"), or a bare
    # number between commas ("W. Monroe, 12C, Chicago", "Grand Ave. 600, Chicago"), or on a line of its own
    # after a street with a type word (positional fields read as lines: "972 Mission St", "5", "San Francisco").
    line_unit = False  # a bare unit on a line of its own, written "#4B" as a keyed record's bare unit is
    for _ in range(3):
        pos = _skip_breaks(remaining, 0)
        end = _unit_at(remaining, pos)
        bare = remaining[pos][0] if pos < len(remaining) else ""
        if end <= pos and pos + 1 < len(remaining) and (
                remaining[pos + 1][0] == "," or typed and remaining[pos + 1][0] == "\n" and pos > 0
                and remaining[pos - 1][0] == "\n") and _BARE_UNIT.match(
                bare) and any(c.isdigit() for c in bare) and not (bare.isdigit() and len(bare) == 5):  # a ZIP
            end = pos + 1
            line_unit = not unit_tokens and remaining[pos + 1][0] == "\n"
        if (end <= pos and unit_tokens and pos + 1 < len(remaining) and bare.isdigit() and len(bare) <= 2
                and remaining[pos + 1][0].lower() in _WING_DIRECTIONS):
            end = _past_wing(remaining, pos + 1)  # "Suite #5685, 5 South": the wing of the fifth floor, after the unit
        if end <= pos:
            break
        unit_tokens = unit_tokens + remaining[pos:end] if unit_tokens else remaining[pos:end]
        remaining = remaining[end:]
    # A post-office box between a street with type word and the place: "1021 O St. P.O. Box 942849,
    # Sacramento" (not "(508)563-6766 / P.O. Box 1027 / N.Falmouth": a phone number, no street).
    pos = _skip_breaks(remaining, 0)
    box_end = _po_box_at(remaining, pos)
    if box_end > pos and typed:
        remaining = remaining[box_end:]
    city_tokens = [t for t in remaining if t[0] not in (",", "\n")]
    while len(city_tokens) > 1 and city_tokens[0][0] in ("in", "at", "near"):
        city_tokens = city_tokens[1:]  # "400 Broad St in Seattle, WA"
    if not city_tokens and typed:
        # No city between the street and the state: "900 Sycamore Dr, TN 38361" (a geocoder's address of a
        # place outside any city); the caller takes it only with a comma before the state and a ZIP, which
        # names the place.
        unit = (window[unit_tokens[0][1]: unit_tokens[-1][1] + len(unit_tokens[-1][0])].strip(" ,")
                if unit_tokens else None)
        return Split(number=number, street=street.strip(" ,"), unit=unit, city="", start=tokens[k][1], typed=typed)
    if not city_tokens or len(city_tokens) > 4:
        return None
    if not all(_CITY_WORD.match(t) for t, _p in city_tokens):
        return None
    city_words = [t.lower() for t, _p in city_tokens]
    if len(city_words) == 1 and (city_words[0] in _DIRECTIONS or city_words[0] in _COMPOUND_DIRECTIONS):
        return None  # the city is never "NW"
    # No break inside the city, and at most one break between the street and the city.
    city = window[city_tokens[0][1]: city_tokens[-1][1] + len(city_tokens[-1][0])]
    if "\n" in city or "," in city:
        return None
    street_words = street.lower().split()
    # A company or an institution is no street ("Acme Inc", "Stanford University"); a street named after an
    # institution has a type word after the name ("University Avenue", "College St").
    company = set(street_words) & _COMPANY
    if company and typed and not company - _INSTITUTIONS:
        company = set()
    if company or set(city_words) & _COMPANY:
        return None
    unit = None
    if unit_tokens:
        unit = window[unit_tokens[0][1]: unit_tokens[-1][1] + len(unit_tokens[-1][0])].strip(" ,")
        if line_unit and len(unit_tokens) == 1 and not unit.startswith("#"):
            unit = "#" + unit
    return Split(number=number, street=street.strip(" ,"), unit=unit, city=city, start=tokens[k][1], typed=typed)


# What may stand between a unit written first and the house number of a street value ("Suite 5, 8800 Sunset Blvd",
# "Unit 4 - 100 Main St").
_UNIT_LEAD_SEPARATOR = re.compile(r"[ \t]*[,;–-]?[ \t]*")


def street_value(value: str) -> tuple[str, str, str | None] | None:
    """House number, street and unit of a structured record's street value that holds a unit ("392 E. Farmland Dr
    Suite 203", "1200 Main Street, Suite 400", "55 W 46th St #1200", "Suite 5, 8800 Sunset Blvd"), read as the
    text readers read a street before its place; None when the value holds no unit, or is no number and street."""
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(value)]
    if not tokens:
        return None
    lead_unit = None
    end = _unit_at(tokens, 0)
    if end > 0 and end < len(tokens):
        unit_end = tokens[end - 1][1] + len(tokens[end - 1][0])
        separator = _UNIT_LEAD_SEPARATOR.match(value, unit_end)
        rest = value[separator.end() if separator else unit_end:]
        if not rest[:1].isdigit():
            return None
        lead_unit, value = value[:unit_end], rest
    split = split_before(value)
    if split is not None and split.start == 0 and not split.city and split.unit and not lead_unit:
        return split.number, split.street, split.unit
    if lead_unit is None:
        return None
    if split is not None and split.start == 0 and not split.city:
        return split.number, split.street, lead_unit
    number, _space, street = value.partition(" ")
    if not _HOUSE_NUMBER.match(number) or not street.strip() or any(c.isdigit() for c in street.split()[0]):
        return None
    return number, street.strip(), lead_unit
