"""docker-compose.yml's postgis service and the workers' DSN (validated with `docker-compose config`).

No Docker engine runs here: the same topology (several workers of one Redis crawl writing to one
PostGIS) runs as processes in tests/test_postgis_e2e.py::test_two_redis_workers_write_each_page_once.
"""

from tests.test_compose import ENV, compose


def test_compose_has_a_postgis_service_the_workers_write_to():
    assert ENV["GEOFOCUS_POSTGIS_PASSWORD"] == "pg-pw-from-env"
    config = compose("config")
    assert "postgis-data" in compose("config", "--volumes").split()  # the database survives restarts
    postgis = config.split("\n  postgis:\n", 1)[1].split("\n  redis:", 1)[0].split("\n  scrapyd:", 1)[0]
    assert "image: postgis/postgis:" in postgis and "POSTGRES_PASSWORD: pg-pw-from-env" in postgis
    worker = config.split("\n  worker:\n", 1)[1]
    assert "GEOFOCUS_POSTGIS_DSN: postgresql://geofocus@postgis:5432/geofocus" in worker
    assert "GEOFOCUS_POSTGIS_PASSWORD: pg-pw-from-env" in worker  # the password only in the environment
    assert "pg-pw-from-env@" not in config
