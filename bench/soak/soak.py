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
soak_checks.py); it prints a summary and exits 1 with one line per failed check.

With --cluster N, the same runs against N nodes that share a PostgreSQL database (a schema of the
soak's own, dropped when every check passed) and a Redis the soak starts. Each player connects to
a node at random and follows `redirect` to the node that runs its table; each kill -9 takes one
node, whose tables another node takes over, and the node comes back under a new node id.

Written in Python with Debian's python3-websockets (as examples/python-bot is), because the checks
need a free hand with sockets (raw frames that break the protocol), processes (kill -9, /proc)
and the store's data, and no C++ rebuild when a check changes. Debian's /usr/bin/python3.
"""
import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from soak_abuse import abuse
from soak_checks import (check_actions, check_finished, check_hidden, check_log, check_ratings, check_samples,
                         check_store)
from soak_common import (END_HELD_S, KILL_LOSS_WINDOW_S, LEASE_MS, PSQL, READ_LAG_S, REDIS_SERVER, WARMUP_S,
                         cards_in, free_port)
from soak_players import play_bots, play_table


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
        self.killed_urls = []  # the URL of the node each kill took, in the same order
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
        # On a cluster: (table id, wall time of the loss, wall time the player let go of its
        # connection or None, failure) of each table a player could not find again; a failure
        # unless its match had ended first (check_lost_tables).
        self.lost_tables = []
        self.ended_unseen = 0  # such tables whose match had ended (the player missed the end)
        self.left_at_end = 0  # such tables whose match had ended before their player let go of it

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
        self.killed_urls.append(node.url)

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
        # A side task that failed (say, a restart after a kill that could not start the server)
        # would otherwise leave its node down without a word.
        if t.done() and not t.cancelled() and t.exception():
            soak.fail(f"soak task failed: {t.exception()!r}")
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


def check_lost_tables(soak, matches):
    """A table that no node would give back to a player is a failure, unless its match had ended
    - before the player lost its connection to a kill: the end's message was still on its way (or
      unread) when the node died, and an ended match has nothing to take over;
    - or well before the player itself let go of its connection (dropped it, or replaced it by
      another): the player was there at the end, so the table held no seat for it, and closed once
      it left. A connection let go just after the end keeps its seat: losing that table fails.
    Such tables are counted; the others fail."""
    kept = []
    for table_id, lost_wall, let_go, failure in soak.lost_tables:
        ended = [m["ended_at"] / 1000 for m in matches.values() if m["table_id"] == table_id and m["ended_at"]]
        cut_by_kill = any(abs(lost_wall - k) <= READ_LAG_S for k in soak.kills)
        if cut_by_kill and ended and max(ended) <= lost_wall:
            soak.ended_unseen += 1
            continue
        if let_go is not None and ended and max(ended) <= let_go - END_HELD_S:
            soak.left_at_end += 1
            continue
        if ended:
            failure += f"; its match ended {max(ended) - lost_wall:+.1f} s from the loss"
        soak.fail(failure)
        kept.append((table_id, lost_wall, let_go, failure))
    soak.lost_tables = kept


def lost_table_story(soak, matches, table_id, lines=40):
    """For a post-mortem of a table no node would take back (the work dir is gone on a CI
    machine): its matches as stored, and the last log lines of every node that name it."""
    out = [f"== table {table_id}, as stored:"]
    for uid, m in matches.items():
        if m["table_id"] == table_id:
            out.append(f"   match {uid}: {len(m['actions'])} actions, {len(m['hands'])} hands, ended_at "
                       f"{m['ended_at']}, reason {m['reason']}")
    if len(out) == 1:
        out.append("   no match")
    out.append(f"== table {table_id}, in the nodes' logs (the last {lines} lines naming it):")
    names = re.compile(r"\b" + re.escape(table_id) + r"\b")
    named = []
    for node in soak.nodes:
        with open(node.log_path, errors="replace") as f:
            named += [f"   {os.path.basename(node.log_path)}: {line.strip()[:300]}" for line in f if names.search(line)]
    out += named[-lines:] or ["   none"]
    return "\n".join(out)


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
    check_lost_tables(soak, matches)
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
        print(f"  redirects followed: {soak.redirects}; tables whose end a kill kept from a player "
              f"(documented): {soak.ended_unseen}; tables left by their player as the match ended: "
              f"{soak.left_at_end}")
        if waits:
            print(f"  seats resumed: {len(waits)}; seconds from the lost connection to the seat taken back "
                  f"(a table taken over included): median {waits[len(waits) // 2]:.2f}, max {waits[-1]:.2f}")
    print(f"  actions acknowledged: {len(soak.acks)}; found stored once: {found}; "
          f"lost within {KILL_LOSS_WINDOW_S:.0f} s before a kill (documented): {lost}"
          + (f"; refused to a node that had lost its table (documented): {soak.fenced_actions}"
             if soak.cluster else ""))
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
        for table_id, _, _, _ in soak.lost_tables[:3]:
            print(lost_table_story(soak, matches, table_id))
        return False
    print("soak: all checks passed")
    return True


if __name__ == "__main__":
    main()
