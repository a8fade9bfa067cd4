#!/usr/bin/env bash
# Renews each store backend's offline query data (server/store/<backend>/.sqlx) by
# compiling its queries against a fresh database at its migrations' schema; with
# --check, fails instead when the committed data is not what the queries and
# migrations give now. Needs Postgres (TEST_DATABASE_URL, default the local server).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mode="${1:-write}"

admin_url="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
work="$root/target/sqlx-schema"
rm -rf "$work"
mkdir -p "$work"

# SQLite: every migration, in order, into a new file.
python3 - "$work/schema.db" migrations/sqlite/*.sql <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for path in sys.argv[2:]:
    db.executescript(open(path).read())
db.commit()
PY

# Postgres: a throwaway database, each migration in its own transaction as sqlx runs it.
db="sitecast_schema_$$"
pg_url="${admin_url%/*}/$db"
psql -q "$admin_url" -c "CREATE DATABASE \"$db\"" >/dev/null
trap 'psql -q "$admin_url" -c "DROP DATABASE IF EXISTS \"$db\"" >/dev/null 2>&1 || true' EXIT
for f in migrations/postgres/*.sql; do
  psql -q -X -1 -v ON_ERROR_STOP=1 "$pg_url" -f "$f" >/dev/null
done

status=0
for backend in sqlite postgres; do
  crate="server/store/$backend"
  out="$work/$backend"
  mkdir -p "$out"
  # The macros describe queries only when the crate compiles: make it compile again.
  touch "$crate/src/lib.rs"
  if [ "$backend" = sqlite ]; then
    export SITECAST_SQLITE_SCHEMA_URL="sqlite://$work/schema.db"
  else
    export SITECAST_POSTGRES_SCHEMA_URL="$pg_url"
  fi
  SQLX_OFFLINE=false SQLX_OFFLINE_DIR="$out" cargo check --quiet --locked -p "sitecast-store-$backend"
  if [ "$mode" = "--check" ]; then
    if ! diff -r -q "$crate/.sqlx" "$out" >/dev/null 2>&1; then
      echo "$crate/.sqlx is stale: run scripts/sqlx-prepare.sh and commit the result" >&2
      diff -r -q "$crate/.sqlx" "$out" >&2 || true
      status=1
    fi
  else
    rm -rf "$crate/.sqlx"
    cp -r "$out" "$crate/.sqlx"
    echo "wrote $crate/.sqlx ($(ls "$crate/.sqlx" | wc -l) queries)"
  fi
done
exit $status
