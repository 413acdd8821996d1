"""Ways of writing German addresses probed after held-out 16 (session 10: Deutsche Bahn station rows, BO4E JSON, a
JOSS paper; the part itself had no error). Shapes named by issue 10 that the part did not hold were then written
around its addresses and read: each test is a class of writing that failed, with members written for the test,
not snippets of the corpus."""

from __future__ import annotations

import time

import pytest

from geofocus.geoparser.reshape import reshape


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region) for a in parser.parse(text).all_addresses]


# -- LaTeX: "\\" (and \newline, \par, \\[2mm]) between the lines of an address ------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a KOMA-Script letterhead
    (r"\setkomavar{fromaddress}{Bahnhofsplatz 12d\\26122 Oldenburg}",
     ("Bahnhofsplatz", "12d", "26122", "Oldenburg", True)),
    # a title page: spaces around the breaks, a bold name first, the country last
    (r"\textbf{Institut f\"ur Informatik} \\ Escherweg 2 \\ 26121 Oldenburg \\ Germany",
     ("Escherweg", "2", "26121", "Oldenburg", True)),
    # umlauts and sharp s as macros, an en dash in the range of numbers, the break with a length
    (r"Ammerl\"ander Heerstra\ss e 114--118\\[2mm] D-26129 Oldenburg",
     ("Ammerländer Heerstraße", "114-118", "26129", "Oldenburg", True)),
    (r"Ammerl{\"a}nder Heerstra{\ss}e 114--118 \\* 26129 Oldenburg (Oldb)",
     ("Ammerländer Heerstraße", "114-118", "26129", "Oldenburg", True)),
    # the break at a line's end, inside a tabular
    ("\\begin{tabular}{l}\nSchloßplatz 1 \\\\\n26122 Oldenburg \\\\\n\\end{tabular}",
     ("Schloßplatz", "1", "26122", "Oldenburg", True)),
    # \newline and \par as the break; an address of another city
    (r"Hauptstra\ss e 5\newline 10115 Berlin", ("Hauptstraße", "5", "10115", "Berlin", False)),
    (r"\address{Am Wall 140 \par 28195 Bremen}", ("Am Wall", "140", "28195", "Bremen", False)),
])
def test_latex_line_breaks(oldenburg, text, expected):
    assert expected in _found(oldenburg, text)


def test_latex_breaks_leave_escaped_json_alone(oldenburg):
    # Two backslashes before "n", a quote or "u" are the escapes of JSON inside JSON, not a LaTeX break: the
    # address in them is read as before, and a quoted name keeps its first letter (no "Ö" from \"O).
    text = r'{"a": "{\"name\": \"Oldenburg\", \"adr\": \"Bahnhofsplatz 12d\\n26122 Oldenburg\"}", "p": "C:\\tmp"}'
    assert ("Bahnhofsplatz", "12d", "26122", "Oldenburg", True) in _found(oldenburg, text)
    assert "Ö" not in (reshape(r'"C:\\data", \"Oldenburg\" \"Amt\"') or "")


def test_latex_without_address_finds_nothing(oldenburg):
    assert _found(oldenburg, r"\section{Oldenburg}\\ Die Stadt hat 170\,000 Einwohner\\ \textbf{26} Stadtteile") == []


def test_latex_breaks_linear_time():
    # a long run of "\\" and of backslashes with letters: one pass each, no backtracking
    for text in ("\\\\" * 200_000, "\\\\u" * 100_000 + "x", "\\ss" * 100_000, "{\\\"a}" * 100_000):
        start = time.process_time()
        reshape(text)
        assert time.process_time() - start < 2.0
