"""Crawl strategies and the bridge-distance arithmetic of Ahlers & Boll (section 4.1).

The adaptive priority, score + prediction * (1 - score), is
:func:`geofocus.prediction.model.priority`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def page_distance(meta: Mapping[str, Any]) -> int:
    """page.dist of a fetched page: 0 for a seed or a relevant page, else the link's dist."""
    if meta.get("seed") or meta.get("relevant"):
        return 0
    return int(meta.get("dist", 0))


def decay_score(dist: int, decay: float) -> float:
    """score = decay ** dist (1 for dist 0: a seed or a relevant page)."""
    return decay**dist


def bfs_priority(seed_dist: int) -> float:
    """Breadth-first as a priority in (0, 1]: nearer the seeds comes first."""
    return 1.0 / (1 + seed_dist)

