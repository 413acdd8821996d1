"""The generation of a shared crawl: how a worker notices that Redis lost (or swapped) the crawl.

A Redis restarted without persistence, flushed, or replaced by another server
answers every command as if nothing happened; a worker that just carried on
would push into an empty crawl, lose every URL the frontier held, fetch pages
again and overshoot the crawl-wide budget, all silently.  So each crawl gets a
random token, ``B:generation``, written once when the crawl is created
(``SET NX``).  Every worker:

- reads it when it opens and remembers it in its run directory
  (``RUN_DIR/redis-crawl.json``), so a worker restarted after a wipe refuses
  to start instead of re-creating the crawl;
- checks it at the start of every sync cycle (``WATCH`` + ``GET``, then the
  cycle's writes in ``MULTI``/``EXEC``), so nothing is written into a Redis
  that lost the crawl: the cycle fails and the worker stops with
  :class:`CrawlLostError`, one line saying what happened and how to recover.

A restart *with* persistence (AOF) keeps the token: the crawl goes on.
"""

from __future__ import annotations

import json
import logging
import uuid
from pathlib import Path
from typing import Any

from geofocus.redis.connection import RedisUnavailableError, redact
from geofocus.redis.keys import CrawlKeys

logger = logging.getLogger(__name__)

STATE_FILE = "redis-crawl.json"
RECOVERY = ("restore Redis with the crawl's data (keep appendonly yes) and restart the workers, "
            "or start the crawl anew under a new GEOFOCUS_CRAWL_ID (the pages fetched so far "
            "are in each worker's RUN_DIR/crawl.jsonl)")


#: Crawl ids this process found lost; ``scrapy crawl`` (geofocus.commands.crawl) then exits with 1.
LOST_CRAWLS: list[str] = []


class CrawlLostError(RedisUnavailableError):
    """Redis no longer holds this worker's crawl; ``str(exc)`` is the one line for the user."""


def generation_key(base: str) -> str:
    return CrawlKeys(base).generation


def server_run_id(client: Any) -> str | None:
    """Redis's run_id (new at every server start), or None if INFO is not allowed."""
    try:
        return str(client.info("server").get("run_id") or "") or None
    except Exception:  # INFO renamed or forbidden by an ACL: the generation key still decides
        return None


def remembered(run_dir: Path | None, base: str) -> str | None:
    """The generation this run directory joined for crawl ``base``, if any."""
    if run_dir is None:
        return None
    try:
        data = json.loads((Path(run_dir) / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("base") != base:
        return None
    value = data.get("generation")
    return value if isinstance(value, str) and value else None


def remember(run_dir: Path | None, base: str, generation: str, url: str) -> None:
    if run_dir is None:
        return
    path = Path(run_dir) / STATE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"base": base, "generation": generation, "redis": redact(url)}) + "\n",
                   encoding="utf-8")
    tmp.replace(path)


def lost_message(crawl_id: str, url: str, what: str) -> str:
    where = redact(url) if url else "Redis"
    return (f"Shared crawl {crawl_id!r} is lost on {where}: {what}. This worker stops so that no URL "
            f"is lost silently. To recover: {RECOVERY}")


def describe_loss(current: bytes | str | None, run_id_then: str | None, run_id_now: str | None) -> str:
    if current is not None:
        return ("Redis holds another generation of this crawl (a different Redis server, or the crawl "
                "was cleared and started again)")
    if run_id_then and run_id_now and run_id_then != run_id_now:
        return "Redis restarted without its data (no persistence, or its AOF/RDB file was lost)"
    return "its keys were deleted (FLUSHALL/FLUSHDB, eviction, or scrapy crawl-admin clear)"


def check(client: Any, base: str, crawl_id: str, run_dir: Path | None, url: str = "") -> None:
    """Read-only, before a worker starts: raises :class:`CrawlLostError` if this run directory
    took part in a generation of the crawl that Redis no longer holds."""
    known = remembered(run_dir, base)
    if not known:
        return
    current = client.get(generation_key(base))
    if current is None:
        raise CrawlLostError(lost_message(
            crawl_id, url, "its generation key is gone (Redis restarted without its data, was "
            "flushed or replaced, or the crawl was cleared) while this run directory "
            f"({run_dir}) took part in it"))
    if current.decode() != known:
        raise CrawlLostError(lost_message(crawl_id, url, describe_loss(current, None, None)))


def join(client: Any, base: str, crawl_id: str, run_dir: Path | None, url: str = "") -> str:
    """The crawl's generation, created if the crawl is new; raises :class:`CrawlLostError`
    if this run directory belonged to a generation Redis no longer holds."""
    key = generation_key(base)
    known = remembered(run_dir, base)
    current = client.get(key)
    if current is None:
        if known:
            raise CrawlLostError(lost_message(
                crawl_id, url, "its generation key is gone (Redis restarted without its data, was "
                "flushed or replaced, or the crawl was cleared) while this run directory "
                f"({run_dir}) took part in it"))
        client.set(key, uuid.uuid4().hex, nx=True)
        current = client.get(key)
        if current is None:
            raise RedisUnavailableError(f"Redis at {redact(url)} does not keep the crawl's keys "
                                        "(maxmemory policy evicting?)")
    generation = current.decode() if isinstance(current, bytes) else str(current)
    if known and known != generation:
        raise CrawlLostError(lost_message(crawl_id, url, describe_loss(current, None, None)))
    remember(run_dir, base, generation, url)
    return generation
