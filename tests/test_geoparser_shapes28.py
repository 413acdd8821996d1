"""Ways of writing addresses met in real text (session 12, held-out 28: German web pages and site repositories,
Impressum templates, OParl JSON, a YAML dump of market booths, PDF cells in PHP, a meetup's meta description):
each test is a class of writing, with members written for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region) for a in parser.parse(text).all_addresses]


# -- escaped letters and spaces of data: JSON \u, Python and YAML \x -------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a JSON record whose postcode ends in an escaped no-break space
    ('{"strasse": "Lange Stra\\u00dfe 4", "plz": "26122\\u00a0", "ort": "Oldenburg"}',
     [("Lange Straße", "4", "26122", "Oldenburg", True)]),
    # the no-break space between postcode and city, in one value
    ('{"adresse": "Achternstra\\u00dfe 12, 26122\\u00a0Oldenburg"}',
     [("Achternstraße", "12", "26122", "Oldenburg", True)]),
    # a Python repr of a record: the city known by its name alone, written with \x escapes
    ("{'anbieter': 'Hofladen Meyer, M\\xfchlenweg 3, M\\xfcnster'}",
     [("Mühlenweg", "3", None, "Münster", False)]),
])
def test_escaped_letters_in_data(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


def test_an_escaped_tag_stays_a_line_break(oldenburg):
    # "\u003cbr\u003e" in JSON is a line break for the reader, whether or not the letters around it are escaped too
    text = '{"adresse": "Gro\\u00dfe Stra\\u00dfe 1\\u003cbr\\u003e26122 Oldenburg"}'
    assert _found(oldenburg, text) == [("Große Straße", "1", "26122", "Oldenburg", True)]


# -- a double-quoted string folded over lines (YAML dumps, continued string literals) ---------------------------

@pytest.mark.parametrize("text, expected", [
    # PyYAML folds a long string at a space: the next line starts with an escaped space
    ('  owner:\n    name: "Backstube Krause, Inhaberin Maria Krause, Bergstra\\xDFe 7, \\\n'
     '      \\ Oldenburg"\n    telephone: null\n',
     [("Bergstraße", "7", None, "Oldenburg", True)]),
    # folded inside a word, the city escaped
    ('vendor: "Kaffeer\\xF6sterei, Alte Gasse 2,  K\\xF6\\\n  ln"\n',
     [("Alte Gasse", "2", None, "Köln", False)]),
])
def test_quoted_string_continued_over_lines(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


def test_a_markdown_line_break_is_not_a_continuation(oldenburg):
    # a Markdown hard break ends the street's line: the postcode line is not joined to it
    text = "Lange Straße 4\\\n26122 Oldenburg"
    assert _found(oldenburg, text) == [("Lange Straße", "4", "26122", "Oldenburg", True)]


# -- address lines as the string arguments of successive program statements -------------------------------------

@pytest.mark.parametrize("text, expected", [
    # FPDF cells, other calls between them
    ('$pdf->Cell(0, 6, "Stadtbibliothek");\n$pdf->Ln(4);\n$pdf->Cell(0, 6, "Peterstraße 3");\n$pdf->Ln(4);\n'
     '$pdf->Cell(0, 6, "26121 Oldenburg");\n',
     [("Peterstraße", "3", "26121", "Oldenburg", True)]),
    # jsPDF text calls with the position after the literal, single quotes
    ("doc.setFontSize(10);\ndoc.text('Musikschule am Wall', 20, 30);\ndoc.text('Theaterwall 14', 20, 35);\n"
     "doc.text('26122 Oldenburg', 20, 40);\n",
     [("Theaterwall", "14", "26122", "Oldenburg", True)]),
    # ReportLab in Python: no ";" after the calls
    ('c.setFont("Helvetica", 9)\nc.drawString(40, 800, "Lange Straße 4")\nc.drawString(40, 788, "26122 Oldenburg")\n',
     [("Lange Straße", "4", "26122", "Oldenburg", True)]),
    # a Java list of lines, outside the region
    ('lines.add("Hafenstraße 20");\nlines.add("20359 Hamburg");\n',
     [("Hafenstraße", "20", "20359", "Hamburg", False)]),
])
def test_address_lines_as_statement_literals(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


def test_statements_without_an_address_give_none(oldenburg):
    text = '$pdf->Cell(0, 6, "Rechnung 2024-17");\n$pdf->Ln(4);\n$pdf->Cell(0, 6, "Betrag: 12,50 EUR");\n'
    assert _found(oldenburg, text) == []


# -- an address in the page's description (meta tags in the head) ----------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ('<html><head><meta name="description" content="Unser Laden in der Achternstraße 12, 26122 Oldenburg. '
     'Montag bis Samstag geöffnet."></head><body><h1>Willkommen</h1></body></html>',
     [("Achternstraße", "12", "26122", "Oldenburg", True)]),
    # og:description, the property after the content
    ('<head><meta content="Treffen jeden Mittwoch in der Lindenallee 5 in Oldenburg" property="og:description">'
     '</head><body><p>Hallo</p></body>',
     [("Lindenallee", "5", None, "Oldenburg", True)]),
])
def test_address_in_the_page_description(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


def test_other_meta_contents_are_no_text(oldenburg):
    text = ('<head><meta name="keywords" content="Achternstraße 12, 26122 Oldenburg">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><p>Hallo</p></body>')
    assert _found(oldenburg, text) == []


# -- the city before a preposition and the street, in a sentence ------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Wir proben jeden Donnerstag in Oldenburg in der Kaiserstraße 9.",
     [("Kaiserstraße", "9", None, "Oldenburg", True)]),
    ("Der Stammtisch trifft sich in Bremen im Ostertorsteinweg 31, gleich am Theater.",
     [("Ostertorsteinweg", "31", None, "Bremen", False)]),
    ("Die Ausstellung ist in Oldenburg auf dem Waffenplatz 3 zu sehen.",
     [("Waffenplatz", "3", None, "Oldenburg", True)]),
])
def test_city_then_preposition_then_street(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    "Das Fest fand in Oldenburg im Jahr 2019 statt.",
    "Sie wohnt in Oldenburg in der Nähe des Bahnhofs seit 12 Jahren.",
])
def test_a_preposition_without_a_street_is_no_address(oldenburg, text):
    assert _found(oldenburg, text) == []
