"""Ways of writing addresses met in real text (session 10, held-out 17: saved pages of city agencies kept by
meeting scrapers): each test is a class of writing, with members written for the test, not snippets of the
corpus."""

from __future__ import annotations

import time

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a comma between state and ZIP, the address over two lines ----------------------------------------------

@pytest.mark.parametrize("text, street, number, zip_code, city", [
    # a venue block of a template: a space before the comma, a no-break space after it
    ("<p>City Hall<br />\n300 W Trade St.<br />\nCharlotte, NC ,&nbsp;28202 <br /></p>", "W Trade St.", "300",
     "28202", "Charlotte"),
    ("1500 Marilla Street\nDallas, TX , 75201", "Marilla Street", "1500", "75201", "Dallas"),
    ("<div>2 E Main St<br>Akron, OH ,44308</div>", "E Main St", "2", "44308", "Akron"),
    # in a table, one field a line
    ("<td>121 N LaSalle St</td>\n<td>Chicago, IL ,</td>\n<td>60602</td>", "N LaSalle St", "121", "60602", "Chicago"),
])
def test_comma_between_state_and_zip(us, text, street, number, zip_code, city):
    found = _found(us, text)
    assert [(s, n, z, c, r) for s, n, _u, z, c, r in found] == [(street, number, zip_code, city, True)]


def test_comma_after_state_does_not_take_a_far_number(us):
    # the comma is no licence to take digits that are not the ZIP
    found = _found(us, "300 W Trade St.\nCharlotte, NC , 2820 Main")
    assert all(z is None for _s, _n, _u, z, _c, _r in found)


# -- a part of a building named by a letter or number --------------------------------------------------------

@pytest.mark.parametrize("text, street, unit", [
    ("<p>1867 W. Market St., Entrance B, Akron, OH 44313</p>", "W. Market St.", "Entrance B"),
    ("500 Elm Street, Door 4, Dallas, TX 75202", "Elm Street", "Door 4"),
    ("Fairgrounds\n4500 Fair Ave\nGate C\nTulsa, OK 74114", "Fair Ave", "Gate C"),
    ("200 E Washington St, Wing 2, Indianapolis, IN 46204", "E Washington St", "Wing 2"),
])
def test_lettered_part_of_a_building_is_a_unit(us, text, street, unit):
    found = _found(us, text)
    assert len(found) == 1
    s, _n, u, _z, c, r = found[0]
    assert (s, u, r) == (street, unit, True)
    assert c in ("Akron", "Dallas", "Tulsa", "Indianapolis")


@pytest.mark.parametrize("text, street", [
    # the word inside a street's name, or without its letter, stays out of the unit
    ("12 Park Entrance Rd, Dallas, TX 75201", "Park Entrance Rd"),
    ("45 Water Tower Dr, Omaha, NE 68114", "Water Tower Dr"),
])
def test_lettered_unit_words_inside_street_names(us, text, street):
    found = _found(us, text)
    assert [(s, u, r) for s, _n, u, _z, _c, r in found] == [(street, None, True)]


# -- prose hard-wrapped in a page's source -------------------------------------------------------------------

@pytest.mark.parametrize("text, street, number, zip_code", [
    # the break inside the street's name
    ("<p>\n  The board meets at the Government Center, 600 East Fourth\n  Street, Charlotte, NC 28202. Parking\n"
     "  is free.</p>", "East Fourth Street", "600", "28202"),
    # the break between the number and the street
    ("<p>Meeting will be held at the Administrative Center, 1501\n   W. Washington St., Indianapolis, IN 46222."
     "\n   Call ahead.</p>", "W. Washington St.", "1501", "46222"),
    # the break inside the unit
    ("<p>The council meets at City Hall, 200 E. Washington Street, Suite\n260, Indianapolis, IN 46204, at 7 pm.</p>",
     "E. Washington Street", "200", "46204"),
    # the break after an abbreviation inside the street
    ("<p>held at the district office, 3027 S.\nNew Haven Ave., Tulsa, OK 74114 on Monday</p>",
     "S. New Haven Ave.", "3027", "74114"),
])
def test_wrapped_paragraph(us, text, street, number, zip_code):
    found = _found(us, text)
    assert [(s, n, z, r) for s, n, _u, z, _c, r in found] == [(street, number, zip_code, True)]


def test_wrapped_paragraph_needs_the_break_inside_the_street(us):
    # a number alone on its line after a label is no house number of the street on the next line
    assert _found(us, "Room:\n101\nVisitors: see the desk, Charlotte, NC 28202") == []


def test_wrapped_paragraphs_stay_fast(us):
    # many anchors, each with a wrapped window before it: the second reading is one pass per anchor
    text = "<p>" + "the hall at the corner of\nthe square\nand more words, Dallas, TX 75201.\n" * 3000 + "</p>"
    began = time.process_time()
    us.parse(text)
    assert time.process_time() - began < 5.0
