#!/usr/bin/env bash
# Bytes the seats receive per French action over real sockets, full views against per-seat deltas
# (docs/protocol.md, Deltas): atout-loadgen plays the same tables with the same seed, alternately
# without and with --deltas, for ROUNDS rounds, each against its own spawned server, and the
# medians are printed with every round's figure, with the server's CPU per action (making deltas
# costs the server work that full views do not). The full views are the baseline of the same run.
# With BASELINE=<another build dir>, each round also plays deltas against that build's server (the
# same load generator), to compare two servers' CPU for deltas in the same rounds.
# Usage: bench/delta_loadgen.sh [build dir] [rounds] [tables] [actions per run] [more loadgen flags...]
set -euo pipefail
build="${1:-build/dev}"
rounds="${2:-3}"
tables="${3:-20}"
actions="${4:-20000}"
shift $(($# < 4 ? $# : 4))
extra=("$@")  # e.g. --ack event: no accepted replies in either mode
loadgen="$build/bench/atout-loadgen"
server="$build/server/atout-server"
baseline="${BASELINE:-}"
modes=(full delta)
[ -n "$baseline" ] && modes+=(baseline)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
  for mode in "${modes[@]}"; do
    flags=()
    [ "$mode" != full ] && flags+=(--deltas)
    spawn="$server"
    [ "$mode" = baseline ] && spawn="$baseline/server/atout-server"
    "$loadgen" --spawn "$spawn" --variant french --tables "$tables" --actions "$actions" --duration 120 \
      --seed 7 "${flags[@]}" "${extra[@]}" | tail -n 1 >"$out/$mode-$r.json"
  done
done
python3 - "$out" "$rounds" "${modes[@]}" <<'PY'
import json, statistics, sys
out, rounds, modes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
per = {m: [] for m in modes}
cpu = {m: [] for m in modes}
for r in range(1, rounds + 1):
    for mode in per:
        j = json.load(open(f"{out}/{mode}-{r}.json"))
        if j.get("errors"):
            sys.exit(f"delta_loadgen: round {r} {mode} had errors: {j['errors']}")
        per[mode].append(j["received_bytes"] / j["actions"])
        cpu[mode].append(1e6 * j["cpu_s"]["server"] / j["actions"])
ratios = [d / f for f, d in zip(per["full"], per["delta"])]
for mode in per:
    print(f"{mode:8} bytes per action: median {statistics.median(per[mode]):.0f} ({', '.join(f'{x:.0f}' for x in per[mode])})")
print(f"delta/full: median {statistics.median(ratios):.3f} ({', '.join(f'{x:.3f}' for x in ratios)})")
for mode in cpu:
    print(f"{mode:8} server CPU per action: median {statistics.median(cpu[mode]):.1f} us ({', '.join(f'{x:.1f}' for x in cpu[mode])})")
PY
