#!/usr/bin/env bash
# Runs the chaos soak (bench/soak/soak.py) against a built server for MINUTES (default 2):
#   scripts/soak.sh [MINUTES] [more soak.py options, e.g. --seed 7]
#   scripts/soak.sh 2 --cluster 3      three nodes on PostgreSQL ($ATOUT_TEST_PG_URL) and Redis
# The server and CLI come from the sanitized build (build/asan, or $ATOUT_TEST_BUILD_DIR), as in CI;
# build them first (cmake --build build/asan --target atout-server atout).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ATOUT_TEST_BUILD_DIR:-$root/build/asan}"
minutes="${1:-2}"
shift || true
for bin in "$build/server/atout-server" "$build/cli/atout"; do
  [ -x "$bin" ] || { echo "soak: $bin is missing; build it first" >&2; exit 2; }
done
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
exec /usr/bin/python3 "$root/bench/soak/soak.py" --server "$build/server/atout-server" --cli "$build/cli/atout" \
  --minutes "$minutes" "$@"
