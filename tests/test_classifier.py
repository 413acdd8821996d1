"""Unit tests of the classifier strategy's parts: link SVM, map classifier, policy, model files."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from geofocus.classifier.config import ClassifierConfigError, load_config
from geofocus.classifier.image import (
    N_FEATURES,
    ImageRejected,
    MapImageClassifier,
    features_of_bytes,
    is_map_embed,
)
from geofocus.classifier.policy import DROP, EXPLORE, SELECT, ClassifierPolicy, PolicyError
from geofocus.classifier.svm import ModelFileError
from geofocus.classifier.text import LinkTextClassifier, geo_count, region_geo_terms, tokens
from geofocus.regions import load_region
from geofocus.simweb.images import image_bytes, training_set

ROOT = Path(__file__).resolve().parent.parent

# Links of the kinds simweb and real business sites carry: where the way to an address is, and where it is not.
LOCATION_LINKS = [
    {"anchor": "Anfahrt", "context": "So finden Sie uns in der Haarenstraße 12, 26122 Oldenburg"},
    {"anchor": "Kontakt", "context": "Besuchen Sie uns am Schloßplatz in Oldenburg"},
    {"anchor": "Impressum", "context": "Praxis Meyer, Lange Straße 3, Oldenburg"},
    {"anchor": "Lageplan", "context": "Parkplätze direkt an der Achternstraße"},
    {"anchor": "Unser Standort", "context": "Mitten in Oldenburg (Oldb), 26121"},
    {"anchor": "Kontakt & Anfahrt", "context": "Wir freuen uns auf Ihren Besuch in Oldenburg"},
]
OTHER_LINKS = [
    {"anchor": "Teilen", "context": "Auf Facebook teilen | Twitter"},
    {"anchor": "Datenschutz", "context": "Cookies und Datenschutzerklärung"},
    {"anchor": "Newsletter", "context": "Jetzt anmelden und Rabatte sichern"},
    {"anchor": "Jobs", "context": "Karriere bei uns: offene Stellen"},
    {"anchor": "Blog", "context": "Neuigkeiten aus der Welt der Technik"},
    {"anchor": "Bewerten", "context": "Ihre Meinung zählt: jetzt bewerten"},
]


def _link_training_set() -> tuple[list[str], list[bool]]:
    texts, labels = [], []
    places = ["Oldenburg", "Haarenstraße", "26122", "Schloßplatz", "Donnerschweer Straße", "26123"]
    for i in range(60):
        place = places[i % len(places)]
        texts.append(f"{['Anfahrt', 'Kontakt', 'Standort', 'Impressum'][i % 4]} Besuchen Sie uns {place}")
        labels.append(True)
        texts.append(f"{['Teilen', 'Datenschutz', 'Newsletter', 'Jobs', 'Blog'][i % 5]} jetzt klicken mehr erfahren")
        labels.append(False)
    return texts, labels


@pytest.fixture(scope="module")
def link_model() -> LinkTextClassifier:
    texts, labels = _link_training_set()
    return LinkTextClassifier.train(texts, labels, region_geo_terms(load_region("oldenburg")), region="oldenburg")


@pytest.fixture(scope="module")
def image_model() -> MapImageClassifier:
    sample = training_set(seed=7, per_kind=10)
    feats = [features_of_bytes(body) for _, body, _ in sample]
    return MapImageClassifier.train(feats, [is_map for _, _, is_map in sample])


# -- text ---------------------------------------------------------------------------


def test_a_plus_s_tokens_and_geographic_terms():
    geo = frozenset(region_geo_terms(load_region("oldenburg")))
    assert {"oldenburg", "26122", "haarenstraße"} <= geo
    toks = tokens("Anfahrt: Haarenstraße 12, 26122 Oldenburg; Gartenweg")
    # place name, postcode, a street of the pack, and a street word of no pack ("...weg").
    assert geo_count(toks, geo) == 4
    assert geo_count(tokens("Teilen auf Facebook"), geo) == 0


def test_link_svm_ranks_links_to_addresses_above_others(link_model):
    location = [link_model.score(link) for link in LOCATION_LINKS]
    other = [link_model.score(link) for link in OTHER_LINKS]
    assert all(0.0 <= s <= 1.0 for s in location + other)
    assert min(location) > max(other), (location, other)
    assert sum(s >= 0.5 for s in location) >= 5


def test_link_svm_file_round_trip_and_version(link_model, tmp_path):
    path = tmp_path / "link.json"
    link_model.save(path)
    loaded = LinkTextClassifier.load(path)
    for link in LOCATION_LINKS + OTHER_LINKS:
        assert loaded.score(link) == pytest.approx(link_model.score(link), abs=1e-6)
    data = json.loads(path.read_text())
    data["version"] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(ModelFileError, match="version 99"):
        LinkTextClassifier.load(path)
    data["version"] = 1
    data["svm"]["weights"] = data["svm"]["weights"][:-1]
    path.write_text(json.dumps(data))
    with pytest.raises(ModelFileError, match="weights"):
        LinkTextClassifier.load(path)


# -- images ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "is_map"),
    [("map", True), ("citymap", True), ("photo", False), ("logo", False), ("banner", False), ("diagram", False)],
)
def test_map_classifier_on_images_it_was_not_trained_on(image_model, kind, is_map):
    # Seed 3: drawn differently from the seed-7 training images.
    for i in range(3):
        _, body = image_bytes(3, f"http://held-out.example/{kind}/{i}", kind, "ok")
        p = image_model.score_bytes(body)
        assert (p >= 0.5) == is_map, (kind, i, p)


def test_image_features_are_histograms():
    _, body = image_bytes(1, "http://x.example/map", "map", "ok")
    f = features_of_bytes(body)
    assert f.shape == (N_FEATURES,)
    assert f[:256].sum() == pytest.approx(1.0)
    assert (f >= 0).all() and (f[256:] <= 1).all()


def _png_header(width: int, height: int) -> bytes:
    """A PNG that declares a size and carries (almost) no pixel data: a decompression bomb's header."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")
    )


def _tiny_png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 10, 10)).save(buf, "PNG")
    return buf.getvalue()


_MAP_PNG = image_bytes(1, "http://x.example/bad-input-map", "map", "ok")[1]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (_MAP_PNG[: len(_MAP_PNG) // 2], "truncated"),
        (_MAP_PNG[:16] + bytes(range(256)) * 8, "corrupt"),
        (b"<!DOCTYPE html><html><body>404</body></html>", "not_image"),
        (b"", "not_image"),
        (_png_header(30000, 30000), "too_many_pixels"),
        (_png_header(3000, 3000), "truncated"),
        (_tiny_png(), "too_small"),
    ],
    ids=["truncated", "corrupt", "html", "empty", "huge", "no-pixel-data", "small"],
)
def test_bad_image_bodies_are_rejected_with_a_reason(image_model, body, reason):
    with pytest.raises(ImageRejected) as info:
        image_model.score_bytes(body)
    assert info.value.reason == reason


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://www.openstreetmap.org/export/embed.html?bbox=8.1,53.1,8.2,53.2&marker=53.14,8.21", True),
        ("https://www.google.com/maps/embed?pb=!1m18!1m12", True),
        ("https://maps.google.de/maps?q=Haarenstra%C3%9Fe&output=embed", True),
        ("https://www.bing.com/maps/embed?h=400&w=500", True),
        ("https://www.youtube.com/embed/dQw4w9WgXcQ", False),
        ("https://www.google.com/recaptcha/api2/anchor", False),
        ("javascript:void(0)", False),
    ],
)
def test_map_embeds_recognised_from_their_urls(url, expected):
    assert is_map_embed(url) is expected


def test_image_svm_file_version_checked(image_model, tmp_path):
    path = tmp_path / "image.json"
    image_model.save(path)
    assert MapImageClassifier.load(path).meta == image_model.meta
    data = json.loads(path.read_text())
    data["features"] = "hsv64"
    path.write_text(json.dumps(data))
    with pytest.raises(ModelFileError, match="features"):
        MapImageClassifier.load(path)


# -- policy -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("selection", "exploration", "score_t", "score_v", "trail", "expected"),
    [
        ("text", "none", 0.7, 0.0, 0, SELECT),
        ("text", "none", 0.4, 1.0, 0, DROP),        # maps do not matter to f'_S
        ("both", "none", 0.4, 1.0, 0, SELECT),      # t2 <= score_T < t1 on a page with a map
        ("both", "none", 0.4, 0.2, 0, DROP),
        ("both", "none", 0.1, 1.0, 0, DROP),        # under t2
        ("visual", "none", 0.0, 0.9, 0, SELECT),    # every link of a page with a map
        ("visual", "none", 0.99, 0.1, 0, DROP),
        ("product", "none", 0.7, 1.0, 0, SELECT),
        ("product", "none", 0.7, 0.0, 0, DROP),
        ("text", "text", 0.25, 0.0, 0, EXPLORE),    # t3 <= score_T < t1
        ("text", "text", 0.25, 0.0, 1, DROP),       # k = 1: the trail stops
        ("text", "text", 0.7, 0.0, 1, SELECT),      # a link over t1 ends the trail
        ("text", "visual", 0.0, 1.0, 0, EXPLORE),
        ("text", "product", 0.25, 0.0, 0, DROP),
    ],
)
def test_selection_and_exploration(selection, exploration, score_t, score_v, trail, expected):
    policy = ClassifierPolicy(t1=0.5, t2=0.3, t3=0.2, selection=selection, exploration=exploration)
    assert policy.decide(score_t, score_v, trail) == expected


def test_fusion_is_equation_3_by_default():
    policy = ClassifierPolicy(t1=0.6, t2=0.2)
    assert policy.fusion(0.3, 1.0) == pytest.approx(0.7)
    assert policy.fusion(0.3, 0.0) == pytest.approx(0.3)
    assert ClassifierPolicy(t1=0.6, t2=0.2, a1=0.5, a2=0.5).fusion(0.4, 1.0) == pytest.approx(0.7)


@pytest.mark.parametrize(
    "kwargs",
    [dict(t1=0.3, t2=0.5), dict(exploration="text", t1=0.3, t3=0.4), dict(selection="magic"), dict(t1=1.5)],
)
def test_inconsistent_thresholds_are_refused(kwargs):
    with pytest.raises(PolicyError):
        ClassifierPolicy(**kwargs)


# -- configuration and model files ----------------------------------------------------


def _settings(**values):
    from conftest import project_settings
    from scrapy.settings import Settings

    return Settings(project_settings(**values))


def test_config_requires_and_checks_model_files(link_model, image_model, tmp_path):
    link = tmp_path / "link.json"
    image = tmp_path / "image.json"
    link_model.save(link)
    image_model.save(image)
    config = load_config(_settings(GEOFOCUS_LINK_SVM=str(link), GEOFOCUS_IMAGE_SVM=str(image)))
    assert config.image is not None and config.policy.selection == "both"
    text_only = load_config(_settings(GEOFOCUS_LINK_SVM=str(link), GEOFOCUS_CLASSIFIER_SELECTION="text"))
    assert text_only.image is None
    with pytest.raises(ClassifierConfigError, match="GEOFOCUS_LINK_SVM"):
        load_config(_settings())
    with pytest.raises(ClassifierConfigError, match="needs a map image SVM"):
        load_config(_settings(GEOFOCUS_LINK_SVM=str(link)))
    with pytest.raises(ClassifierConfigError, match="GEOFOCUS_IMAGE_SVM: .*no such model file"):
        load_config(_settings(GEOFOCUS_LINK_SVM=str(link), GEOFOCUS_IMAGE_SVM=str(tmp_path / "missing.json")))
    with pytest.raises(ClassifierConfigError, match="GEOFOCUS_IMAGE_SVM: .*not a geofocus-image-svm"):
        load_config(_settings(GEOFOCUS_LINK_SVM=str(link), GEOFOCUS_IMAGE_SVM=str(link)))


@pytest.mark.parametrize("problem", ["missing", "wrong_version", "pickle"])
def test_crawl_stops_at_once_on_a_bad_image_model(link_model, tmp_path, problem):
    link = tmp_path / "link.json"
    link_model.save(link)
    image = tmp_path / "image.json"
    if problem == "wrong_version":
        image.write_text(json.dumps({"format": "geofocus-image-svm", "version": 0, "svm": {}}))
    elif problem == "pickle":
        image.write_bytes(b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00\x8c\x08builtins")
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy.cmdline", "crawl", "geo", "-a", "region=oldenburg", "-a", "strategy=classifier",
         "-a", "seeds=http://www.example.de/", "-s", f"GEOFOCUS_RUN_DIR={tmp_path / 'run'}",
         "-s", f"GEOFOCUS_LINK_SVM={link}", "-s", f"GEOFOCUS_IMAGE_SVM={image}"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "GEOFOCUS_IMAGE_SVM" in errors[0], proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "run" / "crawl.jsonl").exists()


# -- scrapy train --------------------------------------------------------------------------


def _scrapy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy.cmdline", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_train_command_builds_both_models(tmp_path):
    from geofocus.simweb.images import write_training_folder

    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"region": "oldenburg"}))
    lines = []
    for i, link in enumerate(LOCATION_LINKS * 3 + OTHER_LINKS * 3):
        relevant = i < len(LOCATION_LINKS) * 3
        lines.append(json.dumps({"url": f"http://site{i}.de/", "relevant": relevant, "link": link}))
    lines.append(json.dumps({"url": "http://seed.de/", "relevant": False, "link": None}))
    lines.append("{not json")
    (run / "crawl.jsonl").write_text("\n".join(lines) + "\n")
    proc = _scrapy("train", str(run), "--link-svm", "-o", str(tmp_path / "link.json"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout)
    assert summary["labels"] == "eval(page)" and summary["examples"] == 36 and summary["positives"] == 18
    model = LinkTextClassifier.load(tmp_path / "link.json")
    assert model.score(LOCATION_LINKS[0]) > model.score(OTHER_LINKS[0])

    write_training_folder(tmp_path / "images", seed=5, per_kind=4)
    (tmp_path / "images" / "other" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    proc = _scrapy("train", "--image-svm", str(tmp_path / "images"), "-o", str(tmp_path / "image.json"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout)
    assert summary["images"] == 24 and summary["maps"] == 8 and summary["skipped"] == 1
    MapImageClassifier.load(tmp_path / "image.json")
    proc = _scrapy("train", "--image-svm", str(tmp_path / "nowhere"), "-o", str(tmp_path / "x.json"))
    assert proc.returncode == 2 and "not a folder" in proc.stderr
