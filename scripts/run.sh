#!/usr/bin/env bash
# Sets up, builds an optimised tree and runs the main job. Until the server lands, that is a
# seeded simulation of French belote matches with the `atout` CLI; extra arguments go to it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
build="${ATOUT_BUILD_DIR:-$root/build/release}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATOUT_BUILD_TESTS=OFF -DATOUT_BUILD_BENCH=OFF
cmake --build "$build" -j "$(nproc)" --target atout
if [ "$#" -eq 0 ]; then set -- simulate --variant french --games 1000 --seed 1; fi
exec "$build/cli/atout" "$@"
