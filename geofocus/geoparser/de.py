"""German street addresses in text: "Schloßplatz 12a, 26122 Oldenburg (Oldb)".

The extractor anchors on what is cheap to find and rare by accident: a
five-digit postcode followed by a place name, or the name of a region city.
Only around an anchor does it look for the street and house number, in a
window of bounded size, so the cost is linear in the page size whatever the
input.  Street names need not be known: any name with a street suffix
(-straße, -weg, -platz, ...), a prepositional name ("Am Stadtmuseum", "An den
Voßbergen") or, right before a postcode and place, one or two capitalised
words ("Lappan 1") count.
"""

from __future__ import annotations

import re
import re._parser  # the widths of patterns (see _longest)
from collections.abc import Iterator
from dataclasses import dataclass

from geofocus.geoparser import decities
from geofocus.geoparser.digits import FIVE_DIGITS, FiveDigits
from geofocus.geoparser.gazetteer import Gazetteer, fold, normalise_street
from geofocus.geoparser.model import MAX_ANCHORS, WorkLimit

U = "A-ZÄÖÜ"
L = "a-zäöüßéèáàóòúç"
# One capitalised word, possibly hyphenated ("Theodor-Heuss-", "Carl-von-Ossietzky-").
_CAPWORD = rf"[{U}][{L}{U}]*(?:-[{U}{L}][{L}{U}]*)*"
_SUFFIXES = (
    r"stra(?:ß|ss)e|str\.?|weg|platz|allee|ring|damm|wall|gasse|chaussee|ufer|markt|steg|"
    r"pfad|kamp|deich|hof|berg|tor|graben|brücke|brucke|stieg|twiete|redder|esch|horst|garten|"
    r"park|wende|bogen|zeile|promenade|passage|winkel|heide|grund|kai|anger|busch|wiese|feld|"
    r"linie|gang|höhe|hang|blick|siedlung|moor|koppel|tal|trift|hagen|weide|reihe|schanze|"
    r"hafen|insel|acker|kuhle|wisch|bruch|straat|laan|esplanade|terrasse|steig|stiege|"
    r"gärten|wiesen|höfe|stätte|holz|lohne|mühle|dyk|diek|hörn|fenn|pl(?=\.)|"
    r"leda|pohl|tange|meede|grode|groden"
)


def _top_level_alternatives(pattern: str) -> list[str]:
    """The alternatives of ``a|b(?:c|d)|e`` at the top level: ``a``, ``b(?:c|d)``, ``e``."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(pattern):
        if char == "\\":
            continue
        if char == "(" and (i == 0 or pattern[i - 1] != "\\"):
            depth += 1
        elif char == ")" and pattern[i - 1] != "\\":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    return parts


def _by_first_letter(alternatives: list[str]) -> str:
    """The alternatives grouped by their first letter, in the same order within each group: the same
    matches (alternatives with different first letters never match at one position), but the engine
    tries one group where it tried each alternative (the suffix test runs at every letter of a word)."""
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        assert alternative[:1].isalpha(), alternative
        groups.setdefault(alternative[0], []).append(alternative[1:])
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in groups.items())


# A short capitalised abbreviation as a part of a hyphenated name: "Dr.", "St.", "Prof.".
_ABBREVIATED = rf"[{U}][{L}]{{0,4}}\."
# A word that ends in a street suffix: "Schloßplatz", "Theodor-Heuss-Straße", "Bahnhofstr."
_SUFFIX_WORD = (
    rf"(?:[{U}][{L}{U}-]*?(?:{_by_first_letter(_top_level_alternatives(_SUFFIXES))})(?![{L}])\.?"
    # Hyphenated names end in a capitalised suffix: "Rahel-Straus-Str.", "Carl-von-Ossietzky-Straße"; a part
    # may be a title or a saint abbreviated with a full stop ("Dr.-Eden-Straße", "St.-Ulrich-Platz",
    # "Prof.-Dr.-Klein-Weg").
    rf"|(?:{_ABBREVIATED}|[{U}][{L}{U}]*)(?:-(?:{_ABBREVIATED}|[{U}{L}][{L}{U}]*))*-(?:Stra(?:ß|ss)e|Str\.?|Weg|Platz|"
    rf"Allee|Ring|Damm|Wall|"
    rf"Gasse|Ufer|Markt|Steg|Pfad|Kamp|Deich|Hof|Berg|Tor|Graben|Brücke|Stieg|Twiete|Chaussee|Promenade)"
    rf"(?![{L}])\.?)"
)
# Standalone suffix words after an adjective: "Bremer Straße", "Alte Str.", "Großer Markt".
_STANDALONE = (
    r"(?:Stra(?:ß|ss)e|Str\.?|Weg|Platz|Allee|Ring|Damm|Wall|Gasse|Chaussee|Ufer|Markt|Steg|"
    r"Pfad|Deich|Graben|Brücke|(?:Heer|Land|Haupt|Bundes|Dorf)(?:stra(?:ß|ss)e|str\.?)|Kamp|"
    r"Twiete|Stieg|Hof|Tor|Berg|Esch|Reihe|Wende|Kolonie)"
)
_ADJ = rf"[{U}][{L}]*(?:er|e|es|en|sche|scher)"
_PREP = (
    r"(?:Am|Im|Zum|Zur|Beim|Vorm|Hinterm|Unterm|Überm|Ans|Ins|Auf'm|Achtern|"
    r"(?:An|Auf|In|Hinter|Unter|Vor|Über|Bei|Zu|Nach|Achter|Up|Op|Neben|Zwischen|Gegenüber|Vorm)"
    r" (?:der|den|dem|die|das|de|dat|'n|m))"
)
_PREP_SET = frozenset(
    "Am Im Zum Zur Beim Vorm Hinterm Unterm Überm Ans Ins Achtern An Auf In Hinter Unter Vor Über Bei Zu "
    "Nach Achter Up Op Neben Zwischen Gegenüber".split()
)
_PREP_WORD = rf"(?:{_CAPWORD}|[{L}]+e[nmrs]?)"  # "Hohen", "alten" after a preposition
# A place adjective before a compound street name ("Auer Schulstraße", "Syburger Dorfstraße"); not the
# words ending in -er that stand before a street name in a sentence or a heading.
_NOT_PLACE_ADJ = (r"(?:Der|Oder|Aber|Über|Unter|Hinter|Wieder|Jeder|Dieser|Jener|Unser|Euer|Ihrer|Seiner|Meiner|"
                  r"Immer|Nur|Sehr|Später|Vorher|Nachher|Außer|Anbieter|Inhaber|Betreiber|Vermieter|Partner|"
                  r"Ansprechpartner|Veranstalter|Center|Theater|Kinder|Zimmer|Meister|Nummer|Besucher|Eigentümer|"
                  r"Mitglieder|Oktober|November|Dezember|September|Vertreter|Geschäftsführer|Leiter|Träger|"
                  r"Hersteller|Verleger|Herausgeber|Sitzungszimmer|Neuer|Alter|Großer|Kleiner|Langer|Hoher|"
                  r"Oberer|Unterer|Kurzer|Breiter|Ecke)")
# An adjective of age, size or position before a street's name, itself perhaps a place adjective and a
# street word: "Alte Schulstraße", "Nördliche Münchner Straße", "Obere Bremer Str.", "Großer Kamp".
_LEAD_ADJ = (r"(?:(?:Alt|Neu|Groß|Klein|Lang|Hoh|Ober|Unter|Kurz|Breit|Nördlich|Südlich|Östlich|Westlich|Inner|"
             r"Äußer|Mittler|Hinter|Vorder)er?)")
# A Roman ordinal before a street's name: "III. Koppelweg", "II. Hagen" (not an Arabic "1.": a list item).
_ROMAN = r"(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})\."
# The street words that follow a name of one or two words apart from it ("Haifa Allee", "Peter Hensen Str."): the
# unambiguous ones (not "Hof", "Tor", "Berg", "Markt", which end names of buildings and firms).
_NAME_STREET_WORD = rf"(?:Stra(?:ß|ss)e|Str\.|Allee|Weg|Platz|Ring|Damm|Gasse|Chaussee|Ufer)(?![{L}{U}])"
# Words that start a sentence or a phrase, not a street's name, before such a street word ("Die Straße 5", "Jede
# Gasse", "Unser Weg 2025"; "Am"/"Im" streets are the preposition alternatives').
_NOT_NAME_FIRST = (r"(?:Die|Der|Das|Den|Dem|Des|Ein|Eine|Einer|Eines|Jede|Jeder|Jeden|Diese|Dieser|Unser|Unsere|"
                   r"Ihr|Ihre|Mein|Meine|Sein|Seine|Kein|Keine|Von|Vom|Bis|Ab|Und|Oder|Mit|Für|Per|Pro|Zur|Zum|"
                   r"Am|Im|An|Auf|In|Nach|Über|Unter|Neue|Neuer|Alte|Alter|Seite|Tel|Fax|Nr|Kontakt|Adresse)")
_STREET_STRICT = (
    rf"(?:{_PREP} {_PREP_WORD}(?: {_CAPWORD}){{0,2}}(?<=pl)\.?"
    rf"|{_PREP} {_PREP_WORD}(?: {_CAPWORD}){{0,2}}"
    rf"|(?:{_LEAD_ADJ} (?!{_NOT_PLACE_ADJ} ))?{_ADJ} {_STANDALONE}"
    rf"|(?:{_LEAD_ADJ} )?(?!{_NOT_PLACE_ADJ} )[{U}][{L}]+er {_SUFFIX_WORD}"
    rf"|(?:(?:{_LEAD_ADJ}|Sankt|St\.|{_ROMAN}) )?{_SUFFIX_WORD}"
    rf"|(?:Straße|Platz|Allee|Weg) (?:de[rs]|am|an der|zum|zur) [\w. ]{{2,30}}?"
    # A street named for a person or a place, its words apart and its street word a word of its own, as forms and
    # registers write them: "Peter Hensen Str.", "Haifa Allee", "Konrad Adenauer Straße" (not a sentence's "Die
    # Straße": the first word is no article, pronoun or preposition).
    rf"|(?!{_NOT_NAME_FIRST} ){_CAPWORD}(?: {_CAPWORD})? {_NAME_STREET_WORD}"
    # A street word alone as the name: "Esplanade 17", "Markt 1", "Wall 5" (not "Platz 3", a rank).
    rf"|(?:Esplanade|Markt|Promenade|Anger|Damm|Wall|Kai)(?![{L}{U}]))"
)
# A street without street word, perhaps after a Roman ordinal as the strict streets take it ("II. Hagen 7", a street
# of Essen; read without it, the street would be another one, "Hagen").
_STREET_LOOSE = rf"(?:(?:{_ROMAN} )?{_CAPWORD}(?: {_CAPWORD})?)"
_NUMBER = (
    rf"[1-9]\d{{0,3}}(?: ?[a-hA-H](?![{L}{U}\d]))?"
    rf"(?: ?[-–/+] ?[1-9]\d{{0,3}}(?: ?[a-hA-H](?![{L}{U}\d]))?| ?[-–/] ?[a-hA-H](?![{L}{U}\d]))?"
)
# After a street with a street word, a range of house numbers written with a word: "Ammerländer Heerstraße 114
# bis 118", "Marktplatz 5 und 7", "Lange Straße 5 u. 7" (the number is the range "114-118", as "114-118" is; not
# after a loose street: "Linien 5 und 7" names two lines).
_NUMBER_STRICT = (
    rf"{_NUMBER}(?<=\d)(?: (?:bis|und) | u\. ?)[1-9]\d{{0,3}}(?: ?[a-hA-H](?![{L}{U}\d]))?(?![\d.,]\d)"
    rf"|{_NUMBER}"
)
# Street and number at the END of a window of text; SEP separates them from what follows.
_SEP = r"(?: ?[,;|·•/–—-] ?| \. | ?\n|,? in| ?\n ?[,;|·•–-] ?| ?[,;|·•–-] ?\n)? ?"
# A street starts at the start of a word: without the lookbehind the search
# tries every position inside a long word, each with a lazy scan over the
# suffix alternatives (a window of 100 capitals cost 1.4 ms per anchor).
# Nor right after the "=" of a byte's escape: "Stra=DFe 9" (quoted-printable mail read undecoded) is no
# street "DFe".
_WORD_START = rf"(?<![{L}{U}\d-])(?!(?<==)[0-9A-F]{{2}})"
# The house number may be a field of its own after a street with a street word: "Lange Straße | 4 |",
# "Lange Straße,4,", "Lange Straße;4;", quoted fields and table cells read as one per line.
_FIELD_GAP = r"(?:[,;|\n] ?| [|\n] ?| Nr\.? ?| ?)"  # "Lange Straße Nr. 4" too
_BEFORE_STRICT = re.compile(
    rf"{_WORD_START}(?P<street>{_STREET_STRICT}){_FIELD_GAP}(?P<number>{_NUMBER_STRICT}){_SEP}$")
_BEFORE_LOOSE = re.compile(rf"{_WORD_START}(?P<street>{_STREET_LOOSE}) (?P<number>{_NUMBER}){_SEP}$")


def _longest(pattern: str) -> int:
    """The most characters a match of ``pattern`` takes (a huge number if it has no bound)."""
    return int(re._parser.parse(pattern).getwidth()[1])


# The longest tail after the street in those (field gap, house number, separator: 26 and 22 characters). A
# street has no line break or comma, and neither street nor tail a colon (tests/test_geoparser_fastsearch.py),
# so a match starts after the last line break or comma before its tail and after the last colon: the search
# starts there (the same match as from the window's start, where the engine tried each word start, at up to
# 5 us each).
_STRICT_TAIL = _longest(rf"{_FIELD_GAP}(?:{_NUMBER_STRICT}){_SEP}")
_LOOSE_TAIL = _longest(rf" (?:{_NUMBER}){_SEP}")


# Mannheim's centre is a grid of blocks ("Quadrate") named by a letter and a number, and the block is the street:
# "A1 4", "N 7, 13", "Q6 1-3", "L 15, 11" (house 11 of block L 15); the letters are A to I and K to U. Read only
# before a postcode of the grid: elsewhere "B 75 3" is a federal road and "A4 12" a paper size.
_SQUARE_POSTCODES = frozenset(("68159", "68161"))
_SQUARE_BEFORE = re.compile(rf"(?<![{L}{U}\d-])(?P<street>[A-IK-U] ?(?:1[0-5]|[1-9])),? "
                            rf"(?P<number>[1-9]\d{{0,2}}(?: ?[-/] ?[1-9]\d{{0,2}})?[a-h]?){_SEP}$")
_SQUARE_REACH = 24


def _search_before(pattern: re.Pattern[str], tail: int, window: str) -> re.Match[str] | None:
    """``pattern.search(window)`` for ``_BEFORE_STRICT`` (``tail`` = _STRICT_TAIL) and ``_BEFORE_LOOSE``."""
    cut = len(window) - 1 - tail  # the street ends at or after this ("$" may stand before a last line break)
    return pattern.search(window, max(window.rfind("\n", 0, cut), window.rfind(",", 0, cut),
                                      window.rfind(":")) + 1 if cut > 0 else window.rfind(":") + 1)


# Postcode first, street after it on the same line: "26122 Oldenburg, Mottenstraße 7".
# After the place, the number's own field on the same line only: "26121;Oldenburg;Lange Straße;4".
# The street on the next line too, and its number in a field of its own: a row in the order postcode,
# place, street, number ("'26122','Oldenburg','Lange Straße','4'" read one field per line).
_AFTER_STRICT = re.compile(
    rf" ?[,;|·•–:-] ?(?P<street>{_STREET_STRICT})(?:[,;|] ?| \| ?| ?)(?P<number>{_NUMBER_STRICT})(?![\w])"
    rf"| ?\n ?(?P<street_line>{_STREET_STRICT})(?: ?\n ?| ?)(?P<number_line>{_NUMBER_STRICT})(?= ?(?:\n|$))")
_AFTER_LOOSE = re.compile(rf" ?[,;|·•–:-] ?(?P<street>{_STREET_LOOSE}) (?P<number>{_NUMBER})(?![\w])")
# What ends a city-first address: the line, a comma, a bracket, a full stop; a colon or an opening bracket after
# the number (an event listing: "Oldenburg, Theaterwall 28: Premiere", "Oldenburg, Theaterwall 28 (Großes Haus)").
_CITY_FIRST_END = re.compile(r""" ?(?:$|\n|[,;)|'"\]]|[.:](?:\s|$)|\()""")  # a quote ends a data field
# "z. B. Lange Straße 1, 26122 Oldenburg": an example, not an address.
# On the address's line, or as a heading of the line above ("Beispiel:\n"). "\Z", not "$": "$" also
# matches before a newline that ends the window, so "Max Mustermann\n" (a name above a real address)
# read as the word "muster" right before the address.
_EXAMPLE_BEFORE = re.compile(
    r"(?:beispiel|z\. ?b\.|e\. ?g\.|example|muster|etwa:|(?<![^\W_])format\b)[^\n]{0,12}(?:(?<=:)[ \t]*\n)?\Z",
    re.I)  # "Format:" a label, not "Institut für Informatik · Escherweg 2"


def _example_before(text: str, end: int) -> bool:
    """``_EXAMPLE_BEFORE.search(text, max(0, end - 40), end) is not None``, its words looked for first in the
    lower-cased text (the same as ``re.I`` for these words without the three letters it also takes: "İ", "ı"
    for "i", "ſ" for "s")."""
    start = max(0, end - 40)
    head = text[start:end]
    if "\u0130" not in head and "\u0131" not in head and "\u017f" not in head:
        low = head.lower()
        if not ("beispiel" in low or "z." in low or "e." in low or "example" in low or "muster" in low
                or "etwa:" in low or "format" in low):
            return False
    return _EXAMPLE_BEFORE.search(text, start, end) is not None


# Five digits (digits.FIVE_DIGITS: a literal character class first, so the regex engine scans
# fast); the context rules (not part of a longer number, a decimal, a date or a
# phone number; "D-"/"DE-" allowed; a capitalised place after it on the same
# or next line) are checked only at these candidates.
# "D-26122", "DE-26122", "D - 26122", and "D 26122" (the older form, with a space): a country code alone.
_COUNTRY_PREFIX = re.compile(r"(?<![\w.-])(?:D|DE)(?: ?- ?| )$")
_BAD_BEFORE = frozenset(".,:/+-–")
# The place follows on the same line, on the next one, or after a comma ("13156, Berlin").
# A CSV row: "Schloßplatz 1;26122;Oldenburg", "Schloßplatz 1,26122,Oldenburg" (the comma before
# the postcode is a field separator only when one follows it too; else "1,26122" is a decimal).
_POSTCODE_TAIL = re.compile(rf"(?![\w.,/\-–]\d)(?: ?\n ?| \| ?|\| ?| |, ?|; ?)(?=[{U}])")


def _comma_field(text: str, begin: int, end: int, known: dict | None) -> bool:
    """Whether the five digits at ``text[begin:end]``, a comma glued before them and a comma or a space after, are
    a postcode field of a comma-separated row rather than a decimal's places. No digit before the comma: no decimal
    ("...,Tempelhof-Schöneberg,10827 Berlin,..."). A digit: a region postcode ("1,26122,Oldenburg"), or one with
    its place after a space ("Kolonnenstr. 62,10827 Berlin", a street column and a "PLZ Ort" column), which
    ``extract`` takes only after a street word ("Wert 4,26121 Oldenburg" may be a decimal)."""
    if not text[begin - 2:begin - 1].isdigit():
        return True
    return text[end] == " " or (known is not None and text[end - 5:end] in known)


def _postcodes(text: str, limit: WorkLimit, known: dict | None = None,
               digits: FiveDigits | None = None) -> Iterator[tuple[int, str, int]]:
    """(start incl. any "D-" prefix, postcode, end of the separator after it).

    ``known``: the region's postcodes; "1,26122,Oldenburg" is a CSV row only for one of them
    (elsewhere "3,14159,Foo" is more likely a decimal). ``digits``: the scan of ``text`` to record."""
    for begin in (digits.scan() if digits is not None else (m.start() for m in FIVE_DIGITS.finditer(text))):
        if not limit.candidate():
            return
        end = begin + 5
        if end < len(text) and text[end].isdigit():
            continue
        prefix = _COUNTRY_PREFIX.search(text, max(0, begin - 5), begin)
        if prefix is not None:
            begin = prefix.start()
        tail = _POSTCODE_TAIL.match(text, end)
        if tail is None:
            continue
        if begin > 0:
            before = text[begin - 1]
            if before.isalnum() or before == "_" or (
                    before in _BAD_BEFORE and not (text[end:end + 1] in (before, " ") and (
                        (before == ";" and text[end] == ";")
                        or (before == "," and _comma_field(text, begin, end, known))))):
                continue
        yield begin, text[end - 5:end], tail.end()


_PLACE = re.compile(
    rf"{_CAPWORD}\.?(?: ?\((?:[{U}{L}]+\.?)(?: ?[{U}{L}]+\.?)?\))?"
    rf"(?:(?: (?:an der|am|im|in|bei|ob der|vor der|i\.) ?| )(?:{_CAPWORD}|[{L}]\.)\.?){{0,2}}"
    rf"(?: ?\((?:[{U}{L}]+\.?)(?: ?[{U}{L}]+\.?)?\))?"
)
_CITY_TRAIL = re.compile(r"[\s,;./(-]+$")
# First words of two-word place names ("Bad Homburg", "Sankt Augustin", "Neu Wulmstorf"): a word after them is the
# place's own, not a label.
_PLACE_PREFIXES = frozenset("bad sankt st neu groß gross klein alt hohen markt ober unter nieder hansestadt stadt "
                            "lutherstadt ostseebad seebad nordseebad".split())
# "13353 Berlin Deutschland": the country is no part of the place.
_COUNTRY_TAIL = re.compile(r"(?: (?:Deutschland|Germany|Allemagne|Germania|BRD|DE|D|GER|DEU))+$")

# Words that are followed by numbers but are no streets.
_NOT_STREET = {
    w.lower()
    for w in (
        "Tel Telefon Fon Fax Telefax Mobil Handy Postfach Nr Nummer Seite Seiten Haus Raum Zimmer "
        "Gebäude Etage Stock Geschoss Kunden Kundennummer Artikel Art Bestellung Bestellnummer "
        "Rechnung Rechnungsnummer Auftrag Auftragsnummer Jahr Jahre Jahren Preis Version Kapitel Teil "
        "Gruppe Platz Linie Bus Buslinie Gleis Halle Saal Block Stand Los Kategorie Punkt Punkte "
        "Schritt Folge Staffel Band Heft Ausgabe Modell Typ Größe Top Klasse Stufe Level Woche "
        "Tag Tage Monat Quartal Runde Spiel Team Bild Foto Abb Abbildung Tabelle Anlage Position "
        "Pos Menge Anzahl Uhr Euro EUR Stück Januar Februar März April Mai Juni Juli August "
        "September Oktober November Dezember Montag Dienstag Mittwoch Donnerstag Freitag "
        "Samstag Sonntag Mo Di Mi Do Fr Sa So Ausgabe Paragraph Absatz Satz Artikelnummer ID "
        "Flug Zug Route Kilometer Minuten Stunden Sekunden Prozent Grad Punkte Tore Zeile "
        "Fall Akte Az Aktenzeichen Vers Psalm Kap Abs Lfd Ziffer Anhang HRB HRA Ust Steuernummer "
        "Kontonummer BLZ IBAN BIC Konto Postleitzahl PLZ Ort Region Bezirk Landkreis Kreis "
        "Wahlkreis Stimmbezirk Sitz Gericht Amtsgericht Registergericht Mitglieder Einwohner "
        "Besucher Teilnehmer Plätze Sitze Zimmer Betten Tickets Karten Bewertungen Kommentare "
        "Ergebnisse Treffer Seite Folgen Episode Saison Spieltag Runde Etappe Lauf Rennen "
        "Wohnung WE Apartment App Whg Appartement Objekt Objektnummer Exposé Inserat ISBN Tarif "
        "Gutschein Code Rabatt Aktion Angebot Produkt Set Packung Pack Inhalt Kg Gramm Liter "
        "Ca Circa Insgesamt Summe Gesamt Total Ausfahrt Abfahrt Ausgang Eingang Einfahrt Zufahrt "
        "Anschlussstelle Haltestelle Terminal Parkdeck Bahnsteig Hörsaal Lagerhalle Kasse Schalter Tür "
        # A delivery's gate or dock ("Anlieferung über Tor 5, 26135 Oldenburg", a keyed street "Werkstraße 1, Tor 3").
        "Tor Rolltor Rampe Laderampe Dock Ladezone "
        # Words ending in a street suffix ("-gang") that count or name no street ("Jahrgang 5").
        "Jahrgang Lehrgang Studiengang Rundgang Vorgang Umgang Kurs Modul Lektion "
        # Measures and counts a venue's or a flat's page writes with a number ("Kapazität 400", "Fläche 120").
        "Kapazität Fläche Zahl Höhe Breite Länge Tiefe Gewicht Leistung Baujahr Dauer Laufzeit Kosten Miete "
        "Räume Etagen Stockwerke Sitzplätze Stehplätze Parkplätze Stellplätze Personen Gäste Zuschauer"
    ).split()
}
# The head of a compound is its last part: "Teilnehmerzahl", "Gesamtkapazität", "Sitzplätze", "Kundennummer"
# count like "Zahl", "Kapazität", "Plätze", "Nummer" (a loose street of one word whose head is a word of
# ``_NOT_STREET``, at least four letters long, is no street; streets of the pack are read all the same).
_NOT_STREET_HEADS = tuple(sorted(w for w in _NOT_STREET if len(w) >= 4 and w.isalpha()))
# Words that start a sentence fragment rather than a street in the loose form.
_NOT_LOOSE = {w.lower() for w in "Ab Bis Von Nach Für Mit Und Oder Über Unter Bei Seit Ohne Um".split()}
_STOP_PLACE = {
    w.lower()
    for w in (
        "Euro EUR Stück Einwohner Besucher Mitglieder Exemplare Jahre Jahren Menschen Personen "
        "Teilnehmer Kunden Mitarbeiter Mitarbeitende Studierende Studenten Schüler Punkte Tore "
        "Kilometer Meter Quadratmeter Hektar Tonnen Euro Dollar Franken Downloads Aufrufe "
        "Bewertungen Kommentare Follower Fans Likes Seiten Zeichen Wörter Fahrzeuge Autos Stimmen "
        "Gäste Plätze Sitzplätze Zuschauer Beschäftigte Haushalte Wohnungen Betten Übernachtungen "
        "Artikel Produkte Ergebnisse Treffer Uhr Min Minuten Stunden Tage Std Mal Prozent Bytes "
        "Zeilen Objekte Einträge Nutzer User Users Views Menschen Kinder Tiere Bäume Stimmen"
    ).split()
}
# Words that start a phrase of position after a postcode, never a place's name: a record's note after its postcode
# ("postalCode": "10179", "description": "In der Nähe des ..."), a remark after the place line.
_POSITION_WORDS = frozenset("in im neben gegenüber hinter nahe nähe zwischen direkt beim unweit".split())
_PHONE_BEFORE = re.compile(
    r"(?:\b(?:tel|telefon|fon|fax|telefax|mobil|handy|phone|ruf|whatsapp|hotline)\b|(?<!\d)\+ ?\d{2}|\(0)"
    r"[^\n]{0,25}$",
    re.I,
)
_PHONE_DIGITS_BEFORE = re.compile(r"(?:\+ ?\d[\d ]*|\(?0\d{2,5}\)?)[ /-]*$")
_NUMBER_LABEL_BEFORE = re.compile(r"(?:\b(?:nr|no|nummer|number|id|code)\b\.?|#) ?:? ?$", re.I)
_SAMPLE_POSTCODES = {"12345", "01234", "00000", "11111", "99999", "54321", "98765", "12346"}
# A field label between street and postcode: "Lange Straße 6\nPLZ / Ort: 26122 Oldenburg".
_LABEL_TAIL = re.compile(r"(?:\n|^)(?:PLZ ?(?:/|,|und) ?Ort|PLZ|Ort|Postleitzahl|Stadt|Wohnort)\b ?:? ?$", re.I)
# It ends at the window's end or before a last line break: the search starts this far before the end.
_LABEL_REACH = _longest(_LABEL_TAIL.pattern) + 1
_ADMIN_BEFORE = re.compile(
    r"(?<![\w])(?:landkreis(?:es)?|kreis(?:es)?|lk|ldkr\.?|amt|gemeinde|samtgemeinde|region|bistum|"
    r"herzogtum|großherzogtum|grafschaft|land|freistaat|raum|umland|nähe von|nahe|bei|"
    r"oldenburger|stadt und landkreis|stadt und land)\s*$",
    re.I,
)


# A parenthesised line between the street and the postcode.
_ASIDE_LINE = re.compile(r"\n ?\([^()\n]{1,60}\) ?\n? ?$")
# A note in brackets after the house number on its line: "Haarenstraße 20 (2. OG), 26122 Oldenburg",
# "Lange Straße 5 (Hinterhof), Oldenburg".
_ASIDE_AFTER_NUMBER = re.compile(r"(?:(?<=\d)|(?<=\d[a-hA-H])) ?\([^()\n]{1,40}\) ?(?P<sep>[,;|·•–-]? ?\n? ?)$")


def _without_aside(window: str) -> str:
    """``window`` without a bracketed note between the house number and the place after it."""
    if not window.rstrip(" \n,;|·•–-").endswith(")"):
        return window  # "(2. OG), ", "(2. OG) · ", "(2. OG)\n": any separator of _ASIDE_AFTER_NUMBER after it
    aside = _ASIDE_AFTER_NUMBER.search(window, max(0, len(window) - 48))
    if aside is None:
        return window
    return window[: aside.start()] + (aside.group("sep") or " ")


@dataclass
class RawAddress:
    street: str
    house_number: str
    postcode: str | None
    city: str | None  # canonical region city, or the place as written
    city_text: str | None
    in_region: bool
    start: int
    end: int
    state: str | None = None  # US state code, to tell Glendale AZ from Glendale CA
    unit: str | None = None  # US suite/apartment/floor


_WORD_RANGE = re.compile(r" ?(?:bis|und|u\.) ?")


def _clean_number(number: str) -> str:
    if "bis" in number or "u" in number:
        number = _WORD_RANGE.sub("-", number)
    return number.replace(" ", "").replace("–", "-")


# "Am Sonntag 12 ...", "Im Jahr 2024": time phrases that look like prepositional streets.
_NOT_AFTER_PREP = {
    w.lower()
    for w in (
        "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonnabend Sonntag Wochenende Abend Morgen "
        "Vormittag Nachmittag Mittag Anfang Ende Jahr Jahre Tag Tage Monat Woche Januar Februar März "
        "April Mai Juni Juli August September Oktober November Dezember Frühjahr Sommer Herbst Winter "
        "Alter Ganzen Rahmen Schnitt Durchschnitt Vergleich Moment Jahresende Stadtteil Stadtgebiet "
        "Raum Bereich Zentrum Rahmen Auftrag Namen Sinne Fall Mittel Ziel Preis Wert Anteil Schluss"
    ).split()
}


_TYPE_WORD_ALONE = frozenset(("straße", "strasse", "str", "weg", "allee", "gasse", "chaussee"))


def _street_ok(street: str, loose: bool = False) -> bool:
    """No street: "Tel 0441", "Linie 3", "Raum 12"; but "Platz der Republik" is one."""
    words = street.split(" ")
    if len(words) >= 2 and words[0] in _PREP_SET:
        # The first capitalised word after the preposition ("Am Sonntag", "Im Jahr").
        content = next((w for w in words[1:] if w[:1].isupper()), "")
        if content.lower() in _NOT_AFTER_PREP:
            return False
    first = words[0].rstrip(".").lower()
    last = words[-1].rstrip(".").lower()
    if loose and first in _NOT_LOOSE:
        return False
    if (loose or len(words) == 1) and first in _NOT_STREET:
        return False
    if loose and len(words) == 1 and len(first) > 5 and first.endswith(_NOT_STREET_HEADS):
        return False  # "Teilnehmerzahl 40", "Gesamtkapazität 400": the compound's head counts
    if len(words) == 1 and first in _TYPE_WORD_ALONE:
        return False  # "Straße 9-13": the end of a name cut off before it ("Henning-von-Tresckow- Straße")
    # "Platz 3" is a rank, "Berliner Platz 1" a street: an adjective before the word makes it one.
    adjective_first = len(words) == 2 and words[0][:1].isupper() and words[0].endswith(("er", "e", "es", "en"))
    return (len(words) > 2 or last not in _NOT_STREET or adjective_first) and len(street) >= 3


# Floor, building or c/o between the house number and the postcode: "Lange Straße 5, 2. OG, 26122". Up to three of
# them, each after a comma or on a line of its own ("Steuerstr. 42\nGebäude B\n3. OG\n50667 Köln", the extra address
# lines of an invoice's party; "Gebäude A14, Raum 1-102"); a floor may name its side ("EG links", "1. OG rechts").
# The side of a floor: only after a floor's word (whose sign _UNIT_WORDS tests), never alone.
_FLOOR_SIDE = r"(?: (?:links|rechts|Mitte|li\.|re\.))"
# A floor is also written word first ("Etage 4 Mitte", "Ebene 5"), as lifts and signposts number them.
_UNIT_ITEM = (r"(?:(?:\d{1,2}\. ?(?:OG|Obergeschoss|Etage|Stock)|EG|Erdgeschoss|DG|Dachgeschoss|"
              r"(?:Etage|Ebene|Stockwerk|Geschoss) \d{1,2}|UG)"
              + _FLOOR_SIDE + r"?|"
              r"Hinterhaus|Vorderhaus|Seiteneingang|Hofgebäude|Altbau|Neubau|Seitenflügel|Quergebäude|"
              r"(?:Haus|Eingang|Aufgang|Gebäude|Raum|Zimmer|Büro|Baracke|Halle|Block|Trakt|Flügel|Bau|Tor|Rampe|Dock)"
              r" [A-Z0-9][\w.-]{0,5}|"
              r"c/o [^,\n]{1,40})")
# A supplement as a whole value: a field of a data row between the street and the postcode ("Haus 03", "Altbau").
_SUPPLEMENT = re.compile(_UNIT_ITEM)
_UNIT_TAIL = re.compile(
    # A corner named after the house number: "Lange Straße 4 / Ecke Achternstraße, 26122", "(Ecke Markt)".
    r"(?: ?/|,|\n| -| ?\() ?Ecke [A-ZÄÖÜ][^,;()\n]{1,40}\)?[ ,;|·•-]*\n? ?$|"
    r"(?:(?:,|\n| -| ?/) ?" + _UNIT_ITEM + r"){1,3}[ ,;|·•-]*\n? ?$"
)
# How far before the postcode the supplements may start.
_UNIT_REACH = 90
# A building's or a site's name after a slash behind the house number, up to the place: "Neuer Graben 29 /
# Schloss", "Ammerländer Heerstraße 114-118 / Campus Haarentor", "Europaplatz 12 / Halle 3" (not "29/31": a range
# of numbers). Matched at the window's last slash, after a digit or a digit and a letter (tested without a
# pattern); the street before it must then have a street word or be one of the pack ("Kurs 3 / Gruppe A" is none).
_NAME_AFTER_SLASH = re.compile(r"/ ?[A-ZÄÖÜ][^\d,;/()|\n]{1,40}?(?: [1-9]\d{0,2}[a-zA-Z]?)?[ ,;|·•-]*\n? ?$")


# A second street after the slash is no name ("Heiligengeiststraße 10 / Lange Straße 2, 26121"): two streets of
# one corner building, read as joined (_JOINED_STREET).
_STREET_AFTER_SLASH = re.compile(rf" ?/ ?(?:{_STREET_STRICT}) {_NUMBER}[ ,;|·•-]*\n? ?$")


def _name_after_slash(window: str) -> int:
    """Where a name after a slash behind the house number starts in ``window`` (at the slash, or the space
    before it), or -1."""
    slash = window.rfind("/", max(0, len(window) - 48))
    if slash < 2:
        return -1
    before = slash - 1 if window[slash - 1] == " " else slash
    if before < 2 or not (window[before - 1].isdigit()
                          or window[before - 1] in "abcdefghABCDEFGH" and window[before - 2].isdigit()):
        return -1
    return before if _NAME_AFTER_SLASH.match(window, slash) is not None else -1


# Cheap test that a window can end in a house number and a separator; the
# street patterns only run where it passes (most mentions of a city do not).
_NUMBER_TAIL = re.compile(r"\d ?[a-hA-H]?(?: ?[-–/] ?[a-hA-H])?[ ,;|·•/–—\n.-]{0,4}(?:in ?)?$")


def _is_year(number: str) -> bool:
    """"Kramermarkt 2024 in Oldenburg": a year, not a house number."""
    return len(number) == 4 and number.isdigit() and 1900 <= int(number) <= 2099


# What each match of _UNIT_TAIL has (one test of these costs a tenth of the pattern's search).
_UNIT_WORDS = ("G", "Ecke", "geschoss", "Etage", "Ebene", "Stock", "haus", "Haus", "gang", "ebäude", "Raum", "Zimmer",
               "Büro", "c/o", "bau", "Bau", "Baracke", "Halle", "Block", "Trakt", "lügel", "Tor", "Rampe", "Dock")


def _find_street_before(window: str, loose: bool, gaz: Gazetteer) -> re.Match[str] | None:
    tail_60 = window[-_UNIT_REACH:]
    unit = (_UNIT_TAIL.search(window, max(0, len(window) - _UNIT_REACH))
            if any(word in tail_60 for word in _UNIT_WORDS) else None)
    if unit is not None:
        window = window[: unit.start()] + ", "
    elif "/" in window:
        named = _name_after_slash(window)
        if named >= 0 and _STREET_AFTER_SLASH.match(window, named) is None:
            window = window[:named] + ", "
            loose = False
    tail = _NUMBER_TAIL.search(window, max(0, len(window) - 16))
    if tail is None:
        return None
    # The house number's last digits (1 to 4, not starting with 0) end where the tail starts: "Ruf 0441
    # 00012, 26122 ..." has none, and the street patterns (the costly part) need not be tried.
    run_start = tail.start()
    while run_start > 0 and window[run_start - 1].isdigit():
        run_start -= 1
    if tail.start() - run_start > 3 or window[run_start] == "0":
        return None
    match = _search_before(_BEFORE_STRICT, _STRICT_TAIL, window)
    if match is not None and _street_ok(match.group("street")) and not _is_year(match.group("number")):
        return match
    loose_match = _search_before(_BEFORE_LOOSE, _LOOSE_TAIL, window)
    if loose:
        match = loose_match
        if match is not None and _street_ok(match.group("street"), loose=True) and _loose_number_ok(match):
            return match
    # A street of the pack without suffix ("Lappan 1", "Stau 12"): try the last words.
    match = loose_match
    if match is not None and gaz.street_coords(match.group("street")) is not None and not _is_year(
            match.group("number")):
        return match
    return None


_COMPANY = {w.lower() for w in
            "GmbH AG KG OHG UG eV e.V. mbH Co Co. Inc Inc. LLC Ltd Ltd. Corp Corp. Company Group Gruppe".split()}


def _loose_number_ok(match: re.Match[str]) -> bool:
    """A street without suffix: no year as house number, no company name as street."""
    number = match.group("number")
    digits = number[:4]
    if digits.isdigit() and len(digits) == 4 and 1900 <= int(digits) <= 2099:
        return False  # "Gewinner 2023, 26122 Oldenburg"
    last = match.group("street").rsplit(" ", 1)[-1].lower()
    return last not in _COMPANY


def _after_street(text: str, pos: int, gaz: Gazetteer) -> tuple[str, str, int] | None:
    """(street, number, end) right after a place ("..., Mottenstraße 7"; a pack street: "..., Markt 1"; a
    field per line: "26122\nOldenburg\nLange Straße\n4")."""
    after = _AFTER_STRICT.match(text, pos)
    if after is not None:
        street, number = after.group("street") or after.group("street_line"), after.group("number") or after.group(
            "number_line")
        if _street_ok(street) and not _is_year(number):
            return street, number, after.end()
    after = _AFTER_LOOSE.match(text, pos)
    if after is not None and gaz.street_coords(after.group("street")) is not None and not _is_year(
            after.group("number")):
        return after.group("street"), after.group("number"), after.end()
    if text.startswith("\n", pos) or text.startswith(" \n", pos):
        # The street line after the postcode's line, a street without street word: "45127 Essen\nFreiheit 5"
        # (the whole line: street and number, nothing after them).
        line = _LINE_AFTER_LOOSE.match(text, pos)
        if line is not None and not _is_year(line.group("number")) and _street_ok(line.group("street"), loose=True):
            return line.group("street"), line.group("number"), line.end()
    return None


# Two streets of one building or site before one place, joined by a word or a sign: "Uferstr. 23 und Badstr. 41a,
# 13357 Berlin", "Lange Straße 5 / Achternstraße 2, 26122", "Markt 1 & Schüttingstraße 3"; the first street must
# have a street word (a loose one would take "Haus 3 und").
_JOINED_STREET = re.compile(
    rf"{_WORD_START}(?P<street>{_STREET_STRICT}) (?P<number>{_NUMBER}) ?(?:und|&|sowie|/) ?$")
_JOINED_REACH = 80


def _joined_street(window: str, street_start: int) -> re.Match[str] | None:
    """The street and number joined before the street that starts at ``street_start`` in ``window``, or None."""
    before = window[max(0, street_start - _JOINED_REACH):street_start]
    if not before.endswith((" und ", "& ", "/ ", " sowie ", "/")):
        return None
    cut = max(before.rfind("\n"), before.rfind(","), before.rfind(":")) + 1
    joined = _JOINED_STREET.search(before, cut)
    if joined is None or not _street_ok(joined.group("street")) or _is_year(joined.group("number")):
        return None
    offset = max(0, street_start - _JOINED_REACH)
    return _JOINED_STREET.search(window, offset + joined.start(), street_start)


# A district between the house number and the postcode, in a field of its own (after a comma, a semicolon, a bar,
# a middle dot or a spaced dash, as footers separate the parts): one to three capitalised words, hyphens joining
# parts ("Tempelhof-Schöneberg"), "OT"/"Ortsteil"/"Stadtteil"/"Bezirk" before it; no digits (a field with a
# number may be a house number of its own).
_DISTRICT_SEP = r"(?:[,;|·•]| [-–])"
_DISTRICT_ENDS = frozenset(",;|·•-–")
_DISTRICT_FIELD = re.compile(
    rf"{_DISTRICT_SEP} ?(?:(?:OT|Ortsteil|Stadtteil|Stadtbezirk|Bezirk|Gemeindeteil) )?{_CAPWORD}(?: {_CAPWORD}){{0,2}}"
    rf" ?{_DISTRICT_SEP} ?$")
_DISTRICT_REACH = 64
# A remark with a number on the line between the street and the postcode, no street itself (found none there):
# a label or two and a count or measure ("Kapazität 400", "Plätze: 1.200", "Fläche 120 m²", "Baujahr 1998"); the
# street above must then have a street word (or be one of the pack), as for a line without digits.
_REMARK_LINE = re.compile(r"[A-ZÄÖÜ][\w.-]*(?: [\w.-]+)?:? ?\d[\d.,]*(?: ?(?:[^\W\d]{1,12}\.?|%|m²|qm))?")
_LINE_AFTER_LOOSE = re.compile(rf" ?\n ?(?P<street>{_STREET_LOOSE}) (?P<number>{_NUMBER})(?= ?(?:\n|$))")


def _own_postcode_range(postcode: str, gaz: Gazetteer) -> bool:
    """"26111 Oldenburg": a postcode the region's list lacks (an institution's or a firm's own postcode,
    a "Großkundenpostleitzahl") in the postcode area of the region's postcodes (same first three digits),
    with the region city written after it; "23758 Oldenburg" is another Oldenburg."""
    prefixes = getattr(gaz, "_de_postcode_prefixes", None)
    if prefixes is None:
        prefixes = {code[:3] for code in gaz.postcodes}
        gaz._de_postcode_prefixes = prefixes  # type: ignore[attr-defined]
    return postcode[:3] in prefixes


def _abbreviates(written: str, place: str, dotted: bool = False) -> bool:
    """"26127 OL": two or three capitals that begin the postcode's own place (the form of a car plate
    code or a hurried form); only after a postcode of that place, so "OS" or "HB" stay other places."""
    if 2 <= len(written) <= 3 and written.isalpha() and written.isupper():
        return fold(place).startswith(fold(written))
    # "26122 Oldb.": a shortened word with its full stop, the letters in the place's order
    letters = fold(written.rstrip(".")) if dotted or written.endswith(".") else ""
    if not (3 <= len(letters) <= 6 and letters.isalpha()):
        return False
    full = iter(fold(place))
    return fold(place).startswith(letters[:2]) and all(letter in full for letter in letters)


# The cheap test for that form at a mention of the city: the name, maybe a bracket, a space, a capital and
# a digit before any punctuation on the line ("Oldenburg Lange Straße 4"; prose "Oldenburg seit 1990"
# fails at the small letter).
_SPACED_HINT = re.compile(rf"[^\W\d_]++(?: ?\([^()\n]{{1,8}}\))? [{U}][^\n,.;:!?\d]{{2,40}}?\d")
# A street right after the city, with a space only: "Oldenburg Lange Straße 4".
_AFTER_SPACE = re.compile(rf" (?P<street>{_STREET_STRICT}) (?P<number>{_NUMBER_STRICT})(?![\w])")
# A street after the city joined by a preposition or in brackets, in prose: "in Magdeburg in der Leibnizstraße 32",
# "in Blankenburg (Kreuzstraße 16)", "in Oldenburg an der Hunte 4", "Heidelberg auf dem Marktplatz 3"; a street
# with a street word only.
_PREPOSITIONS_AFTER_CITY = r"(?:in der|in dem|in|an der|am|auf der|auf dem|im)"
_AFTER_PREPOSITION = re.compile(
    rf" (?:{_PREPOSITIONS_AFTER_CITY} |\()(?P<street>{_STREET_STRICT}) (?P<number>{_NUMBER_STRICT})(?![\w])")
_PREPOSITION_HINT = re.compile(rf"[^\W\d_]++ (?:{_PREPOSITIONS_AFTER_CITY} |\()[{U}]")
# What ends such a street in a sentence: what ends a city-first address, a "!" or "?", or the sentence going on in
# small letters ("in Oldenburg auf dem Waffenplatz 3 zu sehen").
_PROSE_STREET_END = re.compile(r""" ?(?:$|\n|[,;)|'"\]]|[.:!?](?:\s|$)|\(|(?<= )(?=[a-zäöüß]))""")
# The end of a field: the line, a quote, a comma or semicolon, a closing bracket.
_FIELD_END = re.compile(r" ?(?:$|\n|[\"',;)\]|])")
# A district after the city's name: "Oldenburg-Eversten", "Oldenburg - Kreyenbrück".
_DISTRICT = re.compile(rf" ?[-–] ?[{U}][{L}]+(?:-[{U}][{L}]+)?")


def _city_end(gaz: Gazetteer, text: str, start: int) -> int:
    city = gaz.match_city(text, start)
    return city.end if city is not None else start


# A street in brackets before a place without postcode: "PFL (Peterstraße 3) in Oldenburg", "(Markt 1), Oldenburg".
_BRACKETED_BEFORE_CITY = re.compile(r"\((?P<inner>[^()\n]{3,60}\d[a-hA-H]?)\)(?: in|,)? $")
_BRACKETED_STREET = re.compile(r"\((?P<inner>[^()\n]{3,60})\) ?[,;|·•–-]? ?\n? ?$")
# A postcode right before a city mention (five digits, not the end of a longer number: "id: 990025693").
_POSTCODE_BEFORE = re.compile(r"(?<!\d)\d{5}[ \n]?$")
# "Nuremberg, Germany" before the street on the next line.
_COUNTRY_AFTER_CITY = re.compile(r", ?(?:Germany|Deutschland)(?=[ \t]*\n)")
# "Oldenburg (26121), Lange Straße 4": the postcode in brackets after the city.
_BRACKET_POSTCODE = re.compile(r" ?\((?:D-)?(\d{5})\)")
# The postcode after the city, as international forms and data fields write it: "Lange Straße 4, Oldenburg
# 26122", "..., Oldenburg, 26122" (the postcode must be one of the region's, checked by the caller).
_POSTCODE_AFTER_CITY = re.compile(r",? ?(\d{5})(?![\d.,]\d|\d)")


def _trim_street(street: str) -> str:
    return street.strip(" ,;-")


def keyed_street(value: str, postcode: str, gaz: Gazetteer, named: bool = True) -> tuple[str, str] | None:
    """(street, house number) of a value that a key names as the street of a record whose place is given by
    its postcode alone (``"strasse": "Turmstraße", "hausnr": "75", "plz": "10551"``), or None: the value
    must end in a street and a house number as the page text writes them (a name without a street word
    too, when a key says it is a street: ``named``; a column of a data row must have a street word or be a
    street of the pack), and be no sample."""
    if postcode in _SAMPLE_POSTCODES or gaz.samples.search(value):
        return None
    found = _find_street_before(value.strip() + "\n", loose=named, gaz=gaz)
    if found is None:
        return None
    return _trim_street(found.group("street")), _clean_number(found.group("number"))


# A German street line: a name, a space and a house number at its end ("Kundenstraße 15", "Am Markt 3a").
GERMAN_STREET_LINE = re.compile(r"[A-ZÄÖÜ][^\d\n]{1,60} [1-9]\d{0,3}(?: ?[-/] ?\d{1,4})?[a-zA-Z]?")
# A street value with what follows its house number after a comma: a building, a gate, a room ("Hugo-Eckener-Ring 1,
# FAC, Building 234, D7.01", "Lange Straße 5, Hinterhaus, 2. OG"), for which a keyed record or structured data has no
# part; a place written there has its postcode (five digits), and stays.
_STREET_THEN_SUPPLEMENT = re.compile(r"(?P<street>" + GERMAN_STREET_LINE.pattern + r") ?, ?(?P<rest>[^\n]{1,80})")
_FIVE_DIGIT_RUN = re.compile(r"(?<!\d)\d{5}(?!\d)")


def street_without_supplement(value: str) -> str:
    """A street value without the supplements after its house number ("Elisabethstraße 7, 2. OG" -> "Elisabethstraße
    7"), or the value itself."""
    supplemented = _STREET_THEN_SUPPLEMENT.fullmatch(value)
    if supplemented is None or _FIVE_DIGIT_RUN.search(supplemented.group("rest")):
        return value
    return supplemented.group("street")


# A street's name with a street word as a whole ("Lundweg", "Bahnhofstraße", "Am Haag"): a data row's column that a
# house number's column follows.
_STREET_NAME = re.compile(_STREET_STRICT)


def is_street_name(value: str) -> bool:
    """Whether ``value`` as a whole is a street's name as the strict reader knows it (a street word, a preposition)."""
    return _STREET_NAME.fullmatch(value) is not None


def is_supplement(value: str) -> bool:
    """Whether ``value`` is an address supplement as a whole: a building, a floor, a room ("Haus 03", "2. OG")."""
    return _SUPPLEMENT.fullmatch(value) is not None


__all__ = ["GERMAN_STREET_LINE", "MAX_ANCHORS", "RawAddress", "extract", "is_street_name", "is_supplement",
           "keyed_street", "street_without_supplement"]


# A postcode alone on its line between the place's line and the street's: "Essen\n45127\nFreiheit 5" (the
# order of Deutsche Bahn's station records, and of rows read one field per line: place, postcode, street).
_LINE_STREET_STRICT = re.compile(rf"(?P<street>{_STREET_STRICT}) (?P<number>{_NUMBER_STRICT})(?= ?(?:\n|$|[,;\"']))")
_LINE_STREET_LOOSE = re.compile(rf"(?P<street>{_STREET_LOOSE}) (?P<number>{_NUMBER})(?= ?(?:\n|$|[,;\"']))")


def _city_line_first(text: str, start: int, line_start: int, street_pos: int, gaz: Gazetteer,
                     taken_until: int) -> tuple[str, str, int, str, str | None, int] | None:
    """(street, number, end, city as written, region city or None, start) of an address written one part a
    line in the order place, postcode, street: the postcode alone on its line, the place alone on the line
    before, the street with its number first on the line after."""
    if text[line_start:start].strip() or line_start < 2:
        return None
    prev_end = line_start - 1
    prev_start = text.rfind("\n", max(0, prev_end - 48), prev_end) + 1
    if prev_start == 0 and prev_end > 48 or prev_start < taken_until:
        return None  # no line of a place's length
    written = _COUNTRY_TAIL.sub("", _CITY_TRAIL.sub("", text[prev_start:prev_end].strip()))
    if not written or any(c.isdigit() for c in written):
        return None
    known, canonical = _place_as_written(written, gaz)
    street_line = _street_line_at(text, street_pos, gaz) if known else None
    if street_line is None:
        return None
    street, number, end = street_line
    return street, number, end, written, canonical, prev_start


# Two capitals before five digits are a code, not a place written before its postcode: a US state and its ZIP
# ("Hanford, CA 93230" / "Apr 19, 2022" is no "93230 CA, Apr 19").
_CODE_NOT_PLACE = re.compile(r"[A-Z]{2}")


def _place_as_written(written: str, gaz: Gazetteer) -> tuple[bool, str | None]:
    """(whether ``written`` reads as a place, the region city it names or None)."""
    city = gaz.match_city(written)
    if city is not None and city.end == len(written):
        return True, city.canonical
    if _CODE_NOT_PLACE.fullmatch(written) is not None:
        return False, None
    if _PLACE.fullmatch(written) is None or written.split(" ", 1)[0].lower() in _STOP_PLACE:
        return False, None
    return True, None


def _street_line_at(text: str, street_pos: int, gaz: Gazetteer) -> tuple[str, str, int] | None:
    """(street, number, end) of the street and house number that start at ``street_pos``, or None."""
    line = _LINE_STREET_STRICT.match(text, street_pos)
    loose = line is None
    if loose:
        line = _LINE_STREET_LOOSE.match(text, street_pos)
    if line is None or _is_year(line.group("number")) or not _street_ok(line.group("street"), loose=loose):
        return None
    street = line.group("street")
    if loose and gaz.street_coords(street) is None and street.split(" ")[-1].lower() in _NOT_STREET:
        return None
    return street, line.group("number"), line.end()


# The place before the postcode on its line, after a label or a name and a comma: "Oldenburg, 26122, ...",
# "Anschrift: Oldenburg 26122, ...".
_PLACE_BEFORE_POSTCODE = re.compile(rf"(?:^|(?<=[,:;|]) ?)(?P<place>[{U}][^\n,:;|\d]{{1,40}}?)[ ,;|]*$")


def _place_then_street(text: str, line_start: int, start: int, street_pos: int, gaz: Gazetteer
                       ) -> tuple[str, str, str, str | None, int, int] | None:
    """(street, number, city as written, region city or None, start, end) of an address written place,
    postcode, street on one line ("Oldenburg, 26122, Bahnhofsplatz 10"), or None."""
    if start - line_start < 3:
        return None
    lead = _PLACE_BEFORE_POSTCODE.search(text, line_start, start)
    if lead is None:
        return None
    written = _COUNTRY_TAIL.sub("", lead.group("place").strip())
    known, canonical = _place_as_written(written, gaz)
    street_line = _street_line_at(text, street_pos, gaz) if known else None
    if street_line is None:
        return None
    street, number, end = street_line
    return street, number, written, canonical, lead.start("place"), end


def _finish(text: str, gaz: Gazetteer, postcode: str, street: str, number: str, city_text: str,
            canonical: str | None, addr_start: int, end: int, dotted: bool = False) -> RawAddress | None:
    """The address read at a postcode anchor, or None for a sample or an example; ``dotted``: the place is
    followed by a full stop (an abbreviation, "Oldb.")."""
    street = _trim_street(street)
    if gaz.samples.search(street) or gaz.samples.search(city_text or ""):
        return None
    if _example_before(text, addr_start):
        return None
    in_region = canonical is not None and (postcode in gaz.postcodes or _own_postcode_range(postcode, gaz))
    if canonical is None and postcode in gaz.postcodes:
        # A region postcode with an unknown place name: trust the pair only if
        # the postcode's own place is the one written.
        expected = gaz.postcodes[postcode][2]
        if expected and (fold(city_text).startswith(fold(expected)) or _abbreviates(city_text, expected, dotted)):
            canonical, in_region = expected, True
    return RawAddress(
        street=street,
        house_number=_clean_number(number),
        postcode=postcode,
        city=canonical or city_text,
        city_text=city_text,
        in_region=in_region,
        start=addr_start,
        end=end,
    )


def extract(text: str, gaz: Gazetteer, limit: WorkLimit | None = None,
            digits: FiveDigits | None = None) -> Iterator[RawAddress]:
    """German addresses in ``text`` (output of :func:`html_to_text`), in order.

    ``limit`` bounds the work (see :class:`~geofocus.geoparser.model.WorkLimit`); ``digits``, if given,
    records the scan of ``text`` for five digits (see :mod:`geofocus.geoparser.digits`).
    """
    limit = limit if limit is not None else WorkLimit()
    taken_until = -1
    with_postcode: set[tuple[str, str]] = set()
    for start, postcode, city_pos in _postcodes(text, limit, gaz.postcodes, digits):
        if not limit.anchor():
            break
        if postcode in _SAMPLE_POSTCODES:
            continue
        # Bounded: on a page without line breaks an unbounded rfind per anchor is quadratic.
        line_start = max(text.rfind("\n", max(0, start - 64), start) + 1, start - 64)
        if _PHONE_DIGITS_BEFORE.search(text, max(line_start, start - 20), start):
            continue  # "0441 26122": the end of a phone number
        if _NUMBER_LABEL_BEFORE.search(text, max(line_start, start - 16), start):
            continue  # "Artikel-Nr. 63646", "Kd.-Nr.: 26122", "#26122"
        lined = _city_line_first(text, start, line_start, city_pos, gaz, taken_until) if (
            "\n" in text[start + 5:city_pos]) else None
        if lined is not None:
            street, number, end, city_text, canonical, addr_start = lined
            raw = _finish(text, gaz, postcode, street, number, city_text, canonical, addr_start, end)
            if raw is not None:
                with_postcode.add((normalise_street(raw.street), raw.house_number))
                yield raw
                taken_until = end
            continue
        city = gaz.match_city(text, city_pos)
        if city is not None:
            city_text, city_end = city.text, city.end
            canonical = city.canonical
        else:
            place = _PLACE.match(text, city_pos)
            if place is None:
                continue
            if text[place.end():place.end() + 1] == " " and text[place.end() + 1:place.end() + 2].isdigit():
                # What follows the postcode is a street with its number, no place: "Oldenburg, 26122,
                # Bahnhofsplatz 10" (the place before the postcode) or nothing ("Kapazität 400\n26122\nLange
                # Straße 5": the number line above is no house number).
                placed = _place_then_street(text, line_start, start, city_pos, gaz)
                if placed is not None:
                    raw = _finish(text, gaz, postcode, *placed)
                    if raw is not None:
                        with_postcode.add((normalise_street(raw.street), raw.house_number))
                        yield raw
                        taken_until = raw.end
                    continue
                if _LINE_STREET_STRICT.match(text, city_pos) is not None:
                    continue
            city_text = _COUNTRY_TAIL.sub("", _CITY_TRAIL.sub("", place.group(0)))
            if city_text.count(" ") == 1 and text.startswith(":", city_pos + len(city_text)):
                first_word = city_text.split(" ", 1)[0]
                if first_word.rstrip(".").lower() not in _PLACE_PREFIXES:
                    # The label of the next field on the place's line ("39104 Magdeburg Wer: alle", "10115 Berlin
                    # Eintritt: frei"): no word of the place (but "Bad Homburg:", "Frankfurt am Main:" are places).
                    city_text = _CITY_TRAIL.sub("", first_word)
            city_end = city_pos + len(city_text)
            first_word = city_text.split(" ", 1)[0].lower()
            if first_word in _STOP_PLACE or first_word in _POSITION_WORDS:
                continue
            canonical = None
        window_start = max(0, start - 110, taken_until)
        window = text[window_start:start]
        label = _LABEL_TAIL.search(window, max(0, len(window) - _LABEL_REACH))
        if label is not None:
            window = window[: label.start()] + "\n"
        aside = _ASIDE_LINE.search(window)
        if aside is not None:  # "Lützowplatz 15\n(Eingang Einemstraße 24)\n10785 Berlin"
            window = window[: aside.start()] + "\n"
        window = _without_aside(window)
        found = _find_street_before(window, loose=True, gaz=gaz)
        if found is None and postcode in _SQUARE_POSTCODES:
            found = _SQUARE_BEFORE.search(window, max(0, len(window) - _SQUARE_REACH))
        if found is None and ")" in window[-6:]:
            bracketed = _BRACKETED_STREET.search(window, max(0, len(window) - 70))
            if bracketed is not None:
                # "Theater Laboratorium (Kleine Straße 9), 26122 Oldenburg": the street in brackets after a
                # venue; the brackets become spaces (the same length: the offsets hold).
                window = (window[:bracketed.start()] + " " + bracketed.group("inner") + " "
                          + window[bracketed.end("inner") + 1:])
                found = _find_street_before(window, loose=False, gaz=gaz)
        if found is None:
            # One short line between street and postcode ("Hinterhaus", "2. OG"): then the street must
            # have a street word (or be one of the pack), not "Classes 20\nSamples total\n18846 ...".
            cut = window.rstrip("\n ").rfind("\n")
            last_line = window[cut + 1 :]
            remark = any(c.isdigit() for c in last_line) and (
                _REMARK_LINE.fullmatch(last_line.strip().strip(" ,;")) is not None)
            if cut > 0 and len(last_line.strip()) <= 30 and (remark or not any(c.isdigit() for c in last_line)):
                window = window[: cut + 1]
                found = _find_street_before(window, loose=False, gaz=gaz)
        if found is None and window.rstrip(" ")[-1:] in _DISTRICT_ENDS:
            # The district in a field of its own between street and postcode, as in a line: "Kolonnenstraße
            # 62, Schöneberg, 10827 Berlin", a CSV row's "...,Kolonnenstr. 62,Tempelhof-Schöneberg,10827 Berlin";
            # then too the street must have a street word (or be one of the pack).
            district = _DISTRICT_FIELD.search(window, max(0, len(window) - _DISTRICT_REACH))
            if district is not None:
                window = window[: district.start()] + ", "
                found = _find_street_before(window, loose=False, gaz=gaz)
        if (found is not None and start > 1 and text[start - 1] == "," and text[start - 2].isdigit()
                and text[start + 5:start + 6] != "," and _search_before(_BEFORE_STRICT, _STRICT_TAIL, window) is None):
            continue  # "Wert 4,26121 Oldenburg" may be a decimal: a glued comma only after a street word
        end = city_end
        if found is None:
            # Postcode first ("26122 Oldenburg, Mottenstraße 7"); a phone number
            # before it ("Tel. 0441 26122 Oldenburg") is no postcode.
            if _PHONE_BEFORE.search(text, max(line_start, start - 30), start):
                continue
            after = _after_street(text, city_end, gaz)
            if after is None:
                continue
            street, number, end = after
            addr_start = start
        else:
            street, number = found.group("street"), found.group("number")
            addr_start = window_start + found.start()
        raw = _finish(text, gaz, postcode, street, number, city_text, canonical, addr_start, end,
                      text.startswith(".", city_end))
        if raw is None:
            continue
        if found is not None:
            joined = _joined_street(window, found.start())
            if joined is not None:
                # "Uferstr. 23 und Badstr. 41a, 13357 Berlin": the first street has the place of the second
                first = _finish(text, gaz, postcode, joined.group("street"), joined.group("number"), city_text,
                                canonical, window_start + joined.start(), end, text.startswith(".", city_end))
                if first is not None:
                    with_postcode.add((normalise_street(first.street), first.house_number))
                    yield first
        with_postcode.add((normalise_street(raw.street), raw.house_number))
        yield raw
        taken_until = end
    readings = [(gaz, True)] if gaz.city_anywhere is not None else []
    if gaz.country == "DE" and limit.other_cities is not False:
        # Other German cities without postcode ("Genter Straße 16a, Munich"): outside the region.
        if limit.other_cities is None:
            limit.other_cities = False  # set to True by the scan at the first mention
        readings.append((decities.for_region(gaz), False))
    for cities, in_region in readings:
        for raw in _extract_without_postcode(text, cities, limit, in_region):
            # "Amtsgericht Oldenburg, Elisabethstraße 7, 26135 Oldenburg": the same address
            # read again without its postcode adds nothing.
            key = (normalise_street(raw.street), raw.house_number)
            if key not in with_postcode:
                with_postcode.add(key)
                yield raw


# The longest way a region city's name is written, and the "," or ":" after it (a longer name
# passes the test and is checked by the city pattern).
_CITY_FIRST_REACH = 48


# A four-digit postcode of before 1993 right before the place, after the street's separator ("W-2900 ", "2900 "):
# "W-" (West) and "O-" (East) were written in 1990-1993.
_OLD_POSTCODE_TAIL = re.compile(r"(?:(?<=[,;|·•\n] )|(?<=[\n,]))(?:[WO] ?- ?)?(?P<code>[1-9]\d{3}) $")


def _extract_without_postcode(text: str, gaz: Gazetteer, limit: WorkLimit,
                              in_region: bool = True) -> Iterator[RawAddress]:
    """Addresses of the cities of ``gaz`` written without postcode: "Schloßplatz 12, Oldenburg"
    (street first) or "Oldenburg, Schloßplatz 12" (city first, same line; "Oldenburg, Germany" on the
    line before). ``in_region``: whether these cities are the region's."""
    def maybe_address(at: int) -> bool:
        # Most mentions are prose ("in Oldenburg seit 1990"): cheap tests first, before the city
        # pattern confirms the mention: a house number right before, or a "," or ":" soon after.
        # A postcode right before ("26121 Oldenburg"): the postcode reader has read it (the readings below
        # skip such a mention), unless a bracket is near (an aside taken out before the check).
        if (at >= 5 and text[at - 1] in " \n" and _POSTCODE_BEFORE.search(text, max(0, at - 8), at) is not None
                and text.find("(", at - 8, at) < 0 and text.find(")", at - 8, at) < 0):
            limit.anchor()  # as the reading it saves would have (the page's budget bounds such mentions)
            return False
        if _NUMBER_TAIL.search(text, max(0, at - 16), at) is not None or text.find(")", at - 5, at) >= 0:
            return True
        # The city-first form has its "," ":" or "|" on the city's line ("Oldenburg:\nPeterstraße 3" too):
        # one on a later line ("Ort: Oldenburg\nStraße: ...") is no hint.
        reach = text.find("\n", at, at + _CITY_FIRST_REACH)
        reach = at + _CITY_FIRST_REACH if reach < 0 else reach + 1
        return (text.find("(", at - 2, at) >= 0
                or text.find(",", at, reach) >= 0 or text.find(":", at, reach) >= 0
                or text.find("|", at, reach) >= 0
                or _SPACED_HINT.match(text, at) is not None or _PREPOSITION_HINT.match(text, at) is not None)

    old_codes: dict[str, str] = gaz.region.raw.get("old_postcodes") or {}
    for start in gaz.city_mentions(text, limit, keep=maybe_address):
        before_start = max(0, start - 110)
        before = _without_aside(text[before_start:start])
        old_city = None
        if old_codes and before[-1:] == " ":
            old = _OLD_POSTCODE_TAIL.search(before, max(0, len(before) - 12))
            if old is not None and old.group("code") in old_codes:
                # "Lange Straße 5, W-2900 Oldenburg", "Lange Straße 5\n2900 Oldenburg (Oldb)": the city's postcode
                # before 1993 (the pack's ``old_postcodes``), no postcode of today; the place decides.
                before, old_city = before[:old.start()], old_codes[old.group("code")]
        if before.endswith("(") and ")" in text[_city_end(gaz, text, start) - 1:_city_end(gaz, text, start) + 1]:
            before = before[:-1]  # "in der Achternstraße 5 (Oldenburg)": the place in brackets after the street
        if before.endswith((") ", ") in ", "), ")) and ")" in before[-6:]:
            bracketed = _BRACKETED_BEFORE_CITY.search(before, max(0, len(before) - 72))
            if bracketed is not None:
                # "im Kulturzentrum PFL (Peterstraße 3) in Oldenburg": the street in brackets after a venue,
                # the place after them; "(" becomes a space and ")" goes (the offsets before it hold).
                before = (before[:bracketed.start()] + " " + bracketed.group("inner")
                          + before[bracketed.end("inner") + 1:])
        street_first = _NUMBER_TAIL.search(before, max(0, len(before) - 16)) is not None
        anchored = False
        if street_first:
            # Each mention read street first costs an anchor of the page's budget (see model.WorkLimit).
            if not limit.anchor():
                break
            anchored = True
            if _POSTCODE_BEFORE.search(before, max(0, len(before) - 8)):
                continue  # a postcode right before: the postcode path has handled it
            if _find_street_before(before, loose=False, gaz=gaz) is None:
                street_first = False  # a number on the line before ("id: 990025693\nBremen Rutenstraße 1")
        city = None
        if not street_first:
            # The city-first form: "Oldenburg, Peterstraße 3" / "Oldenburg: ...".
            # Not a dash: "Oldenburg – Am Sonntag ..." opens a news item.
            city = gaz.match_city(text, start)
            after_city = city.end if city is not None else start
            district = _DISTRICT.match(text, after_city) if city is not None else None
            if district is not None:
                after_city = district.end()  # "Oldenburg-Eversten, Hauptstraße 5"
            bracket = _BRACKET_POSTCODE.match(text, after_city) if city is not None else None
            if bracket is not None:
                after_city = bracket.end()
            country = _COUNTRY_AFTER_CITY.match(text, after_city) if city is not None else None
            if country is not None:
                after_city = country.end()  # "Nuremberg, Germany\nVogelweiherstraße 66"
            if city is None or after_city >= len(text):
                continue
            spaced = None
            in_prose = False
            if (text[after_city] not in ",:|" and text[after_city:after_city + 2] != " |"
                    and (country is None or text[after_city] != "\n")):
                # "Oldenburg Lange Straße 4" (a transit stop's or a data field's form): only a street with a
                # street word, and the number must end the field.
                spaced = _AFTER_SPACE.match(text, after_city)
                if spaced is None and text[after_city:after_city + 1] == " ":
                    prose = _AFTER_PREPOSITION.match(text, after_city)
                    # The number ends the street's phrase: "in Magdeburg in der Leibnizstraße 32 (Netz39)."
                    in_prose = (prose is not None and _street_ok(prose.group("street"))
                                and not _is_year(prose.group("number"))
                                and _PROSE_STREET_END.match(text, prose.end()) is not None)
                    spaced = prose if in_prose else None
                if not in_prose and (
                        spaced is None or not _street_ok(spaced.group("street")) or _is_year(spaced.group("number"))
                        or spaced.group("street").lower().endswith("bahnhof")  # "Oldenburg Hauptbahnhof 2"
                        or not _FIELD_END.match(text, spaced.end())):
                    continue  # "Oldenburg, ...", "Oldenburg: ...", "Oldenburg | ..." (a footer's fields)
        if not anchored and not limit.anchor():
            break
        if _POSTCODE_BEFORE.search(before, max(0, len(before) - 8)):
            continue  # a postcode right before: the postcode path has handled it
        if _ADMIN_BEFORE.search(before):
            continue
        city = city or gaz.match_city(text, start)
        if city is None or city.canonical is None:
            continue  # a confusable such as "Oldenburg in Holstein"
        if old_city is not None and (city.canonical != old_city or not street_first):
            continue  # an old code of another city, or none before a street
        if gaz.ambiguous and fold(city.canonical) in gaz.ambiguous:
            continue
        if street_first:
            found = _find_street_before(before, loose=False, gaz=gaz)
            if found is None:
                continue
            street, number = found.group("street"), found.group("number")
            addr_start, end = before_start + found.start(), city.end
            bracket = (_BRACKET_POSTCODE.match(text, city.end)  # "Lange Straße 4, Oldenburg (26121)"
                       or _POSTCODE_AFTER_CITY.match(text, city.end))  # "Lange Straße 4, Oldenburg 26122"
        else:
            after = (spaced.group("street"), spaced.group("number"), spaced.end()) if spaced is not None else (
                _after_street(text, after_city, gaz))
            if after is None or not (_PROSE_STREET_END if in_prose else _CITY_FIRST_END).match(text, after[2]):
                continue
            street, number, end = after
            addr_start = start
        street = _trim_street(street)
        if gaz.samples.search(street) or _example_before(text, addr_start):
            continue
        named = gaz.match_city(street, 0)
        if named is not None and named.end == len(street):
            continue  # "Springer-Verlag, Berlin, Heidelberg, 485-491": a place (with a "-berg") and pages
        postcode = bracket.group(1) if bracket is not None else None
        if postcode is not None and (postcode in _SAMPLE_POSTCODES or postcode not in gaz.postcodes):
            continue  # "Oldenburg (23758)": the postcode says it is another Oldenburg
        yield RawAddress(
            street=street,
            house_number=_clean_number(number),
            postcode=postcode,
            city=city.canonical,
            city_text=city.text,
            in_region=in_region,
            start=addr_start,
            end=end,
        )
