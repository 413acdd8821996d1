"""The settings spec next to the defaults (geofocus/defaults.py) and its checker."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from geofocus import defaults
from geofocus.settingscheck import SettingError, check_settings, check_value, default_values, rule_for


def test_every_default_is_allowed_by_its_own_rule():
    for name, value in default_values().items():
        assert check_value(name, value) == value or value == "", name


def test_every_rule_names_a_setting_with_a_default():
    assert set(defaults._ALLOWED) <= set(default_values())


def test_a_setting_without_a_rule_is_checked_against_its_default_type(monkeypatch):
    monkeypatch.setattr(defaults, "GEOFOCUS_NEW_WIDGET_COUNT", 5, raising=False)
    assert rule_for("GEOFOCUS_NEW_WIDGET_COUNT") == {"type": int}
    assert check_value("GEOFOCUS_NEW_WIDGET_COUNT", "7") == 7
    with pytest.raises(SettingError, match=r"^GEOFOCUS_NEW_WIDGET_COUNT=7.5: not allowed; must be a whole number$"):
        check_value("GEOFOCUS_NEW_WIDGET_COUNT", "7.5")
    with pytest.raises(SettingError, match="must be True or False"):
        check_value("GEOFOCUS_TRAP_FILTER_ENABLED", "maybe")


@pytest.mark.parametrize("name, value, converted", [
    ("GEOFOCUS_DECAY", "1", 1.0), ("GEOFOCUS_DECAY", "0.25", 0.25), ("GEOFOCUS_MAX_PAGES", "0", 0),
    ("GEOFOCUS_ALLOW_PRIVATE", "True", True), ("GEOFOCUS_ALLOW_PRIVATE", "0", False),
    ("GEOFOCUS_STRATEGY", "bfs", "bfs"), ("GEOFOCUS_PARTITION", "", ""),
])
def test_allowed_values_pass_converted(name, value, converted):
    assert check_value(name, value) == converted


@pytest.mark.parametrize("name, value", [
    ("GEOFOCUS_DECAY", "0"), ("GEOFOCUS_DECAY", "1.01"), ("GEOFOCUS_DECAY", "nan"), ("GEOFOCUS_DECAY", ""),
    ("GEOFOCUS_MAX_PAGES", "-1"), ("GEOFOCUS_MAX_PAGES", "1e3"), ("GEOFOCUS_PREDICTION_DEPTH", "0"),
    ("GEOFOCUS_ALLOW_PRIVATE", "yes"), ("GEOFOCUS_PROMETHEUS_PORT", "70000"), ("GEOFOCUS_STRATEGY", "fast"),
])
def test_wrong_values_raise_one_line_naming_setting_value_and_what_is_allowed(name, value):
    with pytest.raises(SettingError) as info:
        check_value(name, value)
    message = str(info.value)
    assert message.startswith(f"{name}={value}: ") and "must be" in message and "\n" not in message


def test_unknown_geofocus_names_are_reported_as_warnings():
    settings = Settings({"GEOFOCUS_MAX_PAGE": "10", "GEOFOCUS_DECAY": "0.5"})
    assert check_settings(settings) == ["unknown setting GEOFOCUS_MAX_PAGE (not in geofocus/defaults.py), ignored"]


def test_retired_settings_are_ignored_with_a_warning_that_says_so():
    settings = Settings({"GEOFOCUS_FRONTIER_LOOKAHEAD": "64", "GEOFOCUS_FRONTIER_BATCH": "-5"})
    warnings = check_settings(settings)  # not checked against a rule: they are not read at all
    assert [w.split(" ")[0] for w in warnings] == ["GEOFOCUS_FRONTIER_BATCH", "GEOFOCUS_FRONTIER_LOOKAHEAD"]
    assert all("no longer used" in w and w.endswith("ignored") for w in warnings)
