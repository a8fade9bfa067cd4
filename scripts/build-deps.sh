#!/usr/bin/env bash
# What building the server needs beyond Rust: cmake and a C++ compiler to
# build the bundled libheif (libheif-sys's embedded build; Debian 12's libheif is older
# than the crate supports) and libde265, the HEVC decoder it links to for iPhone
# photos; nasm for the SIMD of the bundled libjpeg-turbo (turbojpeg-sys:
# JPEGs decoded at reduced scale). Installed from Debian when run as root; idempotent
# and quick when present.
set -euo pipefail
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v nasm >/dev/null || missing+=(nasm)
command -v c++ >/dev/null || missing+=(g++)
pkg-config --exists libde265 2>/dev/null || missing+=(libde265-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
# shellcheck source=debian.sh
. "$(dirname "$0")/debian.sh"
debian_packages "to build the HEIC and JPEG decoders" "${missing[@]}"
