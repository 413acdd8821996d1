"""Ways of writing US addresses met in real text (session 14, held-out 47: SDK examples and test fixtures, a
tab-separated input list): each test is a class of writing, with members written for the test, not snippets of the
corpus."""

from __future__ import annotations

import pytest

from tests.addressfields import found as _found
from tests.addressfields import found_with_unit as _found_with_unit

# -- a town and state in small letters, each a field of its own after a capitalised street ------------------------

@pytest.mark.parametrize("text, expected", [
    # a tab-separated input list, no ZIP
    ("742 Evergreen Terrace\tportland\tor\t\n", ("Evergreen Terrace", "742", None, "Portland", True)),
    # the same row with its ZIP
    ("742 Evergreen Terrace\tportland\tor\t97205\n", ("Evergreen Terrace", "742", "97205", "Portland", True)),
    # comma-separated fields, as a form's input typed in small letters
    ("Ship to: 88 Magnolia Blvd, tucson, az 85701", ("Magnolia Blvd", "88", "85701", "Tucson", True)),
    # a town outside the region, with its ZIP
    ("31 Birch Lane\tbozeman\tmt\t59715\n", ("Birch Lane", "31", "59715", "bozeman", False)),
])
def test_small_letter_town_and_state_fields(us, text, expected):
    assert _found(us, text) == [expected]


@pytest.mark.parametrize("text", [
    # prose: the town is no field of its own, and the words before the state are no place
    "Our studio at 88 Magnolia Blvd is the best place in tucson az\n",
    "See 31 Birch Lane where we meet in\n",
    # separated, but words of prose rather than a town
    "Drop by 88 Magnolia Blvd, then, or\n",
    # separated small words before a state code that is a word too, no ZIP and no town of the region
    "12 Larch Street, done, in\n",
    "5 Alder Road\tred\tme\n",
])
def test_small_letter_prose_stays_unread(us, text):
    assert _found(us, text) == []


# -- a unit's key after a second line that names no unit -----------------------------------------------------------

@pytest.mark.parametrize("text", [
    # a Go struct literal: a remark in the second street line, the unit in "Secondary"
    'req := &Lookup{\n\tStreet:    "45 Larkspur Way",\n\tStreet2:   "ring twice",\n\tSecondary: "UNIT 7",\n'
    '\tCity:      "Omaha",\n\tState:     "NE",\n\tZIPCode:   "68102",\n}',
    # JSON: a care-of line, then the unit's own key
    '{"street": "45 Larkspur Way", "street2": "c/o Dana Wells", "unit": "UNIT 7", "city": "Omaha", '
    '"state": "NE", "zip": "68102"}',
])
def test_unit_key_after_a_line_naming_no_unit(us, text):
    assert _found_with_unit(us, text) == [("Larkspur Way", "45", "UNIT 7", "68102", True)]


def test_secondary_address_key_is_the_unit(us):
    # Faker's "secondaryAddress" and the USPS's name for the line
    text = ('{ streetAddress: "2210 Quarry Rd", secondaryAddress: "Apt. 314", city: "Boise", state: "ID", '
            'zipCode: "83702" }')
    assert _found_with_unit(us, text) == [("Quarry Rd", "2210", "Apt. 314", "83702", True)]
