"""Training data for the two classifiers (used by ``scrapy train --link-svm`` / ``--image-svm``).

* The link SVM learns from earlier crawls: every evaluated page of a crawl log
  carries the link it was found by (anchor, title, context); its label is the
  page's grade in a truth file (simweb's ``--truth``: ``relevant``, or also
  ``partial`` with ``lenient``) or, without one, the crawl's own eval(page).
* The image SVM learns from a folder of labelled images (``map/`` or
  ``maps/`` sub-folders are maps, every other image is not).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from geofocus.classifier.image import ImageRejected, MapImageClassifier, features_of_bytes, labelled_images
from geofocus.classifier.text import LinkTextClassifier, link_text, region_geo_terms
from geofocus.metrics.truth import Truth
from geofocus.prediction.training import crawl_log_path, read_crawl_log


@dataclass
class LinkExamples:
    texts: list[str]
    labels: list[bool]
    pages: int = 0
    without_link: int = 0


def run_region(run: str | Path) -> str | None:
    """The region a run directory crawled (its run.json), if known."""
    path = Path(run) / "run.json"
    try:
        return json.loads(path.read_text()).get("region")
    except (OSError, ValueError, AttributeError):
        return None


def link_examples(runs: Sequence[str | Path], truth: Truth | None = None, lenient: bool = False) -> LinkExamples:
    wanted = ("relevant", "partial") if lenient else ("relevant",)
    out = LinkExamples([], [])
    seen: set[str] = set()
    for run in runs:
        for record in read_crawl_log(crawl_log_path(run)):
            url = str(record.get("url", ""))
            if url in seen:
                continue
            seen.add(url)
            out.pages += 1
            link = record.get("link")
            if not isinstance(link, dict):
                out.without_link += 1
                continue
            label = truth.grade(url) in wanted if truth is not None else bool(record.get("relevant"))
            out.texts.append(link_text(link))
            out.labels.append(label)
    return out


def train_link_svm(runs: Sequence[str | Path], region: Any, truth: Truth | None = None, lenient: bool = False,
                   c: float = 1.0) -> tuple[LinkTextClassifier, LinkExamples]:
    examples = link_examples(runs, truth, lenient)
    model = LinkTextClassifier.train(examples.texts, examples.labels, region_geo_terms(region), region=region.name, c=c)
    return model, examples


def train_image_svm(folder: str | Path, c: float = 1.0) -> tuple[MapImageClassifier, dict[str, int]]:
    feats, labels = [], []
    counts = {"images": 0, "maps": 0, "skipped": 0}
    for path, is_map in labelled_images(folder):
        try:
            feats.append(features_of_bytes(path.read_bytes()))
        except (ImageRejected, OSError):
            counts["skipped"] += 1
            continue
        labels.append(is_map)
        counts["images"] += 1
        counts["maps"] += int(is_map)
    return MapImageClassifier.train(feats, labels, c=c), counts
