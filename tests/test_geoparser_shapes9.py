"""Ways of writing addresses met in real text (session 8, held-out 9: meeting calendars of city agencies,
authority mail kept as test mails): each test is a class of writing, with members written for the test,
not snippets of the corpus."""

from __future__ import annotations

import time

import pytest

from geofocus.geoparser.mend import join_broken_names, unquote_printable


def _found(parser, text):
    return [(a.street, a.house_number, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


def _streets(parser, text):
    return [(a.street, a.house_number, a.postcode) for a in parser.parse(text).all_addresses]


# -- quoted-printable mail text --------------------------------------------------------------------------

@pytest.mark.parametrize("text, street", [
    # Latin-1 bytes, a soft line break inside a word before the address
    ("Sehr geehrte Damen und Herren,=0A vielen Dank f=FCr Ihre Nachricht, wir antworten s=\nchnell.\n"
     "Stadtverwaltung\nGro=DFe Stra=DFe 12\n26122 Oldenburg", "Große Straße"),
    # UTF-8 bytes
    ("Mit freundlichen Gr=C3=BC=C3=9Fen\nAmt f=C3=BCr Umwelt\nAm Sch=C3=BCtzenhof 7\n26122 Oldenburg",
     "Am Schützenhof"),
    # HTML mail: encoded "=" in attributes, CR LF escapes glued to the postcode, a soft break in the street
    ('<p class=3D"MsoNormal">Bauamt<br />=0D=0AAm Sch=\n=FCtzenhof 7<br />=0D=0A26122 Oldenburg</p>',
     "Am Schützenhof"),
    # a soft break inside the city's name
    ('<div style=3D"font-family:Arial">Stadt Oldenburg<br>M=FCggenweg 15<br>26121 Olden=\nburg</div>=20\n'
     "Tel. 0441 =96 235", "Müggenweg"),
])
def test_quoted_printable_mail_is_decoded(oldenburg, text, street):
    found = [a for a in oldenburg.parse(text).all_addresses]
    assert [(a.street, a.in_region) for a in found] == [(street, True)]


def test_quoted_printable_street_undecoded_is_no_street_after_the_escape(oldenburg):
    # One escape only: too few signs to decode, and no street starts after the "=".
    found = _streets(oldenburg, "Referat 31\nLindenstra=DFe 4\n10969 Berlin")
    assert all(not street.startswith("DF") for street, _n, _p in found)


@pytest.mark.parametrize("text, street, number, postcode", [
    # a signature cut out of a mail: one encoded letter inside a word is enough
    ("Amt f\u00fcr Verkehr\nLindenstra=DFe 4\n10969 Berlin", "Lindenstraße", "4", "10969"),
    ("Hauptverwaltung=20\nHamburg<BR>Deelb=F6genkamp 4<BR>22297 Hamburg", "Deelbögenkamp", "4", "22297"),
    ("Bauamt\nK=C3=B6lner Stra=C3=9Fe 12\n50667 K=C3=B6ln", "Kölner Straße", "12", "50667"),
])
def test_short_mail_excerpt_with_an_encoded_letter_is_decoded(oldenburg, text, street, number, postcode):
    assert (street, number, postcode) in _streets(oldenburg, text)


def test_form_data_with_hex_like_values_is_no_quoted_printable(us):
    # State codes and ZIPs after "=" look like escapes of bytes outside ASCII ("=CA", "=94"), but stand
    # between a key and a quote or a digit, never inside a word.
    text = ('--data-urlencode "addresses[0][primary_line]=2261 Market Street" \\\n'
            '--data-urlencode "addresses[0][city]=San Francisco" \\\n'
            '--data-urlencode "addresses[0][state]=CA" \\\n'
            '--data-urlencode "addresses[0][zip_code]=94114" \\\n'
            '--data-urlencode "addresses[1][state]=CA" \\\n'
            '--data-urlencode "addresses[1][zip_code]=94105" \\\n')
    assert unquote_printable(text) is text
    assert ("Market Street", "2261", "94114") in _streets(us, text)


@pytest.mark.parametrize("text", [
    "https://example.org/?color=FF0000&size=AB12&q=CAFE00",     # values in URLs, not escapes
    "a=b+c, x=AB, y=12",                                          # one escape-like value
    "E=mc2 and F=ma\nnothing else",
])
def test_text_without_the_signs_of_quoted_printable_is_left_alone(text):
    assert unquote_printable(text) is text


def test_quoted_printable_decoding_is_linear_on_hostile_runs():
    for hostile in ("=3D" * 350_000, "=C3" * 350_000, "=\n" * 500_000, ("a=FC=\n" * 200_000)):
        started = time.process_time()
        unquote_printable(hostile)
        assert time.process_time() - started < 1.0


@pytest.mark.parametrize("text, street, number", [
    ("Ministerium des Innern\nHenning-von-Tresckow- Straße 9-13\n14467 Potsdam", "Henning-von-Tresckow-Straße", "9-13"),
    ("Amt für Bildung\nCarl-von-Ossietzky-\nStr. 9\n26129 Oldenburg", "Carl-von-Ossietzky-Str.", "9"),
    ("Geschäftsstelle: Theodor-Heuss- Platz 4, 26122 Oldenburg", "Theodor-Heuss-Platz", "4"),
])
def test_compound_street_broken_after_its_hyphen(oldenburg, text, street, number):
    assert [(s, n) for s, n, _p in _streets(oldenburg, text)] == [(street, number)]


@pytest.mark.parametrize("text", [
    "Kinder- und Jugendhilfe, Lange Straße 4, 26122 Oldenburg",    # "- und": a word, no street word
    "Rad- Weg ohne Nummer",                                         # a street word without a number after it
    "Seite 3 - Straße 4",                                           # a dash between words, not a broken name
])
def test_hyphen_not_before_a_street_word_and_number_stays(text):
    assert join_broken_names(text) == text


# -- the address only in an attribute a reader sees -------------------------------------------------------

@pytest.mark.parametrize("markup", [
    # a tooltip with character references for line breaks and tabs (meeting calendars)
    '<a href="/m?id=7" title="MONDAY, MAY 4  6:00 PM&#13;&#13;Board:&#09;Parks Board&#13;&#09;'
    'Council Chamber&#13;&#09;900 Bagby St, Houston, TX  77002">May 4</a>',
    # a long tooltip: the meeting's details before the place
    '<a title="WEDNESDAY, OCTOBER 14, 2026  9:30 AM&#13;&#13;Board:&#09;Houston Parks and Recreation Board of '
    'Directors&#13;Type:&#09;Regular Meeting&#13;Status:&#09;Rescheduled from October 7&#13;&#13;&#09;City Hall '
    'Annex, Council Chamber, Public Level&#13;&#09;900 Bagby St, Houston, TX  77002" href="#">Oct 14</a>',
    # an image's alternative text, single quotes
    "<p>Find us:</p><img src='map.png' alt='Map: 900 Bagby St, Houston, TX 77002'>",
    # what a screen reader says for an icon link, the attribute name in capitals
    '<a ARIA-label="x" TITLE="Office, 900 Bagby St, Houston, TX 77002" href="#"><i class="icon"></i></a>',
    '<span aria-label="900 Bagby St, Houston, TX 77002" class="pin"></span>',
])
def test_address_in_a_shown_attribute(us, markup):
    assert [(f[0], f[1], f[3], f[5]) for f in _found(us, markup)] == [("Bagby St", "900", "77002", True)]


@pytest.mark.parametrize("markup", [
    '<a href="/?q=900 Bagby St, Houston, TX 77002">map</a>',                # a URL: no shown text
    '<div data-address="900 Bagby St, Houston, TX 77002"></div>',            # a data attribute: script's
    '<input placeholder="900 Bagby St, Houston, TX 77002">',                 # an example for the user
    '<a data-title="900 Bagby St, Houston, TX 77002">x</a>',                 # not the title attribute
])
def test_address_in_other_attributes_is_not_read(us, markup):
    assert _found(us, markup) == []


def test_shown_attribute_without_digit_or_short_adds_no_line():
    from geofocus.geoparser.text import html_to_text

    assert html_to_text('<p>Lange Straße <img alt="Logo" src="x.png" title="Stadt">4</p>') == "Lange Straße 4"
    # nor one of a few characters: pagination, a figure's number
    assert html_to_text('<p>Lange Straße <a title="Seite 2" href="/2">4</a></p>') == "Lange Straße 4"


def test_shown_attributes_are_linear_on_hostile_tags():
    from geofocus.geoparser.text import html_to_text

    for hostile in ("<a " + 'title="1 ' * 120_000 + ">", "<a " + "title='" * 150_000,
                    "<a " + "title=\"1 alt='2 " * 60_000 + ">", '<a title="1' + "a" * 1_000_000 + '">'):
        started = time.process_time()
        html_to_text(hostile)
        assert time.process_time() - started < 1.0


# -- what stands between the street and the city: a building's line, a mail stop, a room after a floor ----

@pytest.mark.parametrize("text, unit", [
    ("1001 Preston St\nAdministration Building, Suite 934\nHouston, TX 77002", "Suite 934"),
    ("1001 Preston St, Harris County Civil Courthouse, Houston, TX 77002", None),
    ("<p>1001 Preston St<br>Bob Lanier Public Works Building<br>Houston, TX 77002</p>", None),
    ("1001 Preston St, Main Library, 2nd Floor, Houston, TX 77002", "2nd Floor"),   # the name, then a unit
])
def test_building_line_between_street_and_city(us, text, unit):
    assert _found(us, text) == [("Preston St", "1001", unit, "77002", "Houston", True)]


@pytest.mark.parametrize("text, unit", [
    ("Finance Dept., 611 Walker St, MS: 12-B, Houston, TX 77002", "MS: 12-B"),
    ("611 Walker St, Mail Stop 4410, Houston, TX 77002", "Mail Stop 4410"),
    ("611 Walker St\nM/S 7-2\nHouston, TX 77002", "M/S 7-2"),
])
def test_mail_stop_between_street_and_city(us, text, unit):
    # Session 10: a mail stop is the unit (usaddress labels "msc 24" so), no longer dropped.
    assert _found(us, text) == [("Walker St", "611", unit, "77002", "Houston", True)]


@pytest.mark.parametrize("text, unit", [
    ("611 Walker St, 3rd Floor Board Room, Houston, TX 77002", "3rd Floor"),
    ("611 Walker St, Third Floor Lobby, Houston, TX 77002", "Third Floor"),
    ("611 Walker St, Ninth Floor, Houston, TX 77002", "Ninth Floor"),
    ("611 Walker St, 2nd Fl. Training Center, Conference Room B, Houston, TX 77002", "2nd Fl."),
])
def test_floor_with_a_room_or_area_name_after_it(us, text, unit):
    assert _found(us, text) == [("Walker St", "611", unit, "77002", "Houston", True)]


@pytest.mark.parametrize("text, unit", [
    ("611 Walker St Houston, TX 77002 - Room 2-104", "Room 2-104"),
    ("611 Walker St, Houston, TX 77002, Suite 300", "Suite 300"),
    ('{"address": "611 Walker St, Houston, TX 77002",\n "location": "Conference Room 5301"}', "Conference Room 5301"),
    ("611 Walker St, Houston, TX 77002-1234 | 4th Floor", "4th Floor"),
])
def test_unit_after_the_zip(us, text, unit):
    found = _found(us, text)
    assert [(f[0], f[2], f[3]) for f in found] == [("Walker St", unit, "77002")]


@pytest.mark.parametrize("text", [
    "611 Walker St, Houston, TX 77002 | Suite 5, 900 Bagby St, Houston, TX 77002",   # the next address's unit
    '{"address": "611 Walker St, Houston, TX 77002", "phone": "Room 5 is closed"}',  # another field
])
def test_unit_after_the_zip_not_taken_from_elsewhere(us, text):
    assert [f[2] for f in _found(us, text) if f[0] == "Walker St"] == [None]


@pytest.mark.parametrize("text, city", [
    ("123 Main St, Valley Center, CA 92082", "Valley Center"),     # a city with a place word is the city
    ("1800 M Street, NW North Tower, Ste. 700, Washington, DC 20036", "Washington"),
])
def test_place_word_in_the_city_or_after_a_quadrant(us, text, city):
    found = _found(us, text)
    assert [f[4] for f in found] == [city]
    assert found[0][0] != "M Street" or found[0][2] != "Ste. 700"


# -- a town of its own written with a ZIP of a region city -------------------------------------------------

@pytest.mark.parametrize("text", [
    '"address1": "2727 Ben Hill Rd", "city": "East Point", "state": "Georgia", "zipCode": "30344"',
    "1900 Sullivan Rd, College Park, GA 30337",
    "6611 Ridge Rd, Parma, OH 44129",
])
def test_town_of_its_own_with_a_region_zip_is_not_in_the_region(us, text):
    found = _found(us, text)
    assert len(found) == 1 and found[0][5] is False


@pytest.mark.parametrize("text, place", [
    ("89-00 Sutphin Blvd, Jamaica, NY 11424", "Jamaica"),          # neighbourhoods stay in the city
    ("2309 Frederick Douglass Blvd, Harlem, NY 10027", "Harlem"),
    ("6801 Hollywood Blvd, Hollywood, CA 90028", "Hollywood"),
    ("80-02 Kew Gardens Rd, Kew Gardens, NY 11424", "Kew Gardens"),
    ("5440 Fulton Industrial Blvd, Atlanta, GA 30336", "Atlanta"),  # the city itself with the shared ZIP
])
def test_neighbourhood_or_the_city_with_a_shared_zip_stays_in_the_region(us, text, place):
    found = _found(us, text)
    assert [(f[4], f[5]) for f in found] == [(place, True)]
