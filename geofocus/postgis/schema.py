"""The PostGIS tables, created on first use and versioned.

``geofocus_schema`` holds one row per applied version; :func:`ensure_schema`
applies the missing migrations under an advisory lock, so several workers
starting together create the tables once.  A database whose schema is newer
than this code is refused rather than written in an old layout.
"""

from __future__ import annotations

import psycopg

SCHEMA_VERSION = 1
# pg_advisory_xact_lock key: "geofocus" in ASCII, as a bigint.
LOCK_KEY = 0x67656F666F637573 & 0x7FFFFFFFFFFFFFFF
PRECISIONS = ("point", "street", "postcode", "city")

MIGRATIONS: dict[int, list[str]] = {
    1: [
        """
        CREATE TABLE pages (
            url         text PRIMARY KEY,
            fetched_at  timestamptz NOT NULL,
            status      integer,
            relevant    boolean NOT NULL,
            priority    double precision,
            score       double precision,
            prediction  double precision,
            dist        integer,
            seed_dist   integer,
            depth       integer,
            parent      text,
            run_id      text,
            region      text,
            node        text,
            written_at  timestamptz NOT NULL DEFAULT now()
        )
        """,
        "CREATE INDEX pages_relevant_idx ON pages (relevant)",
        "CREATE INDEX pages_run_idx ON pages (run_id)",
        f"""
        CREATE TABLE addresses (
            id            bigserial PRIMARY KEY,
            page_url      text NOT NULL REFERENCES pages (url) ON DELETE CASCADE,
            ordinal       integer NOT NULL,
            street        text NOT NULL,
            house_number  text,
            postcode      text,
            city          text,
            country       text,
            geom          geometry(Point, 4326),
            precision     text CHECK (precision IN ({", ".join(f"'{p}'" for p in PRECISIONS)})),
            text_span     text,
            address_key   text NOT NULL,
            UNIQUE (page_url, ordinal)
        )
        """,
        "CREATE INDEX addresses_geom_idx ON addresses USING gist (geom)",
        # ST_DWithin on geography (metres) uses this one, not the geometry index.
        "CREATE INDEX addresses_geog_idx ON addresses USING gist ((geom::geography))",
        "CREATE INDEX addresses_postcode_idx ON addresses (postcode)",
        "CREATE INDEX addresses_key_idx ON addresses (address_key)",
    ],
}


class SchemaError(RuntimeError):
    """The database cannot hold geofocus's tables; ``str(exc)`` is one line for the user."""


def current_version(conn: psycopg.Connection) -> int:
    row = conn.execute("SELECT to_regclass('geofocus_schema') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return 0
    version = conn.execute("SELECT max(version) FROM geofocus_schema").fetchone()
    return int(version[0] or 0) if version else 0


def _ensure_postgis(conn: psycopg.Connection) -> None:
    if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'postgis'").fetchone():
        return
    try:
        with conn.transaction():
            conn.execute("CREATE EXTENSION IF NOT EXISTS postgis")
    except psycopg.Error as exc:
        db = conn.info.dbname
        reason = " ".join(str(exc).split())
        raise SchemaError(
            f"PostGIS is not installed in database {db!r} and cannot be created ({reason}); "
            f"run CREATE EXTENSION postgis as a superuser"
        ) from None


def ensure_schema(conn: psycopg.Connection) -> int:
    """Create or upgrade geofocus's tables; returns the schema version now in place."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        _ensure_postgis(conn)
        conn.execute(
            "CREATE TABLE IF NOT EXISTS geofocus_schema ("
            " version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        version = current_version(conn)
        if version > SCHEMA_VERSION:
            raise SchemaError(
                f"database {conn.info.dbname!r} has geofocus schema version {version}, newer than this "
                f"geofocus ({SCHEMA_VERSION}); upgrade geofocus or use another database"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                conn.execute(statement)
            conn.execute("INSERT INTO geofocus_schema (version) VALUES (%s)", (step,))
        return SCHEMA_VERSION
