#!/usr/bin/python3
"""A minimal Atout bot: connects, joins a table and plays legal actions until the match ends.

Written against Debian's python3-websockets (10.x); run it with Debian's own /usr/bin/python3.

    bot.py --url ws://127.0.0.1:8080/ws --variant french          # join a waiting table, or create one
    bot.py --url ws://127.0.0.1:8080/ws --create duel             # create a table, print its id, sit
    bot.py --url ws://127.0.0.1:8080/ws --table t7 [--seat 2]     # sit at a given table
    bot.py ... --ack event                                        # no `accepted` replies to actions

It picks uniformly among the actions the server lists in its observation's `legal` field, so it
plays any variant the server offers without knowing its rules. Exit status: 0 when the match ended,
1 on an error reply or a dropped connection.
"""
import argparse
import asyncio
import json
import random
import sys

import websockets


class Bot:
    def __init__(self, ws, name, rng):
        self.ws = ws
        self.name = name
        self.rng = rng
        self.next_id = 1

    async def request(self, message):
        """Sends a request and returns its reply; events that arrive meanwhile are kept."""
        message["id"] = self.next_id
        self.next_id += 1
        await self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(await self.ws.recv())
            if reply.get("id") == message["id"]:
                if reply["type"] == "error":
                    raise RuntimeError(f"{message['type']}: {reply['code']}: {reply['message']}")
                return reply
            self.pending.append(reply)

    async def run(self, args):
        self.pending = []
        welcome = await self.request({"type": "hello", "protocol": 1, "name": self.name, "ack": args.ack})
        log(f"{self.name} is {welcome['player_id']}")

        table_id = args.table
        if args.create:
            created = await self.request({"type": "create_table", "variant": args.create})
            table_id = created["table"]["table_id"]
            print(table_id, flush=True)  # for whoever starts the other bots
        elif not table_id:
            table_id = await self.find_or_create(args.variant)
        sit = {"type": "sit", "table_id": table_id}
        if args.seat is not None:
            sit["seat"] = args.seat
        seated = await self.request(sit)
        seat = seated["seat"]
        log(f"{self.name} sits at {table_id}, seat {seat}")

        while True:
            message = self.pending.pop(0) if self.pending else json.loads(await self.ws.recv())
            kind = message["type"]
            if kind == "error":
                raise RuntimeError(f"{message['code']}: {message['message']}")
            if kind != "event" or message["table_id"] != table_id:
                continue
            if "hand_result" in message:
                result = message["hand_result"]
                log(f"{self.name}: deal {result['deal_number']} {result['outcome']}, score {result['match_score']}")
            if "match_result" in message:
                result = message["match_result"]
                won = result["winner"] == seat % 2
                log(f"{self.name}: match over, team {result['winner']} wins {result['match_score']}"
                    f" ({'won' if won else 'lost'})")
                return
            legal = message["observation"]["legal"]
            if legal:
                action = self.rng.choice(legal)
                reply = await self.request({"type": "action", "table_id": table_id, "action": action})
                # With ack "reply" the reply is `accepted`, and the event that follows is the news.
                # With ack "event" the event the action produced is the reply: it carries our id.
                if args.ack == "event":
                    if reply["type"] != "event":
                        raise RuntimeError(f"ack event: the action was answered by {reply['type']}")
                    self.pending.insert(0, reply)

    async def find_or_create(self, variant):
        tables = await self.request({"type": "list_tables"})
        for table in tables["tables"]:
            if table["variant"] == variant and table["status"] == "waiting" and table["free_seats"] > 0:
                return table["table_id"]
        created = await self.request({"type": "create_table", "variant": variant})
        return created["table"]["table_id"]


def log(text):
    print(text, file=sys.stderr, flush=True)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="ws://127.0.0.1:8080/ws")
    parser.add_argument("--name", default="py-bot")
    parser.add_argument("--variant", default="french", help="join or create a table of this variant")
    parser.add_argument("--create", metavar="VARIANT", help="create a table of VARIANT and print its id")
    parser.add_argument("--table", help="sit at this table id")
    parser.add_argument("--seat", type=int, help="this seat (default: any free seat)")
    parser.add_argument("--seed", type=int, help="seed for the bot's own choices")
    parser.add_argument("--ack", choices=["reply", "event"], default="reply",
                        help="how the server acknowledges our actions (docs/protocol.md, hello)")
    args = parser.parse_args()
    async with websockets.connect(args.url, max_size=2**22) as ws:
        await Bot(ws, args.name, random.Random(args.seed)).run(args)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except (RuntimeError, OSError, websockets.exceptions.WebSocketException) as e:
        log(f"bot: {e}")
        sys.exit(1)
