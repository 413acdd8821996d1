"""Requests as JSON-safe dicts, and back (never pickle, never an import: frontiers may be shared stores).

Scrapy's ``Request.to_dict`` keeps headers and body as bytes; they are
carried here as latin-1 strings, which maps every byte to one code point.

Reading an entry back must not trust it: a frontier in Redis can be written
by anyone who can reach Redis, and Scrapy's ``request_from_dict`` imports
whatever module the entry's ``_class`` names and looks callbacks up by any
attribute name.  :func:`request_from_json_dict` rebuilds only the request
classes in :data:`REQUEST_CLASSES` (looked up in a table, never imported),
resolves callbacks and errbacks by name to public methods of the spider
only, checks the type of every field, and raises :class:`MalformedRequest`
(one line) for anything else.  The format written is unchanged, so existing
SQLite frontiers and Redis crawls stay readable: the page state
(:class:`geofocus.pagemeta.PageMeta`) is written as the dict it always was, and a
rebuilt request carries that dict until a component reads it.
"""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.http import FormRequest, JsonRequest

from geofocus.frontier import MALFORMED_KEY
from geofocus.pagemeta import wire_meta

if TYPE_CHECKING:
    from scrapy import Spider

#: The only classes a frontier entry can become (``_class`` as ``Request.to_dict`` writes it).
REQUEST_CLASSES: dict[str, type[Request]] = {
    f"{cls.__module__}.{cls.__name__}": cls for cls in (Request, FormRequest, JsonRequest)
}


class MalformedRequest(ValueError):
    """A frontier entry that is not a request geofocus wrote; ``str(exc)`` is one line."""


def _text(value: bytes | str) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else value


def _method_name(method: Any, spider: Spider | None) -> Any:
    """The name of a spider method, found directly (``Request.to_dict`` scans the
    spider with ``inspect.getmembers`` for every request, a tenth of a crawl's CPU)."""
    if not callable(method):
        return method
    name = getattr(method, "__name__", None)
    if spider is not None and name and getattr(method, "__self__", None) is spider:
        return name
    from scrapy.http.request import _find_method  # rare: a callable that is not a bound spider method

    return _find_method(spider, method)


def request_to_json_dict(request: Request, spider: Spider | None) -> dict[str, Any]:
    class_name = f"{type(request).__module__}.{type(request).__name__}"
    if class_name not in REQUEST_CLASSES:
        # it could not be read back: say so now rather than queue it
        raise ValueError(f"request class {class_name} cannot be queued (only {', '.join(REQUEST_CLASSES)})")
    data: dict[str, Any] = {
        "url": request.url,
        "callback": _method_name(request.callback, spider),
        "errback": _method_name(request.errback, spider),
        "headers": dict(request.headers),
    }
    for attr in request.attributes:
        data.setdefault(attr, getattr(request, attr))
    if data.get("meta"):
        data["meta"] = wire_meta(data["meta"])  # the page state as its JSON-able dict
    if type(request) is not Request:
        data["_class"] = class_name
    data["headers"] = {_text(k): [_text(v) for v in vs] for k, vs in (data.get("headers") or {}).items()}
    data["body"] = _text(data.get("body") or b"")
    return data


def _spider_method(spider: Spider | None, name: Any, what: str) -> Any:
    if name is None:
        return None
    if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
        raise MalformedRequest(f"{what} must be the name of a public spider method, not {name!r:.80}")
    if spider is None:
        return None  # no spider to resolve it on (tools): the request keeps no callback
    method = getattr(type(spider), name, None) and getattr(spider, name, None)
    if not callable(method) or getattr(method, "__self__", None) is not spider:
        raise MalformedRequest(f"{what} {name!r} is not a method of spider {spider.name!r}")
    return method


def _check(data: dict[str, Any], key: str, types: tuple[type, ...], what: str) -> None:
    value = data.get(key)
    if value is not None and (not isinstance(value, types) or isinstance(value, bool) and bool not in types):
        raise MalformedRequest(f"{key} must be {what}, not {type(value).__name__}")


def request_from_json_dict(data: Any, spider: Spider | None) -> Request:
    """The request an entry stands for; raises :class:`MalformedRequest` for anything geofocus
    did not write (bad JSON, an unknown ``_class``, a callback that is not a spider method, a
    missing URL, fields of the wrong type).  Imports nothing."""
    if not isinstance(data, dict):
        raise MalformedRequest(f"an entry must be a JSON object, not {type(data).__name__}")
    if MALFORMED_KEY in data:
        raise MalformedRequest(str(data[MALFORMED_KEY]))
    class_name = data.get("_class")
    if class_name is None:
        cls: type[Request] = Request
    elif isinstance(class_name, str) and class_name in REQUEST_CLASSES:
        cls = REQUEST_CLASSES[class_name]
    else:
        raise MalformedRequest(f"unknown request class {class_name!r:.100} (allowed: {', '.join(REQUEST_CLASSES)})")
    url = data.get("url")
    if not isinstance(url, str) or not url:
        raise MalformedRequest("the entry has no URL")
    _check(data, "method", (str,), "a string")
    _check(data, "body", (str,), "a string")
    _check(data, "encoding", (str,), "a string")
    _check(data, "meta", (dict,), "an object")
    _check(data, "cb_kwargs", (dict,), "an object")
    _check(data, "cookies", (dict, list), "an object or a list")
    _check(data, "flags", (list,), "a list")
    _check(data, "priority", (int,), "an integer")
    _check(data, "dont_filter", (bool,), "true or false")
    _check(data, "headers", (dict,), "an object")
    for name, values in (data.get("headers") or {}).items():
        if not isinstance(name, str) or not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise MalformedRequest("headers must map names to lists of strings")
    kwargs: dict[str, Any] = {k: data[k] for k in cls.attributes if k in data and data[k] is not None}
    try:
        if "encoding" in kwargs:
            codecs.lookup(kwargs["encoding"])
        kwargs["headers"] = {
            k.encode("latin-1"): [v.encode("latin-1") for v in vs]
            for k, vs in (data.get("headers") or {}).items()
        }
        kwargs["body"] = (data.get("body") or "").encode("latin-1")
    except (AttributeError, TypeError, UnicodeError, LookupError) as exc:
        raise MalformedRequest(f"unreadable headers, body or encoding ({exc})") from None
    kwargs["callback"] = _spider_method(spider, data.get("callback"), "callback")
    kwargs["errback"] = _spider_method(spider, data.get("errback"), "errback")
    try:
        return cls(**kwargs)
    except (ValueError, TypeError, AttributeError, LookupError) as exc:
        reason = f"{str(exc).splitlines()[0] if str(exc) else exc!r:.200}"
        raise MalformedRequest(f"not a valid request ({reason})") from None
