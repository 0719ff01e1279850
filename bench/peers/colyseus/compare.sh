#!/bin/sh
# Atout against Colyseus on this machine, in one command (bench/RESULTS.md, "Atout against
# Colyseus"): builds the Release server, load generator and engine addon (at -j1), installs the
# pinned npm packages, then runs bench/load_suite.py with the Atout and Colyseus cases alternated
# in the same rounds. Run from the repository's root:
#
#   bench/peers/colyseus/compare.sh [BUILD_DIR]     (default build/rel)
#
# ROUNDS (5), DURATION (8 s), TABLES (1000), THINK (ms, 2000: about 500 actions/s at 1,000
# tables, under what either server sustains on a busy 2-core machine) and IDLE (2000) may be set
# in the environment. Every run is bounded (load_suite.py gives each at most 600 s); with the
# defaults the measurement takes about 20 minutes on a busy 2-core machine, most of it Colyseus's
# set-up (an HTTP matchmaking request and a WebSocket per seat: about 30 s for 1,000 tables).
set -eu
B=${1:-build/rel}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-8}
TABLES=${TABLES:-1000}
THINK=${THINK:-2000}
IDLE=${IDLE:-2000}
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATOUT_NODE_ADDON=ON
cmake --build "$B" -j1 --target atout-server atout-loadgen atout_duel_node
(cd bench/peers/colyseus && npm ci --no-audit --no-fund)
node bench/peers/colyseus/room_test.js --addon "$B/bench/peers/colyseus/atout_duel.node"
uptime
exec python3 bench/load_suite.py --build "$B" --rounds "$ROUNDS" --duration "$DURATION" --tables "$TABLES" \
  --idle "$IDLE" --cases "duel,colyseus,duel-think$THINK,colyseus-think$THINK,idle,colyseus-idle"
