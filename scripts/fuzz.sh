#!/usr/bin/env bash
# Builds the libFuzzer targets (build/fuzz, clang, ATOUT_FUZZ=ON) and runs each for SECONDS (default
# 20) on a temporary copy of its seed corpus, with its dictionary and an input size suited to it.
# Prints per target the executions, the coverage (cov and ft of libFuzzer's final line) and the
# crashes; a crashing input is kept under build/fuzz/artifacts/<target>/. Exits non-zero when any
# target crashed (or failed to build or run).
#   scripts/fuzz.sh [SECONDS]     JOBS=N sets the build's parallelism (default: every core)
#   TARGETS="request http" scripts/fuzz.sh 60      runs only those targets
#   FUZZ_PHASE=build scripts/fuzz.sh    only builds; FUZZ_PHASE=run scripts/fuzz.sh 15    only runs
#   (what CI does: it builds early, and runs the targets beside the chaos soak)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-20}"
jobs="${JOBS:-$(nproc)}"
build="$root/build/fuzz"
cxx="${FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}"
if [ -z "$cxx" ]; then
  echo "fuzz: clang++ not found (Debian: apt-get install clang libclang-rt-14-dev; scripts/setup.sh)" >&2
  exit 2
fi

# target name, -max_len: what one input of each can sensibly hold.
declare -A max_len=([request]=4096 [record]=32768 [http]=1024 [engine]=1024 [recovery]=16384 [delta]=8192)
all_targets=(request record http engine recovery delta)
read -r -a targets <<<"${TARGETS:-${all_targets[*]}}"

phase="${FUZZ_PHASE:-all}"
case "$phase" in all | build | run) ;; *) echo "fuzz: FUZZ_PHASE must be all, build or run" >&2; exit 2 ;; esac

start=$(date +%s)
if [ "$phase" != run ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
    -DATOUT_FUZZ=ON -DATOUT_WERROR=ON -DATOUT_BUILD_TESTS=OFF -DATOUT_BUILD_BENCH=OFF >/dev/null
  cmake --build "$build" -j "$jobs" --target atout_fuzz_targets
  echo "fuzz: built in $(($(date +%s) - start)) s"
fi
[ "$phase" = build ] && exit 0

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
printf '%-10s %12s %8s %8s %8s\n' target executions cov ft crashes
for t in "${targets[@]}"; do
  exe="$build/tests/fuzz/${t}_fuzz"
  [ -x "$exe" ] || exe="$build/${t}_fuzz"
  if [ ! -x "$exe" ]; then
    echo "fuzz: no executable for target '$t'" >&2
    failed=1
    continue
  fi
  corpus="$work/$t/corpus"
  artifacts="$work/$t/artifacts"
  mkdir -p "$corpus" "$artifacts"
  cp -r "$root/tests/fuzz/corpus/$t/." "$corpus/"
  args=(-max_total_time="$seconds" -max_len="${max_len[$t]:-4096}" -timeout=10 -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$artifacts/")
  [ -f "$root/tests/fuzz/$t.dict" ] && args+=(-dict="$root/tests/fuzz/$t.dict")
  rc=0
  "$exe" "${args[@]}" "$corpus" >"$work/$t/log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t/log" | tail -1)
  cov=$(grep -Eo 'cov: [0-9]+' "$work/$t/log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -Eo 'ft: [0-9]+' "$work/$t/log" | tail -1 | cut -d' ' -f2)
  crashes=$(find "$artifacts" -type f | wc -l)
  printf '%-10s %12s %8s %8s %8s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    failed=1
    mkdir -p "$build/artifacts/$t"
    cp -r "$artifacts/." "$build/artifacts/$t/" 2>/dev/null || true
    cp "$work/$t/log" "$build/artifacts/$t/fuzz.log"
    echo "fuzz: $t failed (exit $rc); its log and inputs are in $build/artifacts/$t/" >&2
    grep -E 'ERROR|fuzz property failed|SUMMARY|runtime error' "$work/$t/log" | head -5 >&2 || true
  fi
done
echo "fuzz: done in $(($(date +%s) - start)) s"
exit "$failed"
