"""Which node a page's text belongs to, for the ``classification`` policy (Gao, Lee & Miao 2006, 3.4.4).

The paper's naive Bayes classifier over page text, one class per node, trained during the crawl
on the pages whose addresses name a target city.  The model is the product's naive Bayes
(``geofocus.prediction.model.BridgeNaiveBayes``, depth 1), one per node, one-vs-rest: the model
of node n learns each labelled page as "n" (1) or "another node" (0), and a page goes to the
node whose model gives it the highest p(n | words).  A node first seen late starts with every
earlier page as a negative example (the other nodes' positives), so its model is the one it
would be had it existed from the start.
"""

from __future__ import annotations

import re

from geofocus.prediction.model import BridgeNaiveBayes

# Words of a page: lower-case runs of a letter and letters/digits (2-31 characters), the first 5,000.
_WORD = re.compile(r"[a-z][a-z0-9]{1,30}")
MAX_WORDS = 5000


class TextClassifier:
    """One-vs-rest naive Bayes over page words; ``predict`` is None until a page was learned."""

    def __init__(self, alpha: float = 1.0) -> None:
        self.alpha = alpha
        self.models: dict[str, BridgeNaiveBayes] = {}

    @staticmethod
    def tokens(text: str) -> list[str]:
        return _WORD.findall(text.lower())[:MAX_WORDS]

    def learn(self, text: str, label: str) -> None:
        words = self.tokens(text)
        if label not in self.models:
            self.models[label] = self._new_model()
        for node, model in self.models.items():
            model.learn(words, 1, node == label)

    def _new_model(self) -> BridgeNaiveBayes:
        """A model whose negatives are every page learned so far (the other models' positives)."""
        model = BridgeNaiveBayes(depth=1, alpha=self.alpha)
        for other in self.models.values():
            data = other.to_dict()
            (_, pos), = data["docs"]
            data["docs"] = [[pos, 0]]
            data["terms"] = {t: [c[1], 0] for t, c in data["terms"].items() if c[1]}
            model.merge(data)
        return model

    def predict(self, text: str) -> str | None:
        """The node of the most probable class, or None before any page was learned."""
        if not self.models:
            return None
        words = self.tokens(text)
        best, best_p = None, -1.0
        for node, model in self.models.items():
            p = model.probabilities(words)[0]
            if p > best_p:
                best, best_p = node, p
        return best
