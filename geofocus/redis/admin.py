"""``scrapy crawl-admin status|clear|push-seeds CRAWL_ID [FILE]``: manage a crawl shared through Redis.

Workers never delete a shared crawl when they close; ``clear`` is the one way
to do it.  The Redis URL comes from ``-s GEOFOCUS_REDIS_URL=...`` (or
scrapy-redis's ``REDIS_URL``, or the project settings); the password may come
from $GEOFOCUS_REDIS_PASSWORD.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from geofocus.redis.connection import RedisUnavailableError, connect_from_settings, redis_url
from geofocus.redis.keys import CrawlKeys
from geofocus.redis.stats import decode_stat
from geofocus.seeds import SeedLineError, parse_seed_line


def crawl_status(client: Any, base: str) -> dict[str, Any]:
    """Queue sizes per node, leases, seen-set size, counters, stats and live workers of a crawl;
    with shared stats (GEOFOCUS_REDIS_SHARED_STATS), the workers' Scrapy stats added up."""
    keys = CrawlKeys(base)
    queues = {}
    for key in client.scan_iter(match=keys.queue_pattern, count=1000):
        queues[keys.node_of_queue(key.decode())] = int(client.zcard(key))
    now = time.time()
    expired = int(client.zcount(keys.leases, "-inf", int(now * 1000)))
    workers = {k.decode(): round(now - float(v), 1) for k, v in client.hgetall(keys.workers).items()}
    stats = {k.decode(): int(v) for k, v in client.hgetall(keys.stats).items()}
    scrapy_stats = {k.decode(): decode_stat(v) for k, v in client.hgetall(keys.scrapy_stats).items()}
    return {
        "queued": sum(queues.values()),
        "queues": dict(sorted(queues.items())),
        "leases": int(client.zcard(keys.leases)),
        "expired_leases": expired,
        "seen": stats.get("seen", 0),
        "start_urls": int(client.llen(keys.start_urls)),
        "counters": {k.decode(): float(v) for k, v in client.hgetall(keys.counters).items()},
        "stats": stats,
        "scrapy_stats": dict(sorted(scrapy_stats.items())),
        "workers_last_seen_s": workers,
        # the token workers check: gone or changed means Redis lost the crawl (geofocus.redis.generation)
        "generation": (client.get(keys.generation) or b"").decode() or None,
        "malformed_set_aside": int(client.hlen(keys.bad)),
    }


def clear_crawl(client: Any, base: str) -> int:
    """Delete every key of the crawl; returns how many."""
    n = 0
    batch: list[bytes] = []
    for key in client.scan_iter(match=CrawlKeys(base).all_pattern, count=1000):
        batch.append(key)
        if len(batch) >= 500:
            n += client.unlink(*batch)
            batch = []
    if batch:
        n += client.unlink(*batch)
    return n


def push_seeds(client: Any, base: str, lines: list[str]) -> tuple[int, int]:
    urls, skipped = [], 0
    for line in lines:
        try:
            url = parse_seed_line(line)
        except SeedLineError:
            skipped += 1
            continue
        if url is not None:
            urls.append(url)
    if urls:
        client.rpush(CrawlKeys(base).start_urls, *urls)
    return len(urls), skipped


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "status|clear|push-seeds CRAWL_ID [FILE]"

    def short_desc(self) -> str:
        return "Show, clear or seed a crawl shared through Redis (GEOFOCUS_REDIS_URL)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--redis-url", default=None, help="Redis URL (default: GEOFOCUS_REDIS_URL)")
        parser.add_argument("--yes", action="store_true", help="clear without asking")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) < 2 or args[0] not in ("status", "clear", "push-seeds"):
            raise UsageError("expected: status|clear|push-seeds CRAWL_ID [FILE]")
        action, crawl_id = args[0], args[1]
        assert self.settings is not None
        url = opts.redis_url or redis_url(self.settings) or "redis://localhost:6379/0"
        base = CrawlKeys.from_settings(self.settings, crawl_id).base
        try:
            client = connect_from_settings(self.settings, url)
        except RedisUnavailableError as exc:
            print(f"crawl-admin: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        if action == "status":
            print(json.dumps(crawl_status(client, base), indent=2, sort_keys=True))
        elif action == "clear":
            if not opts.yes and sys.stdin.isatty():
                answer = input(f"Delete every key of crawl {crawl_id!r} ({base}:*)? [y/N] ")
                if answer.strip().lower() not in ("y", "yes"):
                    print("nothing deleted")
                    return
            elif not opts.yes:
                raise UsageError("clear needs --yes when not run interactively")
            print(f"deleted {clear_crawl(client, base)} keys of crawl {crawl_id}")
        else:
            if len(args) != 3:
                raise UsageError("push-seeds needs a FILE (one URL per line; - for stdin)")
            source = sys.stdin if args[2] == "-" else None
            try:
                text = source.read() if source else Path(args[2]).read_text(encoding="utf-8")
            except OSError as exc:
                raise UsageError(f"cannot read {args[2]}: {exc}") from None
            n, skipped = push_seeds(client, base, text.splitlines())
            print(f"pushed {n} seed URLs to {base}:start_urls" + (f" ({skipped} skipped)" if skipped else ""))
