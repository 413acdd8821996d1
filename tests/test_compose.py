"""docker-compose.yml passes `docker-compose config` and has the scale-out topology.

No Docker engine runs here: the same topology (Redis with AOF and a
password, scrapyd, several workers on one crawl) runs as processes in
tests/test_scrapyd.py and tests/test_redis_e2e.py.
"""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {"PATH": "/usr/bin:/bin", "GEOFOCUS_REDIS_PASSWORD": "pw-from-env"}


def compose(*args):
    binary = shutil.which("docker-compose")
    assert binary, "docker-compose is needed to validate docker-compose.yml: apt-get install docker-compose"
    out = subprocess.run([binary, *args], cwd=ROOT, capture_output=True, text=True, timeout=60, env=ENV)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_compose_file_validates_and_has_the_topology():
    assert set(compose("config", "--services").split()) == {"redis", "simweb", "worker", "scrapyd", "postgis"}
    assert "redis-data" in compose("config", "--volumes").split()  # the AOF survives restarts
    config = compose("config")
    assert "--appendonly yes" in config and "--requirepass" in config
    assert config.count("GEOFOCUS_REDIS_PASSWORD: pw-from-env") == 3  # redis, worker, scrapyd
    assert "GEOFOCUS_REDIS_URL=redis://redis:6379/0" in config
    worker = config.split("\n  worker:\n", 1)[1].split("\n  scrapyd:", 1)[0]
    assert "container_name" not in worker  # `--scale worker=4` needs unnamed containers
