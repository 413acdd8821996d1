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
