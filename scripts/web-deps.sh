#!/usr/bin/env bash
# Installs web/node_modules from the lockfile, only when the lockfile changed since the
# last install. `npm install` rather than `npm ci`: the registry this machine reaches
# lacks some other platforms' optional packages (tailwind's and msgpackr's native
# builds for macOS and Windows), which `npm ci` insists on finding in the lockfile.
set -euo pipefail
# shellcheck source=cache.sh
. "$(dirname "$0")/cache.sh"
cd "$(dirname "$0")/../web"
stamp=node_modules/.lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  npm install --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
