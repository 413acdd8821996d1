"""Assignment of URLs to collaborating crawl nodes (Gao, Lee & Miao 2006, section 3).

Pure Python, no Scrapy.  A :class:`NodePlan` names the nodes and which node
owns each city of the region; a policy maps a fetched page (and each of its
links) to a node, following policy A: all URLs extracted from page p go to
the node of p's most probable city (``url`` and ``anchor`` decide per link,
as in the paper).  A page or link about no target city goes to the general
node.  Policies:

- ``hash``: a uniform hash of the URL (the baseline; most URLs leave their node).
- ``host``: a hash of the host, so every URL of a host is fetched by one node
  and politeness holds across workers (the default for a one-city region).
- ``url``: a city name (or alias) in the link's URL.
- ``anchor``: a city in the extended anchor text; the mention closest to the
  anchor wins.
- ``content``: argmax of pr((c,s)|p) = a*#((c,s),p) + (1-a)*(b*S(s|c) + (1-b)*S~(s|p))*#(c,p),
  a = 0.7, b = 0.5, S from population (section 3.4.3).
- ``classification``: a naive Bayes classifier over page text, one class per
  node, trained on the crawl's own pages whose addresses name a target city.
- ``ip``: the city of the server's IP address in a GeoIP table (GEOFOCUS_GEOIP_DB).

Aliasing (LA, L.A.) comes from the region pack's aliases; an ambiguous bare
city name (Glendale, Arlington, Aurora) means the most populous city of that
name (section 3.5).
"""

from __future__ import annotations

import csv
import hashlib
import ipaddress
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from geofocus.geoparser.us import STATES

POLICIES = ("host", "hash", "url", "anchor", "content", "classification", "ip")
GENERAL = "general"

# Time zones of the paper's Table 1 -> node (Cn1..Cn5); Cn0 is the general node.
TIMEZONE_NODES = {
    "Eastern": "eastern",
    "Pacific": "pacific",
    "Mountain": "mountain",
    "Central": "central",
    "Hawaii": "hawaii-alaska",
    "Alaska": "hawaii-alaska",
}



class PartitionError(ValueError):
    """A partition setting cannot work (unknown policy, missing GeoIP database...)."""


def stable_hash(text: str) -> int:
    """A hash that is the same in every process (Python's hash() is salted)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class CityKey:
    name: str
    state: str
    population: int


@dataclass
class NodePlan:
    """The nodes of a collaborative crawl and the owner of each target city."""

    nodes: tuple[str, ...]
    general: str
    city_node: dict[CityKey, str] = field(default_factory=dict)

    def node_of(self, city: CityKey | None) -> str:
        if city is None:
            return self.general
        return self.city_node.get(city, self.general)

    def by_hash(self, key: str) -> str:
        return self.nodes[stable_hash(key) % len(self.nodes)]


def _city_keys(region: Any) -> list[tuple[CityKey, Any, dict[str, Any]]]:
    raw = {(c.get("name"), c.get("state", "")): c for c in region.raw.get("cities", [])} if region.raw else {}
    return [(CityKey(c.name, c.state, c.population), c, raw.get((c.name, c.state), {})) for c in region.cities]


def plan_for_region(region: Any, nodes: str | Sequence[str] = "") -> NodePlan:
    """The node plan: explicit ``nodes`` (comma-separated) for hash/host partitions; otherwise
    one node per time zone of the paper's Table 1 plus the general node for a region set, and a
    single node for a one-city region."""
    names = [n.strip() for n in (nodes.split(",") if isinstance(nodes, str) else nodes) if n.strip()]
    cities = _city_keys(region)
    if names:
        # explicit nodes: cities spread by time zone where known, else by hash; first node is general
        general = names[0]
        geo = names[1:] or names
        zones = sorted({raw.get("timezone", "") for _, _, raw in cities} - {""})
        city_node = {}
        for key, _, raw in cities:
            zone = raw.get("timezone", "")
            idx = zones.index(zone) if zone in zones else stable_hash(key.name)
            city_node[key] = geo[idx % len(geo)]
        return NodePlan(tuple(names), general, city_node)
    if len(cities) <= 1:
        return NodePlan(("default",), "default", {key: "default" for key, _, _ in cities})
    city_node = {}
    for key, _, raw in cities:
        zone = raw.get("timezone", "")
        city_node[key] = TIMEZONE_NODES.get(zone, GENERAL)
    ordered = [GENERAL] + [n for n in dict.fromkeys(TIMEZONE_NODES.values()) if n in city_node.values()]
    return NodePlan(tuple(ordered), GENERAL, city_node)


class Gazetteer:
    """City and state mentions in text, with aliases and population-based disambiguation."""

    def __init__(self, region: Any) -> None:
        self.cities = [key for key, _, _ in _city_keys(region)]
        self.by_name: dict[str, list[CityKey]] = {}
        for key, city, _ in _city_keys(region):
            for name in (city.name, *city.aliases):
                self.by_name.setdefault(self._norm(name), []).append(key)
        for keys in self.by_name.values():
            keys.sort(key=lambda k: -k.population)  # ambiguity: the most populous first
        variants = sorted({n for key, city, _ in _city_keys(region) for n in (city.name, *city.aliases)},
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


class NaiveBayesText:
    """Multinomial naive Bayes over word tokens with Laplace smoothing (classification policy)."""

    def __init__(self, alpha: float = 1.0) -> None:
        self.alpha = alpha
        self.docs: Counter[str] = Counter()
        self.words: dict[str, Counter[str]] = {}
        self.totals: Counter[str] = Counter()
        self.vocab: set[str] = set()

    @staticmethod
    def tokens(text: str) -> list[str]:
        return re.findall(r"[a-z][a-z0-9]{1,30}", text.lower())[:5000]

    def learn(self, text: str, label: str) -> None:
        toks = self.tokens(text)
        self.docs[label] += 1
        counts = self.words.setdefault(label, Counter())
        counts.update(toks)
        self.totals[label] += len(toks)
        self.vocab.update(toks)

    def predict(self, text: str) -> str | None:
        if not self.docs:
            return None
        toks = [t for t in self.tokens(text) if t in self.vocab]
        n = sum(self.docs.values())
        v = len(self.vocab)
        best, best_lp = None, -math.inf
        for label, d in self.docs.items():
            counts, total = self.words[label], self.totals[label]
            lp = math.log(d / n) + sum(
                math.log((counts.get(t, 0) + self.alpha) / (total + self.alpha * v)) for t in toks)
            if lp > best_lp:
                best, best_lp = label, lp
        return best


class GeoIPTable:
    """IP network -> (city, state) from a CSV file ``network,city,state`` (e.g. 192.0.2.0/24,Boston,MA)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if not path or not Path(path).is_file():
            raise PartitionError(
                "GEOFOCUS_PARTITION=ip needs a GeoIP database: set GEOFOCUS_GEOIP_DB to a CSV file "
                "of 'network,city,state' lines" + (f" ({path} does not exist)" if path else "")
            )
        self.networks: list[tuple[Any, str, str]] = []
        with open(path, encoding="utf-8", newline="") as f:
            for row in csv.reader(f):
                if len(row) < 3 or row[0].startswith("#"):
                    continue
                try:
                    self.networks.append((ipaddress.ip_network(row[0].strip(), strict=False),
                                          row[1].strip(), row[2].strip()))
                except ValueError:
                    continue
        # most specific network first
        self.networks.sort(key=lambda n: -n[0].prefixlen)

    def lookup(self, ip: str) -> tuple[str, str] | None:
        try:
            addr = ipaddress.ip_address(ip)
        except ValueError:
            return None
        for net, city, state in self.networks:
            if addr.version == net.version and addr in net:
                return city, state
        return None


@dataclass
class Page:
    """What a policy may look at: the page's URL, text, server IP and the addresses found on it."""

    url: str
    text: str = ""
    ip: str | None = None
    addresses: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Link:
    url: str
    anchor: str = ""
    context: str = ""


class Partitioner:
    """Maps the links of a page to nodes under one policy (policy A where the policy is page-level)."""

    def __init__(self, policy: str, plan: NodePlan, gazetteer: Gazetteer | None = None,
                 geoip: GeoIPTable | None = None) -> None:
        if policy not in POLICIES:
            raise PartitionError(f"unknown partition policy {policy!r}; choose one of {', '.join(POLICIES)}")
        if policy == "ip" and geoip is None:
            raise PartitionError("GEOFOCUS_PARTITION=ip needs a GeoIP database (GEOFOCUS_GEOIP_DB)")
        if policy in ("url", "anchor", "content", "classification", "ip") and gazetteer is None:
            raise PartitionError(f"partition policy {policy!r} needs the region's cities")
        self.policy = policy
        self.plan = plan
        self.gazetteer = gazetteer
        self.geoip = geoip
        self.classifier = NaiveBayesText() if policy == "classification" else None

    def page_city(self, page: Page) -> CityKey | None:
        """The page's most probable target city under a page-level policy (None: not geo-aware)."""
        g = self.gazetteer
        assert g is not None
        if self.policy == "content":
            return g.best_content_city(page.text)
        if self.policy == "ip":
            assert self.geoip is not None
            found = self.geoip.lookup(page.ip or "")
            return g.resolve(found[0], found[1]) if found else None
        if self.policy == "classification":
            assert self.classifier is not None
            labelled = self._address_city(page)
            if labelled is not None:
                # the geoparser's addresses label the page: learn from it, then trust it
                self.classifier.learn(page.text, self.plan.node_of(labelled))
                return labelled
            node = self.classifier.predict(page.text)
            return next((k for k, n in self.plan.city_node.items() if n == node), None) if node else None
        return None

    def _address_city(self, page: Page) -> CityKey | None:
        assert self.gazetteer is not None
        counts: Counter[CityKey] = Counter()
        for a in page.addresses:
            key = self.gazetteer.resolve(str(a.get("city") or ""), a.get("state") or None)
            if key is not None:
                counts[key] += 1
        return counts.most_common(1)[0][0] if counts else None

    def assign(self, page: Page, links: Iterable[Link]) -> list[str]:
        """The node of every link of ``page``, in order."""
        links = list(links)
        plan = self.plan
        if self.policy == "hash":
            return [plan.by_hash(link.url) for link in links]
        if self.policy == "host":
            return [plan.by_hash((urlsplit(link.url).hostname or "").lower()) for link in links]
        g = self.gazetteer
        assert g is not None
        if self.policy == "url":
            return [plan.node_of(g.city_in_url(link.url)) for link in links]
        if self.policy == "anchor":
            return [plan.node_of(g.city_near_anchor(link.anchor, link.context)) for link in links]
        node = plan.node_of(self.page_city(page))
        return [node] * len(links)


def check_settings(settings: Any) -> None:
    """Before a crawl starts: a known policy, and a readable GeoIP table for ``ip``.

    Raises scrapy's UsageError with one line (exit status 2), not a traceback.
    """
    from scrapy.exceptions import UsageError

    policy = (settings.get("GEOFOCUS_PARTITION") or "").strip().lower()
    if not policy:
        return
    if policy not in POLICIES:
        raise UsageError(f"unknown GEOFOCUS_PARTITION {policy!r}; choose one of {', '.join(POLICIES)}",
                         print_help=False)
    if policy == "ip":
        try:
            GeoIPTable(settings.get("GEOFOCUS_GEOIP_DB") or "")
        except PartitionError as exc:
            raise UsageError(str(exc), print_help=False) from None
