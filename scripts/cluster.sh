#!/usr/bin/env bash
# Runs a cluster on this machine, on loopback: PostgreSQL 15 and Redis 7 from Debian (their data
# under build/cluster), N atout-server nodes sharing them, and haproxy in front. Prints the URLs and
# stops everything on Ctrl-C. docker/compose.yml runs the same with images, with the same flags.
#
#   scripts/cluster.sh [nodes]        (default 3)
#
# Ports (environment): ATOUT_CLUSTER_PORT (the load balancer, default 8080), ATOUT_CLUSTER_NODE_PORT
# (the first node's, default 8101), ATOUT_CLUSTER_PG_PORT (55432), ATOUT_CLUSTER_REDIS_PORT (56379).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
nodes="${1:-3}"
lb_port="${ATOUT_CLUSTER_PORT:-8080}"
node_port="${ATOUT_CLUSTER_NODE_PORT:-8101}"
pg_port="${ATOUT_CLUSTER_PG_PORT:-55432}"
redis_port="${ATOUT_CLUSTER_REDIS_PORT:-56379}"
build="${ATOUT_BUILD_DIR:-$root/build/release}"
data="$root/build/cluster"
if ! [[ "$nodes" =~ ^[1-9][0-9]?$ ]]; then
  echo "usage: scripts/cluster.sh [nodes, 1 to 99]" >&2
  exit 2
fi

bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATOUT_BUILD_TESTS=OFF -DATOUT_BUILD_BENCH=OFF
cmake --build "$build" -j "$(nproc)" --target atout-server
(cd "$root/web" && npm ci --no-audit --no-fund && npm run build)
mkdir -p "$data/redis" "$data/logs"

pids=()
stop_all() {
  trap - INT TERM HUP EXIT
  echo "stopping the cluster"
  # The nodes first (each drains: its tables are saved), then what they use.
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  ATOUT_PG_DIR="$pg_dir" ATOUT_PG_PORT="$pg_port" bash "$root/scripts/pg_test_server.sh" stop || true
  exit 0
}
trap stop_all INT TERM HUP EXIT

# PostgreSQL, with durable commits (fsync on). Run as root, the server runs as the postgres user,
# so its data goes where that user can reach it.
pg_dir="$data/pg"
if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$data"; then
  pg_dir="/var/tmp/atout-cluster-pg"
fi
db_url="$(ATOUT_PG_DIR="$pg_dir" ATOUT_PG_PORT="$pg_port" ATOUT_PG_FSYNC=on \
  bash "$root/scripts/pg_test_server.sh" start)"

redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$data/redis" --save "" --appendonly no \
  >"$data/logs/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
redis_url="redis://127.0.0.1:$redis_port"

# The nodes, each named, each with the URL clients are redirected to.
servers=""
for i in $(seq 0 $((nodes - 1))); do
  port=$((node_port + i))
  id="n$((i + 1))"
  "$build/server/atout-server" --bind 127.0.0.1 --port "$port" --db "$db_url" --redis "$redis_url" \
    --node-id "$id" --public-url "ws://127.0.0.1:$port/ws" --web-root "$root/web/dist" \
    >"$data/logs/$id.log" 2>&1 &
  pids+=($!)
  servers+="  server $id 127.0.0.1:$port check inter 2s"$'\n'
done

# haproxy, with this run's nodes in place of the image's.
# haproxy needs two descriptors per connection: its maxconn follows this shell's hard limit.
maxconn=$(( ($(ulimit -Hn) - 100) / 2 ))
sed -e '/^  server /d' -e "s/bind \*:8080/bind 127.0.0.1:$lb_port/" -e "s/maxconn [0-9]*/maxconn $maxconn/" \
  "$root/docker/haproxy.cfg" >"$data/haproxy.cfg"
printf '%s' "$servers" >>"$data/haproxy.cfg"
haproxy -f "$data/haproxy.cfg" -db >"$data/logs/haproxy.log" 2>&1 &
pids+=($!)

echo "database:       ${db_url/:atout-test@/:***@}"
echo "redis:          $redis_url"
for i in $(seq 0 $((nodes - 1))); do echo "node n$((i + 1)):        http://127.0.0.1:$((node_port + i))/"; done
echo "load balancer:  http://127.0.0.1:$lb_port/   (WebSocket: ws://127.0.0.1:$lb_port/ws)"
echo "logs:           $data/logs"
echo "Ctrl-C stops everything."
# Stops when any of them ends on its own (a node refused its configuration, say).
wait -n || true
echo "a process of the cluster ended; see $data/logs" >&2
trap - EXIT
stop_all
