#!/usr/bin/env python3
"""Search latency over a generated installation.

Builds a database at the app's schema (every migration of migrations/<backend>, so the
triggers that keep the search index are the app's own), fills it with PROJECTS
projects and PHOTOS photos with captions and tags through those triggers (timing the
fill: what the index costs each write), then times the app's own search statements —
the text of server/store/<backend>/src/search.rs — for a homeowner (their projects)
and an admin (everything) over random word prefixes, printing p50/p95.

  python3 loadtest/search/bench.py sqlite  /tmp/search.db   [photos] [projects]
  python3 loadtest/search/bench.py postgres postgres://postgres@127.0.0.1:5432/x [photos] [projects]

With --reuse, a database an earlier run filled is searched again, not rebuilt.

Postgres needs psycopg (`pip install "psycopg[binary]"`); the database must not exist.
"""

import glob
import os
import random
import re
import statistics
import sys
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROOMS = ["Kitchen", "Living room", "Primary bath", "Bathroom", "Bedroom", "Garage", "Basement", "Attic", "Laundry", "Roof"]
TRADES = ["Electrical", "Plumbing", "HVAC", "Framing", "Drywall", "Concrete", "Roofing", "Insulation", "Tile", "Cabinets"]
WORDS = ("wall stud header joist beam slab footing rebar conduit outlet panel breaker duct vent flashing membrane "
         "sheathing truss rafter soffit fascia gutter window door trim baseboard grout tile vanity faucet drain "
         "valve pipe manifold furnace register insulation batts vapour barrier taping mudding primer paint north "
         "south east west corner left right upper lower rough finish inspection punch repair crack level plumb").split()
QUERIES = ["kitch", "elec", "kitchen elec", "drain", "plumb valve", "rough", "insp", "vapour barr", "garage slab",
           "north wall", "tile grout", "hvac duct", "fram", "crack", "primary bath"]
# The app's own statements: SQLite's one; Postgres's for a few projects, then for many.
STATEMENTS = {
    name: [m for m in re.findall(r'r#"(.*?)"#', open(os.path.join(ROOT, f"server/store/{name}/src/search.rs")).read(), re.S) if '"ref_id!"' in m]
    for name in ("sqlite", "postgres")
}


def caption(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 8))).capitalize()


def tags(rng):
    return [rng.choice(ROOMS), rng.choice(TRADES)] if rng.random() < 0.6 else [rng.choice(TRADES)]


def rows(photos, projects, homeowners, rng):
    """(project rows, photo row batches): every project gets photos/projects photos."""
    now = int(time.time() * 1000)
    project_rows = [(str(uuid.uuid4()), f"{rng.choice(WORDS).capitalize()} {rng.choice(['Residence', 'Cottage', 'Duplex'])} {i}",
                     f"{i} {rng.choice(WORDS).capitalize()} Street", homeowners[i % len(homeowners)], now - i * 1000) for i in range(projects)]
    per = photos // projects

    def batches():
        batch = []
        for p in project_rows:
            for _ in range(per):
                batch.append((str(uuid.uuid4()), p[0], caption(rng), tags(rng), now - rng.randint(0, 400) * 86_400_000))
                if len(batch) == 10_000:
                    yield batch
                    batch = []
        if batch:
            yield batch
    return project_rows, batches()


def percentiles(samples):
    samples = sorted(samples)
    return samples[len(samples) // 2], samples[int(len(samples) * 0.95) - 1]


def sqlite(path, photos, projects):
    import json
    import sqlite3
    if REUSE:
        return sqlite_searches(sqlite3.connect(path), random.Random(29))
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    for f in sorted(glob.glob(os.path.join(ROOT, "migrations/sqlite/*.sql"))):
        db.executescript(open(f).read())
    rng = random.Random(29)
    homeowners = [str(uuid.uuid4()) for _ in range(projects // 3 or 1)]
    db.executemany("INSERT INTO users (id, email, role, created_at, updated_at) VALUES (?, ?, 'homeowner', 0, 0)",
                   [(h, f"h{i}@example.com") for i, h in enumerate(homeowners)])
    project_rows, batches = rows(photos, projects, homeowners, rng)
    db.executemany("INSERT INTO projects (id, title, address, homeowner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                   [(p[0], p[1], p[2], p[3], p[4], p[4]) for p in project_rows])
    db.commit()
    started = time.perf_counter()
    n = 0
    for batch in batches:
        db.executemany(
            "INSERT INTO project_images (id, project_id, caption, original_name, content_type, byte_size, width, height, "
            "storage_key, created_at, updated_at, tags) VALUES (?, ?, ?, 'a.jpg', 'image/jpeg', 1, 1, 1, 'k', ?, ?, ?)",
            [(i, p, c, at, at, json.dumps(t)) for (i, p, c, t, at) in batch])
        db.commit()
        n += len(batch)
    fill = time.perf_counter() - started
    # The same inserts without the index, for what it costs a write.
    db.execute("CREATE TABLE plain AS SELECT * FROM project_images WHERE 0")
    started = time.perf_counter()
    sample = db.execute("SELECT id, project_id, caption, created_at, tags FROM project_images LIMIT 20000").fetchall()
    db.executemany("INSERT INTO plain (id, project_id, caption, original_name, content_type, byte_size, width, height, storage_key, "
                   "created_at, updated_at, tags) VALUES (?, ?, ?, 'a.jpg', 'image/jpeg', 1, 1, 1, 'k', ?, ?, ?)",
                   [(str(uuid.uuid4()), p, c, at, at, t) for (_, p, c, at, t) in sample])
    db.commit()
    plain = (time.perf_counter() - started) / len(sample)
    print(f"sqlite: {n} photos in {projects} projects written in {fill:.0f} s: {fill / n * 1e6:.0f} µs a photo with the index, "
          f"{plain * 1e6:.0f} µs without")
    db.execute("ANALYZE")
    db.commit()
    sqlite_searches(db, rng)


def tokens(projects):
    """The project words of server/store/*/src/search.rs's scope."""
    return [f"p{p.replace('-', '').lower()}" for p in projects]


def sqlite_searches(db, rng):
    statement = STATEMENTS["sqlite"][0]
    homeowners = [r[0] for r in db.execute("SELECT id FROM users WHERE role = 'homeowner'")]

    def expression(columns, q, projects):
        text = f"{{{columns}}}: (" + " AND ".join(f'"{w}"*' for w in q.split()) + ")"
        return text if projects is None else "{facets}: (" + " OR ".join(tokens(projects)) + ") AND " + text

    for who in ("homeowner", "admin"):
        times = []
        for _ in range(200):
            q = rng.choice(QUERIES)
            t = time.perf_counter()
            projects = None
            if who == "homeowner":
                user = rng.choice(homeowners)
                projects = [r[0] for r in db.execute("SELECT id FROM projects WHERE homeowner_id = ? OR builder_id = ?", (user, user))]
            params = (expression("title tags", q, projects), expression("title body tags", q, projects), 2 << 40, 3 << 40, None, 13)
            db.execute(statement, {str(i + 1): v for i, v in enumerate(params)}).fetchall()
            times.append((time.perf_counter() - t) * 1000)
        p50, p95 = percentiles(times)
        print(f"sqlite {who}: p50 {p50:.1f} ms, p95 {p95:.1f} ms over {len(times)} photo searches")


def postgres(url, photos, projects):
    import psycopg
    if REUSE:
        return postgres_searches(psycopg.connect(url), random.Random(29))
    admin_url, name = url.rsplit("/", 1)
    with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}"')
        c.execute(f'CREATE DATABASE "{name}"')
    db = psycopg.connect(url)
    for f in sorted(glob.glob(os.path.join(ROOT, "migrations/postgres/*.sql"))):
        db.execute(open(f).read())
        db.commit()
    rng = random.Random(29)
    homeowners = [str(uuid.uuid4()) for _ in range(projects // 3 or 1)]
    with db.cursor() as cur:
        cur.executemany("INSERT INTO users (id, email, role, created_at, updated_at) VALUES (%s, %s, 'homeowner', now(), now())",
                        [(h, f"h{i}@example.com") for i, h in enumerate(homeowners)])
        project_rows, batches = rows(photos, projects, homeowners, rng)
        cur.executemany("INSERT INTO projects (id, title, address, homeowner_id, created_at, updated_at) "
                        "VALUES (%s, %s, %s, %s, to_timestamp(%s / 1000.0), to_timestamp(%s / 1000.0))",
                        [(p[0], p[1], p[2], p[3], p[4], p[4]) for p in project_rows])
    db.commit()
    started = time.perf_counter()
    n = 0
    for batch in batches:
        with db.cursor() as cur:
            with cur.copy("COPY project_images (id, project_id, caption, original_name, content_type, byte_size, width, height, "
                          "storage_key, created_at, updated_at, tags) FROM STDIN") as copy:
                for (i, p, c, t, at) in batch:
                    stamp = time.strftime("%Y-%m-%d %H:%M:%S+00", time.gmtime(at / 1000))
                    copy.write_row((i, p, c, "a.jpg", "image/jpeg", 1, 1, 1, "k", stamp, stamp, t))
        db.commit()
        n += len(batch)
    fill = time.perf_counter() - started
    db.execute("ANALYZE")
    db.commit()
    print(f"postgres: {n} photos in {projects} projects written in {fill:.0f} s: {fill / n * 1e6:.0f} µs a photo with the index")
    postgres_searches(db, rng)


def postgres_searches(db, rng):
    few, many = (re.sub(r"\$(\d)", r"%(p\1)s", st) for st in STATEMENTS["postgres"])
    homeowners = [str(r[0]) for r in db.execute("SELECT id FROM users WHERE role = 'homeowner'")]
    # As the store does for a search over many projects (set_config(…, true)).
    db.execute("SET plan_cache_mode = force_custom_plan")

    def tsquery(q, weights):
        return " & ".join(f"{w}:*{weights}" for w in q.split())

    for who in ("homeowner", "admin"):
        times = []
        for _ in range(200):
            q = rng.choice(QUERIES)
            t = time.perf_counter()
            projects = None
            if who == "homeowner":
                user = rng.choice(homeowners)
                projects = [r[0] for r in db.execute("SELECT id FROM projects WHERE homeowner_id = %s OR builder_id = %s", (user, user))]
            params = {"p1": "photo", "p2": projects, "p3": tsquery(q, "A"), "p4": tsquery(q, "AB"), "p5": None, "p6": 13}
            db.execute(few if projects is not None and len(projects) <= 10 else many, params).fetchall()
            times.append((time.perf_counter() - t) * 1000)
        db.rollback()
        p50, p95 = percentiles(times)
        print(f"postgres {who}: p50 {p50:.1f} ms, p95 {p95:.1f} ms over {len(times)} photo searches")


REUSE = "--reuse" in sys.argv

if __name__ == "__main__":
    if REUSE:
        sys.argv.remove("--reuse")
    backend, target = sys.argv[1], sys.argv[2]
    photos = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    projects = int(sys.argv[4]) if len(sys.argv) > 4 else 1_000
    (sqlite if backend == "sqlite" else postgres)(target, photos, projects)
