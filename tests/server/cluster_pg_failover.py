#!/usr/bin/python3
"""Three atout-server nodes on one PostgreSQL database and one Redis: a node killed mid-match.

Usage: cluster_pg_failover.py ATOUT_SERVER_BINARY WORK_DIR [REDIS_SERVER]
The database is named by ATOUT_TEST_PG_URL (scripts/pg_test_server.sh start prints one); the test
works in a schema of its own, dropped at the end. It FAILS, rather than skips, when that variable
is unset, PostgreSQL cannot be reached or redis-server cannot be started.

Two players of this script play a duel on node b, reached from node c through a redirect. After a
few actions they stop acting, and once every acknowledged action is past the store's commit bound
(docs/operations.md: one second) node b is killed with SIGKILL. Each player then reconnects to a
different surviving node with its token and the last seq it saw, is sent to the node that took
the table over, and resumes there. The checks:
  - exactly one survivor takes the table over;
  - each player resumes on the rebuilt table (one snapshot, its seq the next multiple of 2^32)
    with exactly the view it had before the kill: no acknowledged action is missing;
  - play goes on there: each player acts again and is acknowledged by the new owner;
  - every action of the match, before and after the kill, is seen alike by both players, with no
    gap, and each acknowledged action is the one its event shows;
  - the database holds each acknowledged action once, under the seq it was acknowledged with, by
    its seat, and nothing else.
CLUSTER_TEST_DEBUG=1 prints every message the players receive while they play.
"""
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import uuid

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_match import LEASE_MS, Node, start_redis  # noqa: E402

PSQL = "/usr/bin/psql"
ACTIONS_BEFORE = 12  # events seen before the players stop acting and the owner is killed
ACTIONS_AFTER = 12  # events the new owner must produce afterwards
SETTLE_S = 1.5  # longer than the commit bound the store promises for an acknowledged action
TIMEOUT_S = 60
DEBUG = os.environ.get("CLUSTER_TEST_DEBUG")


def with_schema(url, schema):
    return url + ("&" if "?" in url else "?") + "options=-csearch_path%3D" + schema


def psql(url, sql):
    run = subprocess.run([PSQL, url, "-qtAX", "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True,
                         timeout=30)
    if run.returncode != 0:
        raise RuntimeError(f"psql: {sql}: {run.stderr.strip()}")
    return run.stdout.strip()


class Player:
    """One seat, played by this script: it records every event and every acknowledged action."""

    def __init__(self, name, seat, failures):
        self.name = name
        self.seat = seat
        self.failures = failures
        self.ws = None
        self.url = None
        self.token = None
        self.table_id = None
        self.last_seq = None
        self.events = {}  # the match's action number -> (seat, action type)
        self.accepted = {}  # the match's action number -> the action this player sent
        self.accepted_seqs = {}  # the seq the server gave it -> that action
        self.origin = (1, -1)  # (seq, number of the last action) of the event numbering counts from
        self.rebuilds = []  # (seq, observation) of each snapshot of a rebuilt table
        self.view_before = None  # the last view before any rebuild
        self.acting = True
        self.pace = 0.0  # seconds at least between two actions (the server limits message rates)
        self.acted_at = 0.0
        self.next_id = 1
        self.legal = []
        self.waiting_for = None  # the id of the action awaiting its reply

    async def send(self, message):
        message["id"] = self.next_id
        self.next_id += 1
        await self.ws.send(json.dumps(message))
        return message["id"]

    async def reply_to(self, request_id):
        while True:
            m = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            if m.get("id") == request_id:
                return m
            self.note(m)

    async def connect(self, url, resume=False):
        self.url = url
        self.ws = await websockets.connect(url)
        hello = {"type": "hello", "protocol": 1, "name": self.name}
        if self.token:
            hello["token"] = self.token
        if resume:
            hello["resume"] = [{"table_id": self.table_id, "last_seq": self.last_seq}]
        welcome = await self.reply_to(await self.send(hello))
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"{self.name}: hello at {url} answered {welcome}")
        self.token = welcome["token"]

    def index_of(self, seq):
        """The match's action number of event `seq`: the start is event 1, and a table rebuilt on
        another node numbers its events on from the next multiple of 2^32 (docs/protocol.md)."""
        origin_seq, origin_index = self.origin
        return origin_index + (seq - origin_seq)

    def note(self, m):
        """Records an event of our table; an action number seen before must name the same action."""
        if m.get("type") != "event" or m.get("table_id") != self.table_id:
            return
        seq = m["seq"]
        if m["kind"] == "snapshot":
            if self.last_seq is not None and seq > self.last_seq:
                # The table was rebuilt: its next events are numbered from here.
                if seq % 2**32 != 0:
                    self.failures.append(f"{self.name}: a snapshot at seq {seq}, neither seen nor a rebuild's")
                self.rebuilds.append((seq, m["observation"]))
                self.origin = (seq, max(self.events, default=-1))
        elif m["kind"] == "action":
            index = self.index_of(seq)
            last = m["last_action"]
            key = (last["seat"], last["action"]["type"])
            if index in self.events and self.events[index] != key:
                self.failures.append(f"{self.name}: action {index} was {self.events[index]} and then {key}")
            self.events[index] = key
        if not self.rebuilds:
            self.view_before = m["observation"]
        self.last_seq = seq
        self.legal = m["observation"].get("legal", []) if not m.get("replayed") or m["kind"] == "snapshot" else []

    async def play(self, until):
        """Handles messages, acting on our turns while `acting`, until `until()` holds."""
        while not until():
            if self.acting and self.legal and self.waiting_for is None and \
                    time.monotonic() >= self.acted_at + self.pace:
                self.acted_at = time.monotonic()
                action = self.legal[0]
                self.legal = []
                self.waiting_for = (await self.send({"type": "action", "table_id": self.table_id,
                                                     "action": action}), action)
            try:
                m = json.loads(await asyncio.wait_for(self.ws.recv(), 0.05))
            except asyncio.TimeoutError:
                continue
            if DEBUG:
                print(self.name, json.dumps(m)[:300], flush=True)
            if self.waiting_for and m.get("id") == self.waiting_for[0]:
                if m.get("type") != "accepted":
                    raise RuntimeError(f"{self.name}: action {self.waiting_for[1]} answered {m}")
                self.accepted[self.index_of(m["seq"])] = self.waiting_for[1]
                self.accepted_seqs[m["seq"]] = self.waiting_for[1]
                self.waiting_for = None
                continue
            if m.get("type") == "error":
                raise RuntimeError(f"{self.name}: {m}")
            self.note(m)

    async def resume_at(self, urls, deadline):
        """After the owner died: reconnect at urls[0] with the last seq seen, follow redirects, and
        try again while no node has taken the table over yet. Returns the node that seated us, once
        it has sent the view of the rebuilt table (a snapshot)."""
        url = urls[0]
        self.legal = []  # what the dead node offered is not to be played
        while time.monotonic() < deadline:
            try:
                await self.connect(url, resume=True)
            except OSError:
                url = urls[(urls.index(url) + 1) % len(urls)] if url in urls else urls[0]
                await asyncio.sleep(0.1)
                continue
            while True:
                m = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
                kind = m.get("type")
                if kind == "seated":
                    while True:
                        m = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
                        self.note(m)
                        if m.get("type") == "event" and m.get("kind") == "snapshot":
                            return url
                if kind == "redirect":
                    url = m["url"]
                    break
                if kind == "error" and m.get("code") == "unknown_table":
                    await asyncio.sleep(0.1)
                    break
                if kind == "error":
                    raise RuntimeError(f"{self.name}: resume at {url}: {m}")
                self.note(m)
            await self.ws.close()
        raise RuntimeError(f"{self.name}: not seated again within {TIMEOUT_S} s")


async def failover(nodes, failures):
    a, b, c = nodes
    ann, bob = Player("ann", 0, failures), Player("bob", 1, failures)
    await ann.connect(b.url)
    created = await ann.reply_to(await ann.send({"type": "create_table", "variant": "duel"}))
    if created.get("type") != "table_created":
        raise RuntimeError(f"create_table on b answered {created}")
    ann.table_id = bob.table_id = table_id = created["table"]["table_id"]
    if (await ann.reply_to(await ann.send({"type": "sit", "table_id": table_id, "seat": 0})))["type"] != "seated":
        raise RuntimeError("ann could not sit")
    # Bob asks node c, which sends him to b.
    await bob.connect(c.url)
    sent = await bob.reply_to(await bob.send({"type": "sit", "table_id": table_id, "seat": 1}))
    if sent.get("type") != "redirect" or sent.get("url") != b.url:
        failures.append(f"sit at {table_id} on node c answered {sent}, not a redirect to b")
    await bob.ws.close()
    await bob.connect(b.url)
    if (await bob.reply_to(await bob.send({"type": "sit", "table_id": table_id, "seat": 1})))["type"] != "seated":
        raise RuntimeError("bob could not sit on b")

    deadline = time.monotonic() + TIMEOUT_S
    enough = lambda: len(ann.events) >= ACTIONS_BEFORE or time.monotonic() > deadline
    await asyncio.gather(ann.play(enough), bob.play(enough))
    for p in (ann, bob):
        p.acting = False
    # Let any action in flight be answered, then stay quiet past the commit bound.
    quiet = time.monotonic() + SETTLE_S
    await asyncio.gather(ann.play(lambda: time.monotonic() > quiet), bob.play(lambda: time.monotonic() > quiet))
    if ann.waiting_for or bob.waiting_for:
        raise RuntimeError("an action was still unanswered before the kill")
    before = len(ann.events)  # actions played, all acknowledged and past the commit bound
    if len(bob.events) != before or sorted(ann.events) != list(range(before)):
        failures.append(f"before the kill: ann saw actions {sorted(ann.events)}, bob {sorted(bob.events)}")
    acked_before = len(ann.accepted) + len(bob.accepted)

    killed = time.monotonic()
    b.process.send_signal(signal.SIGKILL)
    b.process.wait()
    for p in (ann, bob):
        try:
            await p.ws.close()
        except Exception:
            pass
    # Each reconnects to a different survivor; one of them is sent on to the new owner.
    deadline = time.monotonic() + TIMEOUT_S
    ann_at, bob_at = await asyncio.gather(ann.resume_at([a.url, c.url], deadline),
                                          bob.resume_at([c.url, a.url], deadline))
    print(f"failover: b killed; ann seated again at {ann_at}, bob at {bob_at}, "
          f"{time.monotonic() - killed:.2f} s after the kill")
    if ann_at != bob_at:
        failures.append(f"the players were seated on different nodes: {ann_at} and {bob_at}")
    owners = [n for n in (a, c) if n.url == ann_at]
    took_over = [n.id for n in (a, c) if "orphaned table(s): 1 taken over" in n.log()]
    if len(took_over) != 1 or not owners or took_over != [owners[0].id]:
        failures.append(f"wanted exactly the node that seated the players to take the table over; "
                        f"took over: {took_over}")
    for p in (ann, bob):
        # The new owner rebuilt the match from the database: the view it resumes is the one each
        # player had before the kill, so no acknowledged action is missing.
        if len(p.rebuilds) != 1:
            failures.append(f"{p.name}: {len(p.rebuilds)} snapshots of a rebuilt table, wanted 1")
        elif p.rebuilds[0][1] != p.view_before:
            failures.append(f"{p.name}: the view after the failover differs from the one before:\n"
                            f"  before {json.dumps(p.view_before)}\n  after  {json.dumps(p.rebuilds[0][1])}")
        p.acting = True

    # Play on at the new owner: both players must be acknowledged there again.
    goal = before + ACTIONS_AFTER
    deadline = time.monotonic() + TIMEOUT_S
    done = lambda: len(ann.events) >= goal and len(bob.events) >= goal or time.monotonic() > deadline
    await asyncio.gather(ann.play(done), bob.play(done))
    for p in (ann, bob):
        if not any(index >= before for index in p.accepted):
            failures.append(f"{p.name} was never acknowledged by the new owner")
        await p.ws.close()
    if len(ann.events) < goal:
        failures.append(f"play stopped at action {len(ann.events)} after the failover; wanted {goal}")
    print(f"failover: {acked_before} actions acknowledged before the kill, "
          f"{len(ann.accepted) + len(bob.accepted) - acked_before} after, on the new owner")
    return ann, bob


def check_events(ann, bob, failures):
    """Both players saw the same action at each number, with no gap, and each acknowledged action
    is the one its event shows."""
    last = min(len(ann.events), len(bob.events))
    for index in range(last):
        if index not in ann.events or index not in bob.events:
            failures.append(f"action {index} missing: ann saw it {index in ann.events}, bob {index in bob.events}")
        elif ann.events[index] != bob.events[index]:
            failures.append(f"action {index}: ann saw {ann.events[index]}, bob {bob.events[index]}")
    for p in (ann, bob):
        for index, action in p.accepted.items():
            if index < last and p.events.get(index) != (p.seat, action["type"]):
                failures.append(f"{p.name}: accepted {action} as action {index}, whose event was {p.events.get(index)}")


def check_store(url, table_id, ann, bob, failures):
    """The database holds each acknowledged action once, under the seq it was acknowledged with,
    and nothing else."""
    rows = psql(url, "SELECT a.seq, a.seat, a.action FROM match_actions a JOIN matches m ON m.id = a.match_id "
                     f"WHERE m.table_id = '{table_id}' ORDER BY a.seq")
    stored = {}
    for line in rows.splitlines():
        seq, seat, action = line.split("|", 2)
        stored[int(seq)] = (int(seat), json.loads(action))
    acked = {seq: (p.seat, action) for p in (ann, bob) for seq, action in p.accepted_seqs.items()}
    for seq, (seat, action) in sorted(acked.items()):
        got = stored.get(seq)
        if not got or got[0] != seat or got[1].get("type") != action["type"]:
            failures.append(f"store: action of seq {seq} is {got}, wanted seat {seat} {action}")
    # Only the seats act here (nobody is away long enough for the server to play for them), so the
    # log holds exactly the acknowledged actions, once each.
    if sorted(stored) != sorted(acked):
        failures.append(f"store: seqs {sorted(stored)} stored, {sorted(acked)} acknowledged")
    print(f"store: {len(stored)} actions stored for {table_id}, {len(acked)} acknowledged")


def run_on_cluster(name, scenario, extras=None, log_lines=15):
    """Runs scenario(nodes, url, failures) on nodes a, b and c of one PostgreSQL schema and one Redis,
    made for it and dropped after; extras[node_id] adds flags to a node. Prints the failures (and
    the nodes' last log lines when there are any) and exits with the test's status."""
    binary, work = sys.argv[1], sys.argv[2]
    redis_binary = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/redis-server"
    base = os.environ.get("ATOUT_TEST_PG_URL")
    if not base:
        sys.exit("FAIL: ATOUT_TEST_PG_URL is not set (scripts/pg_test_server.sh start prints one)")
    os.makedirs(work, exist_ok=True)
    schema = "cluster_" + uuid.uuid4().hex[:12]
    try:
        psql(base, f"CREATE SCHEMA {schema}")
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        sys.exit(f"FAIL: cannot reach PostgreSQL at ATOUT_TEST_PG_URL: {e}")
    url = with_schema(base, schema)
    try:
        redis, redis_port = start_redis(redis_binary, work)
    except OSError as e:
        psql(base, f"DROP SCHEMA {schema} CASCADE")
        sys.exit(f"FAIL: cannot start {redis_binary}: {e}")
    nodes, failures = [], []
    try:
        for node_id in ("a", "b", "c"):  # one after another: the first one creates the schema's tables
            nodes.append(Node(binary, url, redis_port, node_id, (extras or {}).get(node_id, ())))
        scenario(nodes, url, failures)
    finally:
        for n in nodes:
            n.stop()
        redis.kill()
        redis.wait()
        try:
            psql(base, f"DROP SCHEMA {schema} CASCADE")
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
    for f in failures:
        print("FAIL:", f)
    if failures:
        for n in nodes:
            print(f"--- node {n.id} log (last lines)\n" + "".join(n.lines[-log_lines:]))
    print(f"{name}: {len(failures)} failure(s) (lease {LEASE_MS} ms)")
    sys.exit(1 if failures else 0)


def main():
    def scenario(nodes, url, failures):
        try:
            ann, bob = asyncio.run(failover(nodes, failures))
            check_events(ann, bob, failures)
            check_store(url, ann.table_id, ann, bob, failures)
        except (RuntimeError, OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException) as e:
            failures.append(f"{type(e).__name__}: {e}")

    run_on_cluster("cluster on PostgreSQL", scenario)


if __name__ == "__main__":
    main()
