"""Ways of writing US addresses met in real text (session 14, held-out 49: meeting scrapers' location dicts and
fixtures, SDK examples with addresses in sentences): each test is a class of writing, with members written for the
test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _found(parser, text):
    return [(a.street, a.house_number, a.postcode, a.city, a.state, a.in_region)
            for a in parser.parse(text).all_addresses]


# -- a state ending a sentence, after its city without a comma, no ZIP ---------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # the state written out, then the sentence goes on
    ("Deliveries go to 2450 Lakeview Drive, Tulsa Oklahoma. Call ahead.",
     ("Lakeview Drive", "2450", None, "Tulsa", "OK", True)),
    # the state's code before the sentence's full stop
    ("Our shop: 19 Cedar Lane, Omaha NE. Open daily.", ("Cedar Lane", "19", None, "Omaha", "NE", True)),
    # a sentence in a quoted string of code; a town outside the region
    ('msg = "We moved to 310 Birchwood Ave, Flagstaff Arizona."',
     ("Birchwood Ave", "310", None, "Flagstaff", "AZ", False)),
    # a state of two words, the full stop ending the line
    ("Send it to 55 Harbor Road, Buffalo New York.\nThanks", ("Harbor Road", "55", None, "Buffalo", "NY", True)),
])
def test_state_ending_a_sentence(us, text, expected):
    assert _found(us, text) == [expected]


@pytest.mark.parametrize("text", [
    # a state at a sentence's end with no place of a street before it: prose
    "We met at 12 Oak Street and then drove home to Texas.",
    "The 2 Main Street shops closed in Georgia.",
    "She sold 40 Pine Road lots last year in Ohio.",
    # the sentence ends after the street; the state starts the next one
    "I live at 5 Elm Street. Texas is big.",
])
def test_state_ending_prose_is_no_address(us, text):
    assert _found(us, text) == []


# -- a state's name read as the last word of its city --------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    # a place label's reading took the city and the state's name as one place
    ("Our office is at 640 Maple Avenue, Mesa Arizona.", ("Maple Avenue", "640", None, "Mesa", "AZ", True)),
    ("The studio is located at 8 Fenwick Road, Canton Ohio.", ("Fenwick Road", "8", None, "Canton", "OH", False)),
])
def test_state_name_after_city_is_no_part_of_it(us, text, expected):
    assert _found(us, text) == [expected]
