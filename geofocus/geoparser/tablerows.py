"""US addresses in table rows whose cells name a town of the region and a street line, with no state or ZIP.

A list of sites as a table writes each part in a cell of its own, the town often first: ``<tr><td>Oakland</td>
<td>2 Mission Way</td><td>Food Pantry</td></tr>``, a component library's ``<Row><Cell>Oakland</Cell><Cell>2 Mission
Way</Cell></Row>``, a Markdown table's ``| Oakland | 2 Mission Way | Food Pantry |``. The page text puts the
cells on lines of their own, town before street, which the text readers do not take for an address (a town
heading a list may name the next lines' place or not). Within one row the cells belong together: a row with
exactly one cell that is a town of the region and exactly one that is a street line (a house number, a name, a
street word) is read as that street in that town. A row with a ZIP is the row readers' (``keyvalue.row_addresses``,
which anchor on it); a row with two street lines or two towns says nothing of which goes with which.

Rows are found by their element's name (``tr`` or a name ending in ``Row``) or, in Markdown, as lines between
bars; a row's content ends at its end tag, the next row's start or 2000 characters, so the cost is linear in
the page size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from geofocus.geoparser.gazetteer import fold
from geofocus.geoparser.keyvalue import KeyedAddress
from geofocus.geoparser.model import WorkLimit
from geofocus.geoparser.ussplit import TYPE_ALTERNATIVES

# The start tag of a row element: <tr ...>, <TR>, and a component's <Row>, <TableRow>. One scan of the page for "<"
# (a literal first: a fast scan); most tags fail at their name's first letters. A row's content runs to its end tag,
# the next row's start or 2000 characters, whichever comes first: each character is looked at once.
_ROW_START = re.compile(r"<((?i:tr)|(?:[A-Z]\w{0,30})?Row)\b[^<>]{0,300}+>")
_MAX_ROW = 2000
# A cell of text alone (no element inside): <td>Oakland</td>, <th>...</th>, <Cell width="25%">...</Cell>.
_MARKUP_CELL = re.compile(r"<((?i:td|th)|(?:[A-Z]\w{0,30})?Cell)\b[^<>]{0,300}>\s*([^<>]{1,100}?)\s*</\1[ \t]*>")
# A Markdown table has a delimiter row ("|---|:--|"): only then are its lines read, each line that starts with a
# bar a row (its cells split at the bars).
_MARKDOWN_DELIMITER = re.compile(r"\|[ \t]*:?-{3,}")
_MARKDOWN_ROW = re.compile(r"\n[ \t]*\|([^\n]{1,2000})")
# A street line of a cell: a house number, one to five words, a street word, maybe a direction after it.
_STREET_CELL = re.compile(r"[1-9]\d{0,5}[A-Z]? (?:[NSEW]\.? )?(?:[A-Z0-9][\w.'-]* ){1,5}(?i:" + TYPE_ALTERNATIVES
                          + r")\.?(?: (?:[NS][EW]?|[EW])\.?)?")
_ZIP_CELL = re.compile(r"\d{5}(?:-\d{4})?")


def table_row_addresses(markup: str, region_cities: dict[str, str], limit: WorkLimit) -> Iterator[KeyedAddress]:
    """The records of the table rows of ``markup`` (HTML, JSX, Markdown) that hold one cell naming a town of
    ``region_cities`` (folded name -> the region's city) and one cell that is a street line."""
    rows: list[tuple[int, int, list[str]]] = []
    tags = list(_ROW_START.finditer(markup))
    for at, tag in enumerate(tags):
        bound = min(tags[at + 1].start() if at + 1 < len(tags) else len(markup), tag.end() + _MAX_ROW)
        closing = markup.find("</" + tag.group(1), tag.end(), bound)
        content = markup[tag.end():bound if closing < 0 else closing]
        rows.append((tag.start(), tag.end() + len(content), [cell.group(2) for cell in _MARKUP_CELL.finditer(content)]))
    if "|" in markup and _MARKDOWN_DELIMITER.search(markup) is not None:
        for row in _MARKDOWN_ROW.finditer("\n" + markup):
            cells = [cell.strip() for cell in row.group(1).split("|")]
            rows.append((row.start(), row.end(), cells[:-1] if cells and not cells[-1] else cells))
    for start, end, cells in rows:
        if len(cells) < 2:
            continue
        if not limit.candidate():
            return
        towns = [cell for cell in cells if fold(" ".join(cell.split())) in region_cities]
        streets = [cell for cell in cells if _STREET_CELL.fullmatch(" ".join(cell.split()))]
        if len(towns) != 1 or len(streets) != 1 or any(_ZIP_CELL.fullmatch(cell) for cell in cells):
            continue
        # The cells name both parts, as a record's keys do: read as "Address: <street>, <town>" (see
        # ``KeyedAddress.place_after_street``), whichever cell comes first.
        yield KeyedAddress(parts={"street": " ".join(streets[0].split()), "city": " ".join(towns[0].split())},
                           start=start, end=end, place_after_street=True)
