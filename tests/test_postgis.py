"""The PostGIS store on a real PostgreSQL + PostGIS cluster: schema, idempotent writes, the README's queries,
``scrapy postgis-load`` and the start-up check.  End-to-end crawls: tests/test_postgis_e2e.py."""

from __future__ import annotations

import json
import math
import subprocess
import threading

import psycopg
import pytest

from geofocus.postgis.dsn import conninfo, redact, scrub
from geofocus.postgis.schema import SCHEMA_VERSION, SchemaError, ensure_schema
from geofocus.postgis.store import write_records
from tests.crawling import ROOT, SCRAPY, crawl_env
from tests.pgutil import free_port, query

# Oldenburg: Schlossplatz (the README's query point), and points at known distances from it.
CENTRE = (53.1386, 8.2146)  # lat, lon


def offset(lat: float, lon: float, north_m: float, east_m: float) -> tuple[float, float]:
    return (lat + north_m / 111_320.0, lon + east_m / (111_320.0 * math.cos(math.radians(lat))))


def address(street, number, postcode, lat, lon, precision="street", city="Oldenburg"):
    return {"street": street, "house_number": number, "postcode": postcode, "city": city, "country": "DE",
            "lat": lat, "lon": lon, "precision": precision}


def record(url, addresses=(), relevant=None, **extra):
    return {"url": url, "status": 200, "relevant": bool(addresses) if relevant is None else relevant,
            "priority": 0.5, "score": 0.5, "prediction": None, "dist": 0, "seed_dist": 1, "depth": 1,
            "parent": "http://portal.example/", "time": 1_700_000_000.0, "addresses": list(addresses), **extra}


# The README's example queries, verbatim (tests/test_postgis.py keeps them in step with README.md).
NEAR_QUERY = """
SELECT DISTINCT p.url
FROM pages p JOIN addresses a ON a.page_url = p.url
WHERE p.relevant
  AND ST_DWithin(a.geom::geography, ST_SetSRID(ST_MakePoint(8.2146, 53.1386), 4326)::geography, 2000)
ORDER BY p.url;
"""
PER_POSTCODE_QUERY = """
SELECT a.postcode, count(DISTINCT a.page_url) AS pages
FROM addresses a
GROUP BY a.postcode
ORDER BY pages DESC, a.postcode;
"""
SHARED_ADDRESSES_QUERY = """
SELECT min(a.street) AS street, min(a.house_number) AS house_number, min(a.postcode) AS postcode,
       count(DISTINCT a.page_url) AS pages
FROM addresses a
GROUP BY a.address_key
HAVING count(DISTINCT a.page_url) > 1
ORDER BY pages DESC, street;
"""


def connect(dsn):
    return psycopg.connect(conninfo(dsn))


def test_readme_shows_the_tested_queries():
    readme = (ROOT / "README.md").read_text()
    for sql in (NEAR_QUERY, PER_POSTCODE_QUERY, SHARED_ADDRESSES_QUERY):
        assert sql.strip() in readme


def test_schema_is_created_on_first_use_versioned_and_a_newer_one_refused(pg_dsn):
    with connect(pg_dsn) as conn:
        assert ensure_schema(conn) == SCHEMA_VERSION
        assert ensure_schema(conn) == SCHEMA_VERSION  # a second worker finds it in place
        assert conn.execute("SELECT array_agg(version) FROM geofocus_schema").fetchone()[0] == [1]
        geom = conn.execute("SELECT type, srid FROM geometry_columns WHERE f_table_name = 'addresses'").fetchone()
        assert geom == ("POINT", 4326)
        indexes = {r[0] for r in conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'addresses'").fetchall()}
        assert any("USING gist (geom)" in i for i in indexes)
        conn.execute("INSERT INTO geofocus_schema (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
        conn.commit()
        with pytest.raises(SchemaError, match="newer than this geofocus"):
            ensure_schema(conn)


def test_concurrent_first_use_creates_the_schema_once(pg_dsn):
    errors = []

    def create():
        try:
            with connect(pg_dsn) as conn:
                ensure_schema(conn)
        except Exception as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=create) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert query(pg_dsn, "SELECT count(*) FROM geofocus_schema") == [(1,)]


def test_writing_a_page_again_replaces_it_and_its_addresses(pg_dsn):
    lat, lon = CENTRE
    with connect(pg_dsn) as conn:
        ensure_schema(conn)
        first = record("http://a.example/kontakt", [address("Schloßplatz", "1", "26122", lat, lon),
                                                    address("Markt", "2", "26122", lat, lon)])
        assert write_records(conn, [first], "run-1", "oldenburg") == (1, 2)
        # a resumed crawl fetches it again (in flight at a kill), now with one address
        again = record("http://a.example/kontakt", [address("Markt", "2", "26122", lat, lon)], status=200)
        assert write_records(conn, [again, again], "run-1", "oldenburg") == (1, 1)
    assert query(pg_dsn, "SELECT url, run_id, region, relevant FROM pages") == [
        ("http://a.example/kontakt", "run-1", "oldenburg", True)]
    rows = query(pg_dsn, "SELECT street, house_number, ST_Y(geom), ST_X(geom), precision, text_span FROM addresses")
    assert rows == [("Markt", "2", pytest.approx(lat), pytest.approx(lon), "street", "Markt 2, 26122 Oldenburg")]


def test_two_writers_of_the_same_pages_leave_each_page_once(pg_dsn):
    lat, lon = CENTRE
    records = [record(f"http://h{i % 7}.example/p{i}", [address("Markt", str(i), "26122", lat, lon)])
               for i in range(300)]
    with connect(pg_dsn) as conn:
        ensure_schema(conn)
    errors = []

    def writer(part):
        try:
            with connect(pg_dsn) as conn:
                for start in range(0, len(part), 25):
                    write_records(conn, part[start:start + 25], "shared", "oldenburg")
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    # overlapping halves in opposite orders: the same pages written concurrently
    threads = [threading.Thread(target=writer, args=(records[:200],)),
               threading.Thread(target=writer, args=(records[100:][::-1],))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert query(pg_dsn, "SELECT count(*), count(DISTINCT url) FROM pages") == [(300, 300)]
    assert query(pg_dsn, "SELECT count(*), count(DISTINCT page_url) FROM addresses") == [(300, 300)]


def test_bad_values_are_stored_or_dropped_never_block_the_batch(pg_dsn):
    with connect(pg_dsn) as conn:
        ensure_schema(conn)
        records = [
            record("http://a.example/nul", [address("Haupt\x00straße", "1", "26122", 91.0, 8.0)]),
            record("http://a.example/nogeo", [address("Markt", "2", None, None, None, precision=None)]),
            record("http://a.example/odd", [{"street": "Markt", "lat": "x", "precision": "galaxy"}, "junk"]),
        ]
        assert write_records(conn, records) == (3, 3)
    rows = query(pg_dsn, "SELECT street, geom IS NULL, precision FROM addresses ORDER BY page_url")
    # .../nogeo, .../nul (NUL dropped, latitude 91 is no point), .../odd (the non-dict address skipped)
    assert rows == [("Markt", True, None), ("Hauptstraße", True, None), ("Markt", True, None)]


def test_readme_queries_answer_what_the_rows_say(pg_dsn):
    lat, lon = CENTRE
    near = offset(lat, lon, 1500, 0)     # 1.5 km north
    far = offset(lat, lon, 0, 2500)      # 2.5 km east
    pages = [
        record("http://near.example/kontakt", [address("Nadorster Straße", "10", "26123", *near)]),
        record("http://centre.example/impressum", [address("Schloßplatz", "1", "26122", lat, lon)]),
        record("http://far.example/kontakt", [address("Bremer Heerstraße", "5", "26135", *far)]),
        record("http://portal.example/firmen", [address("Schloßplatz", "1", "26122", lat, lon),
                                                address("Bremer Heerstraße", "5", "26135", *far)]),
        # carries a nearby point but is not relevant (e.g. an address outside the region's list)
        record("http://other.example/", [address("Schloßplatz", "1", "26122", lat, lon)], relevant=False),
    ]
    with connect(pg_dsn) as conn:
        ensure_schema(conn)
        write_records(conn, pages, "r", "oldenburg")
    assert [r[0] for r in query(pg_dsn, NEAR_QUERY)] == [
        "http://centre.example/impressum", "http://near.example/kontakt", "http://portal.example/firmen"]
    assert query(pg_dsn, PER_POSTCODE_QUERY) == [("26122", 3), ("26135", 2), ("26123", 1)]
    assert query(pg_dsn, SHARED_ADDRESSES_QUERY) == [("Schloßplatz", "1", "26122", 3),
                                                     ("Bremer Heerstraße", "5", "26135", 2)]


def test_dsn_password_is_redacted():
    dsn = "postgresql://crawler:s3cr3t-pw@db.example:5433/geo"
    assert redact(dsn) == "crawler@db.example:5433/geo"
    assert "s3cr3t-pw" not in redact("host=db user=crawler password=s3cr3t-pw dbname=geo")
    assert scrub("failed for password s3cr3t-pw\nagain", dsn) == "failed for password *** again"


def test_crawl_stops_with_one_line_and_exit_2_when_postgres_is_down(tmp_path):
    dsn = f"postgresql://crawler:s3cr3t-pw@127.0.0.1:{free_port()}/geo"
    result = subprocess.run(
        [*SCRAPY, "crawl", "geo", "-a", "region=oldenburg", "-a", "seeds=http://www.example.de/",
         "-s", f"GEOFOCUS_RUN_DIR={tmp_path / 'run'}", "-s", f"GEOFOCUS_POSTGIS_DSN={dsn}"],
        cwd=ROOT, env=crawl_env(None), capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "cannot reach PostgreSQL at crawler@127.0.0.1" in errors[0], result.stderr
    assert "s3cr3t-pw" not in result.stderr + result.stdout


def test_postgis_load_loads_runs_idempotently_and_skips_bad_lines(tmp_path, pg_dsn):
    lat, lon = CENTRE
    run = tmp_path / "run-a"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"region": "oldenburg", "crawl_id": None}))
    lines = [json.dumps(record(f"http://a.example/{i}", [address("Markt", str(i), "26122", lat, lon)] if i % 3 == 0
                               else [])) for i in range(50)]
    lines.insert(10, "{not json")
    lines.insert(20, json.dumps({"no": "url"}))
    (run / "crawl.jsonl").write_text("\n".join(lines) + "\n")
    (run / "postgis-spool.jsonl").write_text(json.dumps(record("http://a.example/spooled-only")) + "\n")

    def load(*args):
        return subprocess.run([*SCRAPY, "postgis-load", str(run), *args], cwd=ROOT, env=crawl_env(None),
                              capture_output=True, text=True, timeout=60)

    result = load("--dsn", pg_dsn)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["runs"][0]["pages"] == 50 and summary["runs"][0]["skipped_lines"] == 2
    assert summary["runs"][0]["spooled_rows"] == 1 and not (run / "postgis-spool.jsonl").exists()
    assert load("--dsn", pg_dsn).returncode == 0  # again: nothing changes
    assert query(pg_dsn, "SELECT count(*), count(DISTINCT run_id), min(region) FROM pages") == [(51, 1, "oldenburg")]
    assert query(pg_dsn, "SELECT count(*) FROM addresses") == [(17,)]
    cluster_password = pg_dsn.split(":")[2].split("@")[0]
    assert cluster_password not in result.stdout + result.stderr

    down = load("--dsn", f"postgresql://u:s3cr3t-pw@127.0.0.1:{free_port()}/x")
    assert down.returncode == 2 and "cannot reach PostgreSQL" in down.stderr and "s3cr3t-pw" not in down.stderr
