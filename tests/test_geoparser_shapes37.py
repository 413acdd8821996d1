"""Ways of writing addresses met on German web pages (session 13, held-out 37: hackspace and conference pages,
imprints of projects and companies): each test is a class of writing, with members written for the test, not
snippets of the corpus."""

from __future__ import annotations

import pytest


def _streets(parser, text):
    return [(a.street, a.house_number, a.postcode) for a in parser.parse(text).all_addresses]


# -- a floor written word first after the house number ----------------------------------------------------

@pytest.mark.parametrize("text, street, number, postcode", [
    # the floor on the street line, the postcode on the next, an empty line between (an <address> with <br>)
    ("Kanzlei Hollmann<br>\nBahnhofstraße 12, Etage 3<br>\n<br>\n30159 Hannover<br>", "Bahnhofstraße", "12", "30159"),
    # with the side of the floor
    ("Praxis Dr. Wendt\nAm Markt 4, Etage 2 links\n26122 Oldenburg", "Am Markt", "4", "26122"),
    ("Büro Nord · Lindenallee 8, Ebene 5 · 20259 Hamburg", "Lindenallee", "8", "20259"),
    ("Atelier Grün, Sophienweg 21, Stockwerk 1, 04109 Leipzig", "Sophienweg", "21", "04109"),
    ("Gemeinschaftspraxis, Kirchweg 7, Geschoss 2 rechts, 49074 Osnabrück", "Kirchweg", "7", "49074"),
])
def test_floor_word_then_number_after_the_house_number(oldenburg, text, street, number, postcode):
    assert (street, number, postcode) in _streets(oldenburg, text)


@pytest.mark.parametrize("text", [
    # a floor word and a number in prose, no street before the postcode
    "Die Ausstellung zeigt auf Etage 3 Werke aus 26122 Oldenburg und umzu.",
    # a level of a game, a count of floors
    "Ebene 4 freigeschaltet, 12000 Punkte erreicht.",
])
def test_floor_word_without_a_street_is_no_address(oldenburg, text):
    assert _streets(oldenburg, text) == []


# -- a double town written by one of its halves ----------------------------------------------------------

@pytest.mark.parametrize("text, street, number", [
    # a street and number in a sentence, then "in" and the town's first half, no postcode
    ("Komm dienstags ab 19 Uhr zu uns in die Bickebergstraße 10 in Villingen vorbei.", "Bickebergstraße", "10"),
    # the second half
    ("Das Treffen findet in der Neckarstraße 120 in Schwenningen statt.", "Neckarstraße", "120"),
    # a comma before the town, as on a line of its own
    ("Unser Vereinsheim: Kavalierstraße 15, Roßlau", "Kavalierstraße", "15"),
])
def test_double_town_written_by_one_half(oldenburg, text, street, number):
    assert (street, number, None) in _streets(oldenburg, text)


@pytest.mark.parametrize("text", [
    # the half without a street and number
    "Wir waren letztes Wochenende in Villingen und in Schwenningen unterwegs.",
    # a number that is no house number: a year before the town
    "Das Stadtfest 2024 in Villingen war gut besucht.",
])
def test_double_town_half_without_a_street_is_no_address(oldenburg, text):
    assert _streets(oldenburg, text) == []
