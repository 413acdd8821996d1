"""The Redis client factory (and nothing else).

The URL comes from ``GEOFOCUS_REDIS_URL`` (``redis://[:password@]host:port/db``
or ``rediss://`` or ``unix://``); a password missing from the URL is taken
from the environment variable ``GEOFOCUS_REDIS_PASSWORD``, so it need not
appear on command lines or in scrapyd job listings.
"""

from __future__ import annotations

import logging
import os
from urllib.parse import urlsplit, urlunsplit

import redis

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


def make_client(url: str, password: str | None = None, timeout: float = 5.0) -> redis.Redis:
    """A client for ``url`` (bytes in, bytes out); does no I/O.

    ``password`` (or ``$GEOFOCUS_REDIS_PASSWORD``) is used when the URL has none.
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
        if parts.password is None:
            password = password if password is not None else os.environ.get(PASSWORD_ENV) or None
            if password:
                kwargs["password"] = password
        return redis.Redis.from_url(url, **kwargs)
    except ValueError as exc:
        raise RedisUnavailableError(f"bad GEOFOCUS_REDIS_URL {redact(url)}: {exc}") from None


def connect(url: str, password: str | None = None, timeout: float = 5.0) -> redis.Redis:
    """:func:`make_client` plus a PING; a failure becomes a one-line :class:`RedisUnavailableError`."""
    client = make_client(url, password, timeout)
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


def check_settings(settings) -> None:
    """Before a crawl starts: a shared crawl needs a crawl id and a reachable Redis.

    Raises scrapy's UsageError with one line (the ``crawl`` command prints it
    and exits with status 2) instead of a traceback from inside the engine.
    """
    from scrapy.exceptions import UsageError

    url = settings.get("GEOFOCUS_REDIS_URL")
    if not url:
        return
    if not settings.get("GEOFOCUS_CRAWL_ID"):
        raise UsageError("GEOFOCUS_REDIS_URL is set but GEOFOCUS_CRAWL_ID is empty: name the shared "
                         "crawl with -s GEOFOCUS_CRAWL_ID=NAME", print_help=False)
    from geofocus.redis import generation

    crawl_id = settings.get("GEOFOCUS_CRAWL_ID")
    base = f"{settings.get('GEOFOCUS_REDIS_PREFIX', 'geofocus')}:{crawl_id}"
    run_dir = settings.get("GEOFOCUS_RUN_DIR") or None
    try:
        client = connect(url, timeout=settings.getfloat("GEOFOCUS_REDIS_TIMEOUT", 5.0))
        try:
            # a worker restarted after Redis lost its crawl must not start it again from scratch
            generation.check(client, base, crawl_id, run_dir, url)
        finally:
            client.close()
    except RedisUnavailableError as exc:
        raise UsageError(str(exc), print_help=False) from None
