"""A Redis pipeline whose results are read by name, not by position."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class NamedPipeline:
    """Wraps a redis-py pipeline (in MULTI mode): ``add(name, lambda p: p.zcard(key))`` queues one
    command and ``execute()`` returns ``{name: result}`` for the named ones.  Commands queued on
    ``.pipe`` directly run too; their results are not returned."""

    def __init__(self, pipe: Any) -> None:
        self.pipe = pipe
        self._index: dict[str, int] = {}

    def add(self, name: str, queue: Callable[[Any], Any]) -> None:
        before = len(self.pipe)
        queue(self.pipe)
        if len(self.pipe) != before + 1:
            raise RuntimeError(f"pipeline result {name!r}: expected one queued command")
        self._index[name] = before

    def execute(self) -> dict[str, Any]:
        results = self.pipe.execute()
        return {name: results[i] for name, i in self._index.items()}
