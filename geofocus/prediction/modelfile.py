"""A crawl's link model on disk: which file it starts from, and saving it as it learns.

``RUN_DIR/model.json`` (``adaptive``'s naive Bayes) or ``RUN_DIR/model.npz``
(``online``'s logistic weights; plain arrays, no pickle).  A resumed crawl
starts from its own file, a new one from ``GEOFOCUS_MODEL`` (a warm start) or
empty.  The model is saved every ``GEOFOCUS_MODEL_SAVE_INTERVAL`` seconds while it
learns and at close, only when it changed.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


class SavableModel(Protocol):
    def save(self, path: str | Path) -> None: ...


class ModelFile:
    def __init__(self, path: Path, initial: str | None, save_interval: float, stats: StatsCollector) -> None:
        self.path = path
        self.initial = Path(initial) if initial else None
        self.save_interval = save_interval
        self.stats = stats
        self.dirty = False
        self.last_save = time.monotonic()

    def source(self, resume: bool = True) -> Path | None:
        """The file to start from: this crawl's own (when ``resume``), else the warm start, else None."""
        if resume and self.path.exists():
            return self.path
        return self.initial

    def changed(self, model: SavableModel) -> None:
        """The model learned: save it if the last save is ``save_interval`` seconds old."""
        self.dirty = True
        if time.monotonic() - self.last_save >= self.save_interval:
            self.save(model)

    def mark_changed(self) -> None:
        """The model changed without learning here (merged from the crawl's pool): save it next time."""
        self.dirty = True

    def save(self, model: SavableModel) -> None:
        self.last_save = time.monotonic()
        if not self.dirty:
            return
        started = time.monotonic()
        model.save(self.path)
        self.dirty = False
        self.stats.inc_value("geofocus/prediction/model_saves")
        logger.debug("link model saved to %s in %.3f s: %r", self.path, time.monotonic() - started, model)
