#!/usr/bin/python3
"""Closed-loop throughput of one node against three, on one machine: actions/s, p99 and where the
CPU went.

Usage: cluster_throughput.py --server PATH --loadgen PATH [--tables 300] [--duration 10]
                             [--runs 3] [--pg-url URL] [--redis-server PATH]

Each run starts redis-server, then either one node (--threads 2) or three nodes (--threads 1
each), all in cluster mode (--redis) on the same database: a fresh schema of the PostgreSQL
database --pg-url names, or else an SQLite file. With three nodes, one atout-loadgen per node
plays a third of the duel tables against that node directly: atout-loadgen does not follow
redirects, so it cannot sit behind a round-robin load balancer, and a table lives on the node that
created it anyway. One node and three alternate, run after run, so both see the same machine.
Prints each run's figures and, per configuration, the median over the runs: accepted actions per
second (summed over the loadgens), the worst loadgen's p99 round trip, and the CPU seconds spent
by the nodes, the load generators, Redis and PostgreSQL during the run.
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "server"))
from cluster_match import free_port, start_redis  # noqa: E402
from cluster_pg_failover import psql, with_schema  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """CPU (user + system) of `pid` and its reaped children, in seconds; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15]) / TICKS
    except OSError:
        return 0.0


def postgres_pids(pg_url):
    """The PostgreSQL server on the port `pg_url` names and its backends (other servers on this
    machine are not counted)."""
    if not pg_url:
        return []
    port = pg_url.split("@", 1)[-1].split("/", 1)[0].rsplit(":", 1)[-1]
    found = subprocess.run(["pgrep", "-f", f"postgres .*-p {port}( |$)"], capture_output=True, text=True).stdout
    pids = [int(p) for p in found.split()]
    for parent in list(pids):
        children = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True).stdout
        pids += [int(p) for p in children.split()]
    return pids


def start_node(server, db, redis_port, node_id, threads):
    port = free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    log = open(os.path.join(tempfile.gettempdir(), f"atout-tp-{node_id}-{port}.log"), "w")
    p = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--threads", str(threads), "--db", db,
                          "--redis", f"redis://127.0.0.1:{redis_port}", "--node-id", node_id, "--public-url", url,
                          "--max-conns-per-ip", "0", "--log-level", "warn"],
                         stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if p.poll() is not None:
            sys.exit(f"node {node_id} exited {p.returncode}; see {log.name}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return p, port, log.name
        except OSError:
            time.sleep(0.1)
    p.kill()
    sys.exit(f"node {node_id} did not listen; see {log.name}")


def one_run(args, nodes_count, db, redis_binary, work):
    redis, redis_port = start_redis(redis_binary, work)
    nodes = []
    try:
        threads = 2 if nodes_count == 1 else 1
        for i in range(nodes_count):
            nodes.append(start_node(args.server, db, redis_port, f"n{i}-{uuid.uuid4().hex[:6]}", threads))
        share = [args.tables // nodes_count + (1 if i < args.tables % nodes_count else 0) for i in range(nodes_count)]
        pg = postgres_pids(args.pg_url)
        before = {"nodes": sum(cpu_seconds(p.pid) for p, _, _ in nodes), "redis": cpu_seconds(redis.pid),
                  "postgres": sum(cpu_seconds(p) for p in pg)}
        gens = [subprocess.Popen([args.loadgen, "--port", str(port), "--tables", str(n), "--variant", "duel",
                                  "--duration", str(args.duration), "--seed", str(i + 1)],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                for i, ((_, port, _), n) in enumerate(zip(nodes, share))]
        reports = []
        for g in gens:
            out, _ = g.communicate(timeout=args.duration + 120)
            lines = [line for line in out.splitlines() if line.startswith("{")]
            if not lines:
                sys.exit(f"atout-loadgen printed no report:\n{out}")
            reports.append(json.loads(lines[-1]))
        after = {"nodes": sum(cpu_seconds(p.pid) for p, _, _ in nodes), "redis": cpu_seconds(redis.pid),
                 "postgres": sum(cpu_seconds(p) for p in pg)}
        cpu = {k: after[k] - before[k] for k in before}
        # The loadgens' own figure covers their whole life; they report it.
        cpu["loadgens"] = sum(r["cpu_s"]["loadgen"] for r in reports)
        errors = sum(r["error_count"] for r in reports)
        return {"actions_per_s": sum(r["actions_per_s"] for r in reports),
                "p99_ms": max(r["rtt_ms"]["p99"] for r in reports),
                "p50_ms": max(r["rtt_ms"]["p50"] for r in reports),
                "tables_started": sum(r["tables_started"] for r in reports), "errors": errors, "cpu_s": cpu}
    finally:
        for p, _, _ in nodes:
            p.terminate()
        for p, _, _ in nodes:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        redis.kill()
        redis.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--loadgen", required=True)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pg-url")
    parser.add_argument("--redis-server", default=shutil.which("redis-server") or "/usr/bin/redis-server")
    args = parser.parse_args()
    results = {1: [], 3: []}
    for run in range(args.runs):
        for count in (1, 3):
            work = tempfile.mkdtemp(prefix="atout-tp-")
            schema = None
            if args.pg_url:
                schema = "tp_" + uuid.uuid4().hex[:12]
                psql(args.pg_url, f"CREATE SCHEMA {schema}")
                db = with_schema(args.pg_url, schema)
            else:
                db = f"{work}/atout.db"
            try:
                r = one_run(args, count, db, args.redis_server, work)
            finally:
                if schema:
                    psql(args.pg_url, f"DROP SCHEMA {schema} CASCADE")
                shutil.rmtree(work, ignore_errors=True)
            results[count].append(r)
            print(f"run {run + 1}, {count} node(s): {json.dumps(r)}", flush=True)
    for count, rs in results.items():
        med = lambda key: statistics.median(r[key] for r in rs)
        cpu = {k: round(statistics.median(r["cpu_s"][k] for r in rs), 1) for k in rs[0]["cpu_s"]}
        print(f"{count} node(s), {args.tables} duel tables, {len(rs)} runs of {args.duration:g} s "
              f"({'PostgreSQL' if args.pg_url else 'SQLite'}): median {med('actions_per_s'):.0f} actions/s, "
              f"p50 {med('p50_ms'):.2f} ms, p99 {med('p99_ms'):.2f} ms, errors {sum(r['errors'] for r in rs)}; "
              f"CPU s per run (median): {cpu}")


if __name__ == "__main__":
    main()
