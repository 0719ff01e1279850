#!/usr/bin/env python3
"""Runs the server load measurements of bench/RESULTS.md ("Server under load") in alternation
and prints medians as Markdown rows.

Each round runs every selected case once, in order, so that the cases of one round share the same
minute of a noisy machine; the report gives the median of each figure over the rounds and, for the
duel case, the ratio to the bare relay (atout-wsfloor) of the same round.

    python3 bench/load_suite.py --build build/rel --rounds 5 [--cases floor,duel,french,...]

With --baseline OTHER_BUILD, every round also runs each case on that build (the order of the two
builds alternates from round to round), and the report adds, per case, the ratio of this build's
median to the baseline's: a before/after comparison from the same minutes of the same machine.

Every run is bounded: --duration seconds of measured play each, a fixed number of rounds.
The exit status is 1 when any run had an error or failed, so a smoke test can run it too.

The colyseus cases run the same duel load against a Colyseus server (bench/peers/colyseus, its
README.md): colyseus (closed loop), colyseus-thinkMS (paced) and colyseus-idle; their Atout
counterparts are duel, duel-thinkMS and idle. When both of a pair run, the report ends with
Atout's figures against Colyseus's, round by round.

Any atout-loadgen case but abuse can take a "-tls" suffix (duel-tls, idle-tls, french-think50-tls):
the same load over TLS (wss://), for a with/without comparison in the same rounds.
"""
import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

PEERS = Path(__file__).resolve().parent / "peers"

CASES = {
    # name: (arguments after the binary, kind); besides these, VARIANT and VARIANT-thinkMS, e.g.
    # duel or french-think180: 1,000 tables of that variant with ack "event", closed loop or with
    # players thinking MS on average.
    "floor": (["{tables}", "{duration}", "81", "956", "2"], "floor"),
    "idle": (["--idle", "{idle}", "--tables", "0"], "loadgen"),
    "idle+french": (["--idle", "{idle}", "--tables", "{tables}", "--ack", "event"], "loadgen"),
    # Paced French tables; the second half of the window with one abuser creating tables and
    # polling list_tables and /api/tables as fast as the server allows (atout-loadgen --abuse).
    "abuse": (["--tables", "{tables}", "--variant", "french", "--ack", "event", "--think-ms", "50", "--abuse"],
              "loadgen"),
}
VARIANTS = ("french", "duel", "coinche", "belot", "bazar", "simple")
# Each Colyseus case and the Atout case it is compared with.
COLYSEUS_PAIRS = {"colyseus": "duel", "colyseus-idle": "idle"}


# The "-tls" cases (duel-tls, idle-tls, ...): the same load over wss://, the server given the
# repository's test certificate (its key is public: for loopback measurements only).
TLS_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "tls"
TLS_ARGS = ["--tls-ca", str(TLS_DIR / "server-a.crt"), f"--server-arg=--tls-cert={TLS_DIR / 'server-a.crt'}",
            f"--server-arg=--tls-key={TLS_DIR / 'server-a.key'}"]


def case(name):
    if name.endswith("-tls"):
        plain = case(name[:-4])
        if plain is None or plain[1] != "loadgen" or name == "abuse-tls":
            return None
        return (plain[0] + TLS_ARGS, "loadgen")
    if name in CASES:
        return CASES[name]
    if name == "colyseus-idle":
        return (["--idle", "{idle}", "--tables", "0"], "colyseus")
    m = re.fullmatch(r"colyseus(?:-think(\d+))?", name)
    if m:
        return (["--tables", "{tables}"] + (["--think-ms", m.group(1)] if m.group(1) else []), "colyseus")
    m = re.fullmatch(r"([a-z]+)(?:-think(\d+))?", name)
    if not m or m.group(1) not in VARIANTS:
        return None
    args = ["--tables", "{tables}", "--variant", m.group(1), "--ack", "event"]
    if m.group(2):
        args += ["--think-ms", m.group(2)]
    return (args, "loadgen")


def run_case(a, name, build):
    args, kind = case(name)
    args = [x.format(tables=a.tables, idle=a.idle, duration=a.duration) for x in args]
    if kind == "floor":
        cmd = [f"{build}/bench/atout-wsfloor"] + args
    elif kind == "colyseus":
        # Node, one process, with the engine of `build` as its addon (cmake -DATOUT_NODE_ADDON=ON).
        dur = "1" if name == "colyseus-idle" else str(a.duration)
        cmd = ["node", f"{PEERS}/colyseus/loadgen.js", "--addon", f"{build}/bench/peers/colyseus/atout_duel.node",
               "--duration", dur] + args
    else:
        dur = "1" if name.removesuffix("-tls") == "idle" else str(a.duration)
        # The abuse case drives every build with this build's generator (a baseline's may predate
        # --abuse); it is the server that is compared.
        tool = a.build if name == "abuse" else build
        cmd = [f"{tool}/bench/atout-loadgen", "--spawn", f"{build}/server/atout-server", "--duration", dur] + args
        cmd += [f"--server-arg={x}" for x in a.server_arg]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if not lines:
        sys.exit(f"{name}: no JSON line (exit {out.returncode}):\n{out.stdout}\n{out.stderr}")
    r = json.loads(lines[-1])
    r["_exit"] = out.returncode
    r["_cmd"] = " ".join(cmd)
    return r


def figures(name, r):
    """The figures reported for one run of one case."""
    if name == "floor":
        f = {"actions/s": r["actions_per_s"], "server CPU us/action": r["cpu_us_per_action"]["server"],
             "client CPU us/action": r["cpu_us_per_action"]["client"]}
        if "server_sys_us_per_action" in r:
            f["server sys us/action"] = r["server_sys_us_per_action"]
            f["server user us/action"] = f["server CPU us/action"] - f["server sys us/action"]
        return f
    acts = max(r["actions"], 1)
    f = {}
    if r["tables"] > 0:
        f = {"actions/s": r["actions_per_s"], "RTT p50 ms": r["rtt_ms"]["p50"], "RTT p99 ms": r["rtt_ms"]["p99"],
             "RTT p999 ms": r["rtt_ms"]["p999"], "server CPU us/action": 1e6 * r["cpu_s"]["server"] / acts,
             "loadgen CPU us/action": 1e6 * r["cpu_s"]["loadgen"] / acts, "errors": r["error_count"],
             "closed by server": r["closed_by_server"], "tables started": r["tables_started"],
             "RSS KiB per table connection": r["server_rss_kib"]["per_table_connection"]}
        if "cpu_sys_s" in r:
            # The kernel's part of the server's CPU, apart: the floor no server code removes.
            f["server sys us/action"] = 1e6 * r["cpu_sys_s"]["server"] / acts
            f["server user us/action"] = f["server CPU us/action"] - f["server sys us/action"]
    if "abuse" in r:
        x = r["abuse"]
        f["RTT p99 quiet ms"] = x["p99_quiet_ms"]
        f["RTT p99 abused ms"] = x["p99_abused_ms"]
        f["abused / quiet p99 (floor 5 ms)"] = x["ratio"]
        f["abuser tables"] = x["created"]
        f["abuser list MB"] = x["list_bytes"] / 1e6
        f["abuser /api/tables MB"] = x["http_bytes"] / 1e6
    if r["idle"] > 0:
        f["RSS KiB per idle connection"] = r["server_rss_kib"]["per_idle_connection"]
        f["idle connections ready"] = r["idle_ready"]
    return f


def colyseus_report(runs):
    """Atout against Colyseus: each figure of a pair of cases, medians and the ratio of medians."""
    pairs = [(c, runs.get(COLYSEUS_PAIRS.get(c) or "duel-" + c.split("-", 1)[1])) for c in runs if c.startswith("colyseus")]
    pairs = [(c, atout) for c, atout in pairs if atout]
    if not pairs:
        return
    print("\nAtout against Colyseus, same rounds (medians; the ratio is Atout's advantage, > 1 is Atout better):")
    print("| Atout case / Colyseus case | figure | Atout | Colyseus | Atout advantage |\n|---|---|---|---|---|")
    lower_is_better = ("RTT p50 ms", "RTT p99 ms", "RTT p999 ms", "server CPU us/action", "server user us/action",
                       "server sys us/action", "RSS KiB per idle connection", "RSS KiB per table connection")
    for c, atout_runs in pairs:
        atout_name = next(n for n, rs in runs.items() if rs is atout_runs)
        mine = [figures(atout_name, r) for r in atout_runs]
        theirs = [figures(c, r) for r in runs[c]]
        for f in mine:
            if "server CPU us/action" in f:
                f["actions per server CPU-second"] = 1e6 / max(f["server CPU us/action"], 1e-9)
        for f in theirs:
            if "server CPU us/action" in f:
                f["actions per server CPU-second"] = 1e6 / max(f["server CPU us/action"], 1e-9)
        for k in mine[0]:
            if k not in lower_is_better and k not in ("actions/s", "actions per server CPU-second"):
                continue
            if k == "actions/s" and "think" in c:
                continue  # paced: both play at the rate the thinking sets
            m = statistics.median(f[k] for f in mine)
            t = statistics.median(f[k] for f in theirs)
            adv = (t / m if k in lower_is_better else m / t) if m > 0 and t > 0 else float("nan")
            print(f"| {atout_name} / {c} | {k} | {m:.4g} | {t:.4g} | **{adv:.3g} ×** |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build/rel")
    p.add_argument("--baseline", help="another build to run in the same rounds, for before/after ratios")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--duration", type=int, default=8)
    p.add_argument("--cases", default="floor,duel")
    p.add_argument("--tables", type=int, default=1000, help="tables (relay pairs) per case")
    p.add_argument("--idle", type=int, default=10000, help="idle connections for the idle cases")
    p.add_argument("--server-arg", action="append", default=[], help="one more server argument")
    p.add_argument("--json", help="also write every run's JSON here")
    a = p.parse_args()
    names = a.cases.split(",")
    for n in names:
        if case(n) is None:
            sys.exit(f"unknown case {n}; known: {', '.join(CASES)}, VARIANT or VARIANT-thinkMS ({', '.join(VARIANTS)}), "
                     "each of those with -tls")
    if not 1 <= a.rounds <= 50 or not 1 <= a.duration <= 120 or not 1 <= a.tables <= 100000:
        sys.exit("--rounds 1..50, --duration 1..120 and --tables 1..100000")
    builds = [a.build] + ([a.baseline] if a.baseline else [])
    runs = {n: [] for n in names}
    base_runs = {n: [] for n in names}
    for i in range(a.rounds):
        order = builds if i % 2 == 0 else builds[::-1]
        for n in names:
            for b in order:
                r = run_case(a, n, b)
                (runs if b == a.build else base_runs)[n].append(r)
                f = figures(n, r)
                label = "" if b == a.build else " (baseline)"
                print(f"round {i + 1} {n}{label}: " + ", ".join(f"{k} {v:.4g}" for k, v in f.items()), flush=True)
                time.sleep(1)
    if a.json:
        with open(a.json, "w") as out:
            json.dump({"build": runs, "baseline": base_runs} if a.baseline else runs, out, indent=1)
    print(f"\n{time.strftime('%Y-%m-%d')}, {a.rounds} rounds of {a.duration} s, medians:")
    print("| case | figure | median | each run |\n|---|---|---|---|")
    for n in names:
        per = [figures(n, r) for r in runs[n]]
        for k in per[0]:
            vals = [f[k] for f in per]
            print(f"| {n} | {k} | **{statistics.median(vals):.4g}** | {', '.join(f'{v:.4g}' for v in vals)} |")
    if "floor" in runs and "duel" in runs:
        ratios = [d["actions_per_s"] / f["actions_per_s"] for d, f in zip(runs["duel"], runs["floor"])]
        print(f"| duel / floor | actions/s, pair by pair | **{statistics.median(ratios):.3g} ×** | "
              + ", ".join(f"{x:.3g}" for x in ratios) + " |")
    colyseus_report(runs)
    if a.baseline:
        print(f"\nagainst the baseline {a.baseline} in the same rounds (this build's median / the baseline's):")
        print("| case | figure | this build | baseline | ratio |\n|---|---|---|---|---|")
        for n in names:
            mine = [figures(n, r) for r in runs[n]]
            theirs = [figures(n, r) for r in base_runs[n]]
            for k in mine[0]:
                if k not in ("actions/s", "RTT p99 ms", "server CPU us/action", "RSS KiB per idle connection",
                             "RTT p99 abused ms", "abused / quiet p99 (floor 5 ms)"):
                    continue
                m = statistics.median(f[k] for f in mine)
                t = statistics.median(f[k] for f in theirs)
                ratio = f"{m / t:.3f} ×" if t else "n/a"
                print(f"| {n} | {k} | {m:.4g} | {t:.4g} | **{ratio}** |")
    bad = [n for n in names for rs in (runs, base_runs) for r in rs[n] if r["_exit"] != 0 or r.get("error_count", 0)]
    if bad:
        print(f"runs with errors or a failing exit: {bad}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
