"""Crawl strategies and the bridge-distance arithmetic of Ahlers & Boll (section 4.1).

The adaptive priority, score + prediction * (1 - score), is
:func:`geofocus.prediction.model.priority`; a fetched page's own distance (0 for a seed
or a relevant page) is :attr:`geofocus.pagemeta.PageMeta.page_distance`.
"""

from __future__ import annotations

# online: hashed-feature logistic link model with host yield (geofocus/prediction/online.py);
# classifier: Tsikrika et al.'s link SVM with map images (geofocus/classifier/).
STRATEGIES = ("adaptive", "distance", "bfs", "online", "classifier")


class UnknownStrategyError(ValueError):
    def __init__(self, name: str):
        super().__init__(f"unknown strategy {name!r}; available strategies: {', '.join(STRATEGIES)}")


def check_strategy(name: str) -> str:
    name = (name or "").strip().lower()
    if name not in STRATEGIES:
        raise UnknownStrategyError(name)
    return name


def decay_score(dist: int, decay: float) -> float:
    """score = decay ** dist (1 for dist 0: a seed or a relevant page)."""
    return decay**dist


def bfs_priority(seed_dist: int) -> float:
    """Breadth-first as a priority in (0, 1]: nearer the seeds comes first."""
    return 1.0 / (1 + seed_dist)

