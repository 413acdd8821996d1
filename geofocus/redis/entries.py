"""The values a shared crawl stores for its queued requests (the key names are in ``keys``).

``B:req`` maps a fingerprint to ``"<home node>\t<slot>\t<request JSON>"``; the
Lua scripts write the home node, this module the rest, and reads entries back.
A value geofocus did not write (no tabs) is read as an entry whose request says
it is malformed, which the scheduler sets aside (``B:bad``) instead of failing.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from geofocus.frontier import MALFORMED_KEY, FrontierEntry, decode_request, encode_request_bytes
from geofocus.redis.keys import clean


def request_value(slot: str, request: dict[str, Any], encoded: bytes | None = None) -> bytes:
    """``"<slot>\\t<request JSON>"`` (UTF-8), as the scripts store it after the home node.

    ``encoded``: the request already encoded as compact JSON (``FrontierEntry.encoded``, what the
    scheduler hands over), stored as is; otherwise encoded here with orjson (the SQLite frontier's
    encoding: about ten times faster than ``json.dumps``, the same JSON)."""
    return clean(slot).encode() + b"\t" + (encoded if encoded is not None else encode_request_bytes(request))


def entry_from_redis(fp: bytes, score: Any, value: bytes) -> FrontierEntry:
    """A FrontierEntry from Redis's ``<slot>\\t<json>``; anything unreadable becomes an entry whose
    request says so (``decode_request``), which the scheduler sets aside."""
    fingerprint = fp.decode("utf-8", "replace")
    try:
        priority = float(score)
    except (TypeError, ValueError):
        priority = 0.0
    slot, sep, payload = value.partition(b"\t")
    if not sep or slot == b"\x01malformed":
        raw = (payload if sep else value).decode("utf-8", "replace")
        return FrontierEntry(fingerprint, priority, "",
                             {MALFORMED_KEY: "not a frontier entry geofocus wrote", "raw": raw[:10000]})
    return FrontierEntry(fingerprint, priority, slot.decode("utf-8", "replace"), decode_request(payload))


def slot_of(request: dict[str, Any]) -> str:
    """The download slot of a stored request: its host (as the scheduler's default slot)."""
    try:
        return urlsplit(str(request.get("url", ""))).hostname or ""
    except ValueError:
        return ""
