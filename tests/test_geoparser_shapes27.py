"""Ways of writing addresses met in real text (session 12, held-out 27: US addresses in prose and small blocks, office
pages, meetup posts, venue and hotel lists, footers of newsletters and mails kept as test data): each test is a class
of writing, with members written for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a wing of the floor after a unit ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # an ordinal floor and an abbreviated wing, the place on the next line
    ("1 North Wacker Dr., 12th Floor NE\nChicago, IL 60606",
     [("North Wacker Dr.", "12th Floor NE", "1", "60606", "Chicago", True)]),
    # a suite and a one-letter wing between commas
    ("400 Main St, Suite 210 W, Houston, TX 77002", [("Main St", "Suite 210 W", "400", "77002", "Houston", True)]),
    # a room and a dotted wing in an HTML cell
    ("<td>77 Elm Ave., Room 301 N.E.<br />\nDenver, CO 80203</td>",
     [("Elm Ave.", "Room 301 N.E.", "77", "80203", "Denver", True)]),
    # the wing spelled out after a floor
    ("55 Water St, 3rd Floor North, New York, NY 10041",
     [("Water St", "3rd Floor North", "55", "10041", "New York", True)]),
])
def test_wing_after_a_unit(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text, expected", [
    # a quadrant after the street stays the street's, the suite after it without a wing
    ("600 Maryland Ave SW, Suite 300, Washington, DC 20024",
     [("Maryland Ave SW", "Suite 300", "600", "20024", "Washington", True)]),
    # a highway's number and direction are no unit's wing
    ("1700 Highway No. 130 North, Austin, TX 78701",
     [("Highway No. 130 North", None, "1700", "78701", "Austin", True)]),
])
def test_directions_of_streets_stay_the_streets(us, text, expected):
    assert _found(us, text) == expected


# -- a floor and its wing on the unit's line ("Suite 400, 4 North") ---------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("900 Main St\nSuite 400, 4 North\nDallas, TX 75201",
     [("Main St", "Suite 400, 4 North", "900", "75201", "Dallas", True)]),
    ("2 Penn Plaza, Room 1210, 12 West, New York, NY 10121",
     [("Penn Plaza", "Room 1210, 12 West", "2", "10121", "New York", True)]),
    # outside the region, the wing abbreviated, lines ended by tags
    ("1500 Jefferson St SE<br>\nSuite 300, 3 W<br>\nOlympia, WA 98501",
     [("Jefferson St SE", "Suite 300, 3 W", "1500", "98501", "Olympia", False)]),
])
def test_floor_and_wing_after_a_unit(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "Meet us at 5 South, Chicago, IL 60601",  # a wing without the building's street
    "Lot 12: 100 North, Provo, UT 84601",  # a grid street's name without a house on it
])
def test_a_direction_alone_is_no_street(us, text):
    assert _found(us, text) == []


# -- a street without street word after a sentence or a remark --------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # after a remark in parentheses
    ("We meet upstairs (the door by the bakery) 233 East Fulton Grand Rapids, MI 49503",
     [("East Fulton", None, "233", "49503", "Grand Rapids", True)]),
    # after a sentence's full stop
    ("The group moved in May. 1223 SW Stark Portland, OR 97205",
     [("SW Stark", None, "1223", "97205", "Portland", True)]),
    # after an exclamation
    ("Come by and say hello! 115 Broadway San Francisco CA 94105",
     [("Broadway", None, "115", "94105", "San Francisco", True)]),
])
def test_untyped_street_after_a_sentence(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "Call us on (312) 555 0100 Chicago, IL 60601",  # an area code's bracket, then the number
    "Go to Ste. 12 Oak Dallas, TX 75201",  # an abbreviation's dot
    "the annex is 233 steps from Grand Rapids, MI 49503",  # no sentence ended, lower-case prose
])
def test_no_untyped_street_after_a_bracket_or_an_abbreviation(us, text):
    assert _found(us, text) == []


# -- a quoted-printable line break inside a value ---------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a mail's body in quoted-printable, the break after the street encoded as LF
    ("Ship to: 140 Elm Street=0A=\nSan Jose, CA 95112",
     [("Elm Street", None, "140", "95112", "San Jose", True)]),
    # the break after a unit with a letter, outside the region
    ("Our office: 12 Harbor Way, Suite D=0A=\nMonterey, CA 93940",
     [("Harbor Way", "Suite D", "12", "93940", "Monterey", False)]),
])
def test_quoted_printable_line_break(us, text, expected):
    assert _found(us, text) == expected


def test_an_encoded_break_without_an_address_makes_none(us):
    # a URL's parameter value "0A" at a line end, decoded as a break: still no address in it
    assert _found(us, "see https://example.org/?id=0A=\nfor 12 photos, Seattle, WA") == []


# -- a place's labelled line ending in a town without state or ZIP ----------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # an invitation's "Where:" line, the sentence ended after the town
    ("When: Saturday, 6 PM\nWhere:  88 Harbor Road, Mystic.\nRSVP: by Friday",
     [("Harbor Road", None, "88", None, "Mystic", False)]),
    # a Markdown list item with a bold label and a unit
    ("- **Venue**: 400 Elm Street, Suite 5, Hanover\n- **Time**: 7 PM",
     [("Elm Street", "Suite 5", "400", None, "Hanover", False)]),
])
def test_labelled_line_ending_in_a_town(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    "Where: 12 Oak St, Main Hall.",  # a building after the street, no town
    "Location: 12 Oak St, Texas.",  # a state, no town
    "Address: 12 Oak St, Cook County.",  # a county, which may hold a region city
    "Tell us where: 12 Oak St, Mystic.",  # the label in a sentence, not at its line's start
    "Where: 12 Oak, Mystic.",  # no street's type word
])
def test_labelled_line_without_a_town_or_a_street(us, text):
    assert _found(us, text) == []
