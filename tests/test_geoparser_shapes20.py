"""Ways of writing addresses met in real text (session 11, held-out 20: German addresses in program text and data,
e-invoice libraries, imprint strings): each test is a class of writing, with members written for the test, not
snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- the lines of an address as string literals joined by a concatenation operator -------------------------------

@pytest.mark.parametrize("text, street, number, postcode", [
    # PHP: a line-break constant between the pieces
    ("$footer = 'Stadtbibliothek' . PHP_EOL . 'Peterstraße 3' . PHP_EOL . '26121 Oldenburg';",
     "Peterstraße", "3", "26121"),
    # PHP with a "\n" literal as the piece between
    ('$x = "Stadtbibliothek" . "\\n" . "Peterstraße 3" . "\\n" . "26121 Oldenburg";', "Peterstraße", "3", "26121"),
    # Java: a line separator call
    ('String s = "Kulturetage" + System.lineSeparator() + "Bahnhofstraße 11" + System.lineSeparator()'
     ' + "26122 Oldenburg";', "Bahnhofstraße", "11", "26122"),
    # C#
    ('var s = "Peterstraße 3" + Environment.NewLine + "26121 Oldenburg";', "Peterstraße", "3", "26121"),
    # Visual Basic
    ('s = "Bahnhofstraße 11" & vbCrLf & "26122 Oldenburg"', "Bahnhofstraße", "11", "26122"),
    # the operator at the end of a line, the pieces ending in a "\n" escape
    ('return "Stadtbibliothek\\n" +\n       "Peterstraße 3\\n" +\n       "26121 Oldenburg";',
     "Peterstraße", "3", "26121"),
    # the operator at the start of the next line
    ('return "Bahnhofstraße 11\\n"\n    + "26122 Oldenburg";', "Bahnhofstraße", "11", "26122"),
    # adjacent literals (Python, C): a piece ending in "\n", the next one on the next line
    ('FOOTER = ("Stadtbibliothek\\n"\n          "Peterstraße 3\\n"\n          "26121 Oldenburg")',
     "Peterstraße", "3", "26121"),
])
def test_address_lines_joined_in_program_text(oldenburg, text, street, number, postcode):
    assert _found(oldenburg, text) == [(street, number, postcode, "Oldenburg", True)]


def test_pieces_without_a_line_break_are_one_string(oldenburg):
    # the join of two pieces without a break constant is no line break: the number stays with its street
    text = 'label = "Lange Straße " + "4, 26122 Oldenburg";'
    assert _found(oldenburg, text) == [("Lange Straße", "4", "26122", "Oldenburg", True)]


def test_concatenation_outside_the_region(oldenburg):
    text = "$note = 'Muster AG' . PHP_EOL . 'Königsallee 12' . PHP_EOL . '40212 Düsseldorf';"
    assert [(s, n, z, r) for s, n, z, _c, r in _found(oldenburg, text)] == [("Königsallee", "12", "40212", False)]


def test_concatenated_us_address(us):
    # read apart, the pieces gave the street "Marilla St\"" in the city "System.lineSeparator Dallas", outside
    text = 'String venue = "1500 Marilla St" + System.lineSeparator() + "Dallas, TX 75201";'
    assert [(s, n, z, r) for s, n, z, _c, r in _found(us, text)] == [("Marilla St", "1500", "75201", True)]


def test_prose_between_quotes_is_not_joined(oldenburg):
    # a full stop between quoted sentences is no concatenation: nothing joins "Bahnhofstraße" to the number
    text = 'Sie sagte "Bahnhofstraße". "12 Uhr am Treffpunkt", 26122 Oldenburg'
    assert _found(oldenburg, text) == []


def test_concatenated_pieces_without_an_address(oldenburg):
    # a concatenation of prose with a line break: no address appears from it
    text = "$msg = 'Vielen Dank für Ihre Bestellung' . PHP_EOL . 'Ihre Nummer: 26122' . PHP_EOL . 'Gruß';"
    assert _found(oldenburg, text) == []


# -- several address supplements (building, floor, room) between the house number and the postcode -------------

@pytest.mark.parametrize("text, street, number, postcode", [
    # an invoice party's extra address lines, one a line
    ("Stadt Oldenburg\nIndustriestraße 1\nHaus C\n2. OG\n26121 Oldenburg", "Industriestraße", "1", "26121"),
    # building and room on one line after the street
    ("Ammerländer Heerstraße 114-118\nGebäude A5, Raum 0-042\n26129 Oldenburg",
     "Ammerländer Heerstraße", "114-118", "26129"),
    # one line with commas
    ("Escherweg 2, Aufgang B, 3. Etage, 26121 Oldenburg", "Escherweg", "2", "26121"),
    # positional arguments of a program: the empty ones drop out, the unit ones stay between
    ('setAddress("Peterstraße 3", "Hinterhaus", "1. OG", "26121", "Oldenburg", "DE")', "Peterstraße", "3", "26121"),
    # a floor with its side
    ("Lange Straße 4, EG links, 26122 Oldenburg", "Lange Straße", "4", "26122"),
    ("Lange Straße 4\n2. OG rechts\n26122 Oldenburg", "Lange Straße", "4", "26122"),
])
def test_several_supplements_before_the_postcode(oldenburg, text, street, number, postcode):
    assert _found(oldenburg, text) == [(street, number, postcode, "Oldenburg", True)]


def test_supplements_outside_the_region(oldenburg):
    text = "Musikschule\nSchillerstraße 12\nGebäude B\nRaum 3\n04109 Leipzig"
    assert [(s, n, z, r) for s, n, z, _c, r in _found(oldenburg, text)] == [("Schillerstraße", "12", "04109", False)]



# -- UN/CEFACT invoice addresses: postcode first, a name in LineOne, the street in LineTwo ----------------------

_CII = """<ram:SellerTradeParty>
  <ram:Name>{name}</ram:Name>
  <ram:PostalTradeAddress>
    <ram:PostcodeCode>{postcode}</ram:PostcodeCode>
    <ram:LineOne>{one}</ram:LineOne>
    <ram:LineTwo>{two}</ram:LineTwo>
    <ram:CityName>{city}</ram:CityName>
    <ram:CountryID>DE</ram:CountryID>
  </ram:PostalTradeAddress>
</ram:SellerTradeParty>"""


@pytest.mark.parametrize("one, two", [
    ("z. Hd. Frau Meier", "Industriestraße 1"),  # a person in the first line
    ("Stadtwerke Oldenburg", "Industriestraße 1"),  # a company whose name holds the city
    ("Industriestraße 1", "Hinterhaus"),  # the street first, a supplement after it
])
def test_cii_address_lines(oldenburg, one, two):
    text = _CII.format(name="Stadt Oldenburg", postcode="26121", one=one, two=two, city="Oldenburg")
    assert _found(oldenburg, text) == [("Industriestraße", "1", "26121", "Oldenburg", True)]


def test_cii_address_lines_outside_the_region(oldenburg):
    text = _CII.format(name="Nordbau GmbH", postcode="28195", one="Herrn Petersen", two="Am Wall 140", city="Bremen")
    assert [(s, n, z, r) for s, n, z, _c, r in _found(oldenburg, text)] == [("Am Wall", "140", "28195", False)]


def test_cii_lines_without_a_house_number_give_no_street(oldenburg):
    # neither line ends in a house number: no street address, only the lines' names
    text = _CII.format(name="Stadt Oldenburg", postcode="26121", one="Frau Meier", two="Rathaus", city="Oldenburg")
    assert _found(oldenburg, text) == []


# -- one address read once without postcode (a longer name of its place) and once with it ------------------------

def test_street_read_with_and_without_postcode_is_one_address(oldenburg):
    # the text reader names the place by the list of German cities ("Frankfurt am Main", no postcode), the record's
    # keys give "60311" / "Frankfurt": one address, the one with the postcode
    text = ('<Address>\n  <Street>Römerberg 27</Street>\n  <City>Frankfurt</City>\n  <Zip>60311</Zip>\n'
            '</Address>')
    assert [(s, n, z, r) for s, n, z, _c, r in _found(oldenburg, text)] == [("Römerberg", "27", "60311", False)]



# -- setters and builders: the part named by the method, the value its one argument ----------------------------

@pytest.mark.parametrize("text", [
    # Java setters, one a line
    'Address a = new Address();\na.setStreet("Peterstraße 3");\na.setZip("26121");\na.setCity("Oldenburg");',
    # PHP's fluent setters with single quotes, the house number in a setter of its own
    "$address->setStreet('Peterstraße')->setHouseNumber('3')->setPostcode('26121')->setCity('Oldenburg');",
    # a builder's chain on one line, after a call's ")"
    'Address.builder().street("Peterstraße").houseNumber("3").postalCode("26121").city("Oldenburg").build();',
    # "with" methods, one a line
    'new AddressBuilder()\n    .withStreet("Peterstraße 3")\n    .withPostcode("26121")\n    .withCity("Oldenburg")\n'
    '    .build();',
])
def test_setter_and_builder_calls(oldenburg, text):
    assert _found(oldenburg, text) == [("Peterstraße", "3", "26121", "Oldenburg", True)]


def test_builder_chain_us(us):
    text = 'Location.builder().street("1500 Marilla St").city("Dallas").state("TX").zip("75201").build();'
    assert [(s, n, z, r) for s, n, z, _c, r in _found(us, text)] == [("Marilla St", "1500", "75201", True)]


def test_calls_of_other_methods_are_no_parts(oldenburg):
    # methods that name no part of an address: their arguments are not read as one
    text = 'log("Peterstraße 3"); print("26121"); title("Oldenburg"); getStreet("Lange Straße 4");'
    assert _found(oldenburg, text) == []


# -- separators of a one-line footer between the parts: "//", "||", "»", "~", stars, arrows -------------------------

@pytest.mark.parametrize("separator", [" // ", " || ", " » ", " ~ ", " ★ ", " → "])
def test_footer_separators(oldenburg, separator):
    text = separator.join(["Stadtmuseum Oldenburg", "Am Stadtmuseum 4-8", "26121 Oldenburg", "Tel. 0441 235-2881"])
    assert _found(oldenburg, text) == [("Am Stadtmuseum", "4-8", "26121", "Oldenburg", True)]


def test_footer_separators_us(us):
    text = "Civic Center // 1500 Marilla St // Dallas, TX 75201 // (214) 555-0100"
    assert [(s, n, z, r) for s, n, z, _c, r in _found(us, text)] == [("Marilla St", "1500", "75201", True)]


def test_separator_before_a_count_is_no_address(oldenburg):
    # the separator makes no postcode of a count of visitors
    text = "Stadtfest // Lange Straße 4 // 26122 Besucher im Jahr"
    assert _found(oldenburg, text) == []


# -- city first, the street's number followed by a colon or a bracket (event listings) ----------------------------

@pytest.mark.parametrize("text, street, number", [
    ("Oldenburg, Theaterwall 28: Premiere von „Faust“", "Theaterwall", "28"),
    ("Oldenburg, Bahnhofstraße 11 (Kulturetage), 20 Uhr", "Bahnhofstraße", "11"),
    ("Termine:\nOldenburg, Peterstraße 3: Lesung\nBremen, Am Wall 140: Konzert", "Peterstraße", "3"),
])
def test_city_first_then_colon_or_bracket(oldenburg, text, street, number):
    assert (street, number, None, "Oldenburg", True) in _found(oldenburg, text)


@pytest.mark.parametrize("text", [
    "Oldenburg, Sitzung 4 (öffentlich)",
    "Oldenburg, Vorlage 12: Bauausschuss",
    "Oldenburg, Teil 2: Die Stadt am Wasser",
])
def test_city_first_numbered_things_are_no_streets(oldenburg, text):
    assert _found(oldenburg, text) == []
