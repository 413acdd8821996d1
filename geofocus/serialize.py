"""Requests as JSON-safe dicts (never pickle: frontiers may be shared stores).

Scrapy's ``Request.to_dict`` keeps headers and body as bytes; they are
carried here as latin-1 strings, which maps every byte to one code point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.utils.request import request_from_dict

if TYPE_CHECKING:
    from scrapy import Spider


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
    data: dict[str, Any] = {
        "url": request.url,
        "callback": _method_name(request.callback, spider),
        "errback": _method_name(request.errback, spider),
        "headers": dict(request.headers),
    }
    for attr in request.attributes:
        data.setdefault(attr, getattr(request, attr))
    if type(request) is not Request:
        data["_class"] = type(request).__module__ + "." + type(request).__name__
    data["headers"] = {_text(k): [_text(v) for v in vs] for k, vs in (data.get("headers") or {}).items()}
    data["body"] = _text(data.get("body") or b"")
    return data


def request_from_json_dict(data: dict[str, Any], spider: Spider | None) -> Request:
    data = dict(data)
    data["headers"] = {
        k.encode("latin-1"): [v.encode("latin-1") for v in vs] for k, vs in (data.get("headers") or {}).items()
    }
    data["body"] = (data.get("body") or "").encode("latin-1")
    return request_from_dict(data, spider=spider)
