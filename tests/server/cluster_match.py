#!/usr/bin/python3
"""Three atout-server nodes sharing one Redis and one database file: redirects, failover, drain.

Usage: cluster_match.py ATOUT_SERVER_BINARY SOURCE_DIR WORK_DIR [REDIS_SERVER]
Starts redis-server on a free loopback port (its files in WORK_DIR) and three nodes a, b and c with
short leases. Fails, rather than skips, when redis-server cannot be started. Checks, in order:
  - bad cluster flags exit 2 with a clear message: Redis unreachable, a node id already live;
  - a duel match between a bot on node a (it creates the table) and a bot that asks node b for
    the table, is redirected to a and sits there: both see the match end;
  - failover: the owner of a match is killed (-9) after the first deal; another node takes the
    table over once its lease expires, the bots reconnect to a surviving node, are sent to the
    new owner and finish the match;
  - the lobby across nodes: a table created on one node is listed on and announced to the
    subscribers of another; lobby chat said on one node reaches another's subscribers; a hello
    with a player's token on one node replaces that player's connection on another (4001);
  - a private table's invite code works on every node (a redirect to its node), its id alone on
    none, whatever is asked of it, except for a player it seats; Redis forgets the invite and the
    seated players when the table closes;
  - a table a node does not run is answered by what Redis says of it: unknown_table when no node
    knows it, unknown_table marked `moving` when it is leased by a node that is gone (a take-over
    is under way: try again) or by the node itself (it is taking the table over and has not
    rebuilt it yet), a redirect when a live node runs it;
  - Redis restarted empty after an outage longer than a lease: every node registers again and
    each lobby lists the other nodes' tables again, and a private table's invite and seated player
    are recorded again; while it is away, an invite code is answered bad_invite marked `moving`
    (the node cannot tell whether it is good);
  - a node cut off from Redis (a fourth node, d, reaches Redis through a relay the test severs)
    for half a lease in the middle of a match it runs: d plays on, and no node takes over; then
    for longer than its lease: another node takes the table
    over from the shared log, while d's copy writes nothing more (actions there are refused);
    when d reaches Redis again it lets the table go and sends its players on, and the match
    finishes on the new owner with one history in the store;
  - drain: the owner of a match is stopped with SIGTERM after the first deal; another node takes
    the table over without waiting for the lease, and the bots finish there.
"""
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import websockets

PYTHON = "/usr/bin/python3"
LEASE_MS = 1500
TIMEOUT = int(os.environ.get("CLUSTER_TEST_TIMEOUT", "240"))  # seconds for each match


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_ping(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def start_redis(binary, work, port=None):
    port = port or free_port()
    redis = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", work, "--save", "",
                              "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if redis_ping(port):
            return redis, port
        if redis.poll() is not None:
            break
        time.sleep(0.05)
    redis.kill()
    sys.exit(f"FAIL: {binary} did not start on port {port}")


class RedisLink:
    """A TCP relay between one node and Redis, which the test can sever and mend: a network cut
    on loopback. Severed, it closes every relayed connection and each new one at once."""

    def __init__(self, redis_port):
        self.target = redis_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.cut = threading.Event()
        self.lock = threading.Lock()
        self.open = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    def pump(self, a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def sever(self):
        self.cut.set()
        with self.lock:
            for s in self.open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self.open = []

    def mend(self):
        self.cut.clear()


class Node:
    """One atout-server of the cluster, whose log is kept for the checks."""

    def __init__(self, binary, db, redis_port, node_id, extra=()):
        self.id = node_id
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        self.lines = []
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--threads", "2", "--db", db,
             "--redis", f"redis://127.0.0.1:{redis_port}", "--node-id", node_id, "--public-url", self.url,
             "--lease-ms", str(LEASE_MS), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.listening = threading.Event()
        threading.Thread(target=self.read, daemon=True).start()
        if not self.listening.wait(60):
            self.process.kill()
            sys.exit(f"FAIL: node {node_id} did not start:\n" + "".join(self.lines))

    def read(self):
        for line in self.process.stdout:
            self.lines.append(line)
            if "listening on" in line:
                self.listening.set()

    def log(self):
        return "".join(self.lines)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def expect_exit_2(binary, args, needle, failures):
    """A node started with `args` must exit 2 and say `needle` on stderr."""
    run = subprocess.run([binary, "--port", "0", "--bind", "127.0.0.1"] + args, capture_output=True, text=True,
                         timeout=60)
    said = run.stdout + run.stderr
    if run.returncode != 2 or needle not in said:
        failures.append(f"{' '.join(args)}: exit {run.returncode}, wanted 2 and '{needle}'; said:\n{said}")


class Bot:
    """A Python bot process whose stderr is kept, to watch the match's progress."""

    def __init__(self, script, name, args):
        self.name = name
        self.lines = []
        self.process = subprocess.Popen([PYTHON, script, "--name", name] + args, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stderr:
            self.lines.append(line)

    def saw(self, pattern):
        return any(re.search(pattern, line) for line in self.lines)

    def wait(self, deadline):
        try:
            return self.process.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return "timeout"


def duel(script, creator_node, joiner_node, nodes, seed, pace=()):
    """A duel: the creator at `creator_node`, the other bot asking `joiner_node` for the table.
    `pace`: more arguments for both bots (--think-ms)."""
    also = lambda first: sum((["--also", n.url] for n in nodes if n is not first), list(pace))
    creator = Bot(script, f"creator-{seed}", ["--url", creator_node.url, "--create", "duel", "--seat", "0",
                                              "--seed", str(seed)] + also(creator_node))
    table_id = creator.process.stdout.readline().strip()
    if not table_id:
        creator.wait(time.monotonic() + 10)
        sys.exit("FAIL: the creating bot printed no table id:\n" + "".join(creator.lines))
    joiner = Bot(script, f"joiner-{seed}", ["--url", joiner_node.url, "--table", table_id, "--seat", "1",
                                            "--seed", str(seed + 1)] + also(joiner_node))
    return table_id, creator, joiner


def finish(bots, what, failures):
    deadline = time.monotonic() + TIMEOUT
    for bot in bots:
        code = bot.wait(deadline)
        if code != 0:
            failures.append(f"{what}: {bot.name} ended with {code}:\n" + "".join(bot.lines[-30:]))
        elif not bot.saw(r"match over"):
            failures.append(f"{what}: {bot.name} exited 0 without seeing the match end")


def wait_for(predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def take_down(what, bots, owner, survivors, how, failures):
    """Stops `owner` after the match's first deal; another node must take the table over."""
    if not wait_for(lambda: any(b.saw(r": deal \d+ ") for b in bots), TIMEOUT):
        failures.append(f"{what}: no deal ended before the owner was to stop:\n" +
                        "".join(sum((b.lines[-10:] for b in bots), [])))
        for b in bots:
            b.process.kill()
        return
    started = time.monotonic()
    # Only what the survivors log from now on: an earlier scenario may have had one take a table.
    marks = {n.id: len(n.log()) for n in survivors}
    if how == "kill":
        owner.process.send_signal(signal.SIGKILL)
        owner.process.wait()
    else:
        owner.stop()
    finish(bots, what, failures)
    took_over = [n.id for n in survivors
                 if re.search(r"orphaned table\(s\): 1 taken over", n.log()[marks[n.id]:])]
    if len(took_over) != 1:
        failures.append(f"{what}: wanted exactly one node to take the table over, got {took_over}")
    if not any(b.saw(r"reconnecting|is at ws://") for b in bots):
        failures.append(f"{what}: no bot reconnected")
    print(f"{what}: node {owner.id} stopped ({how}); taken over by {took_over}; both bots finished "
          f"{time.monotonic() - started:.1f} s later")


def redis_command(port, *args):
    """One command to Redis in its own protocol; its reply's first line."""
    request = f"*{len(args)}\r\n" + "".join(f"${len(str(a).encode())}\r\n{a}\r\n" for a in args)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request.encode())
        return s.recv(4096).split(b"\r\n")[0].decode()


def redis_text(port, *args):
    """One command to Redis whose reply is a bulk string: the string, or None for a nil reply."""
    request = f"*{len(args)}\r\n" + "".join(f"${len(str(a).encode())}\r\n{a}\r\n" for a in args)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request.encode())
        lines = s.recv(4096).split(b"\r\n")
        return None if lines[0] == b"$-1" else lines[1].decode()


async def takeover_answers(a, redis_port, failures):
    """What a node answers for a table it does not run, by what Redis says of it: nothing (plain
    unknown_table), leased by a node that is gone or listed with its lease lapsed (unknown_table
    marked moving: a take-over is under way, so the client tries again, for as long as two leases
    and 5 s, as the answer says), or leased
    by a live node (a redirect there). Leased by the node itself, which does not have it yet (it is
    taking the table over and has not rebuilt it), it is moving too. A private table of the node's
    own, named without its invite, is as unknown as one that does not exist."""
    redis_command(redis_port, "SET", "atout:table:tghost", "ghost", "PX", "60000")
    redis_command(redis_port, "SADD", "atout:tables", "tghost")
    redis_command(redis_port, "SET", "atout:node:elsewhere", "n0 ws://127.0.0.1:9/ws", "PX", "60000")
    redis_command(redis_port, "SET", "atout:table:tthere", "elsewhere", "PX", "60000")
    redis_command(redis_port, "SADD", "atout:tables", "tthere")
    redis_command(redis_port, "SET", "atout:table:tmine", a.id, "PX", "60000")
    redis_command(redis_port, "SADD", "atout:tables", "tmine")
    try:
        ws = await websockets.connect(a.url)
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "tess", "id": 1}))
        json.loads(await ws.recv())
        # A private table of node a's own, named without its invite: its id must reveal nothing.
        await ws.send(json.dumps({"type": "create_table", "variant": "duel", "private": True, "id": 1}))
        created = None
        while created is None:
            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
            created = m if m.get("id") == 1 else None
        hidden = created.get("table", {}).get("table_id", "tmissing")
        other = await websockets.connect(a.url)
        await other.send(json.dumps({"type": "hello", "protocol": 1, "name": "ugo", "id": 1}))
        json.loads(await other.recv())
        for rid, (table_id, expected) in enumerate([("tnowhere", "unknown"), ("tghost", "moving"),
                                                   ("tthere", "redirect"), ("tmine", "moving"), ("torphan", "moving"),
                                                   (hidden, "unknown")],
                                                  start=2):
            if table_id == "torphan":
                # Listed with no lease, just before it is asked for: a node's heartbeat adopts (and,
                # finding no match, forgets) such a table once it has seen it two rounds in a row.
                redis_command(redis_port, "SADD", "atout:tables", "torphan")
            for request in ({"type": "sit", "table_id": table_id, "id": rid},
                            {"type": "spectate", "table_id": table_id, "id": rid}):
                await other.send(json.dumps(request))
                reply = None
                while reply is None:
                    m = json.loads(await asyncio.wait_for(other.recv(), 10))
                    reply = m if m.get("id") == rid else None
                got = ("redirect" if reply.get("type") == "redirect" and reply.get("url") == "ws://127.0.0.1:9/ws"
                       else "moving" if reply.get("code") == "unknown_table" and reply.get("moving") is True
                       and reply.get("takeover_ms") == 2 * LEASE_MS + 5000
                       else "unknown" if reply.get("code") == "unknown_table" and "moving" not in reply
                       else "other")
                if got != expected:
                    failures.append(f"take-over answers: {request['type']} at {table_id}: {reply}, not {expected}")
        await other.close()
        await ws.close()
    finally:
        redis_command(redis_port, "DEL", "atout:table:tghost", "atout:table:tthere", "atout:table:tmine",
                      "atout:node:elsewhere")
        redis_command(redis_port, "SREM", "atout:tables", "tghost", "tthere", "tmine", "torphan")
    print("take-over answers: unknown, moving and redirect as Redis says")


async def private_across_nodes(a, b, redis_port, failures):
    """A private table of node a: its invite code works on node b too (a redirect to a, where the
    invite seats its holder), while its id alone is as unknown on b as on a (no redirect, which
    would tell a stranger the table exists), whatever the stranger asks of it: to sit, watch, take a
    seat back, play, stand, leave, or add or remove a bot. Only a player it seats, back through node
    b with a token, is sent to a by its id; a player who has left is a stranger again. When the table closes, Redis forgets its invite and its
    seated players."""
    async def hello(node, name, token=None):
        ws = await websockets.connect(node.url)
        message = {"type": "hello", "protocol": 1, "name": name, "id": 1}
        if token:
            message["token"] = token
        await ws.send(json.dumps(message))
        return ws, json.loads(await ws.recv())

    async def ask(ws, request):
        await ws.send(json.dumps(request))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if m.get("id") == request["id"]:
                return m

    async def until_redis(predicate, what):
        # The node records what it learns on its own thread, just after the reply: wait for it.
        deadline = time.monotonic() + 10
        while not predicate():
            if time.monotonic() > deadline:
                failures.append(f"private across nodes: {what}")
                return
            await asyncio.sleep(0.05)

    owner, welcome = await hello(a, "priya")
    created = await ask(owner, {"type": "create_table", "variant": "duel", "private": True, "id": 2})
    table_id = created.get("table", {}).get("table_id")
    invite = created.get("invite")
    if not table_id or not invite:
        failures.append(f"private across nodes: no table id or invite in {created}")
        return
    await until_redis(lambda: redis_text(redis_port, "HGET", "atout:invites", invite) == table_id,
                      "the invite never reached Redis")
    reply = await ask(owner, {"type": "sit", "invite": invite, "seat": 0, "id": 3})
    if reply.get("type") != "seated":
        failures.append(f"private across nodes: the owner's invite on node a answered {reply}")
    # A guest takes the other seat, so the match starts and a dropped player's seat is held.
    guest, guest_welcome = await hello(a, "quentin")
    reply = await ask(guest, {"type": "sit", "invite": invite, "id": 5})
    if reply.get("type") != "seated":
        failures.append(f"private across nodes: the invite on node a answered {reply}")
    owner_id = welcome.get("player_id", "")
    seated = {owner_id, guest_welcome.get("player_id", "")}
    await until_redis(lambda: set((redis_text(redis_port, "HGET", "atout:seated", table_id) or "").split()) == seated,
                      "the seated players never reached Redis")
    stranger, _ = await hello(b, "quentin")
    asks = [{"type": "sit", "table_id": table_id}, {"type": "spectate", "table_id": table_id},
            {"type": "sit", "table_id": table_id, "last_seq": 0},
            {"type": "stand", "table_id": table_id}, {"type": "leave", "table_id": table_id},
            {"type": "action", "table_id": table_id, "action": {"type": "pass"}},
            {"type": "add_bot", "table_id": table_id, "seat": 1, "level": "rules"},
            {"type": "remove_bot", "table_id": table_id, "seat": 1}]
    for rid, request in enumerate(asks, start=10):
        reply = await ask(stranger, {**request, "id": rid})
        if reply.get("type") != "error" or reply.get("code") != "unknown_table" or "moving" in reply:
            failures.append(f"private across nodes: {request} on node b answered {reply}")
    reply = await ask(stranger, {"type": "sit", "invite": "0" * 32, "id": 4})
    if reply.get("code") != "bad_invite":
        failures.append(f"private across nodes: an invite nobody has, on node b: {reply}")
    reply = await ask(stranger, {"type": "sit", "invite": invite, "id": 5})
    if reply.get("type") != "redirect" or reply.get("url") != a.url or reply.get("table_id") != table_id:
        failures.append(f"private across nodes: the invite on node b answered {reply}, not a redirect to {a.url}")
    await stranger.close()
    # The owner, back through node b (its connection on node a is replaced), takes its seat back
    # by the table's id: sent to node a.
    back, again = await hello(b, "priya", welcome.get("token"))
    if again.get("player_id") != owner_id:
        failures.append(f"private across nodes: the owner's token on node b answered {again}")
    for rid, request in enumerate([{"type": "sit", "table_id": table_id, "last_seq": 0},
                                   {"type": "stand", "table_id": table_id}], start=20):
        reply = await ask(back, {**request, "id": rid})
        if reply.get("type") != "redirect" or reply.get("url") != a.url:
            failures.append(f"private across nodes: the owner's {request} on node b answered {reply}, "
                            f"not a redirect to {a.url}")
    await back.close()
    owner, _ = await hello(a, "priya", welcome.get("token"))
    reply = await ask(owner, {"type": "sit", "table_id": table_id, "last_seq": 0, "id": 6})
    if reply.get("type") != "seated":
        failures.append(f"private across nodes: the owner's seat taken back on node a answered {reply}")
    await ask(guest, {"type": "leave", "table_id": table_id, "id": 6})
    await guest.close()
    # Once gone, the guest is a stranger again: its id alone is unknown on node b.
    await until_redis(lambda: (redis_text(redis_port, "HGET", "atout:seated", table_id) or "").split() == [owner_id],
                      "the guest's leaving never reached Redis")
    gone, _ = await hello(b, "quentin", guest_welcome.get("token"))
    reply = await ask(gone, {"type": "sit", "table_id": table_id, "last_seq": 0, "id": 7})
    if reply.get("type") != "error" or reply.get("code") != "unknown_table" or "moving" in reply:
        failures.append(f"private across nodes: the guest, gone, taking a seat back on node b: {reply}")
    await gone.close()
    await ask(owner, {"type": "leave", "table_id": table_id, "id": 8})
    await owner.close()
    await until_redis(lambda: redis_text(redis_port, "HGET", "atout:invites", invite) is None and
                      redis_command(redis_port, "HEXISTS", "atout:private", table_id) == ":0" and
                      redis_command(redis_port, "HEXISTS", "atout:seated", table_id) == ":0",
                      "Redis kept the invite or the seated players of a closed table")
    print("private across nodes: the invite redirected from b to a, and the id for its seated player only")


async def across_nodes(a, b, c, failures):
    """Lobby listing, lobby chat and connection replacement between nodes."""
    async def hello(node, name, token=None):
        ws = await websockets.connect(node.url)
        message = {"type": "hello", "protocol": 1, "name": name, "id": 1}
        if token:
            message["token"] = token
        await ws.send(json.dumps(message))
        welcome = json.loads(await ws.recv())
        return ws, welcome

    async def until(ws, predicate, what):
        deadline = time.monotonic() + 10
        try:
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
                if predicate(m):
                    return m
        except (asyncio.TimeoutError, websockets.exceptions.ConnectionClosed) as e:
            failures.append(f"across nodes: {what}: not seen ({type(e).__name__})")
            return None

    xa, wa = await hello(a, "xavier")
    yc, _ = await hello(c, "yvonne")
    for ws in (xa, yc):
        await ws.send(json.dumps({"type": "subscribe_lobby", "id": 2}))
        await until(ws, lambda m: m.get("id") == 2, "subscribe_lobby reply")
    await yc.send(json.dumps({"type": "create_table", "variant": "belot", "id": 3}))
    created = await until(yc, lambda m: m.get("id") == 3, "table_created")
    if created and created.get("type") == "table_created":
        table_id = created["table"]["table_id"]
        await until(xa, lambda m: m.get("type") == "lobby_update" and m["table"]["table_id"] == table_id,
                    "a lobby_update on node a for a table created on node c")
        await xa.send(json.dumps({"type": "list_tables", "id": 4}))
        listed = await until(xa, lambda m: m.get("id") == 4, "list_tables on node a")
        if listed and table_id not in [t["table_id"] for t in listed.get("tables", [])]:
            failures.append(f"across nodes: node a does not list {table_id} of node c: {listed}")
        # Sitting there from node a is a redirect to node c.
        await xa.send(json.dumps({"type": "sit", "table_id": table_id, "id": 5}))
        sent = await until(xa, lambda m: m.get("id") == 5, "the reply to sit")
        if sent and (sent.get("type") != "redirect" or sent.get("url") != c.url):
            failures.append(f"across nodes: sit at {table_id} from node a answered {sent}, not a redirect to c")
    await xa.send(json.dumps({"type": "chat", "text": "bonjour de a", "id": 6}))
    await until(yc, lambda m: m.get("type") == "chat_message" and m.get("text") == "bonjour de a",
                "lobby chat from node a on node c")
    # Xavier's token on node b replaces his connection on node a.
    xb, again = await hello(b, "xavier", wa["token"])
    if again.get("player_id") != wa["player_id"]:
        failures.append(f"across nodes: the token did not resume {wa['player_id']} on node b: {again}")
    bye = await until(xa, lambda m: m.get("type") == "goodbye", "goodbye on node a")
    if bye and bye.get("reason") != "replaced":
        failures.append(f"across nodes: node a said {bye}, not replaced")
    try:
        await asyncio.wait_for(xa.wait_closed(), 10)
        if xa.close_code != 4001:
            failures.append(f"across nodes: node a closed the replaced connection with {xa.close_code}, not 4001")
    except asyncio.TimeoutError:
        failures.append("across nodes: node a did not close the replaced connection")
    for ws in (xa, yc, xb):
        await ws.close()
    print("across nodes: lobby listing, lobby chat and replacement checked")
    return created["table"]["table_id"] if created and created.get("type") == "table_created" else None


async def listed_on(node, table_id):
    """Whether `node` lists `table_id` now."""
    async with websockets.connect(node.url) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "lister", "id": 1}))
        await ws.recv()
        await ws.send(json.dumps({"type": "list_tables", "id": 2}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if m.get("id") == 2:
                return table_id in [t["table_id"] for t in m.get("tables", [])]


def listed(node, table_id):
    return asyncio.run(listed_on(node, table_id))


async def hold_table(node, stop, private=False):
    """Creates a table on `node` (private: with an invite code) and sits there until `stop` is set;
    yields its id and invite code (None for a public table)."""
    async with websockets.connect(node.url) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "holder", "id": 1}))
        await ws.recv()
        await ws.send(json.dumps({"type": "create_table", "variant": "belot", "private": private, "id": 2}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if m.get("id") == 2:
                break
        invite = m.get("invite")
        await ws.send(json.dumps({"type": "sit", "table_id": m["table"]["table_id"],
                                  **({"invite": invite} if invite else {}), "id": 3}))
        yield m["table"]["table_id"], invite
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), 0.2)
            except asyncio.TimeoutError:
                pass


def cut_off(script, binary, db, redis_port, nodes, failures):
    """Node d, whose link to Redis the test severs for longer than a lease in the middle of a match
    it runs. Another node takes the table over from the shared log; d's copy must write nothing
    more meanwhile; once mended, d lets the table go and sends its players to the new owner."""
    link = RedisLink(redis_port)
    d = Node(binary, db, link.port, "d")
    try:
        everyone = nodes + [d]
        marks = {n.id: len(n.log()) for n in nodes}
        # At a person's pace, so that the match is still on when the lease lapses.
        table_id, creator, joiner = duel(script, d, d, everyone, 40, ["--think-ms", "50"])
        bots = [creator, joiner]
        if not wait_for(lambda: any(b.saw(r": deal \d+ ") for b in bots), TIMEOUT):
            failures.append("cut off: no deal ended before the cut")
            for b in bots:
                b.process.kill()
            return
        # A cut shorter than a lease: d's lease still holds, so d plays on and no node takes over.
        took = lambda: [n.id for n in nodes if re.search(r"orphaned table\(s\): 1 taken over", n.log()[marks[n.id]:])]
        link.sever()
        short = (time.time(), time.time() + LEASE_MS / 2000)
        time.sleep(LEASE_MS / 2000)
        link.mend()
        time.sleep(1.0)  # past the store's commit bound
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as sql:
            # A live match's actions are in the append-ordered log from its log_from on.
            played = sql.execute("SELECT count(*) FROM action_log a JOIN matches m ON m.id = a.match_id "
                                 "WHERE m.table_id = ? AND a.id >= m.log_from AND a.at BETWEEN ? AND ?",
                                 (table_id, int(short[0] * 1000), int(short[1] * 1000))).fetchone()[0]
        if played == 0 or took():
            failures.append(f"cut off: during a cut of half a lease d stored {played} action(s) of {table_id} "
                            f"(wanted some), and {took() or 'no node'} took it over (wanted none)")
        link.sever()
        cut_at = time.monotonic()
        if not wait_for(lambda: took(), 30):
            failures.append(f"cut off: no node took {table_id} over while d was cut off")
        took_over = took()
        # Keep d cut off a little longer, so that the new owner plays on while d's copy waits.
        time.sleep(LEASE_MS / 1000)
        link.mend()
        if not wait_for(lambda: "taken over by other nodes" in d.log(), 20):
            failures.append("cut off: once it reached Redis again, d did not let the table go")
        finish(bots, "cut off", failures)
        for n in everyone:
            for needle in ("UNIQUE constraint", "duplicate key"):
                if needle in n.log():
                    failures.append(f"cut off: node {n.id} wrote over another node's actions: {needle}")
        print(f"cut off: d stored {played} action(s) during a cut of half a lease; after a longer cut {table_id} "
              f"was taken over by {took_over}, d let it go once mended, and both bots finished "
              f"{time.monotonic() - cut_at:.1f} s after that cut")
    finally:
        d.stop()
        link.sever()


async def invites_while_redis_away(node, invite, failures):
    """Invite codes asked of a node that cannot reach Redis: it cannot tell a good code (here, of
    another node's private table) from a bad one, so both are bad_invite marked `moving` (try
    again), with the cluster's take-over time."""
    ws = await websockets.connect(node.url)
    try:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "rosa", "id": 1}))
        json.loads(await asyncio.wait_for(ws.recv(), 10))
        for rid, code in enumerate([invite, "0" * 32], start=2):
            await ws.send(json.dumps({"type": "sit", "invite": code, "id": rid}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m.get("id") == rid:
                    break
            if m.get("code") != "bad_invite" or m.get("moving") is not True or \
                    m.get("takeover_ms") != 2 * LEASE_MS + 5000:
                failures.append(f"redis restart: an invite asked while Redis was away answered {m}")
    finally:
        await ws.close()


def restart_redis(redis, redis_binary, work, port, nodes, failures):
    """Redis goes away for longer than a lease and comes back empty: the nodes register again,
    take their leases back, every lobby lists the other nodes' tables again, and the invite and the
    seated player of a private table are recorded again. Meanwhile an invite code is answered `moving`."""
    a, c = nodes[0], nodes[2]
    stop = threading.Event()
    held = []

    hidden = []

    def holder(private, out):
        async def run():
            async for table_id, invite in hold_table(c, stop, private):
                out.append(table_id if not private else (table_id, invite))
        asyncio.run(run())

    threads = [threading.Thread(target=holder, args=(False, held), daemon=True),
               threading.Thread(target=holder, args=(True, hidden), daemon=True)]
    for thread in threads:
        thread.start()

    def invite_recorded():
        # The invite, and the holder seated there (a player id, one a line).
        return redis_text(port, "HGET", "atout:invites", hidden[0][1]) == hidden[0][0] and \
            len((redis_text(port, "HGET", "atout:seated", hidden[0][0]) or "").split()) == 1

    try:
        if not wait_for(lambda: held, 10) or not wait_for(lambda: listed(a, held[0]), 10):
            failures.append("redis restart: node a does not list the table held on node c")
            return redis
        if not wait_for(lambda: hidden, 10) or not wait_for(invite_recorded, 10):
            failures.append("redis restart: the invite or the seat of node c's private table was never recorded")
            return redis
        redis.kill()
        redis.wait()
        asyncio.run(invites_while_redis_away(a, hidden[0][1], failures))
        time.sleep(LEASE_MS / 1000 * 1.5)
        # While Redis is away, the lobby keeps what it had.
        if not listed(a, held[0]):
            failures.append("redis restart: node a forgot node c's table while Redis was away")
        redis, _ = start_redis(redis_binary, work, port)
        if not wait_for(lambda: all("registered again" in n.log() for n in nodes), 10):
            failures.append("redis restart: not every node registered again: " +
                            str([n.id for n in nodes if "registered again" not in n.log()]))
        if not redis_ping(port) or not wait_for(lambda: listed(a, held[0]), 10):
            failures.append(f"redis restart: node a does not list {held[0]} of node c after Redis returned")
        if any("is now owned by another node" in n.log() for n in nodes):
            failures.append("redis restart: a node lost a table to another")
        if not hidden or not wait_for(invite_recorded, 10):
            failures.append("redis restart: the invite or the seat of node c's private table was not recorded again")
        print("redis restart: the nodes registered again and the lobby kept, then healed, node c's table")
    finally:
        stop.set()
        for thread in threads:
            thread.join(10)
    return redis


def main():
    binary, source, work = sys.argv[1], sys.argv[2], sys.argv[3]
    redis_binary = sys.argv[4] if len(sys.argv) > 4 else shutil.which("redis-server") or "/usr/bin/redis-server"
    script = f"{source}/examples/python-bot/bot.py"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db = f"{work}/atout.db"
    redis, redis_port = start_redis(redis_binary, work)
    nodes, failures = [], []
    try:
        # Nodes start one after another: the first one creates the database's schema.
        for node_id in ("a", "b", "c"):
            nodes.append(Node(binary, db, redis_port, node_id))
        a, b, c = nodes

        expect_exit_2(binary, ["--db", f"{work}/other.db", "--redis", f"redis://127.0.0.1:{free_port()}",
                               "--node-id", "x", "--public-url", "ws://127.0.0.1:1/ws"], "cannot reach Redis", failures)
        expect_exit_2(binary, ["--db", db, "--redis", f"redis://127.0.0.1:{redis_port}", "--node-id", "b",
                               "--public-url", "ws://127.0.0.1:1/ws", "--lease-ms", str(LEASE_MS)],
                      "another live node already has this id", failures)
        expect_exit_2(binary, ["--db", db, "--redis", f"redis://127.0.0.1:{redis_port}"], "--redis needs --node-id",
                      failures)

        # Players on different nodes meet at one table through a redirect.
        table_id, creator, joiner = duel(script, a, b, nodes, 10)
        finish([creator, joiner], "redirect", failures)
        if not joiner.saw(rf"{table_id} is at {re.escape(a.url)}"):
            failures.append("redirect: the bot that asked node b was not sent to node a")
        print(f"redirect: {table_id} created on a, joined from b, match finished")

        asyncio.run(across_nodes(a, b, c, failures))
        asyncio.run(takeover_answers(a, redis_port, failures))
        asyncio.run(private_across_nodes(a, b, redis_port, failures))
        redis = restart_redis(redis, redis_binary, work, redis_port, nodes, failures)
        cut_off(script, binary, db, redis_port, nodes, failures)

        # Failover: the owner dies; one of the others takes the match over after its lease.
        table_id, creator, joiner = duel(script, b, c, nodes, 20)
        take_down("failover", [creator, joiner], b, [a, c], "kill", failures)

        # Drain: the owner stops gracefully and hands the table over.
        survivor = a if a.process.poll() is None else c
        owner_table, creator, joiner = duel(script, survivor, survivor, nodes, 30)
        others = [n for n in nodes if n is not survivor and n.process.poll() is None]
        take_down("drain", [creator, joiner], survivor, others, "term", failures)
        if not others:
            failures.append("drain: no node was left to take the table over")
    finally:
        for n in nodes:
            n.stop()
        redis.kill()
        redis.wait()
    for f in failures:
        print("FAIL:", f)
    print(f"cluster: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
