#!/usr/bin/python3
"""How long a cluster node takes to answer a request for a table that another node runs: the round
trip of a request that node b answers with a redirect to node a.

Usage: redirect_time.py --server A [--server B ...] [--rounds 5] [--requests 2000]
                        [--redis-server /usr/bin/redis-server]

For each binary given (say a baseline build and a new one), in turn, round after round: starts
redis-server and two nodes a and b on loopback (one SQLite file in a temporary directory; message
credits raised for the requests). On a,
one player creates a public table, and two others start a private duel. On b, a stranger sends
`spectate` for the public table, and one of the duel's players, with its token, sends `stand` for
the private one; each sends `requests` requests one at a time, timed from send to reply (every
reply must be a redirect). Prints each round's median and p99 per binary and kind, then the median
of the rounds' medians.
"""
import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

import websockets

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "server"))
from cluster_match import Node, start_redis  # noqa: E402


async def connect(url, token=None):
    ws = await websockets.connect(url, max_size=None)
    hello = {"type": "hello", "protocol": 1, "name": "rt", "id": 0}
    if token:
        hello["token"] = token
    await ws.send(json.dumps(hello))
    welcome = json.loads(await ws.recv())
    assert welcome["type"] == "welcome", welcome
    return ws, welcome["token"]


async def request(ws, message, rid):
    message = dict(message, id=rid)
    await ws.send(json.dumps(message))
    while True:
        m = json.loads(await ws.recv())
        if m.get("id") == rid:
            return m


async def timed(ws, message, count, expect):
    times = []
    for i in range(count):
        t0 = time.perf_counter()
        reply = await request(ws, message, 1000 + i)
        times.append((time.perf_counter() - t0) * 1e6)
        if reply.get("type") != expect:
            sys.exit(f"redirect_time: {message['type']} answered {reply}, not {expect}")
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


async def measure(a, b, count):
    holder, _ = await connect(a.url)
    public = (await request(holder, {"type": "create_table", "variant": "belot"}, 1))["table"]["table_id"]
    owner, owner_token = await connect(a.url)
    created = await request(owner, {"type": "create_table", "variant": "duel", "private": True}, 2)
    private = created["table"]["table_id"]
    for ws in (owner, (guest := (await connect(a.url))[0])):
        seated = await request(ws, {"type": "sit", "table_id": private, "invite": created["invite"]}, 3)
        assert seated["type"] == "seated", seated
    # The same player on node b: its connection on a is replaced, and its seat in the running match
    # stays held. The list of seated players reaches Redis on node a's thread: wait until b
    # redirects it.
    member, _ = await connect(b.url, owner_token)
    for _ in range(100):
        if (await request(member, {"type": "stand", "table_id": private}, 4)).get("type") == "redirect":
            break
        await asyncio.sleep(0.05)
    stranger, _ = await connect(b.url)
    out = {
        "public spectate": await timed(stranger, {"type": "spectate", "table_id": public}, count, "redirect"),
        "private stand, seated player": await timed(member, {"type": "stand", "table_id": private}, count,
                                                    "redirect"),
    }
    for ws in (holder, owner, guest, member, stranger):
        await ws.close()
    return out


def one_round(binary, redis_binary, count):
    work = tempfile.mkdtemp(prefix="atout-redirect-")
    redis, port = start_redis(redis_binary, work)
    nodes = []
    try:
        # Message credits enough for the requests, which come as fast as the answers.
        credits = ["--msg-burst", str(count * 4), "--msg-rate", str(count * 4)]
        nodes = [Node(binary, f"{work}/atout.db", port, node_id, credits) for node_id in ("a", "b")]
        return asyncio.run(measure(nodes[0], nodes[1], count))
    finally:
        for n in nodes:
            n.stop()
        redis.kill()
        redis.wait()
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", action="append", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--redis-server", default=shutil.which("redis-server") or "/usr/bin/redis-server")
    args = ap.parse_args()
    medians = {}
    for r in range(args.rounds):
        for binary in args.server:
            for kind, (median, p99) in one_round(binary, args.redis_server, args.requests).items():
                medians.setdefault((binary, kind), []).append(median)
                print(f"round {r + 1}, {binary}, {kind}: median {median:.0f} us, p99 {p99:.0f} us", flush=True)
    for (binary, kind), values in medians.items():
        print(f"{binary}, {kind}: median of {len(values)} round medians {statistics.median(values):.0f} us")


if __name__ == "__main__":
    main()
