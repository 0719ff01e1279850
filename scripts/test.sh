#!/usr/bin/env bash
# Sets up, builds and runs every test: everything with warnings as errors under AddressSanitizer
# and UBSan; the server's multi-threaded tests also under ThreadSanitizer; the big seeded random
# simulations in an optimised build, where they run ten times faster (their first shard of each
# variant still runs under the sanitizers); every libFuzzer target for a few seconds each; then the
# web client, its unit tests and its browser tests, and two two-minute chaos soaks, one server then a
# three-node cluster (with the fuzz targets running beside them), against the sanitized server; the Colyseus peer of the benchmarks; and every store test on PostgreSQL as well
# as SQLite, against a throwaway PostgreSQL server it starts. Prints how long each stage took.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ATOUT_TEST_BUILD_DIR:-$root/build/asan}"
tsan="${ATOUT_TSAN_BUILD_DIR:-$root/build/tsan}"
opt="${ATOUT_OPT_BUILD_DIR:-$root/build/opt}"
# Builds run one job per core, not one more: on a two-core machine the optimised build took 437 s
# with three jobs against 357-378 s with two (bench/RESULTS.md, "CI time on a slower machine").
jobs="$(nproc)"

timings=()
stage() {
  local name="$1" start=$SECONDS
  shift
  echo "== stage: $name"
  "$@"
  local took=$((SECONDS - start))
  timings+=("$(printf '%-28s %5d s' "$name" "$took")")
  echo "== stage: $name took ${took} s"
}
summary() {
  echo "== stage durations"
  printf '   %s\n' "${timings[@]}"
  # Repeat ctest's count as the closing line, since the durations come after its summary.
  local counts
  counts=$(grep -Eo '[0-9]+ tests failed out of [0-9]+' "$build/ctest.log" 2>/dev/null | tail -n 1)
  if [ -n "$counts" ]; then
    local failed total
    read -r failed _ _ _ _ total <<<"$counts"
    echo "ctest: $((total - failed)) passed, $failed failed"
  fi
}
trap 'pg_stop; summary' EXIT

# The simulation shards: every parameterised *Sim suite. Shard 0 of each runs under the sanitizers
# too; the rest run only in the optimised build. CTest names a parameterised test with its value
# after it ("…/bazar_3  # GetParam() = bazar/3"), so a shard number ends at a space or the end.
sims_regex='Sim\.'
later_shards='Sim\.[^ ]*_[1-9][0-9]*( |$)'

configure_asan() {
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DATOUT_WERROR=ON -DATOUT_SANITIZE=ON -DATOUT_BUILD_BENCH=ON -DATOUT_PCH=ON -DATOUT_UNITY=ON -DATOUT_PG_TESTS=ON \
    -DATOUT_TEST_REDIS=ON
  cmake --build "$build" -j "$jobs"
}
configure_opt() {
  # Only the simulations' executables (the unit tests run in the sanitizer build), and the Colyseus
  # peer's addon. Position-independent throughout, so that the addon links the engine and protocol
  # libraries instead of compiling them again; without semantic interposition, so that the code
  # is inlined as in an executable.
  cmake -S "$root" -B "$opt" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATOUT_WERROR=ON \
    -DATOUT_BUILD_BENCH=OFF -DATOUT_NODE_ADDON=ON -DATOUT_PCH=ON -DATOUT_UNITY=ON \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_CXX_FLAGS=-fno-semantic-interposition
  cmake --build "$opt" -j "$jobs" --target atout_engine_sims atout_bots_sims atout_protocol_sims atout_table_tests \
    atout_duel_node
}
run_colyseus() {
  # The Colyseus peer of the benchmarks (bench/peers/colyseus): its room keeps the duel's rules and
  # hides each hand, and its load client plays.
  (cd "$root/bench/peers/colyseus" && npm ci --no-audit --no-fund --loglevel=error)
  ctest --test-dir "$opt" --output-on-failure --timeout 300 -R '^colyseus_'
}
pg_start() {
  # A throwaway PostgreSQL under the build directory, for the store tests' PostgreSQL variants.
  ATOUT_TEST_PG_URL="$(bash "$root/scripts/pg_test_server.sh" start)"
  export ATOUT_TEST_PG_URL
}
pg_stop() { bash "$root/scripts/pg_test_server.sh" stop >/dev/null 2>&1 || true; }
run_sims() {
  ctest --test-dir "$opt" -j "$jobs" --output-on-failure --timeout 900 -R "$sims_regex"
}
configure_tsan() {
  cmake -S "$root" -B "$tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DATOUT_WERROR=ON -DATOUT_TSAN=ON -DATOUT_BUILD_BENCH=OFF -DATOUT_PCH=ON -DATOUT_UNITY=ON
  cmake --build "$tsan" -j "$jobs" --target atout_server_tests
}
run_tsan() {
  # Without address-space randomisation: older TSan runtimes misread newer kernels' layouts.
  local norandom=()
  if setarch "$(uname -m)" -R true 2>/dev/null; then norandom=(setarch "$(uname -m)" -R); fi
  # The suites tests/CMakeLists.txt names once, and whose files alone it builds under TSan.
  local filter
  filter=$(cat "$tsan/tests/tsan_gtest_filter.txt")
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 "${norandom[@]}" "$tsan/tests/atout_server_tests" \
    --gtest_filter="$filter" --gtest_brief=1
}
check_shard_filter() {
  # Exactly shard 0 of each simulation suite is left to the sanitizers; a name format that slipped
  # past the pattern would run every shard here (or none) without a word.
  local sims zeros
  sims=$(ctest --test-dir "$build" -N -R "$sims_regex" -E "$later_shards" | grep -c 'Test *#' || true)
  zeros=$(ctest --test-dir "$build" -N -R "$sims_regex" | grep -Ec 'Test *#.*_0( |$)' || true)
  echo "simulation shards under the sanitizers: $sims (one per suite: $zeros)"
  [ "$sims" -gt 0 ] && [ "$sims" -eq "$zeros" ]
}
run_ctest() {
  check_shard_filter
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
    LSAN_OPTIONS="suppressions=$root/tests/lsan.supp" UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$build" -j "$jobs" --output-on-failure --timeout 900 -E "$later_shards" -LE soak \
    | tee "$build/ctest.log"
}
run_soak() {
  # The chaos soaks (bench/soak), one after the other and away from the other tests, which they
  # would starve: two minutes against one server it kills and restarts, then two minutes against
  # three nodes on PostgreSQL and Redis, killing one node at a time.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$build" --output-on-failure --timeout 900 -L soak
}
build_fuzz() {
  # Every libFuzzer target of tests/fuzz, built with clang; they run later, beside the soak.
  FUZZ_PHASE=build bash "$root/scripts/fuzz.sh"
}
run_soak_and_fuzz() {
  # The soak's two minutes are wall-clock time, and so are the fuzzers' 15 s per target: run side by
  # side, the stage takes the longer of the two instead of their sum. The fuzzers run one at a
  # time (one core); fewer executions under the shared load, but each target still runs its time.
  local fuzz_log="$root/build/fuzz/run.log" fuzz_rc=0 soak_rc=0
  FUZZ_PHASE=run bash "$root/scripts/fuzz.sh" 15 >"$fuzz_log" 2>&1 &
  local fuzz_pid=$!
  run_soak || soak_rc=$?
  wait "$fuzz_pid" || fuzz_rc=$?
  echo "== fuzz (libFuzzer, 15 s each, beside the soak)"
  cat "$fuzz_log"
  echo "soak exit $soak_rc, fuzz exit $fuzz_rc"
  [ "$soak_rc" -eq 0 ] && [ "$fuzz_rc" -eq 0 ]
}

run_web() {
  # The web client against the sanitized server: unit tests, then a person's matches in Chromium.
  ATOUT_SERVER_BIN="$build/server/atout-server" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    bash "$root/scripts/web_test.sh"
}
run_tsan_and_web() {
  # Side by side, each into its own log, printed whole once both are done: the stage takes the
  # longer of the two (each about one core: 0.9 of a core for the TSan tests, 0.9 for the web
  # client with its browser, measured) instead of their sum.
  local tsan_log="$tsan/tsan_tests.log" web_log="$root/build/web_test.log" tsan_rc=0 web_rc=0
  mkdir -p "$root/build"
  run_tsan >"$tsan_log" 2>&1 &
  local tsan_pid=$!
  run_web >"$web_log" 2>&1 || web_rc=$?
  wait "$tsan_pid" || tsan_rc=$?
  echo "== server tests (tsan)"
  cat "$tsan_log"
  echo "== web client (vitest, chromium)"
  cat "$web_log"
  echo "tsan exit $tsan_rc, web exit $web_rc"
  [ "$tsan_rc" -eq 0 ] && [ "$web_rc" -eq 0 ]
}

rm -f "$build/ctest.log"
stage "setup" bash "$root/scripts/setup.sh"
stage "build optimised simulations" configure_opt
stage "simulations (optimised)" run_sims
stage "colyseus peer (node)" run_colyseus
stage "build fuzz targets (clang)" build_fuzz
stage "build tsan server tests" configure_tsan
stage "build asan+ubsan" configure_asan
# ThreadSanitizer: only the server tests that run threads (the TSan build compiles only the files
# that hold them; the hidden-information sweep is single-threaded and runs in the optimised build,
# its first shards under ASan). Beside the web client's tests: each keeps about one core busy.
stage "server tests (tsan) + web client" run_tsan_and_web
# Under /tmp, not the build directory: run as root, the server runs as the postgres user, who may
# not be able to reach a clone in root's home.
ATOUT_PG_DIR="$(mktemp -d /tmp/atout-pg.XXXXXX)"
export ATOUT_PG_DIR
# Before the soaks: the cluster soak's nodes share this database.
stage "start postgresql" pg_start
stage "chaos soaks (asan, 2+2 min) + fuzz" run_soak_and_fuzz
# Last, so that ctest's summary closes the output.
stage "ctest (asan+ubsan)" run_ctest
