"""A real redis-server for tests: started on a free port in a temp dir, killed and restarted at will.

Tests fail loudly (not skip) when redis-server cannot start.  Each test uses
its own crawl id, so tests sharing one server never see each other's keys.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid

import pytest
import redis

_ids = itertools.count()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """redis-server with AOF on (so a restart keeps the data, as in docker-compose.yml), or with
    ``persistent=False`` no persistence at all (``--save "" --appendonly no``: a restart empties it)."""

    def __init__(self, password: str | None = None, persistent: bool = True) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.binary = binary
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="geofocus-redis-")
        self.password = password
        self.persistent = persistent
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
                "--save", "", "--appendonly", "yes" if self.persistent else "no", "--appendfsync", "always",
                "--daemonize", "no", "--loglevel", "warning"]
        if self.password:
            args += ["--requirepass", self.password]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        client = redis.Redis(port=self.port, password=self.password, socket_connect_timeout=0.5)
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise RuntimeError(f"redis-server exited at start: {err.strip()}")
            try:
                client.ping()
                return self
            except redis.BusyLoadingError:
                pass
            except redis.ConnectionError:
                if time.monotonic() > end:
                    raise RuntimeError(f"redis-server did not answer on port {self.port}") from None
            time.sleep(0.05)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(sig)
                self.proc.wait(10)
            if self.proc.stderr is not None:
                self.proc.stderr.close()
        self.proc = None

    def restart(self, down_for: float = 0.0) -> None:
        self.stop()
        time.sleep(down_for)
        self.start()

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, password=self.password)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


_shared: RedisServer | None = None


def shared_server() -> RedisServer:
    """One server per test process, started on first use (for tests that do not restart it)."""
    global _shared
    if _shared is None or _shared.proc is None or _shared.proc.poll() is not None:
        _shared = RedisServer().start()
        atexit.register(_shared.cleanup)
    return _shared


def unique_crawl_id(label: str = "t") -> str:
    return f"{label}-{os.getpid()}-{next(_ids)}-{uuid.uuid4().hex[:6]}"


@pytest.fixture
def redis_server():
    """A private redis-server (tests may kill or restart it)."""
    server = RedisServer().start()
    yield server
    server.cleanup()


@pytest.fixture
def volatile_redis():
    """A private redis-server without persistence: killing and restarting it wipes every key."""
    server = RedisServer(persistent=False).start()
    yield server
    server.cleanup()


@pytest.fixture
def shared_redis():
    return shared_server()


def redis_backend(tmp_path):
    """Factory for tests/test_frontier.py: the crawl id is derived from ``tmp_path``, so a
    second call on the same ``tmp_path`` reopens the same shared crawl."""
    from geofocus.redis.frontier import RedisFrontier

    server = shared_server()
    crawl_id = "suite-" + uuid.uuid5(uuid.NAMESPACE_URL, str(tmp_path)).hex[:12]
    return RedisFrontier(server.client(), crawl_id, batch=8, flush_interval=0.2, pop_wait=2.0)
