"""docker-compose.yml passes `docker-compose config` and has the scale-out topology.

Every secret comes from the environment, with no default: `config` fails
without GEOFOCUS_REDIS_PASSWORD, SCRAPYD_USERNAME, SCRAPYD_PASSWORD or
GEOFOCUS_POSTGIS_PASSWORD.
No Docker engine runs here: the same topology (Redis with AOF and a
password, scrapyd, several workers on one crawl) runs as processes in
tests/test_scrapyd.py and tests/test_redis_e2e.py.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {"PATH": "/usr/bin:/bin", "GEOFOCUS_REDIS_PASSWORD": "pw-from-env",
       "SCRAPYD_USERNAME": "user-from-env", "SCRAPYD_PASSWORD": "scrapyd-pw-from-env",
       "GEOFOCUS_POSTGIS_PASSWORD": "pg-pw-from-env"}


def run_compose(*args, env=ENV):
    binary = shutil.which("docker-compose")
    assert binary, "docker-compose is needed to validate docker-compose.yml: apt-get install docker-compose"
    return subprocess.run([binary, *args], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env)


def compose(*args):
    out = run_compose(*args)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize(
    "missing", ["GEOFOCUS_REDIS_PASSWORD", "SCRAPYD_USERNAME", "SCRAPYD_PASSWORD", "GEOFOCUS_POSTGIS_PASSWORD"])
def test_compose_refuses_to_start_without_each_secret(missing):
    """No default password: without the variable `docker-compose config` (and so `up`) fails and
    names it."""
    out = run_compose("config", env={k: v for k, v in ENV.items() if k != missing})
    assert out.returncode != 0
    assert f"set {missing}" in out.stderr
    assert "change-me" not in (ROOT / "docker-compose.yml").read_text()


def test_scrapyd_gets_its_credentials_from_the_environment():
    config = compose("config")
    scrapyd = config.split("\n  scrapyd:\n", 1)[1].split("\n  simweb:", 1)[0]
    assert "SCRAPYD_USERNAME: user-from-env" in scrapyd and "SCRAPYD_PASSWORD: scrapyd-pw-from-env" in scrapyd
    assert "127.0.0.1:6800" in scrapyd  # published on the host's loopback only


def test_compose_file_validates_and_has_the_topology():
    assert set(compose("config", "--services").split()) == {"redis", "simweb", "worker", "scrapyd", "postgis"}
    assert "redis-data" in compose("config", "--volumes").split()  # the AOF survives restarts
    config = compose("config")
    assert "--appendonly yes" in config and "--requirepass" in config
    assert config.count("GEOFOCUS_REDIS_PASSWORD: pw-from-env") == 3  # redis, worker, scrapyd
    assert "GEOFOCUS_REDIS_URL=redis://redis:6379/0" in config
    worker = config.split("\n  worker:\n", 1)[1].split("\n  scrapyd:", 1)[0]
    assert "container_name" not in worker  # `--scale worker=4` needs unnamed containers
