"""Ways of writing addresses met in real text (session 11, held-out 19: meeting pages of a standards forum,
conference sites, an election-data specification): each test is a class of writing, with members written for
the test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a JSON-LD script the structured-data pass cannot read: cut off, or no JSON -------------------------------

@pytest.mark.parametrize("text, street, number, zip_code", [
    # an excerpt or a truncated page: the script element is not closed
    ('<script type="application/ld+json">\n{"@type": "Event", "location": {"@type": "Place", "address": {\n'
     '  "@type": "PostalAddress", "streetAddress": "600 E Grand Ave", "addressLocality": "Chicago",\n'
     '  "postalCode": "60611", "addressRegion": "IL"\n', "E Grand Ave", "600", "60611"),
    # an unescaped quote in another value makes the whole block no JSON
    ('<script type="application/ld+json">{"@type": "Place", "name": "Hall "B"", "address": {"@type": '
     '"PostalAddress", "streetAddress": "1100 Congress Ave", "addressLocality": "Austin", "addressRegion": "TX", '
     '"postalCode": "78701"}}</script><p>Tickets</p>', "Congress Ave", "1100", "78701"),
    # a template's tag left in the page
    ('<script type="application/ld+json">{"@type": "Place", "url": {{ page.url }}, "address": {"@type": '
     '"PostalAddress", "streetAddress": "400 Broad St", "addressLocality": "Seattle", "addressRegion": "WA", '
     '"postalCode": "98109"}}</script>', "Broad St", "400", "98109"),
])
def test_json_ld_the_structured_pass_cannot_read(us, text, street, number, zip_code):
    assert [(s, n, z, r) for s, _u, n, z, _c, r in _found(us, text)] == [(street, number, zip_code, True)]


def test_json_ld_cut_off_with_the_address_as_one_string(us):
    text = ('<script type="application/ld+json">\n{"@type": "Event", "location": {"@type": "Place", "name": "Hall", '
            '"address": "1739 N. High St, Columbus, OH 43210"}, "description": "Join us for')
    assert [(s, n, z) for s, _u, n, z, _c, _r in _found(us, text)] == [("N. High St", "1739", "43210")]


def test_a_broken_json_ld_block_does_not_spoil_the_readable_one(us):
    # the structured-data pass reads a page's blocks at once: one that is no JSON made it read none
    text = ('<script type="application/ld+json">[{"@type": "Organization", "address": {"@type": "PostalAddress", '
            '"streetAddress": "233 S Wacker Dr", "addressLocality": "Chicago", "addressRegion": "IL", '
            '"postalCode": "60606"}}]</script>\n<script type="application/ld+json">{"@type": "WebSite", "name": '
            '"Our "best" site"}</script>')
    assert [(s, n, z) for s, _u, n, z, _c, _r in _found(us, text)] == [("S Wacker Dr", "233", "60606")]


def test_json_ld_that_parses_is_read_once(us):
    # a trailing comma is read by the structured-data pass (as extruct reads it): one address, not two
    text = ('<script type="application/ld+json">{"@type": "Place", "address": {"@type": "PostalAddress", '
            '"streetAddress": "500 Main Street", "addressLocality": "Houston", "addressRegion": "TX", '
            '"postalCode": "77002",},}</script>')
    assert [(s, n, z) for s, _u, n, z, _c, _r in _found(us, text)] == [("Main Street", "500", "77002")]


# -- a title before a person's name in the street, read by usaddress as the street's type ---------------------

@pytest.mark.parametrize("text, street, unit, number, zip_code", [
    ("1 Dr. Mary B. Angelou Square, Chicago, IL 60601", "Dr. Mary B. Angelou Square", None, "1", "60601"),
    ("Clinic: 5 Dr. Hector B. Goodlett Place, Denver, CO 80202", "Dr. Hector B. Goodlett Place", None, "5", "80202"),
    ("5 Dr. Hector B. Goodlett Place, Suite 3\nDenver, CO 80202", "Dr. Hector B. Goodlett Place", "Suite 3", "5",
     "80202"),
])
def test_title_before_a_name_in_the_street(us, text, street, unit, number, zip_code):
    assert [(s, u, n, z) for s, u, n, z, _c, _r in _found(us, text)] == [(street, unit, number, zip_code)]


# -- a floor written with an ordinal word before the house number ---------------------------------------------

@pytest.mark.parametrize("text, street, unit, number, zip_code", [
    ("Second Floor, 200 Main Street, Houston, TX 77002", "Main Street", "Second Floor", "200", "77002"),
    ("City Hall, Third Floor\n1 Main St\nDallas, TX 75201", "Main St", "Third Floor", "1", "75201"),
    ("<p>Annex Building Fifth Floor<br>415 N Tryon St<br>Charlotte, NC 28202</p>", "N Tryon St", "Fifth Floor",
     "415", "28202"),
    # the same in lower case and in capitals
    ("2nd floor, 200 Main Street, Houston, TX 77002", "Main Street", "2nd floor", "200", "77002"),
    ("COUNTY BUILDING\nSECOND FLOOR\n100 N MAIN ST\nTULSA, OK 74103", "N MAIN ST", "SECOND FLOOR", "100", "74103"),
])
def test_ordinal_word_floor_before_the_number(us, text, street, unit, number, zip_code):
    assert [(s, u, n, z) for s, u, n, z, _c, _r in _found(us, text)] == [(street, unit, number, zip_code)]


# -- "in" before the city after a street without type word ----------------------------------------------------

@pytest.mark.parametrize("text, street, number, zip_code, city", [
    ("We meet at 905 N. Main in Wichita, KS 67203.", "N. Main", "905", "67203", "Wichita"),
    ("Dinner at 77 W. Wacker in Chicago, Illinois 60601.", "W. Wacker", "77", "60601", "Chicago"),
    ("The clinic is at 1200 E. Colfax in Denver, CO 80218 since 2019.", "E. Colfax", "1200", "80218", "Denver"),
])
def test_in_before_the_city_is_no_part_of_the_street(us, text, street, number, zip_code, city):
    assert [(s, n, z, c) for s, _u, n, z, c, _r in _found(us, text)] == [(street, number, zip_code, city)]


# -- a building's name with its number before the address: the name of the addressed building ----------------

@pytest.mark.parametrize("text, street, number", [
    ("Cisco Building 2\n3800 Zanker Road\nSan Jose, California 95134", "Zanker Road", "3800"),
    ("Wells Fargo Building 3, 100 Main St, Houston, TX 77002", "Main St", "100"),
    ("Intel Bldg. 5\n2200 Mission College Blvd\nSan Jose, CA 95134", "Mission College Blvd", "2200"),
])
def test_named_building_before_the_address_is_no_unit(us, text, street, number):
    assert [(s, u, n) for s, u, n, _z, _c, _r in _found(us, text)] == [(street, None, number)]


def test_building_starting_its_field_is_still_the_unit(us):
    # the building is a part of a campus at that address: "Building 4," starts the line
    found = _found(us, "City Hall, Building 4\n500 Harbor Blvd, Oakland, CA 94607")
    assert [(s, u, n) for s, u, n, _z, _c, _r in found] == [("Harbor Blvd", "Building 4", "500")]


# -- a unit alone on the line after the place -----------------------------------------------------------------

@pytest.mark.parametrize("text, street, unit, number, zip_code", [
    ("151 N. Franklin Street, Chicago, IL<br />Floor 34<br />", "N. Franklin Street", "Floor 34", "151", None),
    ("<p>600 Congress Ave<br>Austin, TX 78701<br>Suite 1400</p><p>Phone: 512-555-0100</p>", "Congress Ave",
     "Suite 1400", "600", "78701"),
    ("Visit us:\n1 Market St\nSan Francisco, CA 94105\n12th Floor\n", "Market St", "12th Floor", "1", "94105"),
])
def test_unit_on_the_line_after_the_place(us, text, street, unit, number, zip_code):
    assert [(s, u, n, z) for s, u, n, z, _c, _r in _found(us, text)] == [(street, unit, number, zip_code)]


def test_unit_line_before_the_next_address_stays_with_it(us):
    text = "100 Main St, Houston, TX 77002\nSuite 5\n900 Bagby St, Houston, TX 77002"
    found = {(s, u, n) for s, u, n, _z, _c, _r in _found(us, text)}
    assert found == {("Main St", None, "100"), ("Bagby St", "Suite 5", "900")}


# -- a floor in a sentence before the address ------------------------------------------------------------------

@pytest.mark.parametrize("text, street, unit, number, zip_code", [
    ("The office is on the second floor of 100 Main St., Houston, TX 77002.", "Main St.", "second floor", "100",
     "77002"),
    ("We meet on the 9th floor of the Wells Fargo Center at 1300 SW 5th Ave, Portland, OR 97201.", "SW 5th Ave",
     "9th floor", "1300", "97201"),
    ("<p>Take the elevator to the 4th floor of <a href='/hall'>City Hall</a>, 121 N LaSalle St, Chicago, IL 60602</p>",
     "N LaSalle St", "4th floor", "121", "60602"),
])
def test_floor_in_a_sentence_before_the_address(us, text, street, unit, number, zip_code):
    assert [(s, u, n, z) for s, u, n, z, _c, _r in _found(us, text)] == [(street, unit, number, zip_code)]


@pytest.mark.parametrize("text", [
    "On the 3rd floor of 2019 we moved to 500 Main St, Dallas, TX 75201",  # the floor is not before the address
    "Our new home: the top floor of 500 Main St, Dallas, TX 75201",  # no numbered floor
])
def test_no_floor_unit_without_a_numbered_floor_of_the_address(us, text):
    assert [(s, u, n) for s, u, n, _z, _c, _r in _found(us, text)] == [("Main St", None, "500")]


# -- the place before the street in a sentence: a part of the city named, a relative clause, a floor -----------

@pytest.mark.parametrize(
    "text, street, unit, number, city",
    [
        (
            "The sprint is at the library in downtown Denver, CO, which is at 1600 Glenarm Pl.",
            "Glenarm Pl.",
            None,
            "1600",
            "Denver",
        ),
        (
            "Our office in Seattle, WA,\nwhich is on the 4th floor of 1000 2nd Ave, has parking.",
            "2nd Ave",
            "4th floor",
            "1000",
            "Seattle",
        ),
        (
            "We meet in Austin, TX on the second floor of 500 Congress Ave every month.",
            "Congress Ave",
            "second floor",
            "500",
            "Austin",
        ),
    ],
)
def test_place_before_the_street_in_a_sentence(us, text, street, unit, number, city):
    assert [(s, u, n, c) for s, u, n, _z, c, _r in _found(us, text)] == [(street, unit, number, city)]


@pytest.mark.parametrize("text", [
    "She was born in Austin, TX on 12 May 1990.",
    "The ranch in downtown Austin, TX, which is on 500 acres of land, is gone.",
])
def test_place_then_a_number_that_is_no_street(us, text):
    assert _found(us, text) == []
