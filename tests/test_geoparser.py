"""Behaviour of the geoparser that the crawler and users rely on."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from geofocus.geoparser import Address, GeoParser
from geofocus.regions import load_region

ROOT = Path(__file__).resolve().parent.parent




def _only(result) -> Address:
    assert len(result.all_addresses) == 1, result.all_addresses
    return result.all_addresses[0]


@pytest.mark.parametrize(
    "text, street, number",
    [
        ("Schloßplatz 12a<br>26122 Oldenburg (Oldb)", "Schloßplatz", "12a"),
        ("Schlossplatz 12 a, 26122 Oldenburg", "Schlossplatz", "12a"),
        ("Am Stadtmuseum 4-8, 26121 Oldenburg", "Am Stadtmuseum", "4-8"),
        ("An den Voßbergen 30–32 · D-26133 Oldenburg i. O.", "An den Voßbergen", "30-32"),
        ("Ofener Str. 5/7, DE-26121 Oldenburg/Oldb.", "Ofener Str.", "5/7"),
        ("Lappan 1, 26122 Oldenburg in Oldenburg", "Lappan", "1"),
        ("<table><tr><td>Lange Straße 6</td></tr><tr><td>26122</td><td>Oldenburg</td></tr></table>",
         "Lange Straße", "6"),
        ("<ul><li>Peterstraße 3</li><li>26121 Oldenburg</li></ul>", "Peterstraße", "3"),
        ("Hochheider Weg 169, 26125 Oldenburg", "Hochheider Weg", "169"),
        ("Heiligengeistwall 10 | 26122 Oldenburg", "Heiligengeistwall", "10"),
    ],
)
def test_german_address_forms_are_found_in_region(oldenburg, text, street, number):
    address = _only(oldenburg.parse(text))
    assert (address.street, address.house_number, address.in_region) == (street, number, True)
    assert address.city == "Oldenburg" and address.country == "DE"
    assert address.lat is not None and address.precision in ("street", "postcode")


def test_address_without_postcode_counts_when_city_is_unambiguous(oldenburg):
    address = _only(oldenburg.parse("Unser Laden: Achternstraße 21, Oldenburg"))
    assert address.in_region and address.postcode is None


@pytest.mark.parametrize(
    "text",
    [
        "Oldenburger Straße 5, 28195 Bremen",
        "Markt 1, 23758 Oldenburg in Holstein",
        "Kuhtorstraße 2, Oldenburg i. H.",
        "Kirchstraße 4, 26209 Hatten",
        "Delmenhorster Straße 6, 27793 Wildeshausen",
        "Hauptstraße 1, Landkreis Oldenburg",
        "Musterstraße 1, 12345 Musterstadt",
        "Musterweg 12, 26122 Oldenburg",
        "Telefon: 0441 26122 Oldenburg",
        "Bestellnummer 26122 Oldenburg-Tasse, 12,99 €",
        "Stand: 26.12.2023 Oldenburg",
        "Im Jahr 2023 kamen 26122 Besucher nach Oldenburg.",
        "Postfach 2503, 26015 Oldenburg",
        "<script>var a = 'Schloßplatz 1, 26122 Oldenburg';</script>",
    ],
)
def test_confusables_and_lookalikes_do_not_make_a_page_relevant(oldenburg, text):
    result = oldenburg.parse(text)
    assert not result.relevant
    assert result.addresses == []


def test_out_of_region_address_is_reported_with_all(oldenburg):
    result = oldenburg.parse("Oldenburger Straße 5, 28195 Bremen")
    address = _only(result)
    assert (address.postcode, address.city, address.in_region) == ("28195", "Bremen", False)


def test_street_coordinates_beat_postcode_centroids(oldenburg):
    region = load_region("oldenburg")
    known = _only(oldenburg.parse("Theaterwall 28, 26122 Oldenburg"))
    assert known.precision == "street"
    assert (known.lat, known.lon) == region.streets["Theaterwall"]
    unknown = _only(oldenburg.parse("Quellkampweg 3, 26122 Oldenburg"))
    assert unknown.precision == "postcode"
    assert (unknown.lat, unknown.lon) == region.postcodes["26122"][:2]


@pytest.mark.parametrize(
    "markup",
    [
        '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Store",'
        '"address":{"@type":"PostalAddress","streetAddress":"Gaststraße 7","postalCode":"26122",'
        '"addressLocality":"Oldenburg"}}</script>',
        # Locality before street: the text pass cannot read these, the extractor must.
        '<div itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="addressLocality">'
        'Oldenburg</span>: <span itemprop="streetAddress">Gaststraße 7</span></div>',
        '<div vocab="https://schema.org/" typeof="PostalAddress"><span property="addressLocality">'
        'Oldenburg</span>: <span property="streetAddress">Gaststraße 7</span></div>',
        '<div class="adr"><span class="locality">Oldenburg</span>: '
        '<span class="street-address">Gaststraße 7</span></div>',
        '<div class="vcard"><span class="fn">Café</span> <span class="locality">Oldenburg</span>: '
        '<span class="street-address">Gaststraße 7</span></div>',
    ],
)
def test_structured_data_addresses(oldenburg, markup):
    assert not GeoParser(load_region("oldenburg"), structured_data=False).parse(markup).relevant
    result = oldenburg.parse(markup)
    assert result.relevant
    assert [(a.street, a.house_number) for a in result.addresses] == [("Gaststraße", "7")]


def test_json_ld_geo_coordinates_are_kept(oldenburg):
    markup = ('<script type="application/ld+json">{"@type":"Museum","geo":{"@type":"GeoCoordinates",'
              '"latitude":53.1349,"longitude":8.2165},"address":{"@type":"PostalAddress",'
              '"streetAddress":"Damm 38-44","postalCode":"26135","addressLocality":"Oldenburg"}}</script>')
    address = _only(oldenburg.parse(markup))
    assert (address.lat, address.lon, address.precision) == (53.1349, 8.2165, "point")


def test_geo_meta_tag_locates_the_page_address(oldenburg):
    markup = ('<html><head><meta name="geo.position" content="53.1401;8.2127"></head>'
              '<body>Quellkampweg 5, 26122 Oldenburg</body></html>')
    address = _only(oldenburg.parse(markup))
    assert (address.lat, address.lon, address.precision) == (53.1401, 8.2127, "point")


@pytest.mark.parametrize(
    "text, street, number, postcode, city, in_region",
    [
        ("1600 Main St Ste 200, Austin, TX 78701", "Main St", "1600", "78701", "Austin", True),
        ("350 Fifth Avenue<br>New York, NY 10118", "Fifth Avenue", "350", "10118", "New York", True),
        ("85 Flatbush Ave, Brooklyn, NY 11217", "Flatbush Ave", "85", "11217", "New York", True),
        ("100 N Central Ave, Glendale, AZ", "N Central Ave", "100", None, "Glendale", True),
        ("123 Congress St, Portland, ME 04101", "Congress St", "123", "04101", "Portland", False),
        ("1120 SW 5th Ave, Portland, OR 97204", "SW 5th Ave", "1120", "97204", "Portland", True),
        ("100 Main St, Spokane Valley, WA 99206", "Main St", "100", "99206", "Spokane Valley", False),
    ],
)
def test_us_addresses(us, text, street, number, postcode, city, in_region):
    address = _only(us.parse(text))
    assert (address.street, address.house_number, address.postcode, address.city, address.in_region) == (
        street, number, postcode, city, in_region)


def test_us_unit_is_a_field_of_its_own(us):
    address = _only(us.parse("1600 Main St Ste 200, Austin, TX 78701"))
    assert (address.street, address.unit, address.state) == ("Main St", "Ste 200", "TX")


@pytest.mark.parametrize(
    "text, street, number, unit, postcode",
    [
        # Office records of legislatures: a room and a building's name before the house number.
        ("Room 202, 2300 N. Lincoln Blvd., Oklahoma City, OK 73105", "N. Lincoln Blvd.", "2300", "Room 202", "73105"),
        ("Room 4200, Legislative Office Building 300 Capitol Ave., Denver, CO 80203", "Capitol Ave.", "300",
         "Room 4200", "80203"),
        ("Capitol Building 500 E. Capitol Ave., Phoenix, AZ 85007", "E. Capitol Ave.", "500", None, "85007"),
        ("Centennial Office Building 658 Cedar St., Fifth Floor, St. Paul, MN 55155", "Cedar St.", "658",
         "Fifth Floor", "55155"),
        # A building as the street, no comma before the city; a P.O. box between street and city.
        ("2159 Rayburn House Office Building Washington DC 20515-1307", "Rayburn House Office Building", "2159",
         None, "20515"),
        ("1021 O St. P.O. Box 942849, Sacramento, CA 94249", "O St.", "1021", None, "94249"),
    ],
)
def test_us_building_names_and_units_before_the_number(us, text, street, number, unit, postcode):
    address = _only(us.parse(text))
    assert (address.street, address.house_number, address.unit, address.postcode, address.in_region) == (
        street, number, unit, postcode, True)


def test_a_phone_number_before_a_po_box_is_no_street(us):
    # /usr/share/doc/proj-bin/copyright (a P.O. box skipped between street and place made it one)
    text = "phone: (508)563-6766\nP.O. Box 1027\nN.Falmouth, MA 02556-1027"
    assert us.parse(text).all_addresses == []


def test_unit_before_the_number_needs_the_unit_word(us):
    address = _only(us.parse("Call 555-0100. 100 Main St, Austin, TX 78701"))
    assert address.unit is None


@pytest.mark.parametrize("prefix", ["#", "# ", "--", "%", ">"])
def test_addresses_in_comment_lines(oldenburg, prefix):
    text = f"{prefix}  ACME e.V.\n{prefix}  Staulinie 11\n{prefix}  D-26122 Oldenburg, Germany"
    address = _only(oldenburg.parse(text))
    assert (address.street, address.house_number, address.postcode, address.in_region) == (
        "Staulinie", "11", "26122", True)


@pytest.mark.parametrize("text", ["Schloßplatz 1;26122;Oldenburg", "Schloßplatz 1,26122,Oldenburg",
                                  "Schloßplatz 1; 26122; Oldenburg"])
def test_csv_rows_without_quotes(oldenburg, text):
    address = _only(oldenburg.parse(text))
    assert (address.street, address.house_number, address.postcode) == ("Schloßplatz", "1", "26122")


def test_a_decimal_before_a_comma_is_no_postcode(oldenburg):
    assert oldenburg.parse("Werte 3,14159,Oldenburg").all_addresses == []


@pytest.mark.parametrize(
    "text, number, street, unit, city",
    [
        # Grid streets: the first number is the house number, "South 700 East" the street.
        ("2350 South 700 East, Salt Lake City, UT 84106", "2350", "South 700 East", None, "Salt Lake City"),
        ("Visit us: 410 N 1300 W, Salt Lake City, UT 84116", "410", "N 1300 W", None, "Salt Lake City"),
        # Wisconsin grid house numbers.
        ("W175 N11117 Stonewood Dr, Germantown, WI 53022", "W175 N11117", "Stonewood Dr", None, "Germantown"),
        # A unit without its word, between commas or after the street type.
        ("Our office: 420 W. Huron, 3B, Chicago, IL 60654", "420", "W. Huron", "3B", "Chicago"),
        ("1845 Pennsylvania Ave. 410, Denver, CO 80203", "1845", "Pennsylvania Ave.", "410", "Denver"),
        # No street type and no comma between street and city.
        ("820 Congress Austin, TX 78701", "820", "Congress", None, "Austin"),
        ("Contact: 940 WEST MADISON CHICAGO, IL 60607", "940", "WEST MADISON", None, "Chicago"),
        ("Mailing address: 61 Broadway New York NY", "61", "Broadway", None, "New York"),
        # A line that starts with a house number and ends with a state in any case, no ZIP.
        ("45 Lake Shore Drive Chicago il", "45", "Lake Shore Drive", None, "Chicago"),
        ("100 High Street Columbus OHIO", "100", "High Street", None, "Columbus"),
        # A dotted state code.
        ("100 N. Tryon St., Charlotte, N.C. 28202", "100", "N. Tryon St.", None, "Charlotte"),
        # A spelled-out floor is a unit, not part of the city.
        ("Free Software Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston,\nMA 02110-1301 USA",
         "51", "Franklin Street", "Fifth Floor", "Boston"),
    ],
)
def test_us_addresses_without_comma_type_or_unit_word(us, text, number, street, unit, city):
    address = _only(us.parse(text))
    assert (address.house_number, address.street, address.unit, address.city) == (number, street, unit, city)


@pytest.mark.parametrize(
    "text",
    [
        "500 W 2nd St,Austin,TX,78701",  # CSV without spaces
        '"500 W 2nd St","Austin","TX","78701"',  # quoted CSV fields
        "<table><tr><td>500 W 2nd St</td><td>Austin</td><td>TX</td><td>78701</td></tr></table>",
        "HQ: 500 W 2nd St, 78701 Austin, TX",  # the ZIP before the city
        "The store at 500 W 2nd St in Austin, TX 78701 opens at 9.",
    ],
)
def test_us_address_parts_in_fields_cells_or_prose(us, text):
    address = _only(us.parse(text))
    assert (address.house_number, address.street, address.unit, address.city, address.postcode) == (
        "500", "W 2nd St", None, "Austin", "78701")


@pytest.mark.parametrize(
    "text",
    [
        "We ship 25 boxes to Austin, TX 78701 every week.",
        "Over 300 Happy Clients Dallas, TX 75201",
        "© 2001-2024 Acme Widgets Denver, CO 80202",
        "Copyright (C) 1999-2003 The OpenLDAP Foundation, Redwood City, California, USA",
        "Since 1987 Serving Houston, TX 77002",
        "Top 10 Restaurants in Chicago, IL 60601",
        "Call 312 555 0100 Chicago, IL 60601",
        "Suite 100 Houston, TX 77002",
        "Founded in 1999. 500 employees in Austin, TX 78701.",
        "Rank: 3 Golden State Warriors Oakland, CA",
        "Price: 199 Dollars Phoenix, AZ 85001",
        "Score: 21 Points Boston, MA 02108",
        "5 things to do in\nNext line",
        "12 Oak Street is where we meet in",
        "200 Park Avenue stands tall in New York",
        "tol=1e-9, eigenvalues, LA.eig(a)",
    ],
)
def test_us_numbers_before_a_place_in_prose_are_no_address(us, text):
    assert us.parse(text).all_addresses == []


def test_us_same_name_cities_get_their_own_coordinates(us):
    az = _only(us.parse("100 N Central Ave, Glendale, AZ"))
    ca = _only(us.parse("613 E Broadway, Glendale, CA"))
    assert az.lon < -111 and ca.lon < -118  # Arizona vs California


def test_parse_never_raises_on_odd_input(oldenburg):
    for markup in ("", "<", "<<<>>>", "\x00\x01", b"Schlo\xc3\x9fplatz 1, 26122 Oldenburg", "<script",
                   "<!--", "&#xffffffff; &bogus;", "İİİ Oldenburg İ 26122 Oldenburg"):
        oldenburg.parse(markup)
    assert oldenburg.parse(b"Schlo\xc3\x9fplatz 1, 26122 Oldenburg").relevant


def test_to_dict_and_key_contract(oldenburg):
    address = _only(oldenburg.parse("Schloßplatz 1, 26122 Oldenburg"))
    assert set(address.to_dict()) == {"street", "house_number", "postcode", "city", "country", "lat", "lon",
                                      "precision", "state", "unit"}
    assert address.to_dict(with_region=True)["in_region"] is True
    again = _only(oldenburg.parse("SCHLOSSPLATZ 1 · 26122 OLDENBURG"))
    assert again.postcode == address.postcode


def test_typical_page_parses_in_milliseconds(oldenburg):
    spec = importlib.util.spec_from_file_location("bench_geoparser", ROOT / "bench" / "geoparser.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    pages = bench.builtin_pages(40, seed=3)
    oldenburg.parse(pages[0])
    t0 = time.process_time()
    for page in pages:
        oldenburg.parse(page)
    per_page = (time.process_time() - t0) / len(pages)
    # ~50 KB pages; a few ms on one core (generous bound for a busy CI machine).
    assert per_page < 0.025, f"{per_page * 1000:.1f} ms per page"


# -- command line ------------------------------------------------------------

def _cli(args: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "geofocus.geoparser", *args], input=stdin.encode("utf-8"),
                          capture_output=True, cwd=ROOT, timeout=60)


def test_cli_one_line_per_input_in_order_with_error_records():
    lines = [
        json.dumps({"id": "a", "text": "Schloßplatz 12a<br>26122 Oldenburg (Oldb)"}),
        "not json",
        json.dumps({"id": "c", "text": "Oldenburger Straße 5, 28195 Bremen"}),
        json.dumps(["a list"]),
        json.dumps({"id": "e"}),
        "",
        json.dumps({"id": 7, "text": "<p>nichts</p>"}),
    ]
    done = _cli(["--region", "oldenburg"], "\n".join(lines) + "\n")
    assert done.returncode == 1, done.stderr  # bad lines: reported, and the exit status says so
    errors = done.stderr.decode().splitlines()
    assert [e.split(":")[1].strip() for e in errors[:-1]] == ["line 2", "line 4", "line 5", "line 6"]
    assert errors[-1] == "geoparser: 4 bad line(s) of 7"
    out = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(out) == len(lines)
    assert out[0]["id"] == "a" and out[0]["relevant"] is True
    assert out[0]["addresses"][0]["street"] == "Schloßplatz"
    assert "in_region" not in out[0]["addresses"][0]
    assert "error" in out[1] and "error" in out[3] and out[4]["id"] == "e" and "error" in out[4]
    assert "error" in out[5]
    assert out[2] == {"id": "c", "relevant": False, "addresses": []}
    assert out[6] == {"id": 7, "relevant": False, "addresses": []}


def test_cli_reads_html_fields_and_explains_crawl_records():
    crawl_record = {"url": "http://a.de/", "status": 200, "relevant": True, "addresses": [{"street": "Markt"}]}
    done = _cli(["--region", "oldenburg"], json.dumps({"url": "http://b.de/", "html": "<p>Markt 1<br>26122 Oldenburg"})
                + "\n" + json.dumps(crawl_record) + "\n")
    assert done.returncode == 1
    first, second = (json.loads(line) for line in done.stdout.decode().splitlines())
    assert first["id"] == "http://b.de/" and first["relevant"] is True
    assert second["id"] == "http://a.de/" and "crawl record" in second["error"]
    assert b"line 2: a crawl record" in done.stderr


def test_cli_all_lists_out_of_region_addresses_with_flag():
    done = _cli(["--region", "oldenburg", "--all"],
                json.dumps({"id": 1, "text": "Oldenburger Straße 5, 28195 Bremen"}) + "\n")
    record = json.loads(done.stdout)
    assert record["relevant"] is False
    assert record["addresses"][0]["in_region"] is False and record["addresses"][0]["postcode"] == "28195"


def test_cli_unknown_region_lists_packs_and_fails():
    done = _cli(["--region", "atlantis"], "")
    assert done.returncode == 2
    assert b"oldenburg" in done.stderr and b"us-top100" in done.stderr


def test_cli_survives_invalid_utf8():
    done = subprocess.run([sys.executable, "-m", "geofocus.geoparser", "--region", "oldenburg"],
                          input=b'{"id": 1, "text": "Schlo\xdfplatz 1, 26122 Oldenburg"}\n', capture_output=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout)["id"] == 1


@pytest.mark.parametrize("country, postcode", [("UK", "EC2A 3PE"), ("", "EC2A 3PE"), ("Canada", "78701")])
def test_structured_addresses_of_other_countries_are_not_read_as_us(us, country, postcode):
    markup = ('<p class="h-card"><span class="p-name">Arms</span> <span class="p-adr h-adr">'
              '<span class="p-street-address">3 Charlotte Road</span>, <span class="p-locality">Austin</span>, '
              f'<span class="p-postal-code">{postcode}</span>, '
              f'<span class="p-country-name">{country}</span></span></p>')
    assert us.parse(markup).all_addresses == []


def test_structured_address_of_the_region_country_is_kept(us):
    markup = ('<div itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">'
              '100 Main St</span> <span itemprop="addressLocality">Austin</span> <span itemprop="addressRegion">'
              'TX</span> <span itemprop="postalCode">78701</span> <span itemprop="addressCountry">USA</span></div>')
    assert [(a.street, a.postcode, a.in_region) for a in us.parse(markup).all_addresses] == [
        ("Main St", "78701", True)]


@pytest.mark.parametrize("text, postcode", [("Haarenstraße 20 (2. OG), 26122 Oldenburg", "26122"),
                                            ("Treffpunkt: Haarenstraße 20 (Hinterhof), Oldenburg", None),
                                            ("Haarenstraße 20 (Eingang Hof)<br>26122 Oldenburg", "26122")])
def test_a_note_in_brackets_after_the_house_number(oldenburg, text, postcode):
    address = _only(oldenburg.parse(text))
    assert (address.street, address.house_number, address.postcode, address.in_region) == (
        "Haarenstraße", "20", postcode, True)


@pytest.mark.parametrize("text", ["Tel. 0441 12345 (Zentrale), 26122 Oldenburg", "Ausgabe 12 (2024), Oldenburg",
                                  "Seite 5 (von 10), 26122 Oldenburg"])
def test_brackets_after_other_numbers_make_no_address(oldenburg, text):
    assert oldenburg.parse(text).all_addresses == []


def test_a_table_of_counts_is_no_address(oldenburg):
    # scikit-learn's dataset tables (site-packages/sklearn/datasets/_twenty_newsgroups.py)
    text = "Classes                     20\nSamples total            18846\nDimensionality               1\n"
    assert oldenburg.parse(text).all_addresses == []

