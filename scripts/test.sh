#!/usr/bin/env bash
# The one test command: every Rust test (unit and integration, SQLite always and
# Postgres when TEST_DATABASE_URL is set — required when CI=true), the web app's unit
# tests and type-checked build, the browser tests against the real server, and a k6
# smoke run of the fan-out load test (its thresholds must pass).
#
# Each step prints how long it took, and a table of every step ends the run, so the
# next slowdown shows the day it lands. Cargo's target directory and the npm and pip
# caches are machine-level (scripts/cache.sh): a later run on this machine reuses them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=cache.sh
. scripts/cache.sh
# CI builds a clean clone once: incremental compilation's bookkeeping only costs there.
[ "${CI:-}" != "true" ] || export CARGO_INCREMENTAL=0
export PATH="$root/.venv/bin:$PATH"

if [ "${CI:-}" = "true" ] && [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "CI=true requires TEST_DATABASE_URL (a Postgres server for the store and server tests)" >&2
  exit 1
fi

steps=()
started=$SECONDS
current="start"
current_t0=$SECONDS
# Prints the table of steps so far; runs on every exit, so a failed run shows it too.
summary() {
  local status=$?
  echo
  echo "== steps (target dir: $CARGO_TARGET_DIR)"
  printf '%-52s %8s\n' "step" "minutes"
  local row
  for row in "${steps[@]}"; do
    printf '%-52s %8s\n' "${row%%|*}" "${row##*|}"
  done
  printf '%-52s %8s\n' "total" "$(awk -v s=$((SECONDS - started)) 'BEGIN { printf "%.1f", s / 60 }')"
  [ $status -eq 0 ] || echo "FAILED in \"$current\" after $((SECONDS - current_t0)) s (exit $status)"
}
trap summary EXIT

# step NAME COMMAND…: runs the command, says how long it took, and records it.
step() {
  local name=$1 t0=$SECONDS
  shift
  current=$name
  current_t0=$t0
  echo
  echo "== $name"
  "$@"
  local took=$((SECONDS - t0))
  steps+=("$name|$(awk -v s=$took 'BEGIN { printf "%.1f", s / 60 }')")
  echo "-- $name: ${took}s"
}

step "set-up (web packages, Debian packages, .venv)" ./scripts/test-deps.sh

sqlx_check() {
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    ./scripts/sqlx-prepare.sh --check
  else
    echo "TEST_DATABASE_URL not set: the query data check needs Postgres; skipped"
  fi
}
step "store: committed query data (.sqlx) is current" sqlx_check

step "cargo clippy (deny unwrap/expect outside tests)" cargo clippy --workspace --all-targets --locked -- -D warnings

# One build of every test binary and of the server the browser tests and the smoke run
# start (the integration tests build it too), before anything runs. The load-test
# clients have no tests; leaving them out keeps their dependencies' extra features (a
# WebSocket client's, reqwest's JSON) from making this build differ from `make run`'s.
tests=(--workspace --exclude sitecast-loadtest --locked)
step "cargo: build the tests and the server" cargo nextest run "${tests[@]}" --no-run

# Each test in a process of its own, several at once: they wait on databases, sockets
# and child processes far more than on the two cores. The profile is .config/nextest.toml.
step "cargo nextest: Rust unit and integration tests" cargo nextest run "${tests[@]}" --profile ci --no-fail-fast

# nextest does not run doc tests; the protocol's are its compile-time checks (a request
# answered with the wrong reply does not compile). No other crate has any.
step "cargo: doc tests (protocol)" cargo test --doc --locked -p sitecast-protocol

step "web: unit tests" bash -c 'cd web && npm test --silent'

step "web: type-checked production build" bash -c 'cd web && npm run build --silent'

step "browser tests (Playwright + Chromium)" ./scripts/e2e.sh

# The debug server the tests above built and ran; loadtest/run.sh builds one otherwise.
step "load-test smoke run (k6 fan-out: 100 sockets, 20 changes)" \
  env SITECAST_BIN="$CARGO_TARGET_DIR/debug/sitecast" ./loadtest/run.sh --smoke
