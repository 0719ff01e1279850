#!/bin/sh
# Atout against Colyseus on this machine, in one command (bench/RESULTS.md, "Atout against
# Colyseus"): builds the Release server, load generator and engine addon (at -j1), installs the
# pinned npm packages, then runs bench/load_suite.py with the Atout and Colyseus cases alternated
# in the same rounds. Run from the repository's root:
#
#   bench/peers/colyseus/compare.sh [BUILD_DIR]     (default build/rel)
#
# ROUNDS (5), DURATION (8 s), TABLES (1000), THINK (ms, 200) and IDLE (10000) may be set in the
# environment. Every run is bounded (load_suite.py gives each at most 600 s); with the defaults the
# measurement takes about 10 minutes.
set -eu
B=${1:-build/rel}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-8}
TABLES=${TABLES:-1000}
THINK=${THINK:-200}
IDLE=${IDLE:-10000}
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATOUT_NODE_ADDON=ON
cmake --build "$B" -j1 --target atout-server atout-loadgen atout_duel_node
(cd bench/peers/colyseus && npm ci --no-audit --no-fund)
node bench/peers/colyseus/room_test.js --addon "$B/bench/peers/colyseus/atout_duel.node"
uptime
exec python3 bench/load_suite.py --build "$B" --rounds "$ROUNDS" --duration "$DURATION" --tables "$TABLES" \
  --idle "$IDLE" --cases "duel,colyseus,duel-think$THINK,colyseus-think$THINK,idle,colyseus-idle"
