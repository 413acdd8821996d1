"""A real PostgreSQL + PostGIS cluster for tests: initdb/pg_ctl on a free port in a temp dir.

Like tests/redisutil.py for Redis: tests fail loudly (not skip) when the
cluster cannot start.  PostgreSQL refuses to run as root, so under root the
cluster is created and run as the ``postgres`` system user (``runuser``), in a
directory owned by it.  Host connections need the superuser's password
(scram-sha-256), so the DSNs the tests use carry a real password.

One cluster per test process (``shared_cluster()``), one database per test
(created from a template that already has the PostGIS extension);
tests that stop or restart PostgreSQL start their own (``PostgresCluster``).
"""

from __future__ import annotations

import atexit
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
import pytest

BIN = Path(os.environ.get("GEOFOCUS_PG_BIN", "/usr/lib/postgresql/15/bin"))
USER = "geofocus_test"
TEMPLATE = "geofocus_template"

_ids = itertools.count()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    def __init__(self) -> None:
        if not (BIN / "initdb").exists():
            raise RuntimeError(f"{BIN}/initdb not found (apt-get install postgresql-15 postgresql-15-postgis-3)")
        self.port = free_port()
        self.password = "pw-" + uuid.uuid4().hex[:12]
        self.dir = Path(tempfile.mkdtemp(prefix="geofocus-pg-"))
        self.data = self.dir / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        pwfile = self.dir / "pw"
        pwfile.write_text(self.password + "\n")
        if self.as_user:
            shutil.chown(pwfile, "postgres")
        self._run(BIN / "initdb", "-D", self.data, "-U", USER, "--pwfile", pwfile, "-A", "scram-sha-256",
                  "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        pwfile.unlink()
        self.template_ready = False

    def _run(self, *args, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run([*self.as_user, *map(str, args)], capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {result.stderr.strip() or result.stdout.strip()}")
        return result

    def dsn(self, dbname: str = "postgres", password: bool = True) -> str:
        auth = f"{USER}:{self.password}" if password else USER
        return f"postgresql://{auth}@127.0.0.1:{self.port}/{dbname}"

    def start(self) -> PostgresCluster:
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c full_page_writes=off -c synchronous_commit=off -c max_connections=50")
        self._run(BIN / "pg_ctl", "-D", self.data, "-l", self.dir / "log", "-o", options, "-w", "-t", "60", "start")
        if not self.template_ready:
            with psycopg.connect(self.dsn(), autocommit=True) as conn:
                conn.execute(f"CREATE DATABASE {TEMPLATE}")
            with psycopg.connect(self.dsn(TEMPLATE), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS postgis")
            self.template_ready = True
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run(BIN / "pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)

    def restart(self, down_for: float = 0.0) -> None:
        self.stop()
        time.sleep(down_for)
        self.start()

    def new_database(self, label: str = "t") -> str:
        """A fresh database with PostGIS installed; returns its DSN (with the password)."""
        name = f"{label}_{os.getpid()}_{next(_ids)}_{uuid.uuid4().hex[:6]}".lower()
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return self.dsn(name)

    def cleanup(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


_shared: PostgresCluster | None = None


def shared_cluster() -> PostgresCluster:
    """One cluster per test process, started on first use (for tests that do not stop it)."""
    global _shared
    if _shared is None:
        _shared = PostgresCluster().start()
        atexit.register(_shared.cleanup)
    return _shared


@pytest.fixture
def pg_dsn() -> str:
    """The DSN of a fresh database (PostGIS installed, no geofocus tables yet) on the shared cluster."""
    return shared_cluster().new_database()


@pytest.fixture
def pg_cluster():
    """A private cluster (tests may stop or restart it)."""
    cluster = PostgresCluster().start()
    yield cluster
    cluster.cleanup()


def query(dsn: str, sql: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(sql, params).fetchall()
