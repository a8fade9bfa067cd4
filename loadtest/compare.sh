#!/usr/bin/env bash
# Sitecast beside its peers (loadtest/README.md, "Beside the peers"), one row each,
# measured in the same run by the same native client:
#
#   loadtest/compare.sh fanout [fanout args…]       server CPU per delivery and latency
#       e.g. SERVER_CPUS=0 CLIENT_CPUS=1 loadtest/compare.sh fanout --subscribers 1000 --events 100 --rate 10
#   loadtest/compare.sh connections [connections args…]   server memory per held socket
#       e.g. SERVER_CPUS=0 CLIENT_CPUS=1 loadtest/compare.sh connections --sockets 19500 --hold 20
#   loadtest/compare.sh renditions [--threads N] [--seconds S] [--grain G]
#       12 MP JPEG → display + thumbnail per second, Sitecast (in process) and sharp,
#       on the same file
#
# Peers (loadtest/peers): a bare Node `ws` broadcaster (node), a bare tokio-tungstenite
# broadcaster (tungstenite), sharp for renditions. Sitecast runs on SQLite with the
# demo data. PEERS="node tungstenite" picks which peers run.
#
#   SERVER_CPUS, CLIENT_CPUS   pin the server (or peer) and the client with taskset
#   SITECAST_BIN, LOADTEST_DIR use these binaries (sitecast; fanout, connections,
#                              photos, tungstenite_peer) instead of building release ones
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. loadtest/lib.sh

what="${1:-}"
[ $# -gt 0 ] && shift
case "$what" in
  fanout | connections | renditions) ;;
  *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
esac

if [ -z "${SITECAST_BIN:-}" ] || [ -z "${LOADTEST_DIR:-}" ]; then
  echo "== building the server and the load clients (release)"
  cargo build --release --locked -p sitecast-server -p sitecast-loadtest
fi
bin="${SITECAST_BIN:-$CARGO_TARGET_DIR/release/sitecast}"
clients="${LOADTEST_DIR:-$CARGO_TARGET_DIR/release}"
peers="${PEERS:-node tungstenite}"

# The Node peers' packages, installed once from their lockfiles.
node_peer() {
  local dir="$root/loadtest/peers/$1"
  [ -d "$dir/node_modules" ] || (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$dir"
}

set_pins
raise_fd_limit
server=
data=
cleanup() {
  local rc=$?
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  [ -z "$data" ] || rm -rf "$data"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits until something listens on 127.0.0.1:$1 (process $2, log $3).
wait_listening() {
  local port="$1" pid="$2" log="$3"
  for _ in $(seq 1 120); do
    python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()' "$port" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "it exited" >&2; return 1; }
    sleep 0.25
  done
  cat "$log"
  return 1
}

# Starts target $1 on a fresh port; sets server (pid), url and peer_flag.
start_target() {
  data="$(mktemp -d)"
  port="$(free_port)"
  url="http://127.0.0.1:$port"
  peer_flag=()
  case "$1" in
    sitecast)
      db_url="sqlite://$data/sitecast.db"
      start_demo_server
      return ;;
    node)
      local dir
      dir="$(node_peer node)"
      "$clients/tungstenite_peer" --write-frames "$data/frames"
      "${server_pin[@]}" node "$dir/broadcaster.mjs" --port "$port" --frames "$data/frames" >"$data/server.log" 2>&1 &
      server=$! ;;
    tungstenite)
      "${server_pin[@]}" "$clients/tungstenite_peer" --port "$port" >"$data/server.log" 2>&1 &
      server=$! ;;
  esac
  peer_flag=(--peer)
  wait_listening "$port" "$server" "$data/server.log"
}

stop_target() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=
  rm -rf "$data"
  data=
}

rows=()
case "$what" in
  fanout | connections)
    for target in sitecast $peers; do
      echo "== $target (server cpus ${SERVER_CPUS:-any}, client cpus ${CLIENT_CPUS:-any})"
      start_target "$target"
      result="$("${client_pin[@]}" "$clients/$what" --url "$url" --server-pid "$server" "${peer_flag[@]}" "$@" |
        tee /dev/stderr | grep -E "^$what " | tail -1)"
      rows+=("| $target | $result |")
      stop_target
    done ;;
  renditions)
    threads=2 seconds=15 grain=36
    while [ $# -gt 0 ]; do
      case "$1" in
        --threads) threads="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --grain) grain="$2"; shift 2 ;;
        *) echo "renditions takes --threads, --seconds, --grain" >&2; exit 2 ;;
      esac
    done
    data="$(mktemp -d)"
    "$clients/photos" renditions --grain "$grain" --save "$data/photo.jpg"
    echo "== sitecast"
    rows+=("| sitecast | $("${server_pin[@]}" "$clients/photos" renditions --file "$data/photo.jpg" --threads "$threads" --seconds "$seconds" | tail -1) |")
    dir="$(node_peer sharp)"
    # Both ways a sharp user makes two sizes: each from the file (two decodes, each
    # shrunk on load), or the thumbnail from the display image, as Sitecast does.
    for from in original display; do
      echo "== sharp, thumbnail from the $from"
      rows+=("| sharp | $(UV_THREADPOOL_SIZE="$threads" "${server_pin[@]}" node "$dir/renditions.mjs" --file "$data/photo.jpg" --threads "$threads" --seconds "$seconds" --thumb-from "$from" | grep '^sharp' | tail -1) |")
    done
    ;;
esac
echo
echo "| target | $what $* |"
echo "|---|---|"
printf '%s\n' "${rows[@]}"
