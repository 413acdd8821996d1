"""Ways of writing addresses met in real text (session 14, held-out 50: API documentation and code with an address
in a URL's query string or in form data): each test is a class of writing, with members written for the test, not
snippets of the corpus."""

from __future__ import annotations

import pytest

from tests.addressfields import found as _found

# -- an address as an encoded value of a query string or of form data -----------------------------------------

@pytest.mark.parametrize("text, street, number, postcode, city, inside", [
    # "+" for the spaces, city first and no postcode (a city of the list of German cities)
    ("curl 'https://api.example.de/stations/nearby?lat=51.96&lon=7.62&address=M%C3%BCnster,+Ludgeristra%C3%9Fe+12'",
     "Ludgeristraße", "12", None, "Münster", False),
    # "+" for the spaces, postcode first, a key with a dot
    ("- e.g. `to.latitude=53.14&to.address=26123+Oldenburg,+Donnerschweer+Str.+45` for the route",
     "Donnerschweer Str.", "45", "26123", "Oldenburg", True),
    # "%20" and "%2C" escapes, the street first
    ("GET /geocode?q=Kaiserstra%C3%9Fe%2020%2C%2076133%20Karlsruhe&format=json HTTP/1.1",
     "Kaiserstraße", "20", "76133", "Karlsruhe", False),
    # the parts in keys of their own, each value encoded: they are read as the lines of one address
    ("POST /anmeldung?strasse=Ofener+Stra%C3%9Fe+18&ort=26121+Oldenburg&id=7", "Ofener Straße", "18", "26121",
     "Oldenburg", True),
])
def test_encoded_query_value(oldenburg, text, street, number, postcode, city, inside):
    assert _found(oldenburg, text) == [(street, number, postcode, city, inside)]


def test_encoded_query_value_us(us):
    text = "fetch('/api/stores?near=1550+Wewatta+St,+Denver,+CO+80202&radius=5')"
    assert [(a.street, a.house_number, a.postcode, a.in_region) for a in us.parse(text).all_addresses] == [
        ("Wewatta St", "1550", "80202", True)]


@pytest.mark.parametrize("text", [
    "?utm_source=news+letter&utm_campaign=spring%20sale&page=2",  # words, no address
    "https://shop.example.com/?q=50%+off+12+items",  # a percent sign that is no escape
    "?filter=year+2024&sort=price+asc",
])
def test_encoded_query_value_without_address(oldenburg, text):
    assert _found(oldenburg, text) == []


def test_a_markdown_links_target_repeats_its_text(us):
    # the link's text is the address; the target's geocoder words ("hnear=...") name it once more, otherwise
    text = ("Meet at [350 N Orleans St, Chicago, IL 60654](https://maps.example.com/?q=350+N+Orleans+St,+Chicago"
            "&hnear=350+North+Orleans+Street,+Chicago,+Illinois+60654).")
    assert [(a.street, a.house_number, a.postcode) for a in us.parse(text).all_addresses] == [
        ("N Orleans St", "350", "60654")]


def test_a_markdown_reference_definition_repeats_its_link(us):
    text = ("* Taco night at [Casa Verde, 88 Harbor Blvd][7]\n\n"
            "  [7]: https://maps.example.com/maps?near=88+Harbor+Boulevard,+Long+Beach,+CA+90802&z=16\n")
    assert us.parse(text).all_addresses == []
