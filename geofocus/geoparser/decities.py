"""German cities outside a region, for addresses of other cities written without postcode.

"Genter Straße 16a, Munich, Germany", "Bremen Rutenstraße 1", "Nuremberg, Germany / Vogelweiherstraße 66":
with a postcode the German reader needs no list of places (the postcode says where the place name
is); without one it knows only the region's own cities, so such addresses of other cities were not
read at all. This is the list of the cities of Germany with about 100,000 inhabitants or more (the
"Großstädte", a fact of the official statistics; names written by hand), with the English names and
the spellings without umlauts that pages write; a town joined of two (Villingen-Schwenningen,
Dessau-Roßlau) also by each half, as its people name their part of it ("in der Bickebergstraße 10 in
Villingen"). An address found through this list is outside the region: it counts for precision and
recall, never for a page's relevance.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache

from geofocus.geoparser.gazetteer import Gazetteer, fold
from geofocus.geoparser.model import WorkLimit
from geofocus.regions.pack import Region, region_from_dict

# Name: other ways pages write it.
CITIES: dict[str, tuple[str, ...]] = {
    "Berlin": (), "Hamburg": (), "München": ("Munich", "Muenchen"), "Köln": ("Cologne", "Koeln"),
    "Frankfurt am Main": ("Frankfurt", "Frankfurt a. M.", "Frankfurt a.M.", "Frankfurt/Main", "Frankfurt/M."),
    "Stuttgart": (), "Düsseldorf": ("Duesseldorf", "Dusseldorf"), "Leipzig": (), "Dortmund": (), "Essen": (),
    "Bremen": (), "Dresden": (), "Hannover": ("Hanover",), "Nürnberg": ("Nuremberg", "Nuernberg"),
    "Duisburg": (), "Bochum": (), "Wuppertal": (), "Bielefeld": (), "Bonn": (), "Münster": ("Muenster",),
    "Mannheim": (), "Karlsruhe": (), "Augsburg": (), "Wiesbaden": (), "Mönchengladbach": ("Moenchengladbach",),
    "Gelsenkirchen": (), "Aachen": (), "Braunschweig": ("Brunswick",), "Kiel": (), "Chemnitz": (),
    "Halle (Saale)": ("Halle/Saale", "Halle an der Saale"), "Magdeburg": (),
    "Freiburg im Breisgau": ("Freiburg", "Freiburg i. Br."), "Krefeld": (), "Mainz": (), "Lübeck": ("Luebeck",),
    "Erfurt": (), "Oberhausen": (), "Rostock": (), "Kassel": (), "Hagen": (), "Potsdam": (),
    "Saarbrücken": ("Saarbruecken",), "Hamm": (), "Ludwigshafen am Rhein": ("Ludwigshafen",),
    "Mülheim an der Ruhr": ("Mülheim", "Muelheim an der Ruhr"), "Oldenburg": ("Oldenburg (Oldb)",),
    "Osnabrück": ("Osnabrueck",), "Leverkusen": (), "Heidelberg": (), "Darmstadt": (), "Solingen": (),
    "Regensburg": (), "Herne": (), "Paderborn": (), "Neuss": ("Neuß",), "Ingolstadt": (),
    "Offenbach am Main": ("Offenbach",), "Fürth": ("Fuerth",), "Würzburg": ("Wuerzburg",), "Ulm": (),
    "Heilbronn": (), "Pforzheim": (), "Wolfsburg": (), "Göttingen": ("Goettingen",), "Bottrop": (),
    "Reutlingen": (), "Koblenz": (), "Bremerhaven": (), "Recklinghausen": (), "Erlangen": (),
    "Bergisch Gladbach": (), "Remscheid": (), "Jena": (), "Trier": (), "Salzgitter": (), "Moers": (),
    "Siegen": (), "Hildesheim": (), "Cottbus": (), "Gütersloh": ("Guetersloh",), "Kaiserslautern": (),
    "Witten": (), "Schwerin": (), "Zwickau": (), "Iserlohn": (), "Düren": (), "Esslingen am Neckar":
    ("Esslingen",), "Ratingen": (), "Hanau": (), "Ludwigsburg": (), "Tübingen": ("Tuebingen",),
    "Flensburg": (), "Konstanz": (), "Worms": (), "Marburg": (), "Gießen": ("Giessen",), "Lüneburg": (),
    "Villingen-Schwenningen": ("Villingen", "Schwenningen"), "Bamberg": (), "Bayreuth": (), "Wilhelmshaven": (),
    "Delmenhorst": (), "Celle": (), "Neubrandenburg": (), "Stralsund": (), "Greifswald": (), "Weimar": (), "Gera": (),
    "Dessau-Roßlau": ("Dessau", "Roßlau", "Rosslau"), "Frankfurt (Oder)": (), "Brandenburg an der Havel": (),
    "Fulda": (),
    "Landshut": (), "Rosenheim": (), "Passau": (), "Emden": (), "Speyer": (), "Bad Kreuznach": (),
}


class _OtherCities(Gazetteer):
    """The list's cities: mentions found by one scan of a pattern grouped by first letter (the region's
    own search, one ``str.find`` per first word, costs a pass over the page per name: 150 here)."""

    def __init__(self, region: Region):
        super().__init__(region)
        names = sorted({n for c in region.cities for n in (c.name, *c.aliases)}, key=len, reverse=True)
        groups: dict[str, list[str]] = {}
        for name in names:
            groups.setdefault(name[0], []).append(re.escape(name[1:]))
        # As pages write them (a capital first); lines in capitals are title-cased by the second reading.
        # The first letters first, without a lookbehind: the engine skips to them fast (the word start is
        # tested at each match).
        self._mention = re.compile(
            r"(?:" + "|".join(f"{re.escape(first)}(?:{'|'.join(rest)})" for first, rest in groups.items())
            + r")(?![^\W_])")

    def city_mentions(self, text: str, limit: WorkLimit | None = None,
                      keep: Callable[[int], bool] | None = None) -> Iterator[int]:
        for match in self._mention.finditer(text):
            if limit is not None:
                limit.other_cities = True
                if not limit.candidate():
                    return
            start = match.start()
            if start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
                continue  # inside a word ("Neu-Ulm" is read as Ulm's "-Ulm" only after a hyphen)
            if keep is None or keep(start):
                yield match.start()


@lru_cache(maxsize=8)
def other_cities(region_names: frozenset[str]) -> Gazetteer:
    """A gazetteer of the German cities of the list that are not the region's own (``region_names``:
    its cities' names and aliases and its confusables, folded)."""
    cities = []
    for name, aliases in CITIES.items():
        names = [n for n in (name, *aliases) if fold(n) not in region_names]
        if fold(name) in region_names or not names:
            continue
        cities.append({"name": names[0], "aliases": names[1:]})
    return _OtherCities(region_from_dict({"name": "de-cities", "country": "DE", "languages": ["de"], "tlds": [],
                                       "cities": cities}))


def for_region(gaz: Gazetteer) -> Gazetteer:
    """The other German cities for the region of ``gaz`` (kept on ``gaz``: building the set of its names
    cost more than reading a short keyed text)."""
    found = getattr(gaz, "_other_cities", None)
    if found is None:
        found = other_cities(frozenset(gaz.city_by_fold) | frozenset(gaz.confusable_folds))
        gaz._other_cities = found  # type: ignore[attr-defined]
    return found
