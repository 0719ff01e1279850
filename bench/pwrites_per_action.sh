#!/bin/bash
# Page writes per accepted action: how many pwrite64 calls (SQLite writing WAL frames and
# checkpointing pages) and fsyncs the server makes per action, counted by strace over a window of a
# closed-loop load. Run it for two builds to compare store layouts.
#
#   bash bench/pwrites_per_action.sh SERVER LOADGEN [TABLES] [VARIANT]
#
# It starts SERVER on 127.0.0.1 with a fresh database in a temporary directory, starts LOADGEN
# against it (TABLES tables, default 1000, of VARIANT, default duel, acknowledged by event, 16 s),
# waits 6 s, attaches `strace -f -c` to the server for 6 s, and reads the server's accepted-actions
# counter from /metrics before and after. strace slows the server, so the rate in that window is
# not a throughput figure; the counts per action are the figure. Loopback only, bounded in time.
set -euo pipefail
server=$1
loadgen=$2
tables=${3:-1000}
variant=${4:-duel}
work=$(mktemp -d)
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$server" --bind 127.0.0.1 --port "$port" --threads 2 --max-conns-per-ip 0 --log-level warn --db "$work/atout.db" \
  > "$work/server.log" 2>&1 &
server_pid=$!
trap 'kill $server_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.2; done
accepted() { curl -s "http://127.0.0.1:$port/metrics" | awk '/^atout_actions_accepted_total/ {print $2}'; }
"$loadgen" --port "$port" --tables "$tables" --variant "$variant" --ack event --duration 16 > "$work/loadgen.log" 2>&1 &
loadgen_pid=$!
sleep 6
before=$(accepted)
timeout -s INT 6 strace -f -c -e trace=pwrite64,fdatasync,fsync -p "$server_pid" 2> "$work/strace.txt" || true
after=$(accepted)
wait "$loadgen_pid" || true
actions=$((after - before))
echo "actions accepted while traced: $actions"
awk -v n="$actions" '$NF ~ /^(pwrite64|fdatasync|fsync)$/ { printf "%s: %d calls, %.3f per action\n", $NF, $4, $4 / n }' \
  "$work/strace.txt"
