"""Classes of real-text misses left open before session 11 (issue 10, helper geo-left11), each a rule for the
whole class, tested with members written for the test in shapes of their own (not the snippets that showed
them), and with negatives that must not be read as addresses."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.house_number, a.street, a.unit, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a. a city's name broken over two source lines (indented HTML, Markdown) -----------------------------------

@pytest.mark.parametrize("text, expected", [
    ("<div class=\"footer\">\n      <p>\n        1200 Main St, Suite 4, Kansas\n        City, MO 64105\n      </p>",
     ("1200", "Main St", "Suite 4", "64105", "Kansas City", True)),
    ("> Visit us at 300 Congress Ave, Los\n> Angeles, CA 90012\n",
     ("300", "Congress Ave", None, "90012", "Los Angeles", True)),
    ("    <td>\n      12 Pine Rd, San\n      Antonio, TX 78205\n    </td>",
     ("12", "Pine Rd", None, "78205", "San Antonio", True)),
    ("Mailing address: 400 Broad St, 3rd floor, New\nYork, NY 10004",
     ("400", "Broad St", "3rd floor", "10004", "New York", True)),
    ("  700 Houston St, Fort\n  Worth, TX\n", ("700", "Houston St", None, None, "Fort Worth", True)),  # no ZIP
])
def test_city_broken_over_two_lines(us, text, expected):
    assert _found(us, text) == [expected]


@pytest.mark.parametrize("text", [
    "  12 Pine Rd, Old\n  Town, TX 78205",  # the two words joined name no place of the pack
    "Call us at 555 1234 or visit our San\nFrancisco, CA office",  # no street
    "  12 Pine Rd, Round\n  Rock, TX",  # a real place, but not one the pack knows; no ZIP to tell
])
def test_city_broken_over_two_lines_negatives(us, text):
    assert _found(us, text) == []


# -- c. unit words of USPS Publication 28 and private mailboxes after the street, one list (ussplit) -----------

@pytest.mark.parametrize("text, expected", [
    ("Mail: 2200 Ross Ave. PMB #4410\nDallas, TX 75201", ("2200", "Ross Ave.", "PMB #4410", "75201", "Dallas", True)),
    ("Seattle office: 2001 Alaskan Way, Pier 66, Seattle, WA 98121",
     ("2001", "Alaskan Way", "Pier 66", "98121", "Seattle", True)),
    ("  4400 Lindbergh Dr HNGR 7\n  Addison, TX 75001", ("4400", "Lindbergh Dr", "HNGR 7", "75001", "Addison", False)),
    ("2 Marina Blvd, Slip B-14, San Francisco, CA 94123",
     ("2", "Marina Blvd", "Slip B-14", "94123", "San Francisco", True)),
    ("Send to 7800 Airport Blvd. Hangar 3\nHouston, TX 77061",
     ("7800", "Airport Blvd.", "Hangar 3", "77061", "Houston", True)),
    ("Remit to: 500 Commerce St Box 1207\nFort Worth, TX 76102",
     ("500", "Commerce St", "Box 1207", "76102", "Fort Worth", True)),  # after a street: a unit, not a PO box
    ("Acme Inc.\n1100 Congress Ave. CMB # 3371\nAustin, TX 78701",
     ("1100", "Congress Ave.", "CMB #3371", "78701", "Austin", True)),  # a mail service's own box abbreviation
])
def test_unit_words_after_the_street(us, text, expected):
    assert _found(us, text) == [expected]


@pytest.mark.parametrize("text", [
    "P.O. Box 4512\nDallas, TX 75201",  # a PO box, no street
    "PO Box 45, Dallas, TX 75201",
    "Ticket NO # 45 for the show, Dallas, TX 75201",  # a number sign after capitals, no street
])
def test_unit_words_negatives(us, text):
    assert _found(us, text) == []


def test_unit_word_without_a_mark_is_no_unit(us):
    # "Box Office" names a place in the building, not a box with its number
    assert _found(us, "1500 Main St. Box Office\nDallas, TX 75201") == [
        ("1500", "Main St.", None, "75201", "Dallas", True)]
