#!/usr/bin/python3
"""One node on PostgreSQL against one node on SQLite, in the same rounds: actions/s and round trips
at many tables, through the live server.

Usage: store_backends_load.py --server PATH --loadgen PATH --pg-url URL [--tables 1000]
                              [--duration 20] [--rounds 3] [--think-ms 0,1000] [--variant french]

Each round runs, for each pace in --think-ms (0: a closed loop, each player acting as soon as it
may, which measures the most the node sustains; T > 0: each player thinks T/2 to 3T/2 ms, which
measures the round trip at a fixed load), one atout-loadgen against a server it spawns on SQLite
(a fresh file) and then one against a server it spawns on PostgreSQL (a fresh schema of the
database --pg-url names, dropped afterwards). Both servers are single nodes without Redis, with the
loadgen's defaults otherwise. The backends alternate within each round, so both see the same
machine. Prints each run, then per backend and pace the medians over the rounds: accepted actions
per second, p50 and p99 round trips, and the server's CPU per action.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "server"))
from cluster_pg_failover import psql, with_schema  # noqa: E402


def run(args, db, think_ms):
    cmd = [args.loadgen, "--spawn", args.server, "--server-arg=--db", f"--server-arg={db}", "--tables",
           str(args.tables), "--variant", args.variant, "--think-ms", str(think_ms), "--duration", str(args.duration)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.duration * 10 + 300)
    lines = out.stdout.strip().splitlines()
    if not lines:
        sys.exit(f"store_backends_load: atout-loadgen printed nothing (exit {out.returncode}): {out.stderr[-2000:]}")
    report = json.loads(lines[-1])
    if out.returncode != 0 or report["error_count"]:
        print(f"  warning: exit {out.returncode}, errors {report['errors']}", file=sys.stderr)
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--loadgen", required=True)
    ap.add_argument("--pg-url", required=True)
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--duration", type=float, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--think-ms", default="0,1000")
    ap.add_argument("--variant", default="french")
    args = ap.parse_args()
    paces = [int(x) for x in args.think_ms.split(",")]
    results = {}  # (backend, think) -> [report]
    work = tempfile.mkdtemp(prefix="atout-backends-")
    for r in range(1, args.rounds + 1):
        for think in paces:
            for backend in ("sqlite", "postgresql"):
                if backend == "sqlite":
                    db = os.path.join(work, f"r{r}-{think}.db")
                    report = run(args, db, think)
                    for suffix in ("", "-wal", "-shm"):
                        if os.path.exists(db + suffix):
                            os.remove(db + suffix)
                else:
                    schema = f"backends_{uuid.uuid4().hex[:12]}"
                    psql(args.pg_url, f"CREATE SCHEMA {schema}")
                    try:
                        report = run(args, with_schema(args.pg_url, schema), think)
                    finally:
                        psql(args.pg_url, f"DROP SCHEMA {schema} CASCADE")
                results.setdefault((backend, think), []).append(report)
                cpu_us = report["cpu_s"]["server"] / max(1, report["actions"]) * 1e6
                print(f"round {r} think {think} ms {backend:10}: {report['actions_per_s']:9.0f} actions/s, "
                      f"p50 {report['rtt_ms']['p50']:7.2f} ms, p99 {report['rtt_ms']['p99']:7.2f} ms, "
                      f"server CPU {cpu_us:6.1f} us/action, errors {report['error_count']}", flush=True)
    print(f"\nmedians over {args.rounds} rounds, {args.tables} {args.variant} tables, {args.duration:g} s windows:")
    for think in paces:
        for backend in ("sqlite", "postgresql"):
            rs = results[(backend, think)]
            med = lambda f: statistics.median(f(x) for x in rs)
            print(f"think {think:5} ms {backend:10}: {med(lambda x: x['actions_per_s']):9.0f} actions/s, "
                  f"p50 {med(lambda x: x['rtt_ms']['p50']):7.2f} ms, p99 {med(lambda x: x['rtt_ms']['p99']):7.2f} ms, "
                  f"server CPU {med(lambda x: x['cpu_s']['server'] / max(1, x['actions']) * 1e6):6.1f} us/action, "
                  f"errors {sum(x['error_count'] for x in rs)}")
    os.rmdir(work)


if __name__ == "__main__":
    main()
