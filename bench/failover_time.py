#!/usr/bin/python3
"""Failover time of a cluster: from kill -9 of a table's owner to the match accepting an action on
its new owner.

Usage: failover_time.py --server build/opt/server/atout-server [--kills 10] [--lease-ms 10000]
                        [--pg-url postgresql://...] [--redis-server /usr/bin/redis-server]

Starts redis-server and three nodes on loopback (sharing one SQLite file in a temporary
directory, or a fresh schema of the PostgreSQL database --pg-url names). For each kill: two
players start a duel on one node, play, and that node is killed with SIGKILL in the middle of
play, after at least 1.5 s of it (past the store's commit bound). Each player then reconnects to
a different surviving node with its token and last seq (one is redirected to the new owner), and
the time until the first action accepted by the new owner is recorded. The killed node is replaced by a fresh one (a new node id) before the
next kill. Prints each time, then the median and the maximum.
"""
import argparse
import asyncio
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "server"))
import cluster_match  # noqa: E402
from cluster_match import Node, start_redis  # noqa: E402
from cluster_pg_failover import Player, psql, with_schema  # noqa: E402

SETTLE_S = 1.5


async def one_kill(owner, survivors, timeout):
    """A duel on `owner`, which is killed mid-play; seconds until the new owner accepts an action."""
    ignored = []
    ann, bob = Player("ann", 0, ignored), Player("bob", 1, ignored)
    ann.pace = bob.pace = 0.1
    await ann.connect(owner.url)
    created = await ann.reply_to(await ann.send({"type": "create_table", "variant": "duel"}))
    ann.table_id = bob.table_id = created["table"]["table_id"]
    await ann.reply_to(await ann.send({"type": "sit", "table_id": ann.table_id, "seat": 0}))
    await bob.connect(owner.url)
    await bob.reply_to(await bob.send({"type": "sit", "table_id": bob.table_id, "seat": 1}))
    started = time.monotonic()
    # At least a second of play, past the store's commit bound: the players and the match are in
    # the database by then (a guest made in the last moments before a crash is lost with it).
    enough = lambda: (len(ann.events) >= 10 and time.monotonic() > started + SETTLE_S) or \
        time.monotonic() > started + timeout
    await asyncio.gather(ann.play(enough), bob.play(enough))
    # Mid-play: the players keep acting until the connection drops.
    killed = time.monotonic()
    owner.process.send_signal(signal.SIGKILL)
    owner.process.wait()
    for p in (ann, bob):
        p.waiting_for = None
        try:
            await p.ws.close()
        except Exception:
            pass
    acked = len(ann.accepted) + len(bob.accepted)
    deadline = killed + timeout
    await asyncio.gather(ann.resume_at([survivors[0].url, survivors[1].url], deadline),
                         bob.resume_at([survivors[1].url, survivors[0].url], deadline))
    again = lambda: len(ann.accepted) + len(bob.accepted) > acked or time.monotonic() > deadline
    await asyncio.gather(ann.play(again), bob.play(again))
    took = time.monotonic() - killed
    for p in (ann, bob):
        await p.ws.close()
    if len(ann.accepted) + len(bob.accepted) <= acked:
        raise RuntimeError(f"no action accepted within {timeout} s of the kill")
    return took


def start_node(binary, db, redis_port, node_id, lease_ms):
    cluster_match.LEASE_MS = lease_ms
    return Node(binary, db, redis_port, node_id)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--lease-ms", type=int, default=10000)
    parser.add_argument("--pg-url", help="PostgreSQL database (a fresh schema is used); default: an SQLite file")
    parser.add_argument("--redis-server", default=shutil.which("redis-server") or "/usr/bin/redis-server")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="atout-failover-")
    schema = None
    if args.pg_url:
        schema = "failover_" + uuid.uuid4().hex[:12]
        psql(args.pg_url, f"CREATE SCHEMA {schema}")
        db = with_schema(args.pg_url, schema)
    else:
        db = f"{work}/atout.db"
    redis, redis_port = start_redis(args.redis_server, work)
    nodes = []
    times = []
    timeout = 10 + 3 * args.lease_ms / 1000
    try:
        for node_id in ("n0", "n1", "n2"):
            nodes.append(start_node(args.server, db, redis_port, node_id, args.lease_ms))
        for k in range(args.kills):
            owner = nodes[k % 3]
            survivors = [n for n in nodes if n is not owner]
            took = asyncio.run(one_kill(owner, survivors, timeout))
            times.append(took)
            print(f"kill {k + 1}: {took:.3f} s", flush=True)
            nodes[k % 3] = start_node(args.server, db, redis_port, f"n{k + 3}", args.lease_ms)
    finally:
        for n in nodes:
            n.stop()
        redis.kill()
        redis.wait()
        if schema:
            try:
                psql(args.pg_url, f"DROP SCHEMA {schema} CASCADE")
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
        shutil.rmtree(work, ignore_errors=True)
    print(f"failover (lease {args.lease_ms} ms, {'PostgreSQL' if args.pg_url else 'SQLite'}, {len(times)} kills): "
          f"median {statistics.median(times):.3f} s, min {min(times):.3f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    main()
