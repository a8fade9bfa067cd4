#!/usr/bin/env bash
# The one test command: every Rust test (unit and integration, SQLite always and
# Postgres when TEST_DATABASE_URL is set — required when CI=true), the web app's unit
# tests and type-checked build, the browser tests against the real server, and a k6
# smoke run of the fan-out load test (its thresholds must pass).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

./scripts/test-deps.sh
export PATH="$root/.venv/bin:$PATH"

if [ "${CI:-}" = "true" ] && [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "CI=true requires TEST_DATABASE_URL (a Postgres server for the store and server tests)" >&2
  exit 1
fi

echo "== store: committed query data (.sqlx) matches each backend's queries and schema"
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  ./scripts/sqlx-prepare.sh --check
else
  echo "TEST_DATABASE_URL not set: the query data check needs Postgres; skipped"
fi

echo "== cargo clippy (lints deny unwrap/expect outside tests)"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== cargo test (workspace)"
cargo test --workspace --locked

echo "== web: unit tests"
(cd web && npm test --silent)

echo "== web: type-checked production build"
(cd web && npm run build --silent)

echo "== browser tests (Playwright + Chromium)"
./scripts/e2e.sh

echo "== load-test smoke run (k6 fan-out: 100 sockets, 20 changes)"
# The debug server the tests above built and ran; loadtest/run.sh builds one otherwise.
SITECAST_BIN="$root/target/debug/sitecast" ./loadtest/run.sh --smoke
