#!/usr/bin/env bash
# Browser tests: starts the real server (debug build, demo accounts, throwaway data
# directory, free port), runs Playwright with Debian's Chromium against it, stops it.
#
# With TEST_DATABASE_URL set (always in CI), it also starts a pair of instances on one
# throwaway Postgres database, for the specs that check what one instance does reaches
# pages open on the other (SITECAST_E2E_PAIR_A / _B; see e2e/pair.ts).
#
# Browsers' push services cannot be reached from here, so it also starts the loopback
# push service (scripts/push_service.py, SITECAST_E2E_PUSH_URL), and every server it
# starts accepts subscriptions to it (SITECAST_PUSH_SERVICES).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# shellcheck source=cache.sh
. scripts/cache.sh
bin="$CARGO_TARGET_DIR/debug/sitecast"
[ -x "$bin" ] || cargo build -p sitecast-server
[ -f web/dist/index.html ] || (cd web && npm run build)

data="$(mktemp -d)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port="$(free_port)"
url="http://127.0.0.1:$port"

# The push service decrypts with http_ece, which scripts/test-deps.sh puts in .venv.
python="$root/.venv/bin/python"
[ -x "$python" ] || python=python3
push_port="$(free_port)"
push_url="http://127.0.0.1:$push_port"
"$python" scripts/push_service.py "$push_port" >"$data/push_service.log" 2>&1 &
push_service=$!
export SITECAST_PUSH_SERVICES="127.0.0.1:$push_port"

SITECAST_DATA_DIR="$data" SITECAST_BIND="127.0.0.1:$port" SITECAST_PUBLIC_URL="$url" \
  SITECAST_WEB_DIR=web/dist SITECAST_DEMO=true SITECAST_TEST_WORLDS=true RUST_LOG=warn "$bin" serve >"$data/server.log" 2>&1 &
server=$!

pair_db=""
pair_pids=()
cleanup() {
  kill "$server" "$push_service" "${pair_pids[@]}" 2>/dev/null || true
  wait "$server" "$push_service" "${pair_pids[@]}" 2>/dev/null || true
  if [ -n "$pair_db" ]; then
    psql "$TEST_DATABASE_URL" -qc "DROP DATABASE IF EXISTS \"$pair_db\" WITH (FORCE)" >/dev/null || echo "could not drop the e2e database $pair_db" >&2
  fi
  rm -rf "$data"
}
trap cleanup EXIT

# Waits for a server's health check; shows its log and fails if it stops or never answers.
wait_healthy() {
  local base=$1 pid=$2 log=$3
  for _ in $(seq 1 240); do
    curl -sf "$base/api/health" >/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.25
  done
  echo "server at $base did not start"
  cat "$log"
  exit 1
}

wait_healthy "$url" "$server" "$data/server.log"
for _ in $(seq 1 240); do
  curl -sf "$push_url/received" >/dev/null && break
  kill -0 "$push_service" 2>/dev/null || { echo "the push service did not start"; cat "$data/push_service.log"; exit 1; }
  sleep 0.25
done
curl -sf "$push_url/received" >/dev/null || { echo "the push service at $push_url did not answer"; cat "$data/push_service.log"; exit 1; }

pair_env=()
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  pair_db="sitecast_e2e_$$"
  psql "$TEST_DATABASE_URL" -qc "CREATE DATABASE \"$pair_db\"" >/dev/null
  # The same server and credentials, another database.
  pair_url="$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' "$TEST_DATABASE_URL" "$pair_db")"
  # Photos and reports' PDFs live in the data folder's photos/ (config.rs has no setting
  # of its own for it), and any instance's mail worker may send a mail the other queued:
  # both instances' photos/ and outbox/ are links to one shared folder each, as one
  # bucket and one mail relay would be in production.
  shared="$data/pair-shared"
  mkdir -p "$shared/photos" "$shared/outbox"
  start_instance() {
    local name=$1 dir="$data/pair-$1" p
    p="$(free_port)"
    mkdir -p "$dir"
    ln -s "$shared/photos" "$dir/photos"
    ln -s "$shared/outbox" "$dir/outbox"
    SITECAST_DATABASE_URL="$pair_url" SITECAST_DATA_DIR="$dir" SITECAST_BIND="127.0.0.1:$p" SITECAST_PUBLIC_URL="http://127.0.0.1:$p" \
      SITECAST_METRICS_BIND=off SITECAST_WEB_DIR=web/dist SITECAST_DEMO=true SITECAST_TEST_WORLDS=true RUST_LOG=warn "$bin" serve >"$dir/server.log" 2>&1 &
    pair_pids+=($!)
    wait_healthy "http://127.0.0.1:$p" "$!" "$dir/server.log"
    pair_env+=("SITECAST_E2E_PAIR_$name=http://127.0.0.1:$p")
  }
  # One after the other: the first seeds the demo accounts, the second finds them.
  start_instance A
  start_instance B
  pair_env+=("SITECAST_E2E_PAIR_OUTBOX=$shared/outbox")
fi

cd web
env "${pair_env[@]}" SITECAST_E2E_URL="$url" SITECAST_E2E_OUTBOX="$data/outbox" SITECAST_E2E_PUSH_URL="$push_url" npx playwright test "$@"
