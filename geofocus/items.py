from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class PageItem:
    """A relevant page: one item per page that carries an address of the region."""

    url: str
    addresses: list[dict[str, Any]] = field(default_factory=list)
    priority: float | None = None
    score: float | None = None
    prediction: float | None = None
    dist: int = 0
    seed_dist: int = 0
    depth: int = 0
    parent: str | None = None
    fetched_at: float = 0.0
