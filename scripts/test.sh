#!/usr/bin/env bash
# Sets up, builds with warnings as errors under AddressSanitizer and UBSan, and runs every test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
build="${ATOUT_TEST_BUILD_DIR:-$root/build/asan}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DATOUT_WERROR=ON -DATOUT_SANITIZE=ON -DATOUT_BUILD_BENCH=ON
cmake --build "$build" -j "$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure --timeout 900
