"""The classifier strategy's configuration: policy and model files, checked before a crawl starts.

``scrapy crawl geo -a strategy=classifier`` checks these in the spider's
argument check (exit code 2 and one line on a bad setting or model file),
and the middleware loads them with the same function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from geofocus.classifier.image import MapImageClassifier
from geofocus.classifier.policy import ClassifierPolicy, PolicyError
from geofocus.classifier.svm import ModelFileError
from geofocus.classifier.text import LinkTextClassifier


class ClassifierConfigError(ValueError):
    pass


@dataclass
class ClassifierConfig:
    policy: ClassifierPolicy
    text: LinkTextClassifier
    image: MapImageClassifier | None
    max_images: int
    max_image_bytes: int


def load_config(settings: Any) -> ClassifierConfig:
    """Policy and models from the settings; ClassifierConfigError with a one-line reason otherwise."""
    try:
        policy = ClassifierPolicy.from_settings(settings)
    except PolicyError as exc:
        raise ClassifierConfigError(str(exc)) from None
    link_path = settings.get("GEOFOCUS_LINK_SVM") or ""
    image_path = settings.get("GEOFOCUS_IMAGE_SVM") or ""
    if not link_path:
        raise ClassifierConfigError(
            "strategy classifier needs a link SVM: -s GEOFOCUS_LINK_SVM=FILE (scrapy train --link-svm ...)"
        )
    if policy.uses_images and not image_path:
        raise ClassifierConfigError(
            f"selection {policy.selection!r} / exploration {policy.exploration!r} needs a map image SVM: "
            "-s GEOFOCUS_IMAGE_SVM=FILE (scrapy train --image-svm FOLDER ...)"
        )
    try:
        text = LinkTextClassifier.load(link_path)
    except ModelFileError as exc:
        raise ClassifierConfigError(f"GEOFOCUS_LINK_SVM: {exc}") from None
    image = None
    if image_path:  # a configured image model is always checked: a wrong file should not wait for the first map
        try:
            image = MapImageClassifier.load(image_path)
        except ModelFileError as exc:
            raise ClassifierConfigError(f"GEOFOCUS_IMAGE_SVM: {exc}") from None
    max_images = settings.getint("GEOFOCUS_IMAGE_MAX_PER_PAGE")
    max_bytes = settings.getint("GEOFOCUS_IMAGE_MAX_BYTES")
    if max_images < 0 or max_bytes <= 0:
        raise ClassifierConfigError("GEOFOCUS_IMAGE_MAX_PER_PAGE must be >= 0 and GEOFOCUS_IMAGE_MAX_BYTES > 0")
    return ClassifierConfig(policy, text, image if policy.uses_images else None, max_images, max_bytes)


def check_settings(settings: Any) -> None:
    """Raise ClassifierConfigError (a ValueError) if the strategy cannot run with these settings."""
    load_config(settings)
