#!/usr/bin/env bash
# Holds many sockets over several server instances sharing one (throwaway) Postgres
# database: the shape of a scaled-out deployment, and the way past a per-process
# descriptor limit (this sandbox allows 20,000 per process, and a socket is one in
# the server and one in the client). One native `connections` client per instance;
# prints each instance's line and the totals.
#
#   loadtest/cluster.sh --postgres postgres://postgres@127.0.0.1:5432/test \
#     --instances 6 --sockets 8400 --hold 60
#
# Environment: SITECAST_BIN / CONNECTIONS_BIN (skip the release build), POOL (database
# connections per instance, default 8), SERVER_CPUS / CLIENT_CPUS (taskset lists),
# KEEP_DATA=1 (keep the instances' data directories and logs).
set -euo pipefail
cd "$(dirname "$0")/.."
. loadtest/lib.sh

pg_admin=
instances=2
sockets=1000
hold=30
while [ $# -gt 0 ]; do
  case "$1" in
    --postgres) pg_admin="$2"; shift 2 ;;
    --instances) instances="$2"; shift 2 ;;
    --sockets) sockets="$2"; shift 2 ;;
    --hold) hold="$2"; shift 2 ;;
    *) echo "usage: $0 --postgres URL [--instances K] [--sockets PER_INSTANCE] [--hold SECONDS]" >&2; exit 2 ;;
  esac
done
[ -n "$pg_admin" ] || { echo "--postgres URL is required (instances share one database)" >&2; exit 2; }

if [ -z "${SITECAST_BIN:-}" ] || [ -z "${CONNECTIONS_BIN:-}" ]; then
  cargo build --release --locked -p sitecast-server -p sitecast-loadtest
fi
bin="${SITECAST_BIN:-$CARGO_TARGET_DIR/release/sitecast}"
client="${CONNECTIONS_BIN:-$CARGO_TARGET_DIR/release/connections}"
set_pins
raise_fd_limit

root="$(mktemp -d)"
pg_db=
pids=()
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  drop_throwaway_db
  if [ -n "${KEEP_DATA:-}" ]; then echo "data kept in $root"; else rm -rf "$root"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

create_throwaway_db "$pg_admin"

urls=()
for i in $(seq 1 "$instances"); do
  port="$(free_port)"
  url="http://127.0.0.1:$port"
  mkdir -p "$root/$i"
  SITECAST_BIND="127.0.0.1:$port" SITECAST_PUBLIC_URL="$url" SITECAST_DATA_DIR="$root/$i" \
    SITECAST_DATABASE_URL="$db_url" SITECAST_DATABASE_POOL="${POOL:-8}" SITECAST_DEMO=true \
    RUST_LOG="${RUST_LOG:-warn}" "${server_pin[@]}" "$bin" serve >"$root/$i/server.log" 2>&1 &
  pids+=($!)
  urls+=("$url")
  # One at a time: the first migrates and seeds, the others find it done.
  wait_healthy "$url" "${pids[-1]}" "$root/$i/server.log"
done
echo "== $instances instances on Postgres ($pg_db), $sockets sockets each, held $hold s"

clients=()
for i in $(seq 1 "$instances"); do
  "${client_pin[@]}" "$client" --url "${urls[$((i - 1))]}" --sockets "$sockets" --hold "$hold" \
    --server-pid "${pids[$((i - 1))]}" >"$root/$i/client.out" 2>"$root/$i/client.err" &
  clients+=($!)
done
status=0
for pid in "${clients[@]}"; do wait "$pid" || status=1; done
for i in $(seq 1 "$instances"); do
  echo "instance $i: $(tail -1 "$root/$i/client.out" 2>/dev/null || true)"
  [ "$status" = 0 ] || tail -3 "$root/$i/client.err" >&2
done
cat "$root"/*/client.out | python3 -c '
import re, sys
rows = [dict(re.findall(r"(\w+)=(\S+)", line)) for line in sys.stdin if line.startswith("connections")]
if not rows:
    sys.exit("no client finished")
held = sum(int(r["held"]) for r in rows)
wanted = sum(int(r["requested"]) for r in rows)
grown = sum(int(r["server_rss_held"].rstrip("KiB")) - int(r["server_rss_before"].rstrip("KiB")) for r in rows)
total = sum(int(r["server_rss_held"].rstrip("KiB")) for r in rows)
pings = sum(int(r["pings_answered"]) for r in rows)
print(f"total: {held} of {wanted} sockets held; {pings} pings answered; server RSS {total / 1024:.0f} MiB "
      f"in all, +{grown / 1024:.0f} MiB for the sockets = {grown / max(held, 1):.1f} KiB per socket")
sys.exit(0 if held == wanted else 1)
' || status=1
exit "$status"
