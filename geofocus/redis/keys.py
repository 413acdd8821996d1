"""The Redis key names of one shared crawl (and nothing else).

Every key of a crawl starts with its base ``B = <GEOFOCUS_REDIS_PREFIX>:<crawl id>``,
so two crawls never collide and ``scrapy crawl-admin clear`` deletes a crawl
with one pattern.  Layout (implementation detail)::

    B:q:<node>       sorted set  fingerprint -> priority (one queue per collaborating node)
    B:req            hash        fingerprint -> "<home node>\\t<slot>\\t<request JSON>"
    B:leases         sorted set  fingerprint -> lease deadline (unix ms)
    B:lease          hash        fingerprint -> "<worker id>\\t<priority>"
    B:seen:<xxxx>    hash        16-byte binary fingerprint, sharded by its first 2 bytes
                                 (4 hex digits in the key, 14 bytes as the field) -> node that fetched it
    B:bad            hash        fingerprint -> "<reason>\\t<entry>" (entries set aside as malformed)
    B:counters       hash        crawl counters (HINCRBYFLOAT), the frontier protocol's ``counters()``
    B:stats          hash        frontier events: push/new, push/raised, push/rejected, reclaimed,
                                 seen, refetched, overlap, done/queued, released, malformed
    B:scrapy-stats   hash        every worker's Scrapy stats, added up (optional shared stats collector)
    B:workers        hash        worker id -> last heartbeat (unix s)
    B:start_urls     list        seed URLs (``scrapy crawl-admin push-seeds``)
    B:generation     string      the crawl's generation token (geofocus.redis.generation)
    B:model:docs     hash        pooled link-model document counts (geofocus.redis.modelstore)
    B:model:terms    hash        pooled link-model term counts

The Lua scripts (``geofocus/redis/lua/``) build the same names from ``B``
(ARGV[1]) inside Redis: a change of a suffix here must be made there too.
Because the keys are built inside the scripts, Redis Cluster is not
supported: one crawl lives on one Redis server.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from geofocus.defaults import GEOFOCUS_REDIS_PREFIX as DEFAULT_PREFIX

#: The node of a worker without GEOFOCUS_NODE (the queue every worker serves when there is no partition).
DEFAULT_NODE = "default"


def clean(name: str) -> str:
    """Node names and slots are separated by tabs in Redis values."""
    return name.replace("\t", " ").replace("\n", " ")


def compact_fingerprint(fingerprint: str) -> bytes:
    """16 bytes that stand for ``fingerprint`` in the seen-set.

    Always hashed (BLAKE2b-128), so structured fingerprints (a custom
    REQUEST_FINGERPRINTER, counters) spread as well as Scrapy's SHA1 does.
    Collisions need ~2**64 URLs: no silent loss in practice.
    """
    return hashlib.blake2b(fingerprint.encode("utf-8"), digest_size=16).digest()


def seen_shard(compact: bytes) -> tuple[str, bytes]:
    """(shard key suffix, field) of a compact fingerprint: 65536 small hashes keep Redis compact."""
    return compact[:2].hex(), compact[2:]


@dataclass(frozen=True)
class CrawlKeys:
    """The key names of crawl ``base`` (``<prefix>:<crawl id>``)."""

    base: str

    @classmethod
    def of(cls, crawl_id: str, prefix: str = DEFAULT_PREFIX) -> CrawlKeys:
        return cls(f"{prefix or DEFAULT_PREFIX}:{crawl_id}")

    @classmethod
    def from_settings(cls, settings, crawl_id: str | None = None) -> CrawlKeys:
        """The keys of ``crawl_id`` (default: GEOFOCUS_CRAWL_ID) under GEOFOCUS_REDIS_PREFIX."""
        return cls.of(crawl_id if crawl_id is not None else settings.get("GEOFOCUS_CRAWL_ID") or "",
                      settings.get("GEOFOCUS_REDIS_PREFIX") or DEFAULT_PREFIX)

    def key(self, suffix: str) -> str:
        return f"{self.base}:{suffix}"

    def queue(self, node: str) -> str:
        return f"{self.base}:q:{node}"

    @property
    def queue_pattern(self) -> str:
        return f"{self.base}:q:*"

    def node_of_queue(self, key: str) -> str:
        return key[len(self.base) + 3:]

    @property
    def requests(self) -> str:
        return f"{self.base}:req"

    @property
    def leases(self) -> str:
        return f"{self.base}:leases"

    @property
    def lease_owners(self) -> str:
        return f"{self.base}:lease"

    def seen(self, shard: str) -> str:
        return f"{self.base}:seen:{shard}"

    @property
    def seen_pattern(self) -> str:
        return f"{self.base}:seen:*"

    @property
    def bad(self) -> str:
        return f"{self.base}:bad"

    @property
    def counters(self) -> str:
        return f"{self.base}:counters"

    @property
    def stats(self) -> str:
        return f"{self.base}:stats"

    @property
    def scrapy_stats(self) -> str:
        return f"{self.base}:scrapy-stats"

    @property
    def workers(self) -> str:
        return f"{self.base}:workers"

    @property
    def start_urls(self) -> str:
        return f"{self.base}:start_urls"

    @property
    def generation(self) -> str:
        return f"{self.base}:generation"

    @property
    def model_docs(self) -> str:
        return f"{self.base}:model:docs"

    @property
    def model_terms(self) -> str:
        return f"{self.base}:model:terms"

    @property
    def all_pattern(self) -> str:
        return f"{self.base}:*"
