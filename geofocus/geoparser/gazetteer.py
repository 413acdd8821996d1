"""What the geoparser knows about a region, compiled once per region.

Turns a :class:`~geofocus.regions.Region` into fast lookups: city names and
their written variants, the confusable places that must not count, the
postcode table and a normalised street index.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from geofocus.geoparser.model import WorkLimit
from geofocus.regions import Region
from geofocus.regions.pack import City

_NON_WORD = re.compile(r"[^0-9a-zäöüß]+")


@lru_cache(maxsize=4096)  # pure, and called for the same few streets and places again and again
def normalise_street(name: str) -> str:
    """Key for street lookups: case, spacing, hyphens and ``Straße``/``Str.`` folded."""
    key = name.lower().replace("ß", "ss")
    key = key.replace("strasse", "str").replace("str.", "str")
    return _NON_WORD.sub("", key)


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Comparison key of a place name: lower-case, ß as ss, diacritics removed (ä -> a)."""
    text = text.lower().replace("ß", "ss")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _variant_pattern(name: str) -> str:
    """Regex for a place name that tolerates spacing and punctuation variants.

    "Oldenburg (Oldb)" also matches "Oldenburg(Oldb.)" and "Oldenburg / Oldb";
    "Oldenburg i. O." also matches "Oldenburg i.O." and "Oldenburg i O".
    """
    tokens = re.findall(r"[^\W_]+", name)
    if not tokens:
        return re.escape(name)
    sep = r"[\s.,/()\-]*"
    return sep.join(re.escape(t) for t in tokens) + r"\.?\)?"


# From this length on (characters), city_mentions looks for the names in the text's UTF-16 bytes: below it,
# str.lower costs less than the encoding and the checks around it (keyed fields, short readings), as it
# does on ASCII text (its fast path).
_BYTES_FROM = 800


@dataclass(frozen=True)
class CityMatch:
    canonical: str | None  # the region's city, or None for a confusable
    text: str  # as written
    end: int  # offset just past the match in the searched string


# Words of sample streets, which make no address (docs/geoparser.md, "Region membership"): the German
# "Musterstraße", "Beispielweg", "Teststr.", and the US writers' "123 Example Street", "1234 Any Street", "123 Some
# Street", "123 Test St", "123 Fake Street", "555 Fake Ave". (A sample place alone is not enough: held-out 18 labels
# "123 Main St., Anytown, KS 12345" an address.) A street whose whole name is a programmer's placeholder ("street":
# {"name": "Test", "number": "1"}, "foo") too.
SAMPLE_WORDS = re.compile(r"muster|beispiel|example|sample|test(?:str|weg)|\b(?:any|fake|some) ?(?:street|st)\b"
                          r"|\b(?:test|fake) (?:st|street|ave|avenue|rd|road|dr|drive|ln|lane)\b"
                          r"|^(?:test|foo|bar|baz|foobar|asdf|qwerty|dummy|xxx+)$", re.I)


class Gazetteer:
    """Region lookups used by the address extractors."""

    def __init__(self, region: Region):
        self.region = region
        self.country = region.country
        variants: list[tuple[str, str | None]] = []
        self.city_by_fold: dict[str, str] = {}
        for city in region.cities:
            for name in (city.name, *city.aliases):
                variants.append((name, city.name))
                self.city_by_fold[fold(name)] = city.name
        for name in region.confusables:
            variants.append((name, None))
        self.confusable_folds = {fold(n) for n in region.confusables}
        # Longest first so "Oldenburg in Holstein" wins over "Oldenburg".
        variants.sort(key=lambda v: -len(v[0]))
        self._variant_target: list[str | None] = []
        alternatives = []
        for index, (name, target) in enumerate(variants):
            alternatives.append(f"(?P<v{index}>{_variant_pattern(name)})")
            self._variant_target.append(target)
        boundary = r"(?![^\W_])"
        self._at_start = re.compile(r"(?:" + "|".join(alternatives) + r")" + boundary, re.I)
        # Region city names anywhere in text (for addresses without postcode).
        names = sorted(
            {n for c in region.cities for n in (c.name, *c.aliases)}, key=len, reverse=True
        )
        self.city_anywhere = re.compile(
            r"(?<![^\W_])(?:" + "|".join(_variant_pattern(n) for n in names) + r")" + boundary,
            re.I,
        ) if names else None
        self._first_words = sorted({re.findall(r"[^\W_]+", n.lower())[0] for n in names
                                    if re.findall(r"[^\W_]+", n)})
        # First words that are no name on their own ("stadt" of "Stadt Oldenburg"): common words of the
        # page's language, found many times a page; their mentions are confirmed by the city pattern before
        # the caller's test (which costs more than the pattern where the name does not follow).
        whole = {n.lower() for n in names}
        self._prefix_words = frozenset(w for w in self._first_words if w not in whole)
        # The same in UTF-16 (see city_mentions), if all are ASCII.
        self._first_words_utf16 = ([w.encode("utf-16-le") for w in self._first_words]
                                   if all(w.isascii() for w in self._first_words) else None)
        self.postcodes = region.postcodes
        self.streets = {normalise_street(k): v for k, v in region.streets.items()}
        # By name, and by "name, state" for same-named cities (Glendale, AZ / Glendale, CA).
        self.cities: dict[str, City] = {}
        for c in region.cities:
            self.cities.setdefault(c.name, c)
            self.cities[f"{c.name}, {c.state}"] = c
        ambiguous = region.raw.get("ambiguous_cities", [])
        self.ambiguous = {fold(n) for n in ambiguous}
        self.samples = SAMPLE_WORDS

    def city_mentions(self, text: str, limit: WorkLimit | None = None,
                      keep: Callable[[int], bool] | None = None) -> Iterator[int]:
        """Offsets where a region city name starts in ``text``, in order.

        ``find`` on the lower-cased text (its UTF-16 bytes, see below) finds the candidates (fast even
        on pages that name the city hundreds of times); the variant regex confirms.
        ``keep``, a cheaper test of the caller, is asked first at each candidate.
        """
        if self.city_anywhere is None:
            return
        starts: set[int] = set()
        prefix_starts: set[int] = set()  # found by a prefix word: the pattern is asked first
        prefix_words = self._prefix_words
        words = self._first_words_utf16
        data = (text.encode("utf-16-le", "surrogatepass")
                if words is not None and len(text) > _BYTES_FROM and not text.isascii()
                and "\u0130" not in text and "\u212a" not in text else b"")
        if len(data) == 2 * len(text) and text:
            # The ASCII words in the text's UTF-16 code units with the ASCII letters lower-cased (bytes.lower,
            # four times faster than str.lower): the same places as in the lower-cased text when each
            # character is one code unit, at an even offset (a unit's bytes are an ASCII letter and a zero
            # only for that letter), and no Kelvin sign or "İ" (str.lower turns them into ASCII letters).
            data = data.lower()
            for word, first in zip(words, self._first_words, strict=True):  # type: ignore[arg-type]
                found = prefix_starts if first in prefix_words else starts
                pos = data.find(word)
                while pos >= 0:
                    if pos % 2 == 0:
                        if limit is not None and len(starts) + len(prefix_starts) > limit.candidates:
                            break  # the loop below stops there anyway
                        found.add(pos // 2)
                    pos = data.find(word, pos + 1)
        else:
            lowered = text.lower()
            if len(lowered) != len(text):  # a few characters change length when lowered
                for match in self.city_anywhere.finditer(text):
                    if limit is not None and not limit.candidate():
                        return
                    if keep is None or keep(match.start()):
                        yield match.start()
                return
            for word in self._first_words:
                found = prefix_starts if word in prefix_words else starts
                pos = lowered.find(word)
                while pos >= 0:
                    if limit is not None and len(starts) + len(prefix_starts) > limit.candidates:
                        break  # the loop below stops there anyway
                    found.add(pos)
                    pos = lowered.find(word, pos + 1)
        for pos in sorted(starts | prefix_starts) if prefix_starts else sorted(starts):
            if limit is not None and (limit.anchors < 0 or not limit.candidate()):
                return  # the anchors are spent: the caller reads no mention more
            if pos > 0 and (text[pos - 1].isalnum() or text[pos - 1] == "_"):
                continue
            if pos in prefix_starts and pos not in starts:
                # "Stadt", "Innenstadt": the pattern first (the name must follow), then the caller's test.
                if self.city_anywhere.match(text, pos) is not None and (keep is None or keep(pos)):
                    yield pos
                continue
            if keep is not None and not keep(pos):
                continue
            if self.city_anywhere.match(text, pos) is not None:
                yield pos

    def match_city(self, text: str, pos: int = 0) -> CityMatch | None:
        """A region city or a confusable place written at ``text[pos:]``."""
        match = self._at_start.match(text, pos)
        if match is None:
            return None
        index = int(match.lastgroup[1:])  # type: ignore[index]
        return CityMatch(self._variant_target[index], match.group(0), match.end())

    def street_coords(self, street: str) -> tuple[float, float] | None:
        return self.streets.get(normalise_street(street))
