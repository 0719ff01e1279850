#!/usr/bin/python3
"""A minimal Atout bot: connects, joins a table and plays legal actions until the match ends.

Written against Debian's python3-websockets (10.x); run it with Debian's own /usr/bin/python3.

    bot.py --url ws://127.0.0.1:8080/ws --variant french          # join a waiting table, or create one
    bot.py --url ws://127.0.0.1:8080/ws --create duel             # create a table, print its id, sit
    bot.py --url ws://127.0.0.1:8080/ws --table t7 [--seat 2]     # sit at a given table
    bot.py --url ws://127.0.0.1:8080/ws --create belot --against rules  # play three server bots
    bot.py ... --ack event                                        # no `accepted` replies to actions
    bot.py ... --drop-after 20                                    # leave once, then resume
    bot.py --url wss://game.example.org/ws --create duel          # a server with TLS (--cafile: a private CA)
    bot.py --url ws://a:8080/ws --also ws://b:8080/ws --table t7  # several nodes: follow redirects, fail over

With several nodes (docs/operations.md, "Several nodes"), a request for a table that another node
runs is answered with `redirect`: the bot reconnects to the `url` it names, with its token, and
asks again. When its connection drops or its node stops, or its node refuses its action with
`unknown_table` (a node that lost touch with the others), it reconnects to the next of --url and
--also and resumes; while the table is being taken over by another node it retries for a while.

It picks uniformly among the actions the server lists in its observation's `legal` field, so it
plays any variant the server offers without knowing its rules. It keeps its token and the seq of
the last event it handled, so that it can resume its seat after a drop. Exit status: 0 when the
match ended, 1 on an error reply or a dropped connection.
"""
import argparse
import asyncio
import json
import random
import ssl
import sys

import websockets


class Redirected(Exception):
    """The server sent us to another node for a table."""

    def __init__(self, url):
        super().__init__(f"redirected to {url}")
        self.url = url


class Refused(RuntimeError):
    """The server answered a request with an error."""

    def __init__(self, request_type, reply):
        super().__init__(f"{request_type}: {reply['code']}: {reply['message']}")
        self.code = reply["code"]


RETRY_SECONDS = 30  # how long a resume waits for a table that another node is taking over


class Bot:
    def __init__(self, url, name, rng, ack, cafile=None, also=()):
        self.url = url
        self.urls = [url] + [u for u in also if u != url]  # where to go when a node goes away
        # wss://: the system's certificate authorities, or only the one in `cafile`.
        self.cafile = cafile
        self.ssl = ssl.create_default_context(cafile=cafile) if url.startswith("wss://") else None
        self.name = name
        self.rng = rng
        self.ack = ack
        self.ws = None
        self.next_id = 1
        self.pending = []
        self.token = None
        self.table_id = None
        self.last_seq = None  # the seq of the last event of our table that we handled

    async def request(self, message):
        """Sends a request and returns its reply; events that arrive meanwhile are kept."""
        message["id"] = self.next_id
        self.next_id += 1
        await self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(await self.ws.recv())
            if reply.get("id") == message["id"]:
                if reply["type"] == "redirect":
                    raise Redirected(reply["url"])
                if reply["type"] == "error":
                    raise Refused(message["type"], reply)
                return reply
            self.pending.append(reply)

    async def next_of(self, kind):
        """The next message of `kind` (kept ones first); the others stay kept, in order."""
        for i, message in enumerate(self.pending):
            if message["type"] == kind:
                return self.pending.pop(i)
        while True:
            message = json.loads(await self.ws.recv())
            if message["type"] == kind:
                return message
            self.pending.append(message)

    async def connect(self):
        """Opens the connection and says hello: with our token and where we were, after a drop."""
        self.ws = await websockets.connect(self.url, max_size=2**22, ssl=self.ssl)
        self.pending = []
        hello = {"type": "hello", "protocol": 1, "name": self.name, "ack": self.ack}
        if self.token:
            hello["token"] = self.token
            if self.table_id and self.last_seq is not None:
                # The server sends what we missed (each marked "replayed"; only the current event
                # keeps its legal list), then leaves us on the current view.
                hello["resume"] = [{"table_id": self.table_id, "last_seq": self.last_seq}]
        welcome = await self.request(hello)
        self.token = welcome["token"]
        return welcome

    async def move_to(self, url):
        """Leaves this node for `url` (a redirect, or the next node after a drop) and resumes."""
        if self.ws is not None:
            await self.ws.close()
        self.url = url
        self.ssl = ssl.create_default_context(cafile=self.cafile) if url.startswith("wss://") else None
        welcome = await self.connect()
        log(f"{self.name} is at {url} ({welcome['player_id']})")

    async def reconnect(self):
        """After a drop: the nodes in turn until one answers, and resume there."""
        deadline = asyncio.get_running_loop().time() + RETRY_SECONDS
        start = self.urls.index(self.url) if self.url in self.urls else 0
        attempt = 0
        while True:
            url = self.urls[(start + attempt) % len(self.urls)]
            attempt += 1
            try:
                await self.move_to(url)
                return
            except (OSError, websockets.exceptions.WebSocketException):
                if asyncio.get_running_loop().time() > deadline:
                    raise
                await asyncio.sleep(0.2)

    async def retry_elsewhere(self, table_id, retry_until):
        """Waits a little, then resumes at the next node; gives up after RETRY_SECONDS."""
        now = asyncio.get_running_loop().time()
        retry_until = retry_until or now + RETRY_SECONDS
        if now > retry_until:
            raise RuntimeError(f"{table_id} was not taken over within {RETRY_SECONDS} s")
        await asyncio.sleep(0.3)
        if self.url in self.urls:
            self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
        await self.reconnect()
        return retry_until

    async def sit(self, sit):
        """Sends `sit`, following redirects to the node that runs the table."""
        for _ in range(5):
            try:
                return await self.request(dict(sit))
            except Redirected as r:
                log(f"{self.name}: {sit['table_id']} is at {r.url}")
                await self.move_to(r.url)
        raise RuntimeError("sit: too many redirects")

    async def run(self, args):
        welcome = await self.connect()
        log(f"{self.name} is {welcome['player_id']}")

        table_id = args.table
        if args.create and args.against:
            # The server's bots take every other seat and the server sits us: one request.
            created = await self.request(
                {"type": "create_table", "variant": args.create, "bots": {"level": args.against}})
            table_id = created["table"]["table_id"]
            print(table_id, flush=True)
            seated = await self.next_of("seated")
        else:
            if args.create:
                created = await self.request({"type": "create_table", "variant": args.create})
                table_id = created["table"]["table_id"]
                print(table_id, flush=True)  # for whoever starts the other bots
            elif not table_id:
                table_id = await self.find_or_create(args.variant)
            sit = {"type": "sit", "table_id": table_id}
            if args.seat is not None:
                sit["seat"] = args.seat
            seated = await self.sit(sit)
        seat = seated["seat"]
        self.table_id = table_id
        log(f"{self.name} sits at {table_id}, seat {seat}")

        handled = 0
        drops_left = 1 if args.drop_after else 0
        retry_until = None  # while resuming a table that another node is taking over
        while True:
            if drops_left and handled == args.drop_after:
                # Testing the way back: leave for a while (the server plays our turns meanwhile),
                # then resume where we were.
                drops_left -= 1
                await self.ws.close()
                await asyncio.sleep(args.away_ms / 1000)
                await self.connect()
                log(f"{self.name} resumed {table_id} after seq {self.last_seq}")
            try:
                message = self.pending.pop(0) if self.pending else json.loads(await self.ws.recv())
            except websockets.exceptions.ConnectionClosed:
                if len(self.urls) < 2:
                    raise
                # The node stopped (or was stopped): another one runs the table, or soon will.
                log(f"{self.name}: connection to {self.url} lost; reconnecting")
                await self.reconnect()
                continue
            kind = message["type"]
            if kind == "goodbye" and len(self.urls) > 1:
                continue  # the close follows; reconnect then
            if kind == "redirect" and message.get("table_id") == table_id:
                # Our resume reached a node that does not run the table: go to the one that does.
                log(f"{self.name}: {table_id} is at {message['url']}")
                try:
                    await self.move_to(message["url"])
                except (OSError, websockets.exceptions.WebSocketException):
                    # That node has just gone; its lease has not run out yet.
                    retry_until = await self.retry_elsewhere(table_id, retry_until)
                continue
            if kind == "error" and message.get("code") == "unknown_table" and len(self.urls) > 1:
                # The table's node is gone and no node has taken it over yet: try again shortly.
                retry_until = await self.retry_elsewhere(table_id, retry_until)
                continue
            if kind == "error":
                raise RuntimeError(f"{message['code']}: {message['message']}")
            if kind != "event" or message["table_id"] != table_id:
                continue
            self.last_seq = message["seq"]
            retry_until = None
            handled += 1
            if "hand_result" in message:
                result = message["hand_result"]
                log(f"{self.name}: deal {result['deal_number']} {result['outcome']}, score {result['match_score']}")
            if "match_result" in message:
                result = message["match_result"]
                won = result["winner"] == seat % 2
                log(f"{self.name}: match over, team {result['winner']} wins {result['match_score']}"
                    f" ({'won' if won else 'lost'})")
                # Leaving frees the seat now; a connection that just closed would keep it held
                # for a while, in case the end had not reached it.
                try:
                    await self.request({"type": "leave", "table_id": table_id})
                except (Refused, Redirected, websockets.exceptions.ConnectionClosed) as e:
                    log(f"{self.name}: leave: {e}")
                return
            # A non-empty legal list means it is our turn now; a replayed event whose turn is over
            # has none, so the bot never acts on a turn that is gone.
            legal = message["observation"]["legal"]
            if legal:
                if args.think_ms:
                    await asyncio.sleep(args.think_ms / 1000)
                action = self.rng.choice(legal)
                try:
                    reply = await self.request({"type": "action", "table_id": table_id, "action": action})
                except Redirected as r:  # the table moved while we were away: resume there
                    await self.move_to(r.url)
                    continue
                except Refused as e:
                    # The node has lost touch with the others and may no longer run the table;
                    # another node takes it over shortly: resume there.
                    if e.code != "unknown_table" or len(self.urls) < 2:
                        raise
                    retry_until = await self.retry_elsewhere(table_id, retry_until)
                    continue
                except websockets.exceptions.ConnectionClosed:
                    if len(self.urls) < 2:
                        raise
                    await self.reconnect()
                    continue
                # With ack "reply" the reply is `accepted`, and the event that follows is the news.
                # With ack "event" the event the action produced is the reply: it carries our id.
                if self.ack == "event":
                    if reply["type"] != "event":
                        raise RuntimeError(f"ack event: the action was answered by {reply['type']}")
                    self.pending.insert(0, reply)

    async def find_or_create(self, variant):
        # The server filters and pages the lobby: ask only for tables one could sit at.
        tables = await self.request(
            {"type": "list_tables", "variant": variant, "status": "waiting", "min_free": 1, "limit": 10})
        for table in tables["tables"]:
            if table["variant"] == variant and table["status"] == "waiting" and table["free_seats"] > 0:
                return table["table_id"]
        created = await self.request({"type": "create_table", "variant": variant})
        return created["table"]["table_id"]


def log(text):
    print(text, file=sys.stderr, flush=True)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="ws://127.0.0.1:8080/ws",
                        help="ws://host:port/ws, or wss://host:port/ws for a server with TLS")
    parser.add_argument("--also", action="append", default=[], metavar="URL",
                        help="another node of the same cluster, to reconnect to if --url's goes away (repeatable)")
    parser.add_argument("--cafile", help="with wss://: trust only the certificate authority in this PEM file")
    parser.add_argument("--name", default="py-bot")
    parser.add_argument("--variant", default="french", help="join or create a table of this variant")
    parser.add_argument("--create", metavar="VARIANT", help="create a table of VARIANT and print its id")
    parser.add_argument("--table", help="sit at this table id")
    parser.add_argument("--seat", type=int, help="this seat (default: any free seat)")
    parser.add_argument("--against", choices=["random", "rules", "sampling"],
                        help="with --create: the server's bots of this level take the other seats")
    parser.add_argument("--seed", type=int, help="seed for the bot's own choices")
    parser.add_argument("--ack", choices=["reply", "event"], default="reply",
                        help="how the server acknowledges our actions (docs/protocol.md, hello)")
    parser.add_argument("--drop-after", type=int, default=0, metavar="N",
                        help="close the connection once after N events, then resume (a test of resuming)")
    parser.add_argument("--away-ms", type=int, default=2500,
                        help="with --drop-after, how long to stay away before resuming")
    parser.add_argument("--think-ms", type=int, default=0, metavar="N",
                        help="wait N ms before each action: a person's pace rather than a program's")
    args = parser.parse_args()
    bot = Bot(args.url, args.name, random.Random(args.seed), args.ack, args.cafile, args.also)
    try:
        await bot.run(args)
    finally:
        if bot.ws is not None:
            await bot.ws.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except (RuntimeError, OSError, websockets.exceptions.WebSocketException) as e:
        log(f"bot: {e}")
        sys.exit(1)
