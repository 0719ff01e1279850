#!/usr/bin/env python3
"""Compares server builds (or settings) under the same load, alternating them run by run.

Each arm is a server binary and a load generator binary, with optional extra server arguments and
environment. Every round runs each arm once, in order, so that the arms of a round share the same
minute of a noisy machine; the report gives each arm's medians and its ratio to the first arm.

    python3 bench/ab_servers.py --arm base=build/base --arm new=build/rel --rounds 3 \\
        --load "--tables 1000 --variant duel --ack event --duration 8"

An arm NAME=DIR uses DIR/server/atout-server and DIR/bench/atout-loadgen. Refine an arm with
  --arm-server NAME=PATH    another server binary (e.g. a new server under an old generator)
  --arm-loadgen NAME=PATH   another load generator binary
  --arm-arg NAME=ARG        one more server argument, e.g. new=--close-grace=5 (repeatable)
  --arm-threads NAME=N      the server's --threads (default 2)
  --arm-load NAME=ARG       one more load generator argument, e.g. ev=--ack=event (repeatable)
  --arm-dbdir NAME=DIR      make the run's database directory under DIR (e.g. a tmpfs mount)
  --arm-env NAME=KEY=VALUE  an environment variable for the server only, e.g.
                            tc=LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4
--lag also samples the committed log's lag behind the clock during each run (bench/commit_lag.py).

For each run the script starts the arm's server itself, on 127.0.0.1 and a free port, with a fresh
database in a temporary directory, waits for /healthz, runs the load generator against it with
--port and --server-pid, then stops the server with SIGTERM. Besides the generator's own figures
(actions/s, round trip, server CPU in the measured window) it reports user and system CPU per
accepted action separately: the server's from /proc/PID/stat, the generator's from its rusage,
both over the whole run, set-up included, so a little low. Everything stays on loopback, and every
run is bounded by the generator's --duration and a timeout.
"""
import argparse
import json
import os
import resource
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import commit_lag

TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_cpu(pid):
    """(user, system) seconds of a live process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def wait_healthy(port, proc, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                if r.status == 200:
                    return True
        except OSError:
            time.sleep(0.1)
    return False


def run_arm(arm, load, lag):
    work = tempfile.mkdtemp(prefix="atout-ab-", dir=arm["dbdir"])
    db = os.path.join(work, "atout.db")
    port = free_port()
    cmd = [arm["server"], "--bind", "127.0.0.1", "--port", str(port), "--threads", arm["threads"], "--max-conns-per-ip", "0",
           "--log-level", "warn", "--db", db] + arm["args"]
    server = subprocess.Popen(cmd, env={**os.environ, **arm["env"]}, stdout=subprocess.DEVNULL)
    try:
        if not wait_healthy(port, server):
            sys.exit(f"{arm['name']}: the server did not come up: {' '.join(cmd)}")
        lags = []
        sampler = None
        done = threading.Event()
        if lag:
            # Sampled while the generator plays, and no longer: once it stops, the log stops growing.
            sampler = threading.Thread(target=lambda: lags.extend(commit_lag.sample(db, 900, stop=done)))
            sampler.start()
        cpu0 = proc_cpu(server.pid)
        kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        gen = [arm["loadgen"], "--port", str(port), "--server-pid", str(server.pid)] + load + arm["load"]
        out = subprocess.run(gen, capture_output=True, text=True, timeout=900)
        kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu1 = proc_cpu(server.pid)
        done.set()
        if sampler:
            sampler.join()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if not lines:
        sys.exit(f"{arm['name']}: no JSON line (exit {out.returncode}):\n{out.stdout}\n{out.stderr}")
    r = json.loads(lines[-1])
    acts = max(r["actions"], 1)
    f = {
        "actions/s": r["actions_per_s"],
        "RTT p99 ms": r["rtt_ms"]["p99"],
        "server CPU us/action (window)": 1e6 * r["cpu_s"]["server"] / acts,
        "server user us/action": 1e6 * (cpu1[0] - cpu0[0]) / acts,
        "server sys us/action": 1e6 * (cpu1[1] - cpu0[1]) / acts,
        "loadgen user us/action": 1e6 * (kids1.ru_utime - kids0.ru_utime) / acts,
        "loadgen sys us/action": 1e6 * (kids1.ru_stime - kids0.ru_stime) / acts,
        "errors": r["error_count"],
    }
    if lag and lags:
        f["commit lag median ms"] = statistics.median(lags)
        f["commit lag worst ms"] = max(lags)
    return f, out.returncode


def parse_arms(a):
    arms = {}
    for spec in a.arm:
        name, _, build = spec.partition("=")
        if not name or not build:
            sys.exit(f"--arm NAME=DIR, not '{spec}'")
        arms[name] = {"name": name, "server": f"{build}/server/atout-server", "loadgen": f"{build}/bench/atout-loadgen",
                      "args": [], "env": {}, "threads": "2", "load": [], "dbdir": None}

    def refine(specs, apply):
        for spec in specs:
            name, _, value = spec.partition("=")
            if name not in arms or not value:
                sys.exit(f"'{spec}' names no --arm")
            apply(arms[name], value)

    refine(a.arm_server, lambda arm, v: arm.__setitem__("server", v))
    refine(a.arm_loadgen, lambda arm, v: arm.__setitem__("loadgen", v))
    refine(a.arm_arg, lambda arm, v: arm["args"].append(v))
    refine(a.arm_env, lambda arm, v: arm["env"].__setitem__(*v.split("=", 1)))
    refine(a.arm_threads, lambda arm, v: arm.__setitem__("threads", v))
    refine(a.arm_load, lambda arm, v: arm["load"].append(v))
    refine(a.arm_dbdir, lambda arm, v: arm.__setitem__("dbdir", v))
    return list(arms.values())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--arm", action="append", default=[], required=True)
    p.add_argument("--arm-server", action="append", default=[])
    p.add_argument("--arm-loadgen", action="append", default=[])
    p.add_argument("--arm-arg", action="append", default=[])
    p.add_argument("--arm-env", action="append", default=[])
    p.add_argument("--arm-threads", action="append", default=[])
    p.add_argument("--arm-load", action="append", default=[])
    p.add_argument("--arm-dbdir", action="append", default=[])
    p.add_argument("--load", default="--tables 1000 --variant duel --ack event --duration 8",
                   help="the load generator's arguments, the same for every arm")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--lag", action="store_true", help="also sample the commit lag")
    a = p.parse_args()
    arms = parse_arms(a)
    load = shlex.split(a.load)
    if not 1 <= a.rounds <= 20:
        sys.exit("--rounds 1..20")
    if any(x.split("=")[0] in ("--spawn", "--port", "--host") for arm in arms for x in load + arm["load"]):
        sys.exit("--load must not give --spawn, --port or --host: this script starts each server")
    runs = {arm["name"]: [] for arm in arms}
    failed = False
    for i in range(a.rounds):
        for arm in arms:
            f, code = run_arm(arm, load, a.lag)
            runs[arm["name"]].append(f)
            failed |= code != 0 or f["errors"] != 0
            print(f"round {i + 1} {arm['name']}: " + ", ".join(f"{k} {v:.4g}" for k, v in f.items()), flush=True)
            time.sleep(1)
    first = arms[0]["name"]
    base = statistics.median(f["actions/s"] for f in runs[first])
    print(f"\n{time.strftime('%Y-%m-%d')}, {a.rounds} rounds, load: {a.load}; medians")
    print("| arm | figure | median | each run |\n|---|---|---|---|")
    for arm in arms:
        per = runs[arm["name"]]
        for k in per[0]:
            vals = [f[k] for f in per if k in f]
            print(f"| {arm['name']} | {k} | **{statistics.median(vals):.4g}** | {', '.join(f'{v:.4g}' for v in vals)} |")
        ratio = statistics.median(f["actions/s"] for f in per) / max(base, 1e-9)
        print(f"| {arm['name']} | actions/s against {first} | **{ratio:.3g} ×** | |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
