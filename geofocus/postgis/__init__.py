"""PostGIS output: every evaluated page and its addresses as rows of a spatial database.

``dsn``: the connection string, its password (never logged) and the start-up check;
``schema``: the versioned tables, created on first use; ``rows``: crawl-log records as table rows;
``store``: idempotent batched upserts; ``spool``: rows kept on disk while PostgreSQL is away;
``writer``: the crawl extension that writes off the reactor thread.
"""
