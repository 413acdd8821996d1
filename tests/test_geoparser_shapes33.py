"""Ways of writing addresses met in real text (session 13, held-out 33: German addresses in data rows and records,
CSV and tab-separated rows, FHIR address elements): each test is a class of writing, with members written for the
test, not snippets of the corpus."""

from __future__ import annotations

import pytest


def _keys(parser, text):
    return sorted((a.street, a.house_number, a.postcode, a.in_region) for a in parser.parse(text).all_addresses)


# -- a data row with the house number in a column of its own after the street's name --

@pytest.mark.parametrize("text, expected", [
    ("4711,Grundschule Eversten,Hauptstraße,27,28195,Bremen,0441/123456\n", [("Hauptstraße", "27", "28195", False)]),
    ("0815,Grundschule Süd,Schulweg,5,24941,Flensburg,0461/1234\n", [("Schulweg", "5", "24941", False)]),
])
def test_house_number_in_its_own_column(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    "Müller,Hans,42,26121,Oldenburg\n",  # a person's age before the postcode: no street
    "Schmidt;Eva;Flensburg;7;24937;Flensburg\n",  # a town's name before a number is no street's name
])
def test_number_column_after_no_street_name_is_no_address(oldenburg, text):
    assert _keys(oldenburg, text) == []


# -- a data row whose place and postcode columns come before the street's --

@pytest.mark.parametrize("text, expected", [
    ("1001\tGymnasium Eversten\tOldenburg\t26122\tTheodor-Tantzen-Platz 8\t\t0441 1\n",
     [("Theodor-Tantzen-Platz", "8", "26122", True)]),
    ("Bremen;28195;Sögestraße;42 a;0421 1\n", [("Sögestraße", "42a", "28195", False)]),
    ("Bremen\t28195\tObernstraße\t2\tja\n", [("Obernstraße", "2", "28195", False)]),
])
def test_postcode_and_place_before_the_street(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    "Oldenburg;26122;Dr. Hans Meyer;12;Kinderarzt\n",  # a person after the postcode, not a street
    "Oldenburg\t26122\tRaum 12\t3\n",
    "Flensburg\t24937\tHerr Müller 3\tja\n",  # a name and a number after the postcode: no street word
])
def test_postcode_before_no_street_is_no_address(oldenburg, text):
    assert _keys(oldenburg, text) == []


# -- HL7 FHIR address elements: XML values in "value" attributes, JSON lines in an array --

_FHIR_XML = """<address>
  <use value="work"/>
  <line value="{street}">
    <extension url="http://hl7.org/fhir/StructureDefinition/iso21090-ADXP-streetName">
      <valueString value="{name}"/>
    </extension>
    <extension url="http://hl7.org/fhir/StructureDefinition/iso21090-ADXP-houseNumber">
      <valueString value="{number}"/>
    </extension>
  </line>
  {second}
  <city value="{city}"/>
  <postalCode value="{postcode}"/>
  <country value="D"/>
</address>"""


@pytest.mark.parametrize("street, name, number, second, city, postcode, expected", [
    ("Donnerschweer Straße 12", "Donnerschweer Straße", "12", "", "Oldenburg", "26123",
     [("Donnerschweer Straße", "12", "26123", True)]),
    ("Am Markt 3a", "Am Markt", "3a", '<line value="2. Obergeschoss"/>', "Bremen", "28195",
     [("Am Markt", "3a", "28195", False)]),
])
def test_fhir_xml_address_with_value_attributes(oldenburg, street, name, number, second, city, postcode, expected):
    text = _FHIR_XML.format(street=street, name=name, number=number, second=second, city=city, postcode=postcode)
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("""{"resourceType": "Organization", "address": [ {
        "type": "both",
        "line": [
          "Nadorster Straße 90"
        ],
        "_line": [ { "extension": [
          { "url": "http://hl7.org/fhir/StructureDefinition/iso21090-ADXP-houseNumber", "valueString": "90" },
          { "url": "http://hl7.org/fhir/StructureDefinition/iso21090-ADXP-streetName",
            "valueString": "Nadorster Straße" }
        ] } ],
        "city": "Oldenburg",
        "postalCode": "26123",
        "country": "D"
      } ] }""", [("Nadorster Straße", "90", "26123", True)]),
    ('{"address": [{"line": ["Obernstraße 2", "Hinterhaus"], "city": "Bremen", "postalCode": "28195"}]}',
     [("Obernstraße", "2", "28195", False)]),
])
def test_fhir_json_address_lines_in_an_array(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


def test_fhir_address_of_another_country_is_no_german_address(oldenburg):
    text = _FHIR_XML.format(street="Kärntner Straße 5", name="Kärntner Straße", number="5", second="",
                            city="Wien", postcode="1010").replace('"D"', '"AT"')
    assert _keys(oldenburg, text) == []


# -- a header line names the columns: the street's needs no street word, the house number's is the one beside it --

@pytest.mark.parametrize("text, expected", [
    ("bezirk,einrichtung,leitung,adresse,plz,telefon\nAltstadt,Kita Hafen,Frau Jansen,Marientreppe 4,24939,0461 1\n",
     [("Marientreppe", "4", "24939", False)]),
    ("Nummer;Schulname;Straße;Hausnummer;PLZ;Ort\n0412;Grundschule Haarentor;Lappan;3;26122;Oldenburg\n",
     [("Lappan", "3", "26122", True)]),
    ("hnr,hnr_zusatz,str_name,plz,ort_name\n12,b,Kaiserdamm,14057,Berlin\n7,,Uhlandstraße,10719,Berlin\n",
     [("Kaiserdamm", "12b", "14057", False), ("Uhlandstraße", "7", "10719", False)]),
])
def test_columns_named_by_a_header_line(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    "name;plz;ort\nKita Hafen;24939;Flensburg\n",  # no street column
    "kategorie,bezeichnung,anzahl\nAltstadt,Marientreppe 4,24939\n",  # no header names the street's column
])
def test_header_without_street_column_reads_no_address(oldenburg, text):
    assert _keys(oldenburg, text) == []


# -- the addition to a house number in a column of its own; the place after the street --

@pytest.mark.parametrize("text, expected", [
    ("Bahnhofstraße,12,b,24937,Flensburg,ja\n", [("Bahnhofstraße", "12b", "24937", False)]),
    ("Oldenburg,Staulinie,11,26122\n", [("Staulinie", "11", "26122", True)]),
    ("28195;Obernstraße;7;Bremen;0421 1\n", [("Obernstraße", "7", "28195", False)]),
])
def test_number_addition_column_and_place_after_the_street(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


# -- a German postcode that lost its leading zero, where a key names it the postcode and the record Germany --

@pytest.mark.parametrize("text, expected", [
    ('{"strasse": "Königsbrücker Straße 4", "plz": 1099, "ort": "Dresden", "country": "DE"}',
     [("Königsbrücker Straße", "4", "01099", False)]),
    ("address:\n  street: Augustusplatz 9\n  zip: 4109\n  city: Leipzig\n  country: Germany\n",
     [("Augustusplatz", "9", "04109", False)]),
])
def test_postcode_without_its_leading_zero_in_a_german_record(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    '{"strasse": "Mariahilfer Straße 5", "plz": "1060", "ort": "Wien"}',  # four digits: an Austrian postcode
    '{"strasse": "Mariahilfer Straße 5", "plz": "1060", "ort": "Wien", "country": "AT"}',
    "street;zip;city\nBahnhofstrasse 12;8001;Zürich\n",
])
def test_four_digit_postcode_of_no_german_record_is_no_address(oldenburg, text):
    assert _keys(oldenburg, text) == []


# -- the house number's column after a street of the region without a street word; a place with a qualifier --

@pytest.mark.parametrize("text, expected", [
    ("Lappan;1;26122;Oldenburg\n", [("Lappan", "1", "26122", True)]),
    ("Oldenburg\t26122\tStau\t12\n", [("Stau", "12", "26122", True)]),
    ("Theaterwall,4,,26122,Oldenburg (Oldb)\n", [("Theaterwall", "4", "26122", True)]),
])
def test_region_street_and_qualified_place_in_data_rows(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


def test_name_of_no_street_before_a_number_column_stays_no_address(oldenburg):
    assert _keys(oldenburg, "Meyer;3;26122;Oldenburg\n") == []


# -- address parts as the attributes of one element: XML records, HTML data attributes --

@pytest.mark.parametrize("text, expected", [
    ('<Schulen>\n  <Schule Name="GS Bürgeresch" Strasse="Bürgeresch" Hausnummer="40" PLZ="26123" Ort="Oldenburg"/>\n'
     '  <Schule Name="GS Kreyenbrück" Strasse="Brandenburger Straße" Hausnummer="12" PLZ="26133" Ort="Oldenburg"/>\n'
     '</Schulen>', [("Brandenburger Straße", "12", "26133", True), ("Bürgeresch", "40", "26123", True)]),
    ('<ul><li class="filiale" data-street="Obernstraße 12" data-zip="28195" data-city="Bremen">Bremen Mitte</li></ul>',
     [("Obernstraße", "12", "28195", False)]),
])
def test_address_parts_as_attributes_of_one_element(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


@pytest.mark.parametrize("text", [
    '<li data-street="Obernstraße" data-city="Bremen">Obernstraße</li>',  # a street without number
    '<td class="street">Obernstraße</td><td data-zip="28195"></td>',
])
def test_attributes_without_a_street_address_give_none(oldenburg, text):
    assert _keys(oldenburg, text) == []


def test_fhir_organization_name_before_its_address_object(oldenburg):
    """A resource's name, then its address object whose extensions put the place far after the street line (more
    than the 400 characters that part parts of a record outside its object)."""
    extension = ("                  {{\n"
                 '                    "url": "http://hl7.org/fhir/StructureDefinition/iso21090-ADXP-{0}",\n'
                 '                    "valueString": "{1}"\n'
                 "                  }}")
    text = "\n".join([
        '{ "resourceType": "Organization",',
        '  "name": "Praxis am Pferdemarkt",',
        '  "telecom": [ { "system": "phone", "value": "0441 123456" } ],',
        '  "address": [',
        "          {",
        '            "type": "both",',
        '            "line": [',
        '              "Pferdemarkt 14"',
        "            ],",
        '            "_line": [',
        "              {",
        '                "extension": [',
        extension.format("houseNumber", "14") + ",",
        extension.format("streetName", "Pferdemarkt"),
        "                ]",
        "              }",
        "            ],",
        '            "city": "Oldenburg",',
        '            "postalCode": "26121",',
        '            "country": "D"',
        "          }",
        "        ] }",
    ])
    assert _keys(oldenburg, text) == [("Pferdemarkt", "14", "26121", True)]


# -- two house numbers of one building in the street's field of a semicolon or tab row --

@pytest.mark.parametrize("text, expected", [
    ("4711;Alexanderstraße 12,14;Haus B;26121;1.204\n",
     [("Alexanderstraße", "12", "26121", True), ("Alexanderstraße", "14", "26121", True)]),
    ("Schule Nord\tKirchweg 3, 5\t28195\tBremen\n",
     [("Kirchweg", "3", "28195", False), ("Kirchweg", "5", "28195", False)]),
])
def test_two_house_numbers_in_one_field(oldenburg, text, expected):
    assert _keys(oldenburg, text) == expected


def test_decimal_after_no_street_is_no_second_number(oldenburg):
    assert _keys(oldenburg, "1;Lager 4,5;26122;Oldenburg\n") == []
