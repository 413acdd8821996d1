"""Checks every GEOFOCUS_* setting before a crawl or a command starts.

The allowed values live next to the defaults (``_ALLOWED`` in geofocus/defaults.py); a setting
without an entry there is checked against the type of its default.  A wrong value stops the
command with one line naming the setting, the value and what is allowed (exit code 2), before
any request, instead of a traceback from deep inside a component or a component that quietly
switches itself off.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any, NoReturn

from geofocus import defaults

logger = logging.getLogger(__name__)

PREFIX = "GEOFOCUS_"
# Exactly what Scrapy's Settings.getbool accepts.
_TRUE = {"1", "True", "true"}
_FALSE = {"0", "False", "false"}


class SettingError(ValueError):
    """A setting's value is not allowed; the message is one line for the user."""


def default_values() -> dict[str, Any]:
    return {name: getattr(defaults, name) for name in dir(defaults) if name.startswith(PREFIX)}


def rule_for(name: str) -> dict[str, Any] | None:
    """The allowed values of a known setting (its default's type unless the spec says more)."""
    known = default_values()
    if name not in known:
        return None
    rule = dict(getattr(defaults, "_ALLOWED", {}).get(name, {}))
    rule.setdefault("type", type(known[name]))
    return rule


def _describe(rule: dict[str, Any]) -> str:
    kind = rule["type"]
    if "choices" in rule:
        return "one of " + ", ".join(repr(c) if c == "" else str(c) for c in rule["choices"])
    if kind is bool:
        return "True or False"
    noun = {int: "a whole number", float: "a number", str: "text"}.get(kind, kind.__name__)
    bounds = []
    if "above" in rule:
        bounds.append(f"> {rule['above']:g}")
    if "min" in rule:
        bounds.append(f">= {rule['min']:g}")
    if "below" in rule:
        bounds.append(f"< {rule['below']:g}")
    if "max" in rule:
        bounds.append(f"<= {rule['max']:g}")
    if rule.get("file"):
        return "the path of an existing file (or empty)"
    return noun + (" " + " and ".join(bounds) if bounds else "")


def convert(name: str, value: Any, rule: dict[str, Any]) -> Any:
    """The value as the rule's type, or SettingError."""
    kind = rule["type"]
    try:
        if kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ValueError(value)
        if kind is int:
            if isinstance(value, bool):
                raise ValueError(value)
            if isinstance(value, float):
                if not value.is_integer():
                    raise ValueError(value)
                return int(value)
            return int(str(value).strip())
        if kind is float:
            if isinstance(value, bool):
                raise ValueError(value)
            number = float(str(value).strip()) if not isinstance(value, (int, float)) else float(value)
            if number != number or number in (float("inf"), float("-inf")):
                raise ValueError(value)
            return number
        if kind is str:
            if not isinstance(value, (str, int, float)):
                raise ValueError(value)
            return str(value)
    except (TypeError, ValueError):
        raise SettingError(f"{name}={value!s}: not allowed; must be {_describe(rule)}") from None
    return value


def check_value(name: str, value: Any) -> Any:
    rule = rule_for(name)
    if rule is None:
        return value
    converted = convert(name, value, rule)
    bad = False
    if "choices" in rule:
        bad = str(converted).strip().lower() not in {str(c).lower() for c in rule["choices"]}
    if isinstance(converted, (int, float)) and not isinstance(converted, bool):
        bad = bad or ("min" in rule and converted < rule["min"])
        bad = bad or ("max" in rule and converted > rule["max"])
        bad = bad or ("above" in rule and converted <= rule["above"])
        bad = bad or ("below" in rule and converted >= rule["below"])
    if rule.get("file") and converted and not Path(str(converted)).is_file():
        raise SettingError(f"{name}={value!s}: no such file; must be {_describe(rule)}")
    if bad:
        raise SettingError(f"{name}={value!s}: not allowed; must be {_describe(rule)}")
    return converted


def check_settings(settings: Any) -> list[str]:
    """Raise SettingError for the first GEOFOCUS_* setting whose value is not allowed.

    Returns warnings: a GEOFOCUS_* name that has no default is almost always a typo.
    """
    known = default_values()
    retired: dict[str, str] = getattr(defaults, "_RETIRED", {})
    warnings = []
    names = sorted(n for n in _names(settings) if n.startswith(PREFIX))
    for name in names:
        if name in retired:
            warnings.append(f"{name} is no longer used ({retired[name]}), ignored")
            continue
        if name not in known:
            warnings.append(f"unknown setting {name} (not in geofocus/defaults.py), ignored")
            continue
        check_value(name, settings.get(name))
    return warnings


def _names(settings: Any) -> list[str]:
    try:
        return list(settings.keys())
    except AttributeError:
        return list(settings)


def fail(command: str, message: str, code: int = 2) -> NoReturn:
    """One line on stderr and the exit code; no usage text, no traceback."""
    print(f"{command}: error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(code)


def check_or_exit(settings: Any, command: str) -> None:
    try:
        warnings = check_settings(settings)
    except SettingError as exc:
        fail(command, str(exc))
    for warning in warnings:
        print(f"{command}: warning: {warning}", file=sys.stderr, flush=True)
