#!/usr/bin/env bash
# Sets up, builds the web client (web/dist) and an optimised atout-server, and runs it serving the
# client at http://localhost:8080/ (WebSocket at /ws). Extra arguments go to the server; try --help.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
build="${ATOUT_BUILD_DIR:-$root/build/release}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATOUT_BUILD_TESTS=OFF -DATOUT_BUILD_BENCH=OFF
cmake --build "$build" -j "$(nproc)" --target atout-server
(cd "$root/web" && npm ci --no-audit --no-fund && npm run build)
exec "$build/server/atout-server" --web-root "$root/web/dist" "$@"
