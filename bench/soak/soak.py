#!/usr/bin/python3
"""A chaos soak against a live atout-server, with its checks.

Usage: soak.py --server PATH/atout-server --cli PATH/atout [--minutes M] [--seed S] [--work DIR]
       [--cluster N [--pg-url URL]]

Starts the server on a free loopback port with a fresh database, and for --minutes runs at once:
tables of scripted players (duel most often, for speed, and the four-seat variants), tables
against server bots (create_table with `bots`), spectators, players that drop and resume (with
and without last_seq, by `sit` or by hello's `resume`) or open a second connection with their
token (the old one must get goodbye and close code 4001), floods, slow readers, oversized and
malformed frames, and `kill -9` of the server at random moments, each followed by a restart on
the same database and port. Then it stops the server cleanly and checks what was stored (see
check_* below); it prints a summary and exits 1 with one line per failed check.

With --cluster N, the same runs against N nodes that share a PostgreSQL database (a schema of the
soak's own, dropped when every check passed) and a Redis the soak starts. Each player connects to
a node at random and follows `redirect` to the node that runs its table; each kill -9 takes one
node, whose tables another node takes over, and the node comes back under a new node id.

Written in Python with Debian's python3-websockets (as examples/python-bot is), because the checks
need a free hand with sockets (raw frames that break the protocol), processes (kill -9, /proc)
and the store's data, and no C++ rebuild when a check changes. Debian's /usr/bin/python3.
"""
import argparse
import itertools
import asyncio
import base64
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websockets

REQUEST_IDS = itertools.count(1)
PSQL = "/usr/bin/psql"
REDIS_SERVER = "/usr/bin/redis-server"
RANKS = "789TJQKA"
SUITS = "CDHS"
KILL_LOSS_WINDOW_S = 1.0  # docs/operations.md: an acknowledged action is committed within one second
# An acknowledgement read just after a kill was sent just before it: the client reads what was
# already in its socket when the server died.
READ_LAG_S = 2.0
WARMUP_S = 8.0  # after each (re)start, before RSS and fds count as warm
RSS_GROWTH_LIMIT_KB = 64 * 1024  # SQLite's page cache alone may legitimately grow by 64 MiB
RSS_GROWTH_FACTOR = 1.5
FD_GROWTH_LIMIT = 32  # the soak's connections are bounded; more fds than that is a leak
LEASE_MS = 1500  # a cluster node's table leases: short, so that a killed node's tables move soon
# On a cluster: a killed node's tables are taken over within about two leases (docs/protocol.md),
# plus a restarted node's start; a player still told unknown_table after this long is a failure.
TAKEOVER_LIMIT_S = 30.0


def parse_card(s):
    """A card name as the server reads it ("JS", "10H", "th"), or None."""
    s = s.upper()
    if len(s) == 3 and s.startswith("10"):
        s = "T" + s[2]
    if len(s) == 2 and s[0] in RANKS and s[1] in SUITS:
        return s
    return None


def cards_in(text):
    """Every JSON string value of the text that reads as a card; keys are skipped. The same scan
    as tests/server/card_scan.hpp, so the soak applies the hidden-information test's rule."""
    out = set()
    i = 0
    n = len(text)
    while True:
        i = text.find('"', i)
        if i < 0:
            break
        end = i + 1
        while end < n and text[end] != '"':
            end += 2 if text[end] == "\\" else 1
        if end >= n:
            break
        s = text[i + 1:end]
        after = end + 1
        while after < n and text[after] == " ":
            after += 1
        is_key = after < n and text[after] == ":"
        if not is_key and len(s) in (2, 3):
            c = parse_card(s)
            if c:
                out.add(c)
        i = end + 1
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Node:
    """One server process slot: restarted on the same port after each kill, its log kept."""

    def __init__(self, work, slot, port, log_name):
        self.slot = slot
        self.port = port  # 0 until a lone server says which port it took
        self.log_path = os.path.join(work, log_name)
        self.proc = None
        self.up = False
        self.run = None  # this run's RSS and fd samples

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/ws"


class Soak:
    """Shared state: the server process, what every client saw, and the failures."""

    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.work = args.work
        # One server on its SQLite file, or (--cluster N) N nodes on PostgreSQL and Redis.
        self.cluster = args.cluster > 0
        self.db = os.path.join(self.work, "atout.db") if not self.cluster else None
        self.redis = None
        self.redis_port = None
        self.nodes = [Node(self.work, i, free_port(), f"node-{i}.log") for i in range(args.cluster)] if self.cluster \
            else [Node(self.work, 0, 0, "server.log")]
        self.generation = 0  # bumped at every (re)start of a node
        self.failures = []
        self.kills = []  # wall times of kill -9
        self.deadline = 0.0
        self.stopping = False
        # What the clients saw.
        self.tokens = set()
        self.acks = []  # (match_id, seq, seat, action, wall time)
        self.finished = {}  # match_id -> (match_score, wall time seen)
        self.seed_seen_at = {}  # deal seed -> first wall time a client saw it revealed
        self.match_ids_seen = set()
        # Hidden information, compactly: for each (match, deal, recipient), each card named to it
        # outside its own hand, with the lowest seq it was named at. Recipient: seat or "spec".
        self.named = {}
        self.hands_seen = {}  # (match, deal, run, seat) -> cards reported as that seat's hand
        self.turn_ups = {}  # (match, deal) -> set of turn-up cards reported
        self.declared = {}  # (match, deal, seat) -> cards shown in declarations
        self.seen_plays = {}  # (match, seq) -> (deal, card) from last_action of events seen
        self.messages_checked = 0
        self.non_event_cards = []
        # RSS and fds: one list of samples per server run.
        self.samples = []
        self.probes = {}  # probe name -> [passed, skipped]
        self.resumes = []  # on a cluster: seconds from each lost connection to its seat taken back
        self.redirects = 0  # on a cluster: redirects followed

    def mark(self):
        """Changes whenever the server is killed or restarted: a probe that spans a change, or
        that began while the server was down, is void."""
        return (self.generation, len(self.kills)) if any(n.up for n in self.nodes) else None

    def lost_with_a_kill(self, at):
        """Whether what a client read at wall time `at` may have been lost to a kill (documented:
        an acknowledged write within a second of a kill -9 may be lost); True for None (never)."""
        return at is None or any(-READ_LAG_S <= k - at <= KILL_LOSS_WINDOW_S for k in self.kills)

    def fail(self, message):
        if len(self.failures) < 200:
            self.failures.append(message)

    def probe(self, name, ok, detail=""):
        p = self.probes.setdefault(name, [0, 0])
        if ok is None:
            p[1] += 1
        elif ok:
            p[0] += 1
        else:
            self.fail(f"probe {name}: {detail}")

    # ---- The servers ---------------------------------------------------------------------------

    def node_args(self, node, lone):
        """One node's command line: the lone server on its SQLite file, or a cluster node on the
        shared PostgreSQL database and Redis, under a node id new at every start (a killed node's
        id stays registered in Redis until its heartbeat runs out)."""
        args = [self.args.server, "--port", str(node.port), "--bind", "127.0.0.1", "--threads", "2",
                "--log-format", "json", "--log-level", "debug"]
        if lone or not self.cluster:
            return args + ["--db", self.db]
        return args + ["--db", self.db, "--redis", f"redis://127.0.0.1:{self.redis_port}",
                       "--node-id", f"n{node.slot}g{self.generation + 1}", "--public-url", node.url,
                       "--lease-ms", str(LEASE_MS)]

    def start_node(self, node, extra=(), lone=False):
        env = dict(os.environ)
        # Under AddressSanitizer, a small quarantine: its default 256 MiB would read as RSS growth.
        asan = env.get("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
        if "quarantine_size_mb" not in asan:
            asan += ":quarantine_size_mb=16"
        env["ASAN_OPTIONS"] = asan
        log = open(node.log_path, "a")
        start = os.path.getsize(node.log_path)
        node.proc = subprocess.Popen([*self.node_args(node, lone), *extra], stdout=log, stderr=subprocess.STDOUT,
                                     env=env)
        log.close()
        self.generation += 1
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with open(node.log_path) as f:
                f.seek(start)
                m = re.search(r"listening on 127\.0\.0\.1:(\d+)", f.read())
            if m:
                node.port = int(m.group(1))
                node.run = {"pid": node.proc.pid, "node": node.slot, "started": time.monotonic(), "rss": [],
                            "fds": []}
                self.samples.append(node.run)
                node.up = True
                return
            if node.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise SystemExit(f"soak: atout-server did not start (see {node.log_path})")

    def start_servers(self):
        for node in self.nodes:
            self.start_node(node)

    def kill_node(self, node):
        node.up = False
        node.proc.send_signal(signal.SIGKILL)
        node.proc.wait()
        self.kills.append(time.time())

    def stop_servers(self):
        """SIGTERM to every node at once (a cluster node hands its tables over as it drains):
        each must exit 0, and under AddressSanitizer leak-free."""
        for node in self.nodes:
            node.up = False
            if node.proc and node.proc.poll() is None:
                node.proc.send_signal(signal.SIGTERM)
        for node in self.nodes:
            if not node.proc:
                continue
            try:
                code = node.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                node.proc.kill()
                node.proc.wait()
                self.fail(f"node {node.slot} did not stop within 60 s of SIGTERM")
                continue
            if code != 0:
                self.fail(f"node {node.slot} exited with status {code} after SIGTERM (see {node.log_path})")

    def live_node(self):
        """A node to connect to: any running one, or (all down) any."""
        up = [n for n in self.nodes if n.up]
        return random.choice(up or self.nodes)

    @property
    def url(self):
        return self.live_node().url

    @property
    def port(self):
        return self.live_node().port

    def http_get(self, path, port=None):
        with urllib.request.urlopen(f"http://127.0.0.1:{port or self.port}{path}", timeout=30) as r:
            return json.loads(r.read())

    # ---- What clients saw ---------------------------------------------------------------------

    def record_message(self, recipient, text, msg, table_state):
        """Every message a player or spectator received: `recipient` is a seat or "spec"."""
        self.messages_checked += 1
        kind = msg.get("type")
        named = cards_in(text)
        if kind != "event":
            if named:
                self.non_event_cards.append(f"{kind} names {sorted(named)}: {text[:300]}")
            return
        commitment = msg.get("commitment")
        if commitment:
            table_state["match_id"] = commitment["match_id"]
        match_id = table_state.get("match_id")
        if match_id is None:
            self.non_event_cards.append(f"an event without a known match: {text[:300]}")
            return
        self.match_ids_seen.add(match_id)
        obs = msg.get("observation", {})
        deal = obs.get("deal_number", -1)
        seq = msg["seq"]
        for result in [msg.get("hand_result")] + list((msg.get("match_result") or {}).get("hands", [])):
            if result and result.get("seed"):
                self.seed_seen_at.setdefault(result["seed"].lower(), time.time())
        last = msg.get("last_action") or {}
        act = last.get("action") or {}
        if act.get("type") == "play" and not msg.get("replayed"):
            # The deal the card was played in: the previous one when this action ended a deal.
            played_deal = deal - 1 if msg.get("hand_result") and obs.get("phase") != "match_over" else deal
            self.seen_plays[(match_id, seq)] = (played_deal, act["card"].upper())
        if obs.get("turn_up"):
            self.turn_ups.setdefault((match_id, deal), set()).add(obs["turn_up"])
        for d in obs.get("declarations", []) or []:
            if d.get("cards"):
                self.declared.setdefault((match_id, deal, seq >> 32, d["seat"]), set()).update(d["cards"])
        own = set()
        if recipient != "spec":
            if "hand" not in obs:
                self.fail(f"seat {recipient} got an event without its hand: {text[:200]}")
            own = set(obs.get("hand", []))
            # Per run of the table (seq >> 32, see docs/protocol.md): a kill can take the end of a
            # deal back, and the deal replayed after the restart may send its cards elsewhere.
            key = (match_id, deal, seq >> 32, recipient)
            self.hands_seen.setdefault(key, set()).update(own)
            own |= table_state.get("prev_hand", set())
            table_state["prev_hand"] = set(obs.get("hand", []))
        elif "hand" in obs:
            self.fail(f"a spectator got a hand: {text[:200]}")
        named -= own
        if named:
            per = self.named.setdefault((match_id, deal, recipient), {})
            for c in named:
                if c not in per or seq < per[c][0]:
                    per[c] = (seq, text if self.args.keep_texts else None)

    def record_ack(self, table_state, seq, seat, action):
        match_id = table_state.get("match_id")
        self.acks.append((match_id, seq, seat, action, time.time()))


class Conn:
    """One WebSocket connection with a reader that records every message."""

    def __init__(self, soak, on_message, recipient_of):
        self.soak = soak
        self.ws = None
        self.on_message = on_message
        self.recipient_of = recipient_of
        self.closed = asyncio.Event()
        self.close_code = None
        self.goodbye = None
        self.task = None
        self.next_id = next(REQUEST_IDS)  # unique across connections, so acks never mix
        self.waiting = {}

    async def open(self, url=None, **kw):
        self.ws = await websockets.connect(url or self.soak.url, max_size=None, ping_interval=None, open_timeout=5,
                                           close_timeout=2, **kw)
        self.task = asyncio.ensure_future(self.read())

    async def read(self):
        try:
            async for text in self.ws:
                msg = json.loads(text)
                if msg.get("type") == "goodbye":
                    self.goodbye = msg
                if msg.get("type") == "welcome":
                    self.soak.tokens.add(msg["token"])  # every token, probes' too, for the log check
                rid = msg.get("id")
                if rid in self.waiting and msg.get("type") != "event":
                    self.waiting.pop(rid).set_result(msg)
                await self.on_message(self, text, msg)
                if rid in self.waiting:  # an event answering an action under ack: event
                    self.waiting.pop(rid).set_result(msg)
        except websockets.ConnectionClosed:
            pass
        except Exception as e:  # a bug in the soak itself must not pass for a server fault
            self.soak.fail(f"soak client error: {e!r}")
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()
            for f in self.waiting.values():
                if not f.done():
                    f.set_exception(ConnectionError("closed"))
            self.waiting.clear()

    async def send(self, message):
        message = dict(message)
        message["id"] = self.next_id
        self.next_id = next(REQUEST_IDS)
        fut = asyncio.get_event_loop().create_future()
        fut.add_done_callback(lambda f: f.cancelled() or f.exception())  # a lost reply is no error here
        self.waiting[message["id"]] = fut
        await self.ws.send(json.dumps(message))
        return fut

    async def request(self, message, timeout=15):
        fut = await self.send(message)
        return await asyncio.wait_for(fut, timeout)

    async def close(self):
        if self.ws:
            await self.ws.close()


class Player:
    """A scripted player: plays a random legal action whenever it may, survives kills and drops.
    On a cluster it follows `redirect` to the node that runs its table, and while a killed node's
    table waits for another node to take it over (`unknown_table` everywhere), it tries again."""

    def __init__(self, soak, name, rng, ack_event):
        self.soak = soak
        self.name = name
        self.rng = rng
        self.ack_event = ack_event
        self.token = None
        self.conn = None
        self.table_id = None
        self.seat = None
        self.spectator = False
        self.last_seq = None
        self.acted_seq = None
        self.done = asyncio.Event()
        self.result = None
        self.tables = {}  # table_id -> state for the recorder
        self.pending_action = {}  # request id -> action sent
        self.redirect_url = None  # where a redirect sent this player, for its next connection
        self.started_at = None  # wall time of the first event this player saw at its table
        self.entry = None  # the answer to hello's resume entry, which has no id

    def recipient(self):
        return "spec" if self.spectator else self.seat

    async def connect(self, resume=None, url=None):
        conn = Conn(self.soak, self.on_message, self.recipient)
        await conn.open(url)
        hello = {"type": "hello", "protocol": 1, "name": self.name}
        if self.token:
            hello["token"] = self.token
        if self.ack_event:
            hello["ack"] = "event"
        if resume is not None:
            hello["resume"] = resume
            self.entry = asyncio.get_event_loop().create_future()
        self.conn = conn
        try:
            welcome = await conn.request(hello)
            if welcome.get("type") != "welcome":
                raise RuntimeError(f"hello: {welcome}")
        except BaseException:
            await conn.close()  # or it stays open on the server, and the retry opens another
            raise
        self.token = welcome["token"]
        return welcome

    async def move(self, url):
        """Leaves this connection for the node at `url` (a redirect's), with the same token."""
        if self.conn:
            await self.conn.close()
        await self.connect(url=url)

    async def ask(self, message):
        """A `sit` or `spectate`, sent again at the node a redirect names (a few times at most)."""
        for _ in range(4):
            answer = await self.conn.request(message)
            if answer.get("type") != "redirect":
                return answer
            self.soak.redirects += 1
            await self.move(answer["url"])
        raise RuntimeError(f"{message['type']}: redirected again and again")

    async def on_message(self, conn, text, msg):
        if conn is not self.conn and msg.get("type") == "event":
            pass  # a replaced connection's last messages are still checked below
        state = self.tables.setdefault(msg.get("table_id") or self.table_id, {})
        self.soak.record_message(self.recipient(), text, msg, state)
        kind = msg.get("type")
        if kind == "accepted":
            self.soak.record_ack(state, msg["seq"], self.seat, self.pending_action.get(msg.get("id")))
        if (msg.get("id") is None and kind in ("seated", "redirect", "error") and conn is self.conn
                and self.entry is not None and not self.entry.done()):
            self.entry.set_result(msg)  # what hello's resume entry was answered with
        elif conn is self.conn and self.leaves_node(msg):
            asyncio.ensure_future(conn.close())  # supervise() resumes the seat elsewhere
        if kind != "event" or msg.get("table_id") != self.table_id:
            return
        if self.ack_event and msg.get("id") is not None and msg.get("id") in self.pending_action:
            self.soak.record_ack(state, msg["seq"], self.seat, self.pending_action.get(msg["id"]))
        self.last_seq = msg["seq"]
        if self.started_at is None:
            self.started_at = time.time()
        if msg.get("match_result") is not None or msg.get("kind") == "abandoned":
            if msg.get("match_result") is not None and not msg["match_result"].get("abandoned"):
                self.soak.finished[state.get("match_id")] = (msg["match_result"]["match_score"], time.time())
            self.result = msg.get("match_result")
            self.done.set()
            return
        obs = msg.get("observation", {})
        legal = obs.get("legal") or []
        if self.spectator or not legal or obs.get("current") != self.seat or conn is not self.conn:
            return
        if self.acted_seq == msg["seq"]:
            return
        self.acted_seq = msg["seq"]
        action = self.rng.choice(legal)
        try:
            self.pending_action[conn.next_id] = action
            fut = await conn.send({"type": "action", "table_id": self.table_id, "action": action})
        except websockets.ConnectionClosed:
            pass

    async def resume(self):
        """After a lost connection: reconnect until a node answers, and take the seat back."""
        lost_at = time.monotonic()
        troubles = []  # what the last attempts met, for a failure's message
        while not self.soak.stopping:
            url, self.redirect_url = self.redirect_url, None
            try:
                how = self.rng.randrange(3)
                if self.spectator:
                    await self.connect(url=url)
                    msg = {"type": "spectate", "table_id": self.table_id}
                    if self.last_seq is not None and how:
                        msg["last_seq"] = self.last_seq
                    answer = await self.conn.request(msg)
                elif how == 0 and self.last_seq is not None:
                    welcome = await self.connect(resume=[{"table_id": self.table_id, "last_seq": self.last_seq}],
                                                 url=url)
                    # The welcome lists the seats held on its own node only: on a cluster the
                    # entry's answer (seated, redirect or an error) says where the seat is.
                    if not self.soak.cluster and not self.holds(welcome):
                        self.done.set()  # no seat held any more: the match ended or was lost
                        return
                    answer = await asyncio.wait_for(self.entry, 15)
                else:
                    welcome = await self.connect(url=url)
                    if not self.soak.cluster and not self.holds(welcome):
                        self.done.set()
                        return
                    msg = {"type": "sit", "table_id": self.table_id, "seat": self.seat}
                    if how == 1 and self.last_seq is not None:
                        msg["last_seq"] = self.last_seq
                    answer = await self.conn.request(msg)
                kind = answer.get("type")
                if kind != "seated" and kind != "watching":
                    troubles.append(f"{url or 'any node'}: {kind} {answer.get('code', answer.get('url'))}")
                if kind == "redirect":
                    self.soak.redirects += 1
                    self.redirect_url = answer["url"]
                    await self.conn.close()
                    await asyncio.sleep(0.1)  # a killed owner's URL may redirect back until it is replaced
                    continue
                if kind == "error" and answer.get("code") == "unknown_table" and self.soak.cluster:
                    # The table's node was killed and no node has taken it over yet.
                    await self.conn.close()
                    if time.monotonic() - lost_at > TAKEOVER_LIMIT_S:
                        # A table whose match had not started (or whose start a kill took, within
                        # the commit bound) has nothing to rebuild: no node takes it over.
                        if not self.soak.lost_with_a_kill(self.started_at):
                            self.soak.fail(f"table {self.table_id} was unknown on every node "
                                           f"{TAKEOVER_LIMIT_S:.0f} s after {self.name} lost it; "
                                           f"the last answers: {troubles[-4:]}")
                        self.done.set()
                        return
                    await asyncio.sleep(0.3)
                    continue
                if kind == "error":
                    self.done.set()  # the seat is no longer held, or the table closed
                    return
                if self.soak.cluster:
                    self.soak.resumes.append(time.monotonic() - lost_at)
                return
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException, ConnectionError, RuntimeError) as e:
                troubles.append(f"{url or 'any node'}: {e!r}"[:160])
                if self.conn:
                    await self.conn.close()  # a request that timed out leaves its connection open
                await asyncio.sleep(0.2)

    def leaves_node(self, msg):
        """Whether `msg` tells this player that its node no longer runs its table: a redirect
        answering an action (the table moved), one without an id (the node let the table go after
        another node took it over), or, on a cluster, an action refused with unknown_table (the
        node lost touch with the others and may no longer run the table)."""
        kind, rid = msg.get("type"), msg.get("id")
        if msg.get("table_id") != self.table_id:
            return False
        if kind == "redirect" and (rid is None or rid in self.pending_action):
            self.redirect_url = msg["url"]
            return True
        return (kind == "error" and msg.get("code") == "unknown_table" and rid in self.pending_action
                and self.soak.cluster)

    def holds(self, welcome):
        return any(s["table_id"] == self.table_id for s in welcome.get("seats", []))

    async def drop_and_resume(self):
        old = self.conn
        self.acted_seq = None
        await old.close()
        await self.resume()

    async def second_connection(self):
        """A second hello with the same token (on a cluster, maybe on another node): the old
        connection gets goodbye and 4001."""
        old = self.conn
        gen = self.soak.mark()
        await self.connect()
        try:
            await asyncio.wait_for(old.closed.wait(), 12)
        except asyncio.TimeoutError:
            pass
        if gen is None or gen != self.soak.mark():
            self.soak.probe("second_connection", None)
        else:
            ok = (old.goodbye or {}).get("reason") == "replaced" and old.close_code == 4001
            self.soak.probe("second_connection", ok,
                            f"old connection got {old.goodbye} and close code {old.close_code}, not replaced/4001")
        self.acted_seq = None
        r = await self.conn.request({"type": "sit", "table_id": self.table_id, "seat": self.seat,
                                     "last_seq": self.last_seq or 0})
        if r.get("type") == "redirect":
            self.redirect_url = r["url"]  # the table runs elsewhere: supervise resumes there
            await self.conn.close()
        elif r.get("type") == "error" and r.get("code") == "unknown_table" and self.soak.cluster:
            await self.conn.close()  # being taken over: supervise resumes it
        elif r.get("type") == "error" and r.get("code") == "not_seated":
            self.done.set()


async def play_table(soak, rng, index):
    """One group of scripted players (and maybe a spectator) playing matches again and again."""
    variants = soak.variants
    n = 0
    while time.monotonic() < soak.deadline:
        n += 1
        variant = "duel" if rng.random() < 0.5 else rng.choice([v for v in variants if v != "duel"])
        seats = variants[variant]["players"]
        players = [Player(soak, f"s{index}-{n}-{i}", random.Random(rng.random()), rng.random() < 0.5)
                   for i in range(seats)]
        try:
            await run_match(soak, rng, variant, players, spectate=rng.random() < 0.5)
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException, ConnectionError, RuntimeError):
            await asyncio.sleep(0.5)  # the server went away while the table was set up
        for p in players:
            if p.conn:
                await p.conn.close()


async def run_match(soak, rng, variant, players, spectate):
    for p in players:
        await p.connect()
    owner = players[0]
    options = {}
    target = soak.variants[variant].get("min_target")
    if target:
        options["target"] = target
    created = await owner.conn.request({"type": "create_table", "variant": variant, "options": options,
                                        "settings": {"turn_ms": 10000, "reconnect_ms": 30000}})
    if created.get("type") != "table_created":
        raise RuntimeError(f"create_table: {created}")
    table_id = created["table"]["table_id"]
    soak.live_tables.add(table_id)
    watcher = None
    try:
        if spectate:
            watcher = Player(soak, "watch", random.Random(rng.random()), False)
            watcher.spectator = True
            watcher.table_id = table_id
            await watcher.connect()
            await watcher.ask({"type": "spectate", "table_id": table_id})
        # On a cluster each player is on a node of its own choosing: a sit there is redirected to
        # the table's node.
        for seat, p in enumerate(players):
            p.table_id = table_id
            p.seat = seat
            r = await p.ask({"type": "sit", "table_id": table_id, "seat": seat})
            if r.get("type") != "seated":
                raise RuntimeError(f"sit: {r}")
        await supervise(soak, rng, players, watcher)
    finally:
        if watcher and watcher.conn:
            await watcher.conn.close()


async def supervise(soak, rng, players, watcher):
    """Waits for the match to end, resuming lost connections and making some trouble meanwhile."""
    everyone = players + ([watcher] if watcher else [])
    gen = soak.generation
    while not all(p.done.is_set() for p in players):
        if soak.stopping:
            return
        await asyncio.sleep(0.1)
        for p in everyone:
            if not p.done.is_set() and p.conn.closed.is_set():
                await p.resume()
        if gen != soak.generation:
            gen = soak.generation
            continue
        if rng.random() < 0.01:
            p = rng.choice(players)
            if not p.done.is_set():
                await p.drop_and_resume()
        elif rng.random() < 0.005:
            p = rng.choice(players)
            if not p.done.is_set():
                try:
                    await p.second_connection()
                except (OSError, asyncio.TimeoutError, websockets.WebSocketException, ConnectionError):
                    pass
    if watcher and watcher.conn:
        await watcher.conn.close()


async def play_bots(soak, rng, index):
    """One player against server bots, match after match."""
    n = 0
    while time.monotonic() < soak.deadline:
        n += 1
        variant = rng.choice(list(soak.variants))
        p = Player(soak, f"b{index}-{n}", random.Random(rng.random()), rng.random() < 0.5)
        try:
            await p.connect()
            options = {}
            if soak.variants[variant].get("min_target"):
                options["target"] = soak.variants[variant]["min_target"]
            level = rng.choice(["random", "rules", "rules", "sampling"])
            p.seat = 0
            fut = await p.conn.send({"type": "create_table", "variant": variant, "options": options,
                                     "settings": {"turn_ms": 10000, "reconnect_ms": 30000},
                                     "bots": {"level": level}})
            created = await asyncio.wait_for(fut, 15)
            if created.get("type") != "table_created":
                raise RuntimeError(f"create_table with bots: {created}")
            p.table_id = created["table"]["table_id"]
            soak.live_tables.add(p.table_id)
            await supervise(soak, rng, [p], None)
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException, ConnectionError, RuntimeError):
            await asyncio.sleep(0.5)
        if p.conn:
            await p.conn.close()


# ---- Abuse -----------------------------------------------------------------------------------------


def raw_frame(opcode, payload, rsv=0):
    mask = os.urandom(4)
    head = bytes([0x80 | rsv | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_close_code(port, frames):
    """Opens a WebSocket by hand, sends the frames, and returns the server's close code."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = s.recv(4096)
            if not chunk:
                return "end of stream during the handshake"
            buf += chunk
        if b" 101 " not in buf.split(b"\r\n", 1)[0]:
            return "no upgrade: " + buf.split(b"\r\n", 1)[0].decode(errors="replace")
        buf = buf.split(b"\r\n\r\n", 1)[1]
        for f in frames:
            s.sendall(f)
        while True:
            while len(buf) < 2:
                chunk = s.recv(4096)
                if not chunk:
                    return "end of stream before a close frame"
                buf += chunk
            opcode = buf[0] & 0x0F
            n = buf[1] & 0x7F
            at = 2
            if n == 126:
                n, at = struct.unpack("!H", buf[2:4])[0], 4
            elif n == 127:
                n, at = struct.unpack("!Q", buf[2:10])[0], 10
            while len(buf) < at + n:
                chunk = s.recv(65536)
                if not chunk:
                    return "end of stream before a close frame"
                buf += chunk
            payload, buf = buf[at:at + n], buf[at + n:]
            if opcode == 8:
                return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
    except OSError as e:
        return f"socket error {e!r}"
    finally:
        s.close()


async def abuse(soak, rng):
    """Floods, slow readers, oversized and malformed frames, each checked against the docs."""
    loop = asyncio.get_event_loop()
    while time.monotonic() < soak.deadline:
        await asyncio.sleep(rng.uniform(0.5, 2.0))
        gen = soak.mark()
        if gen is None:
            continue  # the server is down: nothing to probe
        what = rng.choice(["oversized", "utf8", "rsv", "flood_pings", "flood_lists", "bad_json", "slow", "http"])
        opened = []  # closed whatever happens: a probe cut short must not leave its connection open
        try:
            if what in ("oversized", "utf8", "rsv"):
                frame = {"oversized": raw_frame(1, b'{"type":"ping","pad":"' + b"x" * 17000 + b'"}'),
                         "utf8": raw_frame(1, b'{"type":"ping","x":"\xff\xfe"}'),
                         "rsv": raw_frame(1, b'{"type":"ping"}', rsv=0x40)}[what]
                want = {"oversized": 1009, "utf8": 1007, "rsv": 1002}[what]
                code = await loop.run_in_executor(None, raw_close_code, soak.port, [frame])
                ok = None if gen != soak.mark() else code == want
                soak.probe(what, ok, f"close code {code}, expected {want}")
            elif what == "flood_pings":
                c = Conn(soak, _ignore, None)
                opened.append(c)
                await c.open()
                try:
                    for _ in range(600):
                        await c.ws.send('{"type":"ping"}')
                except websockets.ConnectionClosed:
                    pass  # closed while still flooding: the expected end
                await asyncio.wait_for(c.closed.wait(), 15)
                ok = None if gen != soak.mark() else c.close_code == 1008
                soak.probe(what, ok, f"close code {c.close_code}, expected 1008")
            elif what == "flood_lists":
                seen = []

                async def keep(conn, text, msg):
                    seen.append(msg)

                c = Conn(soak, keep, None)
                opened.append(c)
                await c.open()
                await c.request({"type": "hello", "protocol": 1, "name": "flood"})
                # After hello, 18 pages of 100 (11 credits each) leave one of the 200 credits a
                # connection starts with: the 19th page gets too_fast, and the connection stays open
                # (docs/protocol.md). A 20th message at once would find no credit: a flood, closed.
                for i in range(19):
                    await c.ws.send(json.dumps({"type": "list_tables", "limit": 100, "id": 100 + i}))
                await asyncio.sleep(1)
                too_fast = sum(1 for m in seen if m.get("code") == "too_fast")
                pong = await c.request({"type": "ping"}) if not c.closed.is_set() else None
                ok = None if gen != soak.mark() else too_fast > 0 and (pong or {}).get("type") == "pong"
                soak.probe(what, ok, f"{too_fast} too_fast errors, then {pong}")
                await c.close()
            elif what == "bad_json":
                errors = []

                async def keep_errors(conn, text, msg):
                    if msg.get("type") == "error":
                        errors.append(msg.get("code"))

                c = Conn(soak, keep_errors, None)
                opened.append(c)
                await c.open()
                await c.request({"type": "hello", "protocol": 1, "name": "junk"})
                for frame in ['{"type": "ping", ', b"\x00\x01binary", "[1,2]", '{"type":"nope"}']:
                    await c.ws.send(frame)
                fut = await c.send({"type": "ping"})
                await asyncio.wait_for(fut, 10)
                pong = fut.result()
                want = ["bad_json", "bad_json", "bad_message", "unknown_type"]
                ok = None if gen != soak.mark() else pong.get("type") == "pong" and errors == want
                soak.probe(what, ok, f"after bad frames: errors {errors} (expected {want}), then {pong}")
                await c.close()
            elif what == "slow":
                # Watches the busiest tables and the lobby, then stops reading for a while.
                ws = await websockets.connect(soak.url, max_size=None, max_queue=1, read_limit=1024,
                                              ping_interval=None, open_timeout=5, close_timeout=2)
                opened.append(ws)
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "slow", "id": 1}))
                await ws.send(json.dumps({"type": "subscribe_lobby", "id": 2}))
                for t in list(soak.live_tables)[-5:]:
                    await ws.send(json.dumps({"type": "spectate", "table_id": t}))
                await asyncio.sleep(rng.uniform(5, 20))
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 0.5)
                except (asyncio.TimeoutError, websockets.ConnectionClosed):
                    pass
                await ws.close()
                soak.probe(what, None if gen != soak.mark() else True)
            elif what == "http":
                codes = await loop.run_in_executor(None, http_flood, soak.port)
                ok = None if gen != soak.mark() else 429 in codes and set(codes) <= {200, 429}
                soak.probe(what, ok, f"HTTP codes {sorted(set(codes))}, expected 200s then 429")
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException, ConnectionError) as e:
            soak.probe(what, None if gen != soak.mark() else False,
                       f"the connection failed: {e!r}")
        finally:
            for c in opened:
                await c.close()


async def _ignore(conn, text, msg):
    pass


def http_flood(port):
    codes = []
    for _ in range(40):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=5) as r:
                codes.append(r.status)
        except urllib.error.HTTPError as e:
            codes.append(e.code)
        except OSError:
            codes.append(0)
    return codes


# ---- Kills and samples -----------------------------------------------------------------------------


async def killer(soak, rng):
    """kill -9 of the server (on a cluster, of one node at random), and its restart on the same
    port shortly after (a cluster node under a new node id: the others take its tables over)."""
    loop = asyncio.get_event_loop()
    while True:
        await asyncio.sleep(rng.uniform(15, 35) * soak.args.kill_every_scale)
        # The last third of the run (at least 40 s) has no kill, so that one server run is long
        # enough to tell whether RSS and fds stay flat.
        if time.monotonic() >= soak.deadline - max(40, soak.args.minutes * 20):
            return
        node = rng.choice(soak.nodes)
        soak.kill_node(node)
        await asyncio.sleep(rng.uniform(0.1, 1.5))
        await loop.run_in_executor(None, soak.start_node, node)


async def sampler(soak):
    while not soak.stopping:
        await asyncio.sleep(1)
        for node in soak.nodes:
            run = node.run
            if not node.up or time.monotonic() - run["started"] < WARMUP_S:
                continue
            try:
                with open(f"/proc/{run['pid']}/status") as f:
                    rss = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
                fds = len(os.listdir(f"/proc/{run['pid']}/fd"))
            except (OSError, AttributeError):
                continue
            run["rss"].append(rss)
            run["fds"].append(fds)


# ---- Checks ----------------------------------------------------------------------------------------


def same_action(sent, stored):
    return all(stored.get(k) == v or (k == "card" and str(stored.get(k, "")).upper() == str(v).upper())
               for k, v in sent.items())


def store_rows(soak):
    """A function that runs a SELECT on the store the soak used and returns its rows as tuples:
    the SQLite file (read-only), or the cluster's PostgreSQL schema through psql."""
    if not soak.cluster:
        db = sqlite3.connect(f"file:{soak.db}?mode=ro", uri=True)
        return lambda sql: db.execute(sql).fetchall()

    def rows(sql):
        out = subprocess.run([PSQL, soak.db, "-qtAX", "-v", "ON_ERROR_STOP=1", "-c",
                              f"SELECT coalesce(json_agg(t), '[]') FROM ({sql}) t"],
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise SystemExit(f"soak: psql: {out.stderr.strip()}")
        return [tuple(r.values()) for r in json.loads(out.stdout)]
    return rows


def check_store(soak):
    """Reads the stored matches, actions and hands after the clean stop."""
    rows = store_rows(soak)
    matches = {}
    for mid, uid, variant, seed, rated, ended, s0, s1, winner, reason, rated_seq in rows(
            "SELECT id, uid, variant, match_seed, rated, ended_at, score0, score1, winner, end_reason, rated_seq "
            "FROM matches"):
        matches[uid] = {"id": mid, "variant": variant, "seed": seed, "rated": rated, "ended_at": ended,
                        "score": [s0, s1], "winner": winner, "reason": reason, "rated_seq": rated_seq,
                        "actions": {}, "hands": []}
    by_id = {m["id"]: m for m in matches.values()}
    # On SQLite a match's actions are in match_actions and, from its log_from on, in the
    # append-ordered log (rows below it were copied out already); PostgreSQL keeps them all in
    # match_actions.
    actions = "SELECT match_id, seq, seat, action FROM match_actions"
    if not soak.cluster:
        actions += (" UNION ALL SELECT l.match_id, l.seq, l.seat, l.action FROM action_log l "
                    "JOIN matches m ON m.id = l.match_id WHERE l.id >= m.log_from")
    for mid, seq, seat, action in rows(actions):
        if seq in by_id[mid]["actions"]:
            soak.fail(f"seq {seq} of the match stored as row {mid} is stored twice")
        by_id[mid]["actions"][seq] = (seat, json.loads(action))
    for mid, number, seed, revealed, first, last in rows(
            "SELECT match_id, number, seed, revealed, first_seq, last_seq FROM hands"):
        by_id[mid]["hands"].append({"number": number, "seed": seed.lower(), "revealed": revealed, "first": first,
                                    "last": last})
    for m in matches.values():
        m["hands"].sort(key=lambda h: h["number"])
    seats = {}
    for mid, seat, team, public_id in rows(
            "SELECT s.match_id, s.seat, s.team, p.public_id FROM match_seats s JOIN players p ON p.id = s.player_id"):
        seats.setdefault(mid, []).append((seat, team, public_id))
    ratings = {}
    for public_id, ladder, mu, sigma, n in rows(
            "SELECT p.public_id, r.ladder, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON p.id = r.player_id"):
        ratings.setdefault(public_id, []).append({"ladder": ladder, "mu": mu, "sigma": sigma, "matches": n})
    return matches, seats, ratings


def deal_of(match, seq):
    for h in reversed(match["hands"]):
        if seq >= h["first"]:
            return h["number"]
    return 0


def check_actions(soak, matches):
    """Every acknowledged action is stored exactly once, unless a kill came within the promise."""
    found = lost = 0
    for match_id, seq, seat, action, at in soak.acks:
        m = matches.get(match_id)
        stored = m["actions"].get(seq) if m else None
        if stored is None:
            if any(-READ_LAG_S <= k - at <= KILL_LOSS_WINDOW_S for k in soak.kills):
                lost += 1
                continue
            near = min((k - at for k in soak.kills), key=abs, default=None)
            when = f" (the nearest kill came {near:+.2f} s after it was read)" if near is not None else ""
            soak.fail(f"acknowledged action {action} by seat {seat} at seq {seq} of match {match_id} is not stored"
                      + when)
            continue
        if stored[0] != seat or action is None or not same_action(action, stored[1]):
            soak.fail(f"match {match_id} seq {seq}: acknowledged {action} by seat {seat}, stored {stored}")
            continue
        found += 1
    for uid, m in matches.items():
        plays = {}
        for seq, (seat, a) in sorted(m["actions"].items()):
            if a.get("type") == "play":
                key = (deal_of(m, seq), a["card"].upper())
                if key in plays:
                    soak.fail(f"match {uid}: {key[1]} played twice in deal {key[0]} (seqs {plays[key]} and {seq})")
                plays[key] = seq
    return found, lost


def check_finished(soak, matches, checker):
    """Each match a client saw finish is stored with that score, and `atout replay` agrees."""
    checked = 0
    for match_id, (score, at) in soak.finished.items():
        m = matches.get(match_id)
        if any(-READ_LAG_S <= k - at <= KILL_LOSS_WINDOW_S for k in soak.kills):
            # The last action may have been lost to the kill (documented): the match resumed one
            # action before its end, and its players, gone, may since have forfeited it.
            continue
        if m is None or m["ended_at"] is None:
            soak.fail(f"match {match_id} finished for its players but is not stored as ended")
            continue
        if m["score"] != score:
            soak.fail(f"match {match_id}: players saw {score}, stored {m['score']}")
        replay = soak.http_get(f"/api/matches/{match_id}/replay", checker.port)
        out = subprocess.run([soak.args.cli, "replay", "-"], input=json.dumps(replay), capture_output=True,
                             text=True)
        if out.returncode != 0:
            soak.fail(f"atout replay of {match_id} failed: {out.stderr.strip()}")
            continue
        result = json.loads(out.stdout)
        if not result["complete"] or result["match_score"] != m["score"] or result["winner"] != m["winner"]:
            soak.fail(f"atout replay of {match_id} gives {result['match_score']} (winner {result['winner']}), "
                      f"stored {m['score']} (winner {m['winner']})")
        if replay.get("match_score") != m["score"]:
            soak.fail(f"the replay of {match_id} says {replay.get('match_score')}, stored {m['score']}")
        checked += 1
    return checked


def openskill_rate(teams, ranks, mu0=25.0, beta=25.0 / 6.0, tau=25.0 / 300.0, epsilon=0.0001):
    """Weng-Lin Plackett-Luce, as store/src/rating.cpp computes it."""
    teams = [[(mu, (sigma * sigma + tau * tau) ** 0.5) for mu, sigma in team] for team in teams]
    n = len(teams)
    mus = [sum(r[0] for r in t) for t in teams]
    sig_sq = [sum(r[1] * r[1] for r in t) for t in teams]
    c_sq = sum(s + beta * beta for s in sig_sq)
    c = c_sq ** 0.5
    import math
    exp_mu = [math.exp(m / c) for m in mus]
    sum_q = [sum(exp_mu[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            quotient = exp_mu[i] / sum_q[q]
            omega += ((1.0 if i == q else 0.0) - quotient) / a[q]
            delta += quotient * (1 - quotient) / a[q]
        gamma = sig_sq[i] ** 0.5 / c
        team_omega = omega * sig_sq[i] / c
        team_delta = gamma * delta * sig_sq[i] / c_sq
        new = []
        for mu, sigma in teams[i]:
            share = sigma * sigma / sig_sq[i]
            new.append((mu + share * team_omega, sigma * max(1 - share * team_delta, epsilon) ** 0.5))
        out.append(new)
    return out


def check_ratings(soak, matches, seats, stored_ratings):
    """Recomputes every rating from the stored results, in the order the store wrote them (matches
    can end in the same millisecond, so the end times alone cannot say it)."""
    ratings = {}  # (player, ladder) -> (mu, sigma, matches)
    for uid, m in sorted(matches.items()):
        should = m["ended_at"] is not None and m["rated"] and m["reason"] != "aborted"
        if should != (m["rated_seq"] is not None):
            soak.fail(f"match {uid}: rated_seq {m['rated_seq']} for a match that "
                      f"{'changes' if should else 'changes no'} ratings")
    ended = sorted((m for m in matches.values() if m["rated_seq"] is not None), key=lambda m: m["rated_seq"])
    for m in ended:
        seated = sorted(seats.get(m["id"], []))
        teams = [[], []]
        for seat, team, player in seated:
            teams[team].append(ratings.get((player, m["variant"]), (25.0, 25.0 / 3.0, 0))[:2])
        ranks = [1, 1] if m["winner"] is None else [1 if m["winner"] == 0 else 2, 1 if m["winner"] == 1 else 2]
        new = openskill_rate(teams, ranks)
        nxt = [0, 0]
        # As the store writes them: one row per seat, each from the count read before the match (a
        # bot in several seats counts the match once, and its last seat's rating stands).
        counts = {player: ratings.get((player, m["variant"]), (0, 0, 0))[2] for _, _, player in seated}
        for seat, team, player in seated:
            mu, sigma = new[team][nxt[team]]
            nxt[team] += 1
            ratings[(player, m["variant"])] = (mu, sigma, counts[player] + 1)
    players = {p for _, _, p in (x for s in seats.values() for x in s)}
    checked = 0
    for player in sorted(players):
        got = {r["ladder"]: r for r in stored_ratings.get(player, [])}
        want = {ladder: v for (p, ladder), v in ratings.items() if p == player}
        if set(got) != set(want):
            soak.fail(f"player {player}: rated on {sorted(got)}, recomputed {sorted(want)}")
            continue
        for ladder, (mu, sigma, n) in want.items():
            r = got[ladder]
            if abs(r["mu"] - mu) > 1e-6 or abs(r["sigma"] - sigma) > 1e-6 or r["matches"] != n:
                soak.fail(f"player {player} on {ladder}: stored mu {r['mu']} sigma {r['sigma']} matches "
                          f"{r['matches']}, recomputed {mu} {sigma} {n}")
        checked += 1
    return checked


def check_hidden(soak, matches):
    """A card named to seat s must be in s's hand or public by then; to a spectator, public."""
    public = {}  # (match, deal) -> {card: seq it became public}
    for uid, m in matches.items():
        for seq, (seat, a) in m["actions"].items():
            if a.get("type") in ("play", "show"):
                cards = [a["card"]] if a["type"] == "play" else a.get("cards", [])
                d = deal_of(m, seq)
                for c in cards:
                    per = public.setdefault((uid, d), {})
                    per[c.upper()] = min(seq, per.get(c.upper(), seq))
    # Plays the clients saw that a kill took from the log were public when they were seen.
    for (uid, seq), (deal, card) in soak.seen_plays.items():
        m = matches.get(uid)
        if m is None or seq not in m["actions"]:
            per = public.setdefault((uid, deal), {})
            per[card] = min(seq, per.get(card, seq))
    # Turn-ups and shown declarations: taken from the events, so each is checked for consistency.
    for (uid, deal), ups in soak.turn_ups.items():
        if len(ups) != 1:
            soak.fail(f"match {uid} deal {deal}: the turn-up was reported as {sorted(ups)}")
        for c in ups:
            public.setdefault((uid, deal), {})[c] = 0
    holders = {}  # (match, deal, run, card) -> seats whose hand it was reported in
    for (uid, deal, run, seat), cards in soak.hands_seen.items():
        for c in cards:
            holders.setdefault((uid, deal, run, c), set()).add(seat)
    for (uid, deal, run, c), who in holders.items():
        if len(who) > 1:
            soak.fail(f"match {uid} deal {deal}: {c} was reported in the hands of seats {sorted(who)}")
    for uid, m in matches.items():
        for seq, (seat, a) in m["actions"].items():
            if a.get("type") == "play":
                who = holders.get((uid, deal_of(m, seq), seq >> 32, a["card"].upper()), set())
                if who - {seat}:
                    soak.fail(f"match {uid}: seat {seat} played {a['card']} at seq {seq}, "
                              f"which was reported in the hand of seat(s) {sorted(who - {seat})}")
    for (uid, deal, run, seat), cards in soak.declared.items():
        for c in cards:
            who = holders.get((uid, deal, run, c), set())
            if who - {seat}:
                soak.fail(f"match {uid} deal {deal}: seat {seat} showed {c}, reported in seats {sorted(who)}' hands")
            public.setdefault((uid, deal), {})[c] = 0
    leaks = 0
    for (uid, deal, recipient), named in soak.named.items():
        now = public.get((uid, deal), {})
        before = public.get((uid, deal - 1), {})
        for c, (seq, text) in named.items():
            if c in before or now.get(c, seq + 1) <= seq:
                continue
            leaks += 1
            if leaks <= 20:
                who = "a spectator" if recipient == "spec" else f"seat {recipient}"
                soak.fail(f"match {uid} deal {deal}: {who} was shown {c} at seq {seq}, neither its own nor public"
                          + (f": {text}" if text else ""))
    for line in soak.non_event_cards[:20]:
        soak.fail(f"a message that should name no card: {line}")


def check_log(soak, matches):
    """The server log holds no player token and no seed. No log line of the server formats a seed
    or a token (server/src, store/src: the only seeds written go to the database and, once
    revealed, to players), so the promise that holds is the stronger one: no seed at all, before
    or after its reveal. The server runs at log level debug, so every line it can write counts."""
    seeds = {}
    for uid, m in matches.items():
        if m["seed"]:
            seeds[m["seed"].lower()] = f"the match seed of {uid}"
        for h in m["hands"]:
            seeds[h["seed"]] = f"the seed of deal {h['number']} of match {uid}"
    # And each seed a player saw revealed is the stored seed of a deal.
    for seed, at in soak.seed_seen_at.items():
        # A deal seen to end just before a kill may be gone with its match (documented loss).
        if seed not in seeds and not any(-READ_LAG_S <= k - at <= KILL_LOSS_WINDOW_S for k in soak.kills):
            soak.fail(f"players were shown the deal seed {seed}, which no stored deal has")
    hex_run = re.compile(r"[0-9a-fA-F]{32,}")
    lines = 0
    for node in soak.nodes:
        with open(node.log_path, errors="replace") as f:
            for line in f:
                lines += 1
                for run in hex_run.findall(line):
                    run = run.lower()
                    if any(t in run for t in soak.tokens) if len(run) >= 64 else False:
                        soak.fail(f"the server log holds a player token: {line.strip()[:200]}")
                    for i in range(0, len(run) - 31):
                        if run[i:i + 32] in seeds:
                            soak.fail(f"the server log holds {seeds[run[i:i + 32]]}: {line.strip()[:200]}")
                            break
    return lines


def check_samples(soak):
    """RSS and fds stay flat once warm, in each server run long enough to tell."""
    for i, run in enumerate(soak.samples):
        rss, fds = run["rss"], run["fds"]
        if len(rss) < 30:
            continue
        i = f"{i + 1}" if not soak.cluster else f"{i + 1} (node {run['node']})"
        third = len(rss) // 3
        first_rss, last_rss = sorted(rss[:third])[third // 2], sorted(rss[-third:])[third // 2]
        first_fds, last_fds = sorted(fds[:third])[third // 2], sorted(fds[-third:])[third // 2]
        if last_rss > first_rss * RSS_GROWTH_FACTOR and last_rss - first_rss > RSS_GROWTH_LIMIT_KB:
            soak.fail(f"server run {i}: RSS grew from {first_rss} KiB to {last_rss} KiB once warm")
        # On a cluster the soak's connections move between nodes (redirects, kills), so one node may
        # gain up to all of them once: a leak grows past that.
        limit = FD_GROWTH_LIMIT + (5 * soak.args.tables + 2 * soak.args.bot_tables if soak.cluster else 0)
        if last_fds - first_fds > limit:
            soak.fail(f"server run {i}: open fds grew from {first_fds} to {last_fds} once warm")


# ---- Main ------------------------------------------------------------------------------------------


async def run(soak):
    loop = asyncio.get_event_loop()
    await loop.run_in_executor(None, soak.start_servers)
    soak.variants = {}
    for v in soak.http_get("/api/variants")["variants"]:
        info = {"players": v["players"]}
        for o in v["options"]:
            if o["name"] == "target":
                info["min_target"] = min(o["allowed"]) if o.get("allowed") else o.get("min")
        soak.variants[v["id"]] = info
    soak.live_tables = set()
    soak.deadline = time.monotonic() + soak.args.minutes * 60
    rng = soak.rng
    tasks = [asyncio.ensure_future(play_table(soak, random.Random(rng.random()), i)) for i in range(soak.args.tables)]
    tasks += [asyncio.ensure_future(play_bots(soak, random.Random(rng.random()), i)) for i in range(soak.args.bot_tables)]
    tasks.append(asyncio.ensure_future(abuse(soak, random.Random(rng.random()))))
    side = [asyncio.ensure_future(sampler(soak))]
    if soak.args.kill_every_scale > 0:
        side.append(asyncio.ensure_future(killer(soak, random.Random(rng.random()))))
    while time.monotonic() < soak.deadline:
        await asyncio.sleep(0.5)
        dead = [n for n in soak.nodes if n.up and n.proc.poll() is not None]
        if dead:
            soak.fail(f"node {dead[0].slot} died by itself with status {dead[0].proc.returncode} "
                      f"(see {dead[0].log_path})")
            break
    soak.stopping = True
    for t in side:
        t.cancel()
    done, pending = await asyncio.wait(tasks, timeout=30)
    for t in pending:
        t.cancel()
    for t in done:
        if t.exception():
            soak.fail(f"soak task failed: {t.exception()!r}")


def start_redis(work):
    port = free_port()
    proc = subprocess.Popen([REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--dir", work, "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
                c.sendall(b"PING\r\n")
                if c.recv(64).startswith(b"+PONG"):
                    return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"soak: {REDIS_SERVER} did not start on port {port}")


def psql(url, sql):
    out = subprocess.run([PSQL, url, "-qtAX", "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True,
                         timeout=60)
    if out.returncode != 0:
        raise SystemExit(f"soak: psql: {sql}: {out.stderr.strip()}")


def set_up_cluster(soak):
    """Redis on a free loopback port, and a PostgreSQL schema of the soak's own on the database
    the nodes share (the nodes make its tables, as on any new database)."""
    soak.redis, soak.redis_port = start_redis(soak.work)
    soak.schema = f"soak_{os.getpid()}_{int(time.time())}"
    psql(soak.args.pg_url, f"CREATE SCHEMA {soak.schema}")
    url = soak.args.pg_url
    soak.db = url + ("&" if "?" in url else "?") + "options=-csearch_path%3D" + soak.schema


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--minutes", type=float, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tables", type=int, default=6, help="groups of scripted players")
    ap.add_argument("--bot-tables", type=int, default=3, help="players against server bots")
    ap.add_argument("--kill-every-scale", type=float, default=1.0, help="0: no kill -9")
    ap.add_argument("--keep-texts", action="store_true", help="quote the message in each hidden-card failure")
    ap.add_argument("--work", help="directory for the database and the log (default: a new temp dir)")
    ap.add_argument("--cluster", type=int, default=0, metavar="N",
                    help="N nodes on PostgreSQL (--pg-url) and a Redis the soak starts, instead of one server")
    ap.add_argument("--pg-url", default=os.environ.get("ATOUT_TEST_PG_URL"),
                    help="with --cluster: the database (default: $ATOUT_TEST_PG_URL, as "
                         "scripts/pg_test_server.sh start prints it)")
    args = ap.parse_args()
    if args.cluster and not args.pg_url:
        raise SystemExit("soak: --cluster needs a PostgreSQL database: --pg-url or ATOUT_TEST_PG_URL")
    own_work = not args.work
    args.work = args.work or tempfile.mkdtemp(prefix="atout-soak-")
    os.makedirs(args.work, exist_ok=True)
    soak = Soak(args)
    if soak.cluster:
        set_up_cluster(soak)
    try:
        passed = soak_and_check(soak)
    finally:
        if soak.redis:
            soak.redis.kill()
            soak.redis.wait()
    if not passed:
        sys.exit(1)
    if soak.cluster:
        psql(args.pg_url, f"DROP SCHEMA {soak.schema} CASCADE")
    if own_work:
        shutil.rmtree(args.work, ignore_errors=True)  # kept when a check failed, for a post-mortem


def soak_and_check(soak):
    args = soak.args
    started = time.monotonic()
    try:
        asyncio.run(run(soak))
    finally:
        if any(n.proc and n.proc.poll() is None for n in soak.nodes):
            soak.stop_servers()
    minutes = (time.monotonic() - started) / 60
    # The store as the clean stop left it. Replays are read over HTTP from a server that then
    # rebuilds the unfinished matches and plays their absent seats, which must not change what is
    # checked here: so it runs on a copy made by `atout backup`, or, for a cluster, after the store
    # was read (a lone node on the same PostgreSQL schema, without Redis).
    matches, seats, stored_ratings = check_store(soak)
    found, lost = check_actions(soak, matches)
    rated = check_ratings(soak, matches, seats, stored_ratings)
    if not soak.cluster:
        copy = os.path.join(soak.work, "check.db")
        backup = subprocess.run([args.cli, "backup", "--db", soak.db, "--to", copy], capture_output=True, text=True)
        if backup.returncode != 0:
            raise SystemExit(f"soak: atout backup failed: {backup.stderr.strip()}")
        soak.db = copy
    checker = Node(soak.work, len(soak.nodes), 0, "check.log") if soak.cluster else soak.nodes[0]
    soak.start_node(checker, ["--http-burst", "100000", "--http-rate", "100000"], lone=True)
    if checker not in soak.nodes:
        soak.nodes.append(checker)  # its log is checked with the others'
    try:
        replayed = check_finished(soak, matches, checker)
    finally:
        soak.stop_servers()
    check_hidden(soak, matches)
    log_lines = check_log(soak, matches)
    check_samples(soak)
    print(f"soak: {minutes:.1f} min, seed {args.seed}, work dir {args.work}"
          + (f", {args.cluster} nodes on PostgreSQL and Redis" if soak.cluster else ""))
    print(f"  matches finished (seen by players): {len(soak.finished)}; replayed and checked: {replayed}")
    print(f"  matches stored: {len(matches)}; players' ratings recomputed: {rated}")
    print(f"  kill -9 survived: {len(soak.kills)}; server runs: {soak.generation - 1}")
    if soak.cluster:
        waits = sorted(soak.resumes)
        print(f"  redirects followed: {soak.redirects}")
        if waits:
            print(f"  seats resumed: {len(waits)}; seconds from the lost connection to the seat taken back "
                  f"(a table taken over included): median {waits[len(waits) // 2]:.2f}, max {waits[-1]:.2f}")
    print(f"  actions acknowledged: {len(soak.acks)}; found stored once: {found}; "
          f"lost within {KILL_LOSS_WINDOW_S:.0f} s before a kill (documented): {lost}")
    print(f"  messages checked for hidden cards: {soak.messages_checked}; log lines checked: {log_lines}; "
          f"tokens: {len(soak.tokens)}")
    for node in soak.nodes:
        runs = [r for r in soak.samples if r["rss"] and r["node"] == node.slot]
        if runs:
            first, last = runs[0], runs[-1]
            print(f"  {'node ' + str(node.slot) if soak.cluster else 'server'}: RSS KiB start {first['rss'][0]}, "
                  f"end {last['rss'][-1]}; fds start {first['fds'][0]}, end {last['fds'][-1]}")
    print("  probes (passed/skipped for a kill): " +
          ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(soak.probes.items())))
    if soak.failures:
        print(f"soak: FAILED, {len(soak.failures)} problem(s):")
        for f in soak.failures:
            print("  - " + f)
        return False
    print("soak: all checks passed")
    return True


if __name__ == "__main__":
    main()
