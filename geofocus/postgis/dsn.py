"""The PostgreSQL connection string of ``GEOFOCUS_POSTGIS_DSN`` and its password.

The DSN is a libpq URL (``postgresql://user[:password]@host:port/db``) or
key=value string.  A password missing from it is taken from the environment
variable ``GEOFOCUS_POSTGIS_PASSWORD`` (libpq's own ``PGPASSWORD`` and
``~/.pgpass`` work too), so it need not appear on command lines or in scrapyd
job listings.  Whatever is logged or raised shows the DSN through
:func:`redact`, and error texts from the driver pass through :func:`scrub`.
"""

from __future__ import annotations

import os
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from geofocus import defaults
from geofocus.usage import as_usage_error

PASSWORD_ENV = "GEOFOCUS_POSTGIS_PASSWORD"


class PostgisUnavailableError(RuntimeError):
    """PostgreSQL cannot be reached or used; ``str(exc)`` is a one-line message for the user."""


def parse(dsn: str) -> dict[str, Any]:
    """The DSN's parameters, with the password from the environment when the DSN has none."""
    if not dsn:
        raise PostgisUnavailableError("GEOFOCUS_POSTGIS_DSN is empty")
    try:
        params = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError as exc:
        raise PostgisUnavailableError(f"bad GEOFOCUS_POSTGIS_DSN: {scrub(str(exc), dsn)}") from None
    if not params.get("password") and os.environ.get(PASSWORD_ENV):
        params["password"] = os.environ[PASSWORD_ENV]
    return params


def conninfo(dsn: str) -> str:
    """The DSN as a libpq string, password included (for the driver only)."""
    return make_conninfo(**parse(dsn))


def redact(dsn: str) -> str:
    """``user@host:port/db`` with no password, for logs and errors."""
    try:
        params = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "<malformed DSN>"
    host = params.get("host") or params.get("hostaddr") or "localhost"
    port = params.get("port") or "5432"
    user = str(params.get("user") or "")
    db = params.get("dbname") or user
    return f"{user + '@' if user else ''}{host}:{port}/{db}"


def password_of(dsn: str) -> str:
    try:
        return str(conninfo_to_dict(dsn).get("password") or os.environ.get(PASSWORD_ENV, ""))
    except psycopg.ProgrammingError:
        return ""


def scrub(message: str, dsn: str) -> str:
    """``message`` on one line, with the DSN's password (if any) replaced by ``***``."""
    line = " ".join(message.split())
    password = password_of(dsn)
    return line.replace(password, "***") if password else line


def connect(dsn: str, timeout: float = 5.0) -> psycopg.Connection:
    """A plain connection; a failure becomes a one-line :class:`PostgisUnavailableError`."""
    try:
        return psycopg.connect(conninfo(dsn), connect_timeout=max(1, int(timeout)))
    except psycopg.Error as exc:
        raise PostgisUnavailableError(
            f"cannot reach PostgreSQL at {redact(dsn)} ({scrub(str(exc), dsn)}); start it or fix GEOFOCUS_POSTGIS_DSN"
        ) from None


def check_settings(settings) -> None:
    """Before a crawl starts: PostgreSQL reachable, PostGIS usable, the schema created or current.

    Raises scrapy's UsageError with one line (``geofocus.usage``) instead of a traceback.
    """
    from geofocus.postgis.schema import SchemaError, ensure_schema

    dsn = settings.get("GEOFOCUS_POSTGIS_DSN")
    if not dsn:
        return
    with as_usage_error(PostgisUnavailableError, SchemaError):
        try:
            with connect(dsn, settings.getfloat("GEOFOCUS_POSTGIS_TIMEOUT", defaults.GEOFOCUS_POSTGIS_TIMEOUT)) as conn:
                ensure_schema(conn)
        except psycopg.Error as exc:
            raise PostgisUnavailableError(f"PostgreSQL at {redact(dsn)}: {scrub(str(exc), dsn)}") from None
