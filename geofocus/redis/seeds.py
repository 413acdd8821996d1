"""Where the workers of a shared crawl take seed URLs from: Redis lists.

The crawl's own list ``B:start_urls`` (``scrapy crawl-admin push-seeds``), and
scrapy-redis's list of the spider, ``REDIS_START_URLS_KEY`` (scrapy-redis's
default ``%(name)s:start_urls``, so ``redis-cli rpush geo:start_urls URL``
seeds any running ``geo`` worker, as it would seed a RedisSpider).  Each URL
is popped by one worker; the Redis extension turns it into a seed request.
Lists only: scrapy-redis's ``REDIS_START_URLS_AS_SET``/``_AS_ZSET`` are not read.
"""

from __future__ import annotations

from scrapy_redis import defaults as scrapy_redis_defaults


def spider_seed_lists(settings, spider_name: str | None) -> list[str]:
    """scrapy-redis's seed list of spider ``spider_name`` (none without a name)."""
    if not spider_name:
        return []
    pattern = settings.get("REDIS_START_URLS_KEY") or scrapy_redis_defaults.START_URLS_KEY
    return [pattern % {"name": spider_name}]
