"""Requests as JSON-safe dicts (never pickle: frontiers may be shared stores).

Scrapy's ``Request.to_dict`` keeps headers and body as bytes; they are
carried here as latin-1 strings, which maps every byte to one code point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.utils.request import request_from_dict

if TYPE_CHECKING:
    from scrapy import Request, Spider


def _text(value: bytes | str) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else value


def request_to_json_dict(request: Request, spider: Spider | None) -> dict[str, Any]:
    data = request.to_dict(spider=spider)
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
