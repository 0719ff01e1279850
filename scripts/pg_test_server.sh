#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server for the store's tests: its data under the build directory, on a
# loopback port, with password authentication (so that a wrong password can be tested).
#
#   scripts/pg_test_server.sh start     initdb if needed, start; prints the URL
#   scripts/pg_test_server.sh url       prints the URL (export ATOUT_TEST_PG_URL="$(… url)")
#   scripts/pg_test_server.sh restart   stops and starts the running server (fast shutdown)
#   scripts/pg_test_server.sh stop      stops it (the data stays until the build dir goes)
#
# Environment: ATOUT_PG_DIR (default build/pg), ATOUT_PG_PORT (default 54329), ATOUT_PG_FSYNC
# (default off: tests need no durable disk; benchmarks set it on).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${ATOUT_PG_DIR:-$root/build/pg}"
port="${ATOUT_PG_PORT:-54329}"
fsync="${ATOUT_PG_FSYNC:-off}"
bin="${ATOUT_PG_BIN:-/usr/lib/postgresql/15/bin}"
user=atout
password=atout-test
url="postgresql://$user:$password@127.0.0.1:$port/atout"

# initdb refuses to run as root: the cluster then belongs to the postgres user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

launch() {
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=$fsync -c max_connections=200" start >/dev/null
}

start() {
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    local pwfile="$dir/pwfile"
    as_owner bash -c "umask 077; printf '%s\n' '$password' > '$pwfile'"
    as_owner "$bin/initdb" -D "$dir/data" -U "$user" --pwfile="$pwfile" --auth=scram-sha-256 \
      --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    rm -f "$pwfile"
  fi
  if ! as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then launch; fi
  PGPASSWORD="$password" "$bin/psql" -h 127.0.0.1 -p "$port" -U "$user" -d postgres -qtA \
    -c "SELECT 1 FROM pg_database WHERE datname = 'atout'" | grep -q 1 ||
    PGPASSWORD="$password" "$bin/createdb" -h 127.0.0.1 -p "$port" -U "$user" atout
  echo "$url"
}

stop() {
  if [ -f "$dir/data/PG_VERSION" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
}

case "${1:-}" in
  start) start ;;
  url) echo "$url" ;;
  stop) stop ;;
  restart)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    launch
    ;;
  *)
    echo "usage: $0 start|url|restart|stop" >&2
    exit 2
    ;;
esac
