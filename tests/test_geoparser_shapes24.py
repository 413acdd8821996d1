"""Ways of writing addresses met in real text (session 12, held-out 24: saved contact pages of US businesses, e-mails
and newsletters kept as test files of mail libraries, e-mail templates): each test is a class of writing, with
members written for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest

from geofocus.geoparser.mend import unquote_printable


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- quoted-printable text with few escapes: an encoded comma, or the encoding named ------------------------------

@pytest.mark.parametrize("text, expected", [
    # a newsletter's text part: the mailer encodes the comma between the city and the state
    ("Copyright 2024 Fern Co=2C All rights reserved.\n\nOur mailing address is:\nFern Co\n9 Larkspur Ct\n"
     "Denver=2C CO 80218\nUSA\n",
     [("Larkspur Ct", None, "9", "80218", "Denver", True)]),
    # a signature alone: one encoded comma after the city is enough
    ("-- \nDana Ruiz\n4100 Commerce St=2C Dallas=2C TX 75226\n",
     [("Commerce St", None, "4100", "75226", "Dallas", True)]),
    # a vCard 2.1 label that names its encoding, the line break encoded, the line cut by a soft break
    ("BEGIN:VCARD\nLABEL;WORK;ENCODING=QUOTED-PRINTABLE:300 Oak Ave, Suite B=0D=0A=\nDallas, TX 75201\nEND:VCARD\n",
     [("Oak Ave", "Suite B", "300", "75201", "Dallas", True)]),
    # a vCard with the bare parameter, outside the region
    ("ADR;HOME;QUOTED-PRINTABLE:;;12 Birch Lane=0ASalem, OR 97301\n",
     [("Birch Lane", None, "12", "97301", "Salem", False)]),
    # a mail part whose header names the encoding, an encoded full stop after the street's type word
    ("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
     "Visit our store at 1200 Elm St=2E, Seattle, WA 98101=20\n",
     [("Elm St.", None, "1200", "98101", "Seattle", True)]),
])
def test_quoted_printable_with_few_escapes(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "x=2C",  # a value in a form or a formula, nothing after it
    "colour=2C0000; width=2",  # hex digits of a value, no word after a space
    "The header Content-Transfer-Encoding: quoted-printable names the encoding; a=b is no escape.",
])
def test_text_without_quoted_printable_signs_stays(text):
    assert unquote_printable(text) == text


# -- a room or suite with a building code before its number, also wrapped after the unit's word -------------------

@pytest.mark.parametrize("text, expected", [
    ("Office: Room QX 3B-110, 500 Elm Street, Dallas, TX 75201",
     [("Elm Street", "Room QX 3B-110", "500", "75201", "Dallas", True)]),
    ("Acme Labs, Suite NW 12, 40 Pine Street, Seattle, WA 98101",
     [("Pine Street", "Suite NW 12", "40", "98101", "Seattle", True)]),
    # a plain-text signature wrapped between the unit's word and its number (the <br/> of a converted message)
    ("Office: Acme Research Room <br/>QX 3B-110, 500 Elm Street, Dallas, TX 75201<br/>Phone: (214) 555-0100",
     [("Elm Street", "Room QX 3B-110", "500", "75201", "Dallas", True)]),
    ("Please write to our office at Suite\n1200, 300 Main Street, Houston, TX 77002.",
     [("Main Street", "Suite 1200", "300", "77002", "Houston", True)]),
])
def test_unit_with_code_before_the_number(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # the unit's word ends the line, the house number starts the next: no unit
    ("Office: Acme Room\n500 Elm Street, Dallas, TX 75201",
     [("Elm Street", None, "500", "75201", "Dallas", True)]),
    # the unit's word two lines above
    ("Suite\nAcme\n12, 500 Elm Street, Dallas, TX 75201",
     [("Elm Street", None, "500", "75201", "Dallas", True)]),
])
def test_no_unit_read_across_unrelated_lines(us, text, expected):
    assert _found(us, text) == expected


# -- a mall's, a centre's or a building's name between the street and the place ------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("<div>22 Harbor Drive Bayside Mall Denver, CO 80202</div>",
     [("Harbor Drive", None, "22", "80202", "Denver", True)]),
    ("22 Harbor Drive, Bayside Mall, Denver, CO 80202",
     [("Harbor Drive", None, "22", "80202", "Denver", True)]),
    ("Store #12: 5 Main St Riverside Shopping Center Columbus, OH 43215",
     [("Main St", None, "5", "43215", "Columbus", True)]),
    ("900 Elm Road Lakeview Office Complex Salem, OR 97301",
     [("Elm Road", None, "900", "97301", "Salem", False)]),
    # the direction after the street's type word stays the street's
    ("3500 Peachtree Rd NE Phipps Plaza Atlanta, GA 30326",
     [("Peachtree Rd NE", None, "3500", "30326", "Atlanta", True)]),
    # between commas, a unit after it
    ("200 N Main St, Westgate Mall, Suite 5, Denver, CO 80202",
     [("N Main St", "Suite 5", "200", "80202", "Denver", True)]),
    ("500 Elm Road NE, Lakeview Office Complex, Suite 200, Seattle, WA 98101",
     [("Elm Road NE", "Suite 200", "500", "98101", "Seattle", True)]),
    # between commas, a place outside the region after it
    ("22 Harbor Drive, Bayside Mall, Tampa, FL 33602",
     [("Harbor Drive", None, "22", "33602", "Tampa", False)]),
])
def test_complex_name_between_street_and_place(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # streets whose name ends in a complex word stay whole
    ("1600 16th Street Mall, Denver, CO 80202", [("16th Street Mall", None, "1600", "80202", "Denver", True)]),
    ("100 Peachtree Center Avenue, Atlanta, GA 30303",
     [("Peachtree Center Avenue", None, "100", "30303", "Atlanta", True)]),
    ("300 East Park Avenue Plaza, Chicago, IL 60601",
     [("East Park Avenue Plaza", None, "300", "60601", "Chicago", True)]),
    ("10 Rockefeller Plaza, New York, NY 10020", [("Rockefeller Plaza", None, "10", "10020", "New York", True)]),
    # a place whose name ends in a complex word, the state right after it
    ("10 Main St, Rockville Centre, NY 11570", [("Main St", None, "10", "11570", "Rockville Centre", False)]),
    # a quadrant's tower after the street is its unit, as usaddress labels it
    ("1800 M Street, NW North Tower, Ste. 700, Washington, DC 20036",
     [("M Street NW", "North Tower Ste. 700", "1800", "20036", "Washington", True)]),
])
def test_street_named_with_complex_word_stays(us, text, expected):
    assert _found(us, text) == expected
