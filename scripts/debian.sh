# Sourced by the set-up scripts: installs Debian packages as root, or says which to
# install. `debian_packages WHY PACKAGE…` (no-op for an empty list).
debian_packages() {
  local why=$1
  shift
  [ $# -gt 0 ] || return 0
  if [ "$(id -u)" = 0 ]; then
    echo "Installing $* from Debian $why..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "Sitecast needs, $why: sudo apt-get install $*" >&2
    exit 1
  fi
}
