# Sourced by the build and test scripts: cargo's target directory and the npm and pip
# caches live in one machine-level folder, so a later run on the same machine (a clean
# clone in CI, another checkout) reuses what an earlier one compiled and downloaded.
# Correctness stays cargo's and npm's: they rebuild or refetch whatever changed.
# SITECAST_CACHE_DIR moves the folder; a CARGO_TARGET_DIR already set is kept.
sitecast_cache="${SITECAST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sitecast}"
mkdir -p "$sitecast_cache"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$sitecast_cache/target}"
export npm_config_cache="${npm_config_cache:-$sitecast_cache/npm}"
export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$sitecast_cache/pip}"
