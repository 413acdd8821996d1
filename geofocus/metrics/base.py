"""Shared value types of the metrics library."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class NotAvailable:
    """A measure that cannot be computed from the data at hand, with the reason.

    Metric functions return it instead of a number (e.g. overlap of a one-node crawl),
    so that a report says why a cell is empty instead of printing a misleading 0.
    """

    reason: str

    def __str__(self) -> str:
        return f"not available: {self.reason}"

    def __bool__(self) -> bool:  # so `if value:` never mistakes it for a result
        return False


def is_available(value: Any) -> bool:
    """True if ``value`` is a computed result, not a :class:`NotAvailable`."""
    return not isinstance(value, NotAvailable)


def ratio(numerator: float, denominator: float, reason: str) -> float | NotAvailable:
    """numerator / denominator, or NotAvailable(reason) when the denominator is 0."""
    if not denominator:
        return NotAvailable(reason)
    return numerator / denominator


def read_jsonl(path: Path) -> Iterator[dict[str, Any] | None]:
    """The JSON object of each non-blank line of ``path``; None for a line that is not one."""
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                yield None
                continue
            yield record if isinstance(record, dict) else None
