"""Addresses written as iCalendar/vCard content lines (RFC 5545 3.1, RFC 6350 3.3, the VVENUE draft's X-
properties): ``NAME[;PARAM=...]*:VALUE``, one part a line (session 9, held-out 12). The examples are written
for the test, not snippets of the corpus."""

from __future__ import annotations

import pytest

from geofocus.geoparser.keyvalue import property_addresses
from geofocus.geoparser.model import WorkLimit


def _keys(parser, text):
    return {(a.house_number, a.street.upper(), a.postcode, a.in_region) for a in parser.parse(text).all_addresses}


def _records(text):
    return [record.parts for record in property_addresses(text, WorkLimit.for_size(len(text)))]


# -- end to end: the street is the whole value after the colon; parameters after ";" are dropped ----------

@pytest.mark.parametrize("text, expected", [
    # VVENUE block, a region with a parameter, an empty postal code
    ("BEGIN:VVENUE\nNAME:Mohawk\nADDRESS:912 Red River St\nCITY:Austin\nREGION;X-ABBREV=tx:Texas\n"
     "COUNTRY;X-ABBREV=us:United States\nPOSTALCODE:\nEND:VVENUE",
     ("912", "RED RIVER ST", None, True)),
    # the same shape with STATE instead of REGION
    ("BEGIN:VVENUE\nNAME:Mohawk\nADDRESS:912 Red River St\nCITY:Austin\nSTATE:Texas\nPOSTALCODE:\nEND:VVENUE",
     ("912", "RED RIVER ST", None, True)),
    # X- properties, parameters on the street too, a postal code
    ("X-STREET;LANGUAGE=en:4700 SE Division St\nX-CITY:Portland\nX-REGION;ABBREV=OR:Oregon\nX-POSTALCODE:97206",
     ("4700", "SE DIVISION ST", "97206", True)),
    # indented (a fixture inside source code), the parts in another order
    ("    CITY:Denver\n    ADDRESS:1601 Wewatta St\n    REGION;ABBREV=CO:Colorado\n    POSTALCODE:80202",
     ("1601", "WEWATTA ST", "80202", True)),
])
def test_property_lines_are_one_keyed_record(us, text, expected):
    assert expected in _keys(us, text)


def test_street_value_with_escaped_commas_keeps_the_street(us):
    text = ("ADDRESS:2100 W Belmont Ave\\, Chicago\\, IL 60618\nCITY:Chicago\nREGION;X-ABBREV=il:Illinois\n"
            "POSTALCODE:60618")
    assert ("2100", "W BELMONT AVE", "60618", True) in _keys(us, text)


# -- negatives --------------------------------------------------------------------------------------------

def test_description_with_a_number_and_no_place_is_no_address(us):
    text = ("BEGIN:VEVENT\nSUMMARY:Open mic\nDESCRIPTION:Doors at 1945 and 2130 NW of the stage\n"
            "URL:http://example.org/e/1\nEND:VEVENT")
    assert _keys(us, text) == set()
    assert _records(text) == []


def test_location_property_is_no_street_key():
    # LOCATION names a place (a venue, a room): it is read elsewhere as text, not as the street of a record.
    text = "LOCATION:Main Hall 2\nCITY:Austin\nREGION:Texas\nPOSTALCODE:78701"
    assert _records(text) == []


def test_location_with_escapes_still_read_as_text(us):
    text = "LOCATION:Crystal Ballroom\\, 1332 W Burnside St\\, Portland\\, OR 97209"
    assert ("1332", "W BURNSIDE ST", "97209", True) in _keys(us, text)


# -- the record's extent ----------------------------------------------------------------------------------

def test_a_line_that_is_no_property_ends_the_record():
    text = "ADDRESS:912 Red River St\nsee the map below\nCITY:Austin\nREGION:Texas"
    assert _records(text) == [{"street": "912 Red River St"}]


def test_a_part_named_twice_starts_a_new_record():
    text = ("ADDRESS:912 Red River St\nCITY:Austin\nADDRESS:1601 Wewatta St\nCITY:Denver\n"
            "REGION;ABBREV=CO:Colorado")
    assert _records(text) == [{"street": "912 Red River St", "city": "Austin"},
                              {"street": "1601 Wewatta St", "city": "Denver", "state": "Colorado"}]


def test_lower_case_names_and_a_space_after_the_colon_are_left_to_the_key_value_reader():
    # "address: ..." lines (YAML) are read by keyed_addresses; property names are written in capitals.
    assert _records("address:912 Red River St\ncity:Austin\nregion:Texas") == []
    assert _records("Address: 912 Red River St\nCity: Austin") == []
