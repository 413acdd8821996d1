"""Classes of error found by session 12's second sweep of real text (docs/geoparser.md, "Session 12: second sweep
of real text"). Each test is a class of writing, with members written for the test, not lines of the swept text,
and negatives that must keep their reading."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.unit, a.house_number, a.postcode, a.city, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a record's street and town keys without state or ZIP ---------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a JSON list of venues
    ('[{"name": "Harbor Library", "address": "18 Quarry Lane", "city": "Mill Valley", "open": true}]',
     [("Quarry Lane", None, "18", None, "Mill Valley", False)]),
    # minified JavaScript: keys that are identifiers lose their quotes
    ('var places={7:{id:7,street:"4410 Orchard Rd",city:"Rancho Cordova",open:!0}};',
     [("Orchard Rd", None, "4410", None, "Rancho Cordova", False)]),
    # YAML front matter of an event page
    ("---\ntitle: Spring meetup\nvenue:\n  address: 77 Birch Ave\n  city: Walnut Creek\n---\n",
     [("Birch Ave", None, "77", None, "Walnut Creek", False)]),
    # the number and street in keys of their own, the town as a locality
    ('{"housenumber": "9", "street": "Elm Court", "locality": "Fair Oaks"}',
     [("Elm Court", None, "9", None, "Fair Oaks", False)]),
])
def test_record_street_and_town_without_state_or_zip(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    # the town of one record and the street of the next
    '[{"id": 1, "city": "Lodi"}, {"id": 2, "address": "12 Pine St"}]',
    '[{"address": "12 Pine St"}, {"city": "Lodi"}]',
    "- name: Alpha\n  city: Lodi\n- name: Beta\n  address: 12 Pine St\n",
    # a street without house number, a phone number beside a town
    '{"address": "Main Street", "city": "Lodi"}',
    '{"phone": "555 1234", "city": "Lodi"}',
])
def test_record_parts_that_make_no_address(us, text):
    assert _found(us, text) == []


@pytest.mark.parametrize("text, expected", [
    # a region city without state keeps its membership; a ZIP still names the state
    ('{"address": "2076 Sutterville Rd", "city": "Sacramento"}',
     [("Sutterville Rd", None, "2076", None, "Sacramento", True)]),
    ('{"address": "18 Quarry Lane", "city": "Mill Valley", "zip": "94941"}',
     [("Quarry Lane", None, "18", "94941", "Mill Valley", False)]),
])
def test_record_with_region_city_or_zip_reads_as_before(us, text, expected):
    assert _found(us, text) == expected


def test_german_record_without_postcode_is_not_read_by_the_us_rule(oldenburg):
    # the German reading keeps its own rule for records (a postcode or a region place)
    assert _found(oldenburg, '{"address": "18 Quarry Lane", "city": "Mill Valley"}') == []


# -- a town and its ZIP without state, the street starting in a sentence ------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # after "at"
    ("Pick-up is at 48 Orchard Lane, Los Gatos 95030 (weekdays).",
     [("Orchard Lane", None, "48", "95030", "Los Gatos", False)]),
    # after a name and a comma, a suite between street and town
    ("Our clinic, 1200 Harbor Boulevard, Suite 4, Ventura 93001, opens at nine.",
     [("Harbor Boulevard", "Suite 4", "1200", "93001", "Ventura", False)]),
    # a unit with "#", a town of three words
    ("The shop moved to the corner, 77 Cedar Road #2, Half Moon Bay 94019.",
     [("Cedar Road", "#2", "77", "94019", "Half Moon Bay", False)]),
])
def test_town_and_zip_without_state_in_a_sentence(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    # a ZIP of the region after a word that is none of its places
    "Deliveries at 12 Oak St, Warehouse 30301.",
    # a country where the state would be: a sample
    "Send it to us at 5 Main Street, Anytown, USA 10001.",
    # a suite's number, no town
    "Meet at 9 Elm Street, Suite 12345",
])
def test_sentence_numbers_that_make_no_town_and_zip(us, text):
    assert _found(us, text) == []


# -- a phrase of position after the postcode is no place ----------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a record's note after its postcode: the record's own place is kept
    ('{"address": {"streetAddress": "Hafenstraße 12", "addressLocality": "Bremen", "postalCode": "28217",\n'
     ' "description": "Direkt am Wasser"}}', [("Hafenstraße", None, "12", "28217", "Bremen", False)]),
    # no place key: the region's postcode names the place
    ('{"streetAddress": "Lange Straße 5", "postalCode": "26122", "description": "Neben dem Rathaus"}',
     [("Lange Straße", None, "5", "26122", "Oldenburg", True)]),
])
def test_position_phrase_after_postcode_is_no_place(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


@pytest.mark.parametrize("text, expected", [
    # places whose names only start like such a word
    ("Kirchstraße 4, 52459 Inden", [("Kirchstraße", None, "4", "52459", "Inden", False)]),
    ("Dorfstraße 1\n25946 Nebel", [("Dorfstraße", None, "1", "25946", "Nebel", False)]),
    ("Seestraße 4, 15749 Mittenwalde", [("Seestraße", None, "4", "15749", "Mittenwalde", False)]),
])
def test_places_after_postcode_still_read(oldenburg, text, expected):
    assert _found(oldenburg, text) == expected


# -- a town without state or ZIP after "located at" in a sentence --------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("The gallery is located at 14 Mill Road, Carmel Valley. Open on weekends.",
     [("Mill Road", None, "14", None, "Carmel Valley", False)]),
    ("Since May our shop is at 221 Orchard Avenue, Half Moon Bay.",
     [("Orchard Avenue", None, "221", None, "Half Moon Bay", False)]),
])
def test_town_after_located_at_in_a_sentence(us, text, expected):
    assert _found(us, text) == expected


@pytest.mark.parametrize("text", [
    # a unit or a floor where the town would be
    "Our office is located at 200 Pine Street, Suite 5.",
    "Meetings are at 3 Church Street, First Floor.",
    # the town goes on in the next line of a hard-wrapped text: no town is cut
    "The drop-in center is located at 693 Mill Road, San\nCarlos. It opens at nine.",
])
def test_located_at_without_a_whole_town(us, text):
    assert _found(us, text) == []
