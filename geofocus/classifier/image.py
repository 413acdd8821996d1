"""score_V: the image classifier (Tsikrika et al., section 4.2), for maps instead of heatmaps.

Each image is described by two histograms in the spirit of the MPEG-7
descriptors the paper used:

* a *scalable colour*-like histogram: 256 bins of HSV (16 hues x 4
  saturations x 4 values), normalised to sum 1;
* an *edge histogram*: the image (as grey levels, 128 x 128) is cut into 4 x 4
  sub-images, each into 4 x 4-pixel blocks; a block's edge is the strongest of
  the five MPEG-7 filters (vertical, horizontal, 45 degrees, 135 degrees,
  non-directional) when it exceeds a threshold; 16 x 5 local bins plus 5
  global bins, each normalised by its number of blocks.

A calibrated linear SVM on the 341 numbers gives P(map).  Decoding is
defensive: a body that is not an image, is corrupt or truncated, too small
(< 100 x 50 px, the paper's minimum) or too many pixels raises
:class:`ImageRejected` with a reason, never anything else.
"""

from __future__ import annotations

import io
import json
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from geofocus.classifier.svm import CalibratedLinearSVM, ModelFileError
from geofocus.classifier.text import read_model_file

FORMAT = "geofocus-image-svm"
VERSION = 1
FEATURES = "hsv256+ehd85"
N_FEATURES = 256 + 85
MIN_WIDTH, MIN_HEIGHT = 100, 50
MAX_PIXELS = 16_000_000  # 4,000 x 4,000: a bigger image is no web map, and costs seconds to decode
_EDGE_THRESHOLD = 11.0

# Map services whose embeds (iframes) show a map: recognised by URL, never fetched.
_MAP_EMBED = re.compile(
    r"(^|\.)(openstreetmap\.org|umap\.openstreetmap\.fr|maps\.google\.[a-z.]+|google\.[a-z.]+/maps|"
    r"bing\.com/maps|maps\.apple\.com|wego\.here\.com|mapquest\.com|maps\.stamen\.com|"
    r"yandex\.[a-z]+/map-widget|api\.mapbox\.com|falk\.de|stadtplan\.[a-z.]+)",
    re.IGNORECASE,
)


_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"RIFF", b"BM")


class ImageRejected(ValueError):
    """An image that cannot or must not be classified; ``reason`` names why (a stat suffix)."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


def is_map_embed(url: str) -> bool:
    """True for the URL of an embedded map of a map service (an iframe's src)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    if parts.scheme not in ("http", "https", ""):
        return False
    host_path = (parts.netloc + parts.path).lower()
    if "google." in parts.netloc.lower() and parts.path.startswith("/maps"):
        return True
    return bool(_MAP_EMBED.search(host_path))


def decode(body: bytes, min_size: tuple[int, int] = (MIN_WIDTH, MIN_HEIGHT), max_pixels: int = MAX_PIXELS) -> Any:
    """The image as an RGB Pillow image at most 256 px wide; ImageRejected otherwise."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(body))
            width, height = image.size
            if width * height > max_pixels:
                raise ImageRejected("too_many_pixels", f"{width}x{height}")
            if width < min_size[0] or height < min_size[1]:
                raise ImageRejected("too_small", f"{width}x{height}")
            image.draft("RGB", (256, 256))  # JPEG: decode at a reduced scale
            image.load()
            rgb = image.convert("RGB")
            rgb.thumbnail((256, 256))
            return rgb
    except ImageRejected:
        raise
    except UnidentifiedImageError:
        # An image signature that Pillow cannot read further is a broken image, not some other file.
        raise ImageRejected("corrupt" if body.startswith(_SIGNATURES) else "not_image") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageRejected("too_many_pixels") from None
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError) as exc:
        reason = "truncated" if "truncat" in str(exc).lower() else "corrupt"
        raise ImageRejected(reason, exc.__class__.__name__) from None


def colour_histogram(rgb: np.ndarray) -> np.ndarray:
    """256-bin HSV histogram (16 H x 4 S x 4 V) of an (h, w, 3) uint8 array, summing to 1."""
    x = rgb.reshape(-1, 3).astype(np.float32) / 255.0
    r, g, b = x[:, 0], x[:, 1], x[:, 2]
    mx = x.max(axis=1)
    mn = x.min(axis=1)
    delta = mx - mn
    safe = np.where(delta == 0, 1.0, delta)
    hue = np.where(mx == r, ((g - b) / safe) % 6, np.where(mx == g, (b - r) / safe + 2, (r - g) / safe + 4))
    hue = np.where(delta == 0, 0.0, hue) / 6.0
    sat = np.where(mx == 0, 0.0, delta / np.where(mx == 0, 1.0, mx))
    hq = np.minimum((hue * 16).astype(int), 15)
    sq = np.minimum((sat * 4).astype(int), 3)
    vq = np.minimum((mx * 4).astype(int), 3)
    hist = np.bincount(hq * 16 + sq * 4 + vq, minlength=256).astype(np.float64)
    return hist / max(hist.sum(), 1.0)


_FILTERS = np.array(
    [
        [1.0, -1.0, 1.0, -1.0],                 # vertical
        [1.0, 1.0, -1.0, -1.0],                 # horizontal
        [2**0.5, 0.0, 0.0, -(2**0.5)],          # 45 degrees
        [0.0, 2**0.5, -(2**0.5), 0.0],          # 135 degrees
        [2.0, -2.0, -2.0, 2.0],                 # non-directional
    ]
)


def edge_histogram(grey: np.ndarray) -> np.ndarray:
    """85-bin MPEG-7-style edge histogram of a 128 x 128 float grey image."""
    # 32 x 32 blocks of 4 x 4 px, each averaged into 2 x 2 quadrants (the filter inputs).
    q = grey.reshape(32, 2, 2, 32, 2, 2).mean(axis=(2, 5))  # (32, 2, 32, 2): block row, qy, block col, qx
    quads = q.transpose(0, 2, 1, 3).reshape(32, 32, 4)       # [top-left, top-right, bottom-left, bottom-right]
    strength = np.abs(quads @ _FILTERS.T)                     # (32, 32, 5)
    kind = strength.argmax(axis=2)
    edge = strength.max(axis=2) >= _EDGE_THRESHOLD
    local = np.zeros((4, 4, 5))
    for sy in range(4):
        for sx in range(4):
            k = kind[sy * 8:(sy + 1) * 8, sx * 8:(sx + 1) * 8][edge[sy * 8:(sy + 1) * 8, sx * 8:(sx + 1) * 8]]
            local[sy, sx] = np.bincount(k, minlength=5) / 64.0
    glob = local.reshape(16, 5).mean(axis=0)
    return np.concatenate([local.reshape(-1), glob])


def features(image: Any) -> np.ndarray:
    """The 341 numbers of an RGB Pillow image."""
    rgb = np.asarray(image, dtype=np.uint8)
    grey_img = image.convert("L").resize((128, 128))
    grey = np.asarray(grey_img, dtype=np.float64)
    return np.concatenate([colour_histogram(rgb), edge_histogram(grey)])


def features_of_bytes(body: bytes, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    return features(decode(body, max_pixels=max_pixels))


class MapImageClassifier:
    """P(map) of an image from its colour and edge histograms (a calibrated linear SVM)."""

    def __init__(self, svm: CalibratedLinearSVM, meta: dict[str, Any] | None = None):
        self.svm = svm
        self.meta = dict(meta or {})

    def probability(self, feats: np.ndarray) -> float:
        return float(self.svm.probability(np.asarray(feats, dtype=np.float64)))

    def score_bytes(self, body: bytes, max_pixels: int = MAX_PIXELS) -> float:
        return self.probability(features_of_bytes(body, max_pixels=max_pixels))

    @classmethod
    def train(cls, feats: Sequence[np.ndarray], labels: Sequence[bool], c: float = 1.0) -> MapImageClassifier:
        x = np.vstack(feats)
        y = np.asarray([1 if v else 0 for v in labels])
        svm = CalibratedLinearSVM.fit(x, y, c=c)
        return cls(svm, {"examples": len(y), "maps": int(y.sum())})

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "features": FEATURES, "meta": self.meta,
                "svm": self.svm.to_json()}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> MapImageClassifier:
        data = read_model_file(path, FORMAT, VERSION)
        if data.get("features") != FEATURES:
            raise ModelFileError(
                f"{path}: image features {data.get('features')!r}, this geofocus computes {FEATURES!r}")
        return cls(CalibratedLinearSVM.from_json(data.get("svm"), N_FEATURES), data.get("meta") or {})


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp")


def labelled_images(folder: str | Path) -> list[tuple[Path, bool]]:
    """Images under ``folder``: those in a sub-folder named ``map`` or ``maps`` are maps, the rest not."""
    root = Path(folder)
    out = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES:
            label = path.parent.name.lower() in ("map", "maps")
            out.append((path, label))
    return out
