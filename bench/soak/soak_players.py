"""The soak's clients: a WebSocket connection that records every message, scripted players that
play, drop, resume and check what they are sent, and the tables they play (with each other or
against server bots)."""

import asyncio
import json
import random
import time

import websockets

from soak_common import REQUEST_IDS, TAKEOVER_LIMIT_S


async def close_quietly(ws):
    """Closes a client WebSocket. When the server has gone first (killed, say) while the close frame
    is being written, websockets raises ConnectionClosedError from close() itself; the connection is
    closed all the same, which is all the caller asked for."""
    try:
        await ws.close()
    except websockets.ConnectionClosed:
        pass


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
        self.closed_here = False  # the soak itself began closing it (a drop, a move, a redirect)
        self.closed_at = None  # time.monotonic() when it was seen closed
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
            self.closed_at = time.monotonic()
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
            if not self.closed.is_set():
                self.closed_here = True
            await close_quietly(self.ws)


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
        self.url = None  # the node of the current connection
        self.last_event_wall = None  # wall time of the last event of its table this player read
        self.let_go_at = None  # wall time this player dropped or replaced its connection, until it resumes

    def recipient(self):
        return "spec" if self.spectator else self.seat

    async def connect(self, resume=None, url=None):
        conn = Conn(self.soak, self.on_message, self.recipient)
        await conn.open(url)
        host, port = conn.ws.remote_address[:2]
        self.url = f"ws://{host}:{port}/ws"
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
        self.last_event_wall = time.time()
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
        """After a lost connection: reconnect until a node answers, and take the seat back. A player
        that read its match's end meanwhile (while closing the connection it dropped, say) has no
        seat to take back: the table may already have closed."""
        lost_at = time.monotonic()
        lost_wall = time.time()
        lost_story = self.lost_story(lost_wall)
        let_go, self.let_go_at = self.let_go_at, None
        troubles = []  # what each attempt met, with its second since the loss, for a failure's message
        while not self.soak.stopping and not self.done.is_set():
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
                    answer = await self.entry_answer(15)
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
                    troubles.append(f"{time.monotonic() - lost_at:.1f} s, {url or 'any node'}: {kind} "
                                    f"{answer.get('code', answer.get('url'))}")
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
                            # Judged once the store is read (check_lost_tables): a match that had
                            # ended before the kill that cut this player off, or before the player
                            # let go of its connection, is no failure.
                            self.soak.lost_tables.append((
                                self.table_id, lost_wall, let_go,
                                f"table {self.table_id} was unknown on every node {TAKEOVER_LIMIT_S:.0f} s "
                                f"after {self.name} lost it ({lost_story}); what each attempt met "
                                f"({len(troubles)}, the last 40): {troubles[-40:]}"))
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
                troubles.append(f"{time.monotonic() - lost_at:.1f} s, {url or 'any node'}: {e!r}"[:160])
                if self.conn:
                    await self.conn.close()  # a request that timed out leaves its connection open
                await asyncio.sleep(0.2)

    def lost_story(self, lost_wall):
        """Where this player was when it lost its connection, and the kills around then, for a
        failure's message (times in seconds relative to the loss)."""
        seen = "no event" if self.last_event_wall is None else \
            f"last event seq {self.last_seq} at {self.last_event_wall - lost_wall:+.1f} s"
        kills = [f"{k - lost_wall:+.1f} s ({url})" for k, url in zip(self.soak.kills, self.soak.killed_urls)
                 if abs(k - lost_wall) < 60]
        return f"connected to {self.url}, {seen}; kills within a minute: {kills or 'none'}"

    async def entry_answer(self, timeout):
        """The answer to hello's resume entry; ConnectionError at once if the connection closes
        first (its node was killed, say), rather than the whole timeout later."""
        conn = self.conn
        closed = asyncio.ensure_future(conn.closed.wait())
        try:
            await asyncio.wait({self.entry, closed}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closed.cancel()
        if self.entry.done():
            return self.entry.result()
        if conn.closed.is_set():
            raise ConnectionError("the connection closed before hello's resume entry was answered")
        raise asyncio.TimeoutError()

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
        if not old.closed.is_set():  # already lost (a kill, say): the player did not let it go
            self.let_go_at = time.time()
        await old.close()
        await self.resume()

    async def second_connection(self):
        """A second hello with the same token (on a cluster, maybe on another node): the old
        connection gets goodbye and 4001."""
        old = self.conn
        gen = self.soak.mark()
        if not old.closed.is_set():
            self.let_go_at = time.time()
        began = time.monotonic()
        await self.connect()
        welcomed = time.monotonic()
        try:
            await asyncio.wait_for(old.closed.wait(), 12)
        except asyncio.TimeoutError:
            pass
        if gen is None or gen != self.soak.mark():
            self.soak.probe("second_connection", None)
        else:
            ok = (old.goodbye or {}).get("reason") == "replaced" and old.close_code == 4001
            self.soak.probe("second_connection", ok,
                            f"old connection got {old.goodbye} and close code {old.close_code}, not replaced/4001 "
                            f"(closed {old.closed_at - began if old.closed_at else float('nan'):+.2f} s after the "
                            f"second hello began, welcomed at {welcomed - began:+.2f} s; the soak itself began "
                            f"closing it: {old.closed_here})")
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
        else:
            self.let_go_at = None  # seated again on this connection: nothing to resume


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
