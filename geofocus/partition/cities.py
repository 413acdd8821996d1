"""Target cities named in text, URLs and anchors, with aliases, states and population-based disambiguation.

What the partition policies ``url``, ``anchor`` and ``content`` read (section 3.4 and 3.5 of the
paper).  Not the geoparser's gazetteer (``geofocus.geoparser.gazetteer.Gazetteer``), which finds
region city names case-insensitively at an offset of an address; here aliases are case-sensitive
("LA" and "L.A." name Los Angeles, "la" does not), every mention resolves to one ``CityKey``
(city and state), and a bare ambiguous name means the most populous city of that name.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any
from urllib.parse import unquote, urlsplit

from geofocus.geoparser.us import STATES
from geofocus.partition.plan import CityKey, city_keys


class CityMentions:
    """City and state mentions in text, with aliases and population-based disambiguation."""

    def __init__(self, region: Any) -> None:
        self.cities = [key for key, _, _ in city_keys(region)]
        self.by_name: dict[str, list[CityKey]] = {}
        for key, city, _ in city_keys(region):
            for name in (city.name, *city.aliases):
                self.by_name.setdefault(self._norm(name), []).append(key)
        for keys in self.by_name.values():
            keys.sort(key=lambda k: -k.population)  # ambiguity: the most populous first
        variants = sorted({n for key, city, _ in city_keys(region) for n in (city.name, *city.aliases)},
                          key=len, reverse=True)
        # Case-sensitive: "LA" and "L.A." are aliases, "la" is not.
        self._city_re = re.compile(r"(?<![\w.])(" + "|".join(re.escape(v) for v in variants) + r")(?![\w])")
        state_alts = sorted(list(STATES) + list(STATES.values()), key=len, reverse=True)
        self._state_re = re.compile(r"(?<![\w])(" + "|".join(re.escape(s) for s in state_alts) + r")(?![\w])")
        self._state_code = {**{k: k for k in STATES}, **{v: k for k, v in STATES.items()}}
        self._pair_re = re.compile(self._city_re.pattern + r",?\s+(" + "|".join(
            re.escape(s) for s in state_alts) + r")(?![\w])")
        total: dict[str, int] = {}
        for key in self.cities:
            total[key.name] = total.get(key.name, 0) + key.population
        self._pop_share = {key: (key.population / total[key.name] if total[key.name] else 1.0)
                           for key in self.cities}
        self._url_names = {self._squash(n): keys for n, keys in self.by_name.items() if len(self._squash(n)) >= 4}

    @staticmethod
    def _norm(name: str) -> str:
        return name.strip().lower()

    @staticmethod
    def _squash(name: str) -> str:
        return re.sub(r"[^a-z0-9]", "", name.lower())

    def resolve(self, name: str, state: str | None = None) -> CityKey | None:
        """The city a name (or alias) means; with a state, the city in that state; else the most populous."""
        keys = self.by_name.get(self._norm(name), [])
        if state:
            for key in keys:
                if key.state == state:
                    return key
        return keys[0] if keys else None

    def mentions(self, text: str) -> list[tuple[int, CityKey]]:
        """(position, city) of every city mention; ambiguous names resolved to the most populous."""
        out = []
        for m in self._city_re.finditer(text):
            key = self.resolve(m.group(1))
            if key is not None:
                out.append((m.start(), key))
        return out

    def content_scores(self, text: str, alpha: float = 0.7, beta: float = 0.5) -> dict[CityKey, float]:
        """pr((c,s)|p) of section 3.4.3 for every target city-state pair mentioned in ``text``."""
        pair_counts: Counter[CityKey] = Counter()
        pair_spans = []
        for m in self._pair_re.finditer(text):
            state = self._state_code.get(m.group(2))
            key = self.resolve(m.group(1), state)
            if key is not None and key.state == state:
                pair_counts[key] += 1
                pair_spans.append((m.start(), m.end()))

        def outside(pos: int) -> bool:
            return not any(a <= pos < b for a, b in pair_spans)

        name_counts: Counter[str] = Counter()
        for m in self._city_re.finditer(text):
            if outside(m.start()):
                for key in self.by_name.get(self._norm(m.group(1)), []):
                    name_counts[key.name] += 1
                    break
        state_counts: Counter[str] = Counter()
        for m in self._state_re.finditer(text):
            code = self._state_code.get(m.group(1))
            if code and outside(m.start()):
                state_counts[code] += 1
        n_states = sum(state_counts.values())
        scores: dict[CityKey, float] = {}
        for key in self.cities:
            c_pair = pair_counts.get(key, 0)
            c_name = name_counts.get(key.name, 0)
            if not c_pair and not c_name:
                continue
            s_tilde = state_counts.get(key.state, 0) / n_states if n_states else 0.0
            p_state = beta * self._pop_share[key] + (1 - beta) * s_tilde
            scores[key] = alpha * c_pair + (1 - alpha) * p_state * c_name
        return scores

    def best_content_city(self, text: str) -> CityKey | None:
        scores = self.content_scores(text)
        if not scores:
            return None
        return max(scores.items(), key=lambda kv: (kv[1], kv[0].population))[0]

    def city_in_url(self, url: str) -> CityKey | None:
        """A target city named in the URL's host or path (los-angeles, losangeles, la_times no)."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        text = unquote(f"{parts.hostname or ''}/{parts.path}").lower()
        tokens = [t for t in re.split(r"[^a-z0-9]+", text) if t]
        best: CityKey | None = None
        # single tokens and joined runs of 2-3 tokens ("san-diego" -> "sandiego")
        for n in (3, 2, 1):
            for i in range(len(tokens) - n + 1):
                keys = self._url_names.get("".join(tokens[i:i + n]))
                if keys:
                    if best is None or keys[0].population > best.population:
                        best = keys[0]
            if best is not None:
                return best
        return None

    def city_near_anchor(self, anchor: str, context: str) -> CityKey | None:
        """The city mentioned in the extended anchor text closest to the anchor itself."""
        if anchor:
            inside = self.mentions(anchor)
            if inside:
                return inside[0][1]
        if not context:
            return None
        at = context.find(anchor) if anchor else -1
        centre = at + len(anchor) / 2 if at >= 0 else len(context) / 2
        found = self.mentions(context)
        if not found:
            return None
        return min(found, key=lambda pk: (abs(pk[0] - centre), -pk[1].population))[1]
