#!/usr/bin/env bash
# Sets up, builds an optimised atout-server and runs it with its embedded defaults (HTTP and
# WebSocket on port 8080, path /ws). Extra arguments go to the server; try --help.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
build="${ATOUT_BUILD_DIR:-$root/build/release}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATOUT_BUILD_TESTS=OFF -DATOUT_BUILD_BENCH=OFF
cmake --build "$build" -j "$(nproc)" --target atout-server
exec "$build/server/atout-server" "$@"
