#!/usr/bin/env python3
"""Compares two builds of Atout in the same run: the engine benchmarks and `atout simulate`.

Each round runs every measurement on both builds, in an order that alternates from round to round,
so that both see the same minutes of a noisy machine. The report gives, per figure, the median of
each build over the rounds and the ratio of the new build's median to the baseline's (below 1 is
faster for times).

    python3 bench/compare_builds.py --build build/rel --baseline ../base/build/rel --rounds 5

Both builds need bench/atout_engine_bench and cli/atout (Release, -DATOUT_BUILD_BENCH=ON). Every
run is bounded: a fixed number of rounds, Google Benchmark's --benchmark_min_time per benchmark,
and a fixed number of simulated games.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

VARIANTS = ("french", "coinche", "belot", "bazar", "duel", "simple")


def engine_bench(build, a):
    cmd = [f"{build}/bench/atout_engine_bench", f"--benchmark_filter={a.filter}", "--benchmark_format=json",
           f"--benchmark_min_time={a.min_time}"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=True)
    data = json.loads(out.stdout)
    return {f"{b['name']} CPU ns": b["cpu_time"] for b in data["benchmarks"] if b.get("run_type") != "aggregate"}


def simulate(build, a):
    figures = {}
    for v in VARIANTS:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([f"{build}/cli/atout", "simulate", "--variant", v, "--games", str(a.games), "--seed", "7"],
                       capture_output=True, text=True, timeout=600, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        figures[f"atout simulate {v} x{a.games} CPU ms"] = 1000 * cpu
    return figures


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True)
    p.add_argument("--baseline", required=True)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--games", type=int, default=2000, help="matches per variant for atout simulate")
    p.add_argument("--filter", default="BM_ShuffleDeal|BM_VariantPlayHand|BM_VariantStateHand|BM_FrenchRandomPlayHand")
    p.add_argument("--min-time", default="0.3")
    a = p.parse_args()
    if not 1 <= a.rounds <= 50 or not 1 <= a.games <= 100000:
        sys.exit("--rounds 1..50 and --games 1..100000")
    for b in (a.build, a.baseline):
        for f in ("bench/atout_engine_bench", "cli/atout"):
            if not os.access(f"{b}/{f}", os.X_OK):
                sys.exit(f"{b}/{f} is missing: build it first (Release, -DATOUT_BUILD_BENCH=ON)")
    runs = {a.build: [], a.baseline: []}
    for i in range(a.rounds):
        order = [a.build, a.baseline] if i % 2 == 0 else [a.baseline, a.build]
        for b in order:
            f = engine_bench(b, a)
            f.update(simulate(b, a))
            runs[b].append(f)
            print(f"round {i + 1} {'build' if b == a.build else 'baseline'} done", file=sys.stderr, flush=True)
    # On a shared machine noise only ever adds time, so beside the medians the fastest round of each
    # build is given too: for code whose work is fixed it is the steadier estimate of its cost.
    print(f"\n{time.strftime('%Y-%m-%d')}, {a.rounds} rounds; ratio = this build / baseline:")
    print("| figure | this build, median | baseline, median | ratio of medians | ratio of fastest rounds |")
    print("|---|---|---|---|---|")
    worst = 0.0
    for k in runs[a.build][0]:
        m = statistics.median(r[k] for r in runs[a.build])
        t = statistics.median(r[k] for r in runs[a.baseline])
        fast = min(r[k] for r in runs[a.build]) / min(r[k] for r in runs[a.baseline])
        worst = max(worst, m / t)
        print(f"| {k} | {m:.4g} | {t:.4g} | **{m / t:.3f}** | {fast:.3f} |")
    print(f"\nslowest ratio of medians: {worst:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
