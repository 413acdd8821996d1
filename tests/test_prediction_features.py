"""Link feature extraction: tokenisation table and feature terms of whole links."""

import pytest

from geofocus.prediction.features import MAX_TERMS, link_terms, registered_domain, tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Kontaktformular", ["kontakt", "formular"]),
        ("Anfahrtsbeschreibung", ["anfahrt", "beschreibung"]),  # linking s
        ("Branchenbuch", ["branche", "buch"]),  # linking n
        ("Routenplaner", ["route", "planer"]),
        ("Speisekarte", ["speise", "karte"]),  # known suffix
        ("Kontakte", ["kontakt"]),  # inflection dropped
        ("Standorte und Adressen", ["standort", "adresse"]),
        ("ContactUs", ["contact"]),  # stop word tail dropped
        ("Information", ["information"]),  # no false split at "info"
        ("Impressum", ["impressum"]),
        ("Über uns", ["ueber"]),
        ("Öffnungszeiten", ["oeffnungszeiten"]),
        ("Schloßplatz", ["schloss", "platz"]),
        ("SCHLOSSPLATZ", ["schloss", "platz"]),
        ("Straße 12a", ["strasse", "num2"]),
        ("26122 Oldenburg", ["num5", "oldenburg"]),
        ("Tel. 0441 123456789", ["tel", "num4", "numlong"]),
        ("Café Müller", ["cafe", "mueller"]),
        ("The map of the city", ["map", "city"]),
        ("FÃ¶rderverein StraÃŸe", ["foerderverein", "strasse"]),  # UTF-8 read as Latin-1 / cp1252
        ("Ã la carte", ["la", "carte"]),  # not mojibake: left alone
        ("", []),
    ],
)
def test_tokens(text, expected):
    assert tokens(text) == expected


def test_link_terms_full_example():
    link = {
        "url": "http://www.cafe-am-schlossplatz.de/kontaktformular.html?lang=de",
        "source_url": "http://www.oldenburg.de/gastronomie/",
        "anchor": "Kontakt & Anfahrt",
        "title": "So finden Sie uns",
        "context": "Café am Schloßplatz, 26122 Oldenburg",
    }
    assert link_terms(link) == [
        "host:cafe", "host:schloss", "host:platz", "host:de",
        "path:kontakt", "path:formular", "path:lang", "path:de",
        "anchor:kontakt", "anchor:anfahrt",
        "title:finden",
        "context:cafe", "context:schloss", "context:platz", "context:num5", "context:oldenburg",
        "switch:yes",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("url", "source", "switch"),
    [
        ("http://www.oldenburg.de/a", "http://stadtplan.oldenburg.de/b", "switch:no"),
        ("http://www.oldenburg.de/a", "http://www.bremen.de/b", "switch:yes"),
        ("http://shop.example.co.uk/", "http://www.example.co.uk/", "switch:no"),
        ("http://a.example.co.uk/", "http://b.other.co.uk/", "switch:yes"),
        ("http://127.0.0.1:8080/x", "http://127.0.0.1:9090/y", "switch:no"),
        ("http://localhost/x", "http://127.0.0.1/y", "switch:yes"),
    ],
)
def test_domain_switch(url, source, switch):
    terms = link_terms({"url": url, "source_url": source})
    assert [t for t in terms if t.startswith("switch:")] == [switch]


def test_registered_domain_uses_bundled_suffix_list():
    assert registered_domain("www.stadt.oldenburg.de") == "oldenburg.de"
    assert registered_domain("foo.bar.co.uk") == "bar.co.uk"
    assert registered_domain("localhost") == "localhost"


def test_features_are_prefixed_and_distinct():
    terms = link_terms(
        {"url": "http://oldenburg.de/oldenburg", "anchor": "Oldenburg", "context": "Oldenburg Oldenburg"}
    )
    assert terms == ["host:oldenburg", "host:de", "path:oldenburg", "anchor:oldenburg", "context:oldenburg"]


def test_terms_per_feature_are_bounded():
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = " ".join(f"wort{letters[i // 26]}{letters[i % 26]}" for i in range(200))
    terms = link_terms(
        {"url": "http://x.de/" + "/".join(f"seg{c}q" for c in letters), "anchor": words,
         "title": words, "context": words * 10}
    )
    for feature, limit in MAX_TERMS.items():
        assert len([t for t in terms if t.startswith(feature + ":")]) <= limit
    assert len([t for t in terms if t.startswith("context:")]) == MAX_TERMS["context"]


@pytest.mark.parametrize(
    "link",
    [
        {},
        {"url": None, "anchor": 5, "title": ["x"], "context": None},
        {"url": "http://[::1/broken", "source_url": "::::"},
        {"url": "not a url at all", "source_url": None},
        {"url": "http://xn--mnchen-3ya.de/", "source_url": "http://[bad"},
    ],
)
def test_bad_input_never_crashes(link):
    terms = link_terms(link)
    assert isinstance(terms, list) and all(isinstance(t, str) for t in terms)


def test_idna_host_is_decoded_and_folded():
    assert link_terms({"url": "http://xn--mnchen-3ya.de/"}) == ["host:muenchen", "host:de"]
