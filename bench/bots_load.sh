#!/usr/bin/env bash
# Server bots under load: the round trip of people's actions at ordinary tables, alone and beside
# tables where one scripted player sits with the server's bots (atout-loadgen --bot-tables), and
# the bots' decisions per second. Each round runs both, alternately, each against its own spawned
# server, so the tables alone are the baseline of the same rounds. Medians and every round's
# figure are printed.
# Usage: bench/bots_load.sh [build dir] [rounds] [bot tables] [bot level] [more loadgen flags...]
# e.g.   bench/bots_load.sh build/rel 3 1000 rules --tables 200 --think-ms 500 --duration 20
set -euo pipefail
build="${1:-build/rel}"
rounds="${2:-3}"
bot_tables="${3:-1000}"
level="${4:-rules}"
shift $(($# < 4 ? $# : 4))
extra=("$@")
loadgen="$build/bench/atout-loadgen"
server="$build/server/atout-server"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
  "$loadgen" --spawn "$server" "${extra[@]}" | tail -n 1 >"$out/alone-$r.json"
  "$loadgen" --spawn "$server" --bot-tables "$bot_tables" --bot-level "$level" "${extra[@]}" |
    tail -n 1 >"$out/bots-$r.json"
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(mode):
    runs = [json.load(open(f"{out}/{mode}-{r}.json")) for r in range(1, rounds + 1)]
    for r, j in enumerate(runs, 1):
        if j.get("errors"):
            sys.exit(f"bots_load: round {r} ({mode}) had errors: {j['errors']}")
    return runs
alone, bots = load("alone"), load("bots")
def show(name, f, fmt="{:.3f}"):
    a, b = [f(j) for j in alone], [f(j) for j in bots]
    print(f"{name:34} alone {fmt.format(statistics.median(a))} ({', '.join(fmt.format(x) for x in a)}); "
          f"beside bots {fmt.format(statistics.median(b))} ({', '.join(fmt.format(x) for x in b)})")
show("people's actions/s", lambda j: j["actions_per_s"], "{:.0f}")
show("RTT p50 ms", lambda j: j["rtt_ms"]["p50"])
show("RTT p99 ms", lambda j: j["rtt_ms"]["p99"])
ratios = [b["rtt_ms"]["p99"] / a["rtt_ms"]["p99"] for a, b in zip(alone, bots)]
print(f"p99 beside bots / alone, round by round: median {statistics.median(ratios):.2f} "
      f"({', '.join(f'{x:.2f}' for x in ratios)})")
d = [j["bot_decisions_per_s"] for j in bots]
fb = [j["bot_fallbacks"] for j in bots]
si = [j.get("bot_stand_ins", 0) for j in bots]
cpu = [j["cpu_s"]["server"] / j["window_s"] for j in bots]
print(f"bot decisions/s: median {statistics.median(d):.0f} ({', '.join(f'{x:.0f}' for x in d)}); "
      f"played by the server's fallback for a busy bot: {', '.join(str(x) for x in fb)}; "
      f"chosen by the rules bot standing in: {', '.join(str(x) for x in si)}; "
      f"server CPU beside bots: {statistics.median(cpu):.2f} cores")
PY
