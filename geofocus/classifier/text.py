"""score_T(h): the text classifier of a link's local context (Tsikrika et al., section 4.1).

The link is represented by its *a+s* text: the anchor text plus the text
around it (up to 50 characters each side, stopping at the neighbouring links,
as :func:`geofocus.linkextract.extract_links` gives it as ``context``).  Its
features are the tf-idf weights of its words (sublinear tf, L2-normalised,
vocabulary and idf learned at training) plus one feature for the number of
geographic terms of the region pack it contains (place names, postcodes,
street names and street words), scaled to [0, 1].  A linear SVM with Platt
calibration (:mod:`geofocus.classifier.svm`) turns them into a probability.

The model file is JSON: ``{"format": "geofocus-link-svm", "version": 1,
"region": ..., "vocabulary": [...], "idf": [...], "geo_terms": [...],
"svm": {...}}``.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from geofocus.classifier.svm import CalibratedLinearSVM, ModelFileError

FORMAT = "geofocus-link-svm"
VERSION = 1

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
# Street words of German and US addresses: a word ending so is a street name.
STREET_SUFFIXES = ("straße", "strasse", "str", "weg", "platz", "allee", "damm", "wall", "ring", "gasse", "chaussee")
STREET_WORDS = frozenset(
    "straße strasse str weg platz allee damm wall ring gasse chaussee street st avenue ave road rd "
    "boulevard blvd drive dr lane ln".split()
)
# Saturation of the geographic-term count feature.
GEO_CAP = 5


def tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.lower()) if len(t) > 1 or t.isdigit()]


def link_text(link: Mapping[str, Any]) -> str:
    """The a+s text of a link: anchor, title and the text around it."""
    return " ".join(str(link.get(k) or "") for k in ("anchor", "title", "context"))


def region_geo_terms(region: Any) -> list[str]:
    """Single-word geographic terms of a region pack: place names, postcodes, street names."""
    words: set[str] = set()
    names = list(region.city_names()) + list(region.postcodes) + list(region.streets)
    for city in getattr(region, "cities", ()):
        words.update(tokens(" ".join(getattr(city, "districts", ()) or ())))
    for name in names:
        words.update(t for t in tokens(name) if len(t) > 2 or t.isdigit())
    return sorted(words - {"stadt", "in", "der", "die", "am", "an", "im", "oldb", "the", "of"})


def geo_count(toks: Sequence[str], geo_terms: frozenset[str]) -> int:
    n = 0
    for t in toks:
        if t in geo_terms or t in STREET_WORDS or (len(t) > 5 and t.endswith(STREET_SUFFIXES)):
            n += 1
    return n


class LinkTextClassifier:
    """tf-idf + geographic-term count -> calibrated linear SVM; ``score(link)`` in [0, 1]."""

    def __init__(self, vocabulary: Sequence[str], idf: Sequence[float], geo_terms: Iterable[str],
                 svm: CalibratedLinearSVM, region: str = "", meta: Mapping[str, Any] | None = None):
        self.vocabulary = list(vocabulary)
        self.index = {t: i for i, t in enumerate(self.vocabulary)}
        self.idf = np.asarray(idf, dtype=np.float64)
        self.geo_terms = frozenset(geo_terms)
        self.svm = svm
        self.region = region
        self.meta = dict(meta or {})
        # Plain Python lists: scoring one link is a handful of dict lookups.
        self._w = svm.weights[: len(self.vocabulary)].tolist()
        self._idf = self.idf.tolist()
        self._w_geo = float(svm.weights[len(self.vocabulary)])

    @property
    def n_features(self) -> int:
        return len(self.vocabulary) + 1

    # -- features ---------------------------------------------------------------

    def _weights(self, toks: Sequence[str]) -> dict[int, float]:
        counts = Counter(t for t in toks if t in self.index)
        vec = {self.index[t]: (1.0 + math.log(c)) * self._idf[self.index[t]] for t, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in vec.values()))
        if norm:
            vec = {i: v / norm for i, v in vec.items()}
        return vec

    def geo_feature(self, toks: Sequence[str]) -> float:
        return min(geo_count(toks, self.geo_terms), GEO_CAP) / GEO_CAP

    def score_text(self, text: str) -> float:
        toks = tokens(text)
        z = self.svm.bias + self._w_geo * self.geo_feature(toks)
        for i, v in self._weights(toks).items():
            z += self._w[i] * v
        z = self.svm.platt_a * z + self.svm.platt_b
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def score(self, link: Mapping[str, Any]) -> float:
        """score_T(h): probability that the link leads to a relevant page."""
        return self.score_text(link_text(link))

    # -- training -----------------------------------------------------------------

    @classmethod
    def train(cls, texts: Sequence[str], labels: Sequence[bool], geo_terms: Iterable[str], *,
              region: str = "", min_df: int = 2, max_terms: int = 20000, c: float = 1.0) -> LinkTextClassifier:
        from scipy.sparse import csr_matrix

        docs = [tokens(t) for t in texts]
        df: Counter[str] = Counter()
        for d in docs:
            df.update(set(d))
        kept = [t for t, n in df.most_common() if n >= min_df][:max_terms]
        kept.sort()
        n_docs = len(docs)
        idf = [math.log((1 + n_docs) / (1 + df[t])) + 1.0 for t in kept]
        dummy = CalibratedLinearSVM(np.zeros(len(kept) + 1), 0.0, 1.0, 0.0)
        model = cls(kept, idf, geo_terms, dummy, region)
        rows, cols, vals = [], [], []
        for r, d in enumerate(docs):
            for i, v in model._weights(d).items():
                rows.append(r)
                cols.append(i)
                vals.append(v)
            rows.append(r)
            cols.append(len(kept))
            vals.append(model.geo_feature(d))
        x = csr_matrix((vals, (rows, cols)), shape=(n_docs, len(kept) + 1))
        y = np.asarray([1 if v else 0 for v in labels])
        svm = CalibratedLinearSVM.fit(x, y, c=c)
        meta = {"examples": n_docs, "positives": int(y.sum())}
        return cls(kept, idf, geo_terms, svm, region, meta)

    # -- files ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "region": self.region,
            "meta": self.meta,
            "vocabulary": self.vocabulary,
            "idf": [round(float(v), 6) for v in self.idf],
            "geo_terms": sorted(self.geo_terms),
            "svm": self.svm.to_json(),
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> LinkTextClassifier:
        data = read_model_file(path, FORMAT, VERSION)
        try:
            vocabulary = [str(t) for t in data["vocabulary"]]
            idf = [float(v) for v in data["idf"]]
            geo = [str(t) for t in data["geo_terms"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError(f"{path}: bad link SVM file ({exc})") from None
        if len(idf) != len(vocabulary):
            raise ModelFileError(f"{path}: {len(idf)} idf values for {len(vocabulary)} terms")
        svm = CalibratedLinearSVM.from_json(data.get("svm"), len(vocabulary) + 1)
        return cls(vocabulary, idf, geo, svm, str(data.get("region", "")), data.get("meta") or {})


def read_model_file(path: str | Path, fmt: str, version: int) -> dict[str, Any]:
    """The JSON object of a model file, checked for its format and version (ModelFileError otherwise)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelFileError(f"{path}: no such model file") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ModelFileError(f"{path}: not a JSON model file ({exc.__class__.__name__})") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ModelFileError(f"{path}: not a {fmt} file (format {found!r})")
    if data.get("version") != version:
        raise ModelFileError(f"{path}: {fmt} version {data.get('version')!r}, this geofocus reads version {version}")
    return data
