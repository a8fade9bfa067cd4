# Pieces the load runners share (sourced by run.sh and cluster.sh, not run).

# Builds land in the machine-level target directory the test command uses.
# shellcheck source=../scripts/cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/cache.sh"

# A loopback port nobody listens on right now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# taskset prefixes for the server and the load client, from SERVER_CPUS and CLIENT_CPUS.
set_pins() {
  server_pin=()
  [ -z "${SERVER_CPUS:-}" ] || server_pin=(taskset -c "$SERVER_CPUS")
  client_pin=()
  [ -z "${CLIENT_CPUS:-}" ] || client_pin=(taskset -c "$CLIENT_CPUS")
}

# Starts "$bin" with demo data on 127.0.0.1:$port, its data in $data and database
# $db_url, pinned by $server_pin; sets `server` to its pid and waits until it answers.
start_demo_server() {
  SITECAST_BIND="127.0.0.1:$port" SITECAST_PUBLIC_URL="http://127.0.0.1:$port" SITECAST_DATA_DIR="$data" \
    SITECAST_DATABASE_URL="$db_url" SITECAST_DEMO=true RUST_LOG="${RUST_LOG:-warn}" \
    "${server_pin[@]}" "$bin" serve >"$data/server.log" 2>&1 &
  server=$!
  wait_healthy "http://127.0.0.1:$port" "$server" "$data/server.log"
}

# Many sockets need many descriptors, on both sides.
raise_fd_limit() {
  ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
}

# Creates a throwaway database on the Postgres server at $1 (any database URL on it);
# sets pg_db to its name and db_url to its URL. Drop it with drop_throwaway_db.
create_throwaway_db() {
  command -v psql >/dev/null || { echo "a Postgres run needs psql" >&2; return 2; }
  pg_admin="$1"
  pg_db="sitecast_load_$(python3 -c 'import uuid; print(uuid.uuid4().hex)')"
  psql "$pg_admin" -qX -v ON_ERROR_STOP=1 -c "CREATE DATABASE \"$pg_db\"" >/dev/null
  db_url="$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' "$pg_admin" "$pg_db")"
}

drop_throwaway_db() {
  [ -n "${pg_db:-}" ] || return 0
  psql "$pg_admin" -qX -c "DROP DATABASE IF EXISTS \"$pg_db\" WITH (FORCE)" >/dev/null 2>&1 ||
    echo "could not drop the throwaway database $pg_db" >&2
}

# Waits up to a minute for the server at $1 (process $2, log $3) to answer its health
# check; prints the log and fails when it exits or never answers.
wait_healthy() {
  local url="$1" pid="$2" log="$3"
  for _ in $(seq 1 240); do
    curl -sf "$url/api/health" >/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "the server at $url exited" >&2; return 1; }
    sleep 0.25
  done
  cat "$log"
  echo "the server at $url did not start" >&2
  return 1
}

# The load clients open thousands of sockets of one demo user's session; a real
# deployment caps them at 20 per session and 50 per user (see the README).
export SITECAST_WS_MAX_PER_SESSION="${SITECAST_WS_MAX_PER_SESSION:-1000000}"
export SITECAST_WS_MAX_PER_USER="${SITECAST_WS_MAX_PER_USER:-1000000}"
