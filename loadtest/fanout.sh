#!/usr/bin/env bash
# The native fan-out measurement on both backends, back to back: for SQLite and then
# Postgres (a throwaway database), starts a fresh release server with demo data, runs
# `fanout` against it with the given arguments, and prints one results-table row per
# backend, saying where every process ran (Postgres' own processes included).
#
#   loadtest/fanout.sh [--postgres URL] [--only sqlite|postgres] [fanout args…]
#   e.g. loadtest/fanout.sh --subscribers 1000 --events 100 --rate 10
#
#   SERVER_CPUS, CLIENT_CPUS   pin the server and the fanout client with taskset
#   SITECAST_BIN, FANOUT_BIN   use these binaries instead of building release ones
#   --postgres defaults to $TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. loadtest/lib.sh

pg_url="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
only=
while [ $# -gt 0 ]; do
  case "$1" in
    --postgres) pg_url="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) break ;;
  esac
done

if [ -z "${SITECAST_BIN:-}" ] || [ -z "${FANOUT_BIN:-}" ]; then
  echo "== building the server and fanout (release)"
  cargo build --release --locked -p sitecast-server -p sitecast-loadtest
fi
bin="${SITECAST_BIN:-$CARGO_TARGET_DIR/release/sitecast}"
fanout="${FANOUT_BIN:-$CARGO_TARGET_DIR/release/fanout}"

set_pins

# Where the Postgres server's processes may run (its postmaster's affinity; its
# backends inherit it).
postgres_cpus() {
  local pid
  pid="$(pgrep -o -x postgres 2>/dev/null || pgrep -o postgres 2>/dev/null || true)"
  [ -n "$pid" ] && taskset -cp "$pid" 2>/dev/null | sed 's/.*: //' || echo "unknown"
}

raise_fd_limit
server=
pg_db=
data=
cleanup() {
  local rc=$?
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  drop_throwaway_db
  [ -z "$data" ] || rm -rf "$data"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rows=()
for backend in sqlite postgres; do
  [ -z "$only" ] || [ "$only" = "$backend" ] || continue
  data="$(mktemp -d)"
  port="$(free_port)"
  url="http://127.0.0.1:$port"
  pg_db=
  if [ "$backend" = postgres ]; then
    create_throwaway_db "$pg_url"
    where="Postgres on cpus $(postgres_cpus)"
  else
    db_url="sqlite://$data/sitecast.db"
    where="SQLite in the server"
  fi
  echo "== $backend: server on $url (cpus ${SERVER_CPUS:-any}), fanout (cpus ${CLIENT_CPUS:-any}), $where"
  start_demo_server
  # The fan-out's summary line, and the logins' line before it with --logins.
  result="$("${client_pin[@]}" "$fanout" --url "$url" "$@" | tee /dev/stderr | grep -E '^(logins|fanout) ' | paste -sd ';' -)"
  rows+=("| $backend | server ${SERVER_CPUS:-any}, client ${CLIENT_CPUS:-any}, $where | $result |")
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=
  drop_throwaway_db
  pg_db=
  rm -rf "$data"
  data=
done
echo
echo "| backend | where it ran | fanout $* |"
echo "|---|---|---|"
printf '%s\n' "${rows[@]}"
