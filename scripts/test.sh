#!/usr/bin/env bash
# Sets up, builds with warnings as errors under AddressSanitizer and UBSan, and runs every test;
# also builds the server tests under ThreadSanitizer and runs the multi-threaded ones.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
build="${ATOUT_TEST_BUILD_DIR:-$root/build/asan}"
tsan="${ATOUT_TSAN_BUILD_DIR:-$root/build/tsan}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DATOUT_WERROR=ON -DATOUT_SANITIZE=ON -DATOUT_BUILD_BENCH=ON
cmake --build "$build" -j "$(nproc)"

# ThreadSanitizer: only the server tests that run threads (the hidden-information sweep is
# single-threaded and already runs under ASan). Run first, so ctest's summary closes the output.
cmake -S "$root" -B "$tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DATOUT_WERROR=ON -DATOUT_TSAN=ON -DATOUT_BUILD_BENCH=OFF
cmake --build "$tsan" -j "$(nproc)" --target atout_server_tests
# Without address-space randomisation: older TSan runtimes misread newer kernels' layouts.
norandom=()
if setarch "$(uname -m)" -R true 2>/dev/null; then norandom=(setarch "$(uname -m)" -R); fi
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 "${norandom[@]}" "$tsan/tests/atout_server_tests" \
  --gtest_filter='Concurrency.*:*Loopback.*:Lobby.*:BadInput.*:Http.*:Persist*.*' --gtest_brief=1

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure --timeout 900
