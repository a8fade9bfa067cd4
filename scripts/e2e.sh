#!/usr/bin/env bash
# Browser tests: starts the real server (debug build, demo accounts, throwaway data
# directory, free port), runs Playwright with Debian's Chromium against it, stops it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

bin=target/debug/sitecast
[ -x "$bin" ] || cargo build -p sitecast-server
[ -f web/dist/index.html ] || (cd web && npm run build)

data="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
url="http://127.0.0.1:$port"
SITECAST_DATA_DIR="$data" SITECAST_BIND="127.0.0.1:$port" SITECAST_PUBLIC_URL="$url" \
  SITECAST_WEB_DIR=web/dist SITECAST_DEMO=true RUST_LOG=warn "$bin" serve >"$data/server.log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT

for _ in $(seq 1 240); do
  curl -sf "$url/api/health" >/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$data/server.log"; exit 1; }
  sleep 0.25
done
curl -sf "$url/api/health" >/dev/null || { echo "server did not start"; cat "$data/server.log"; exit 1; }

cd web
SITECAST_E2E_URL="$url" SITECAST_E2E_OUTBOX="$data/outbox" npx playwright test "$@"
