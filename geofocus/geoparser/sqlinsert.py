"""Addresses in the rows of SQL ``INSERT`` statements whose column list names each value.

``INSERT INTO restaurants (address, city, country, latitude, longitude, name, postal_code, province) VALUES
("324 Main St", "Massena", "US", 44.92, -74.89, "McDonald's", 13662, "NY")``: a dump or a seed file writes the
values in the table's order, not in the order an address is written (the ZIP after a name and two coordinates,
the state after the ZIP), so the row readers, which go by the order of the fields, find no address. The column
list says which value is which part, as a record's keys do: each row becomes a record of the parts its columns
name (the roles of ``keyvalue.column_role``), one ``VALUES`` tuple after another (``VALUES (...), (...);``).
The scan looks for the words "insert into" (in capitals or small letters) and reads forward only, so the cost is
linear in the page size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from geofocus.geoparser.keyvalue import KeyedAddress, column_role
from geofocus.geoparser.model import WorkLimit

# The statement's head up to "VALUES": the table's name (maybe quoted or with its schema) and the column list.
# Or "SELECT" and the values without brackets, the idempotent seed's form ("INSERT INTO owners (first_name, ...,
# city) SELECT 'Eduardo', ..., 'McFarland' WHERE NOT EXISTS (...)"): one row, ended by a clause or the statement's end.
_INSERT = re.compile(r"""(?i:insert)[ \t]+(?i:into)[ \t]+[`"\[]?[\w.]{1,64}[`"\]]?[ \t]*\(([^()\n;]{1,800})\)"""
                     r"""\s{0,40}(?:(?i:values)\s{0,40}(?=\()|(?i:select)[ \t]+(?=['"]))""")
# One value and the comma or bracket after it: a quoted string ('' or \' inside single quotes), a number, NULL,
# another bare word, or a function's call whose arguments hold no brackets (a seed file's keys and stamps:
# "nextval('SEQ_ADDRESS')", "currval('seq')", "NOW()", "gen_random_uuid()"), which names no part.
_VALUE = re.compile(r"""[ \t]*(?:N?'((?:[^'\\\n]|''|\\.){0,200})'|"((?:[^"\\\n]|\\.){0,200})"|"""
                    r"""([^\s,()'"][^,()'"\n]{0,60}?|[A-Za-z_][\w.]{0,40}\((?:[^()'"\n]|'[^'\n]{0,60}'){0,80}\)))"""
                    r"""[ \t]*([,)]|(?=;|\s+(?i:where|from|on|returning)\b|\s*$))""",
                    re.M)
# Between two tuples of one statement: a comma, maybe a line break and spaces.
_NEXT_TUPLE = re.compile(r"\s{0,40},\s{0,40}\(")
_ROLES = frozenset(("street", "number", "unit", "city", "state", "postcode", "postcode_city", "country"))
_EMPTY = {"", "null", "none", "nil", "n/a", "-"}
_MAX_ROWS = 2000  # tuples read of one statement
# The statement's first two words as dumps, seed files and hand-written SQL write them, in capitals or small letters
# ("Insert into" too); a substring test each is far cheaper than a case-blind search of every page, and each costs
# about 0.6 % of the parse of a page of prose, so there are two.
_HEADS = ("NSERT INTO", "nsert into")


def insert_addresses(text: str, limit: WorkLimit) -> Iterator[KeyedAddress]:
    """The records of the rows of ``INSERT ... (columns) VALUES (...)`` statements in ``text`` whose columns name a
    street and a place (a ZIP or postcode, a town)."""
    if not any(head in text for head in _HEADS):
        return  # "insert" alone is a common word of prose: the gate is the two words
    for head in _INSERT.finditer(text):
        roles = [column_role(name.strip(" \t`\"[]")) for name in head.group(1).split(",")]
        if "street" not in roles or not {"postcode", "city", "postcode_city"} & set(roles):
            continue
        # The town's column after the street's, as a page writes them: a town without state or ZIP is read as a
        # labelled line's ("Address: 2693 Commerce St., McFarland").
        town_after_street = "city" in roles and roles.index("street") < roles.index("city")
        selected = text[head.end()] != "("
        at = head.end() - 1 if selected else head.end()
        for _ in range(_MAX_ROWS):
            if not limit.candidate():
                return
            row = _row(text, at + 1, len(roles))
            if row is None:
                break
            values, end = row
            if selected != (text[end - 1] != ")"):
                break  # a tuple's values end in its bracket, a SELECT's values before the clause after them
            parts: dict[str, str] = {}
            for role, value in zip(roles, values, strict=True):
                if role in _ROLES and role not in parts and value.lower() not in _EMPTY:
                    parts[role] = value
            if "street" in parts and {"postcode", "city", "postcode_city"} & parts.keys():
                yield KeyedAddress(parts=parts, start=at, end=end, place_after_street=town_after_street)
            following = None if selected else _NEXT_TUPLE.match(text, end)
            if following is None:
                break
            at = following.end() - 1


def _row(text: str, at: int, width: int) -> tuple[list[str], int] | None:
    """The values of the tuple whose first value starts at ``at`` and the offset after its ")", or None when it
    is no tuple of ``width`` plain values."""
    values: list[str] = []
    while len(values) < width:
        match = _VALUE.match(text, at)
        if match is None:
            return None
        single, double, bare, sign = match.groups()
        if single is not None:
            value = single.replace("''", "'").replace("\\'", "'")
        elif double is not None:
            value = double.replace('\\"', '"')
        else:
            value = bare
        values.append(" ".join(value.split()))
        at = match.end()
        if sign != ",":
            break
    if len(values) != width:
        return None
    return values, at
