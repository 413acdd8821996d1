"""The Redis client factory (and nothing else).

The URL comes from ``GEOFOCUS_REDIS_URL`` (``redis://[:password@]host:port/db``
or ``rediss://`` or ``unix://``), or from scrapy-redis's ``REDIS_URL`` when
that is the one set; extra client parameters (``ssl_ca_certs``,
``socket_keepalive``, ...) from ``GEOFOCUS_REDIS_PARAMS`` over scrapy-redis's
``REDIS_PARAMS``.  A password missing from the URL is taken from the
environment variable ``GEOFOCUS_REDIS_PASSWORD``, so it need not appear on
command lines or in scrapyd job listings.  The client is built by
scrapy-redis's ``get_redis`` (``redis_cls`` in the params picks the class).
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from scrapy.utils.misc import load_object
from scrapy_redis.connection import get_redis

logger = logging.getLogger(__name__)

PASSWORD_ENV = "GEOFOCUS_REDIS_PASSWORD"


class RedisUnavailableError(RuntimeError):
    """Redis cannot be reached or refuses us; ``str(exc)`` is a one-line message for the user."""


def redact(url: str) -> str:
    """The URL with its password replaced by ``***`` (for logs and errors)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<malformed URL>"
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


def redis_url(settings) -> str:
    """The crawl's Redis URL: GEOFOCUS_REDIS_URL, or scrapy-redis's REDIS_URL ("" = not shared)."""
    return settings.get("GEOFOCUS_REDIS_URL") or settings.get("REDIS_URL") or ""


def redis_params(settings) -> dict[str, Any]:
    """Extra client parameters: scrapy-redis's REDIS_PARAMS, overridden by GEOFOCUS_REDIS_PARAMS."""
    params: dict[str, Any] = {}
    for name in ("REDIS_PARAMS", "GEOFOCUS_REDIS_PARAMS"):
        try:
            params.update(settings.getdict(name))
        except ValueError as exc:
            raise RedisUnavailableError(f"{name} is not a JSON object: {exc}") from None
    if params.get("decode_responses"):
        raise RedisUnavailableError("REDIS_PARAMS/GEOFOCUS_REDIS_PARAMS: decode_responses must stay off "
                                    "(the shared crawl stores binary fingerprints)")
    return params


def make_client(url: str, password: str | None = None, timeout: float = 5.0,
                params: dict[str, Any] | None = None) -> redis.Redis:
    """A client for ``url`` (bytes in, bytes out); does no I/O.

    ``password`` (or ``$GEOFOCUS_REDIS_PASSWORD``) is used when neither the URL nor
    ``params`` has one; ``params`` are further redis-py client arguments.
    Raises :class:`RedisUnavailableError` for a malformed URL.
    """
    if not url:
        raise RedisUnavailableError("GEOFOCUS_REDIS_URL is empty")
    try:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss", "unix"):
            raise ValueError(f"unsupported scheme {parts.scheme!r} (use redis://, rediss:// or unix://)")
        kwargs: dict = {
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            "health_check_interval": 30,
        }
        if parts.password is None and not (params or {}).get("password"):
            password = password if password is not None else os.environ.get(PASSWORD_ENV) or None
            if password:
                kwargs["password"] = password
        kwargs.update(params or {})
        kwargs.pop("url", None)
        redis_cls = kwargs.pop("redis_cls", redis.Redis)
        if isinstance(redis_cls, str):
            redis_cls = load_object(redis_cls)
        return get_redis(url=url, redis_cls=redis_cls, **kwargs)
    except (ValueError, TypeError) as exc:
        raise RedisUnavailableError(f"bad GEOFOCUS_REDIS_URL {redact(url)}: {exc}") from None


def connect(url: str, password: str | None = None, timeout: float = 5.0,
            params: dict[str, Any] | None = None) -> redis.Redis:
    """:func:`make_client` plus a PING; a failure becomes a one-line :class:`RedisUnavailableError`."""
    client = make_client(url, password, timeout, params)
    try:
        client.ping()
    except redis.AuthenticationError as exc:
        raise RedisUnavailableError(
            f"Redis at {redact(url)} refused the password ({exc}); set it in the URL or "
            f"in ${PASSWORD_ENV}"
        ) from None
    except redis.ResponseError as exc:
        if "NOAUTH" in str(exc):
            raise RedisUnavailableError(
                f"Redis at {redact(url)} needs a password; set it in the URL or in ${PASSWORD_ENV}"
            ) from None
        raise RedisUnavailableError(f"Redis at {redact(url)} answered with an error: {exc}") from None
    except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RedisUnavailableError(
            f"cannot reach Redis at {redact(url)} ({reason}); start redis-server or fix GEOFOCUS_REDIS_URL"
        ) from None
    return client


def connect_from_settings(settings, url: str | None = None) -> redis.Redis:
    """:func:`connect` with the crawl's URL (or ``url``), parameters and GEOFOCUS_REDIS_TIMEOUT."""
    return connect(url or redis_url(settings), timeout=settings.getfloat("GEOFOCUS_REDIS_TIMEOUT"),
                   params=redis_params(settings))


def check_settings(settings) -> None:
    """Before a crawl starts: a shared crawl needs a crawl id and a reachable Redis.

    Raises scrapy's UsageError with one line (the ``crawl`` command prints it
    and exits with status 2) instead of a traceback from inside the engine.
    """
    from scrapy.exceptions import UsageError

    url = redis_url(settings)
    if not url:
        return
    if not settings.get("GEOFOCUS_CRAWL_ID"):
        raise UsageError("GEOFOCUS_REDIS_URL is set but GEOFOCUS_CRAWL_ID is empty: name the shared "
                         "crawl with -s GEOFOCUS_CRAWL_ID=NAME", print_help=False)
    from geofocus.redis import generation
    from geofocus.redis.keys import CrawlKeys

    crawl_id = settings.get("GEOFOCUS_CRAWL_ID")
    base = CrawlKeys.from_settings(settings).base
    run_dir = settings.get("GEOFOCUS_RUN_DIR") or None
    try:
        client = connect_from_settings(settings, url)
        try:
            # a worker restarted after Redis lost its crawl must not start it again from scratch
            generation.check(client, base, crawl_id, run_dir, url)
        finally:
            client.close()
    except RedisUnavailableError as exc:
        raise UsageError(str(exc), print_help=False) from None


def retrying(action: Any, patience: float) -> Any:
    """``action()``, tried again for ``patience`` seconds while Redis cannot be reached (it may be
    restarting); any other error (a refused password, a lost crawl) is raised at once."""
    deadline = time.monotonic() + patience
    delay = 0.2
    while True:
        try:
            return action()
        except RedisUnavailableError as exc:
            if "cannot reach" not in str(exc) or time.monotonic() + delay > deadline:
                raise
            logger.info("Redis: %(error)s; retrying", {"error": exc})
        time.sleep(delay)
        delay = min(delay * 2, 2.0)
