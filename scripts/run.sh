#!/usr/bin/env bash
# `make run`: installs the web packages and the build's Debian packages, builds the web
# app and the server, and starts Sitecast on the embedded defaults (SQLite, photo folder,
# mail outbox folder, demo accounts) at http://localhost:8080.
#
# The server is built in cargo's dev profile, the one the tests use: its dependencies
# are optimised (argon2, image decoding, SQLite, actix all run at opt-level 2) and only
# Sitecast's own crates are compiled lightly, so a fresh machine builds it in about half
# the time of the release profile, and `make test` afterwards reuses the build. Deploys
# (Dockerfile, fly.toml) use the release profile: everything optimised, thin LTO.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=cache.sh
. scripts/cache.sh
started=$SECONDS

./scripts/web-deps.sh
(cd web && npm run build --silent)
./scripts/build-deps.sh
cargo build --locked -p sitecast-server
echo "Built in $((SECONDS - started)) s; starting Sitecast."
exec "$CARGO_TARGET_DIR/debug/sitecast" serve "$@"
