#!/usr/bin/env node
// A minimal Atout bot: connects, joins a table and plays legal actions until the match ends.
//
//   node bot.mjs --url ws://127.0.0.1:8080/ws --variant french          # join a waiting table, or create one
//   node bot.mjs --url ws://127.0.0.1:8080/ws --create duel             # create a table, print its id, sit
//   node bot.mjs --url ws://127.0.0.1:8080/ws --table t7 [--seat 2]     # sit at a given table
//   node bot.mjs --url ws://127.0.0.1:8080/ws --create belot --against rules  # play three server bots
//   node bot.mjs ... --ack event                                        # no `accepted` replies to actions
//   node bot.mjs ... --drop-after 20                                    # leave once, then resume
//
// It picks uniformly among the actions the server lists in its observation's `legal` field (seeded
// by --seed), so it plays any variant the server offers without knowing its rules. It keeps its
// token and the seq of the last event it handled, so that it can resume its seat after a drop.
// Standard output: the table id (with --create), then `final score A B, team W wins`.
// Exit status: 0 when the match ended, 1 on an error reply or a dropped connection, 2 on a bad
// command line.
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import WebSocket from "ws";

const USAGE = `usage: node bot.mjs [--url URL] [--name NAME] [--variant VARIANT | --create VARIANT | --table ID]
                   [--seat N] [--against random|rules|sampling] [--seed N] [--ack reply|event]
                   [--drop-after N] [--away-ms MS]
  --url URL          the server's WebSocket (default ws://127.0.0.1:8080/ws)
  --name NAME        the bot's name (default node-bot)
  --variant VARIANT  join a waiting table of VARIANT, or create one (default french)
  --create VARIANT   create a table of VARIANT and print its id
  --table ID         sit at this table id
  --seat N           this seat (default: any free seat)
  --against LEVEL    with --create: the server's bots of LEVEL take the other seats
  --seed N           seed for the bot's own choices
  --ack reply|event  how the server acknowledges our actions (docs/protocol.md, hello)
  --drop-after N     close the connection once after N events, then resume (a test of resuming)
  --away-ms MS       with --drop-after, how long to stay away before resuming (default 2500)`;

class ServerError extends Error {}

// A small seeded generator (mulberry32), so that a game can be played again with the same choices.
function make_rng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Bot {
  constructor(url, name, rng, ack) {
    this.url = url;
    this.name = name;
    this.rng = rng;
    this.ack = ack;
    this.ws = null;
    this.next_id = 1;
    this.pending = []; // messages received but not handled yet, in order
    this.waiter = null; // the recv() waiting for the next message
    this.closed = null; // why the connection is gone, once it is
    this.token = null;
    this.table_id = null;
    this.last_seq = null; // the seq of the last event of our table that we handled
  }

  // The next message: a kept one first, else the next to arrive.
  recv() {
    if (this.pending.length > 0) return Promise.resolve(this.pending.shift());
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  // Sends a request and returns its reply; events that arrive meanwhile are kept. With
  // `keep_reply`, the reply is also kept, after them, to be handled as they are.
  async request(message, keep_reply = false) {
    message.id = this.next_id++;
    this.ws.send(JSON.stringify(message));
    const kept = [];
    try {
      for (;;) {
        const reply = await this.recv();
        if (reply.id === message.id) {
          if (reply.type === "error") {
            throw new ServerError(`${message.type}: ${reply.code}: ${reply.message}`);
          }
          if (keep_reply) kept.push(reply);
          return reply;
        }
        kept.push(reply);
      }
    } finally {
      this.pending.unshift(...kept);
    }
  }

  // The next message of `kind` (kept ones first); the others stay kept, in order.
  async next_of(kind) {
    const kept = [];
    try {
      for (;;) {
        const message = await this.recv();
        if (message.type === kind) return message;
        kept.push(message);
      }
    } finally {
      this.pending.unshift(...kept);
    }
  }

  // Opens the connection and says hello: with our token and where we were, after a drop.
  async connect() {
    const ws = new WebSocket(this.url, { maxPayload: 4 * 1024 * 1024 });
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    this.ws = ws;
    this.pending = [];
    this.closed = null;
    ws.on("message", (data) => {
      if (this.ws !== ws) return; // an old connection we closed ourselves
      const message = JSON.parse(data.toString());
      if (this.waiter) {
        const { resolve } = this.waiter;
        this.waiter = null;
        resolve(message);
      } else {
        this.pending.push(message);
      }
    });
    ws.on("error", () => {}); // "close" follows and says the rest
    ws.on("close", (code) => {
      if (this.ws !== ws) return; // an old connection we closed ourselves
      this.closed = new Error(`connection closed (code ${code})`);
      if (this.waiter) {
        const { reject } = this.waiter;
        this.waiter = null;
        reject(this.closed);
      }
    });
    const hello = { type: "hello", protocol: 1, name: this.name, ack: this.ack };
    if (this.token) {
      hello.token = this.token;
      if (this.table_id && this.last_seq !== null) {
        // The server sends what we missed (each marked "replayed"; only the current event keeps
        // its legal list), then leaves us on the current view.
        hello.resume = [{ table_id: this.table_id, last_seq: this.last_seq }];
      }
    }
    const welcome = await this.request(hello);
    this.token = welcome.token;
    return welcome;
  }

  close() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }

  async run(args) {
    const welcome = await this.connect();
    log(`${this.name} is ${welcome.player_id}`);

    let table_id = args.table;
    let seated;
    if (args.create && args.against) {
      // The server's bots take every other seat and the server sits us: one request.
      const created = await this.request({
        type: "create_table",
        variant: args.create,
        bots: { level: args.against },
      });
      table_id = created.table.table_id;
      console.log(table_id);
      seated = await this.next_of("seated");
    } else {
      if (args.create) {
        const created = await this.request({ type: "create_table", variant: args.create });
        table_id = created.table.table_id;
        console.log(table_id); // for whoever starts the other bots
      } else if (!table_id) {
        table_id = await this.find_or_create(args.variant);
      }
      const sit = { type: "sit", table_id };
      if (args.seat !== undefined) sit.seat = args.seat;
      seated = await this.request(sit);
    }
    const seat = seated.seat;
    this.table_id = table_id;
    log(`${this.name} sits at ${table_id}, seat ${seat}`);

    let handled = 0;
    let drops_left = args.drop_after ? 1 : 0;
    for (;;) {
      if (drops_left && handled === args.drop_after) {
        // Testing the way back: leave for a while (the server plays our turns meanwhile), then
        // resume where we were.
        drops_left -= 1;
        this.close();
        await sleep(args.away_ms);
        await this.connect();
        log(`${this.name} resumed ${table_id} after seq ${this.last_seq}`);
      }
      const message = await this.recv();
      if (message.type === "error") throw new ServerError(`${message.code}: ${message.message}`);
      if (message.type !== "event" || message.table_id !== table_id) continue;
      this.last_seq = message.seq;
      handled += 1;
      if (message.hand_result) {
        const result = message.hand_result;
        log(`${this.name}: deal ${result.deal_number} ${result.outcome}, score ${result.match_score}`);
      }
      if (message.match_result) {
        const result = message.match_result;
        const won = result.winner === seat % 2;
        log(`${this.name}: match over (${won ? "won" : "lost"})`);
        console.log(`final score ${result.match_score.join(" ")}, team ${result.winner} wins`);
        // Leaving frees the seat now; a connection that just closed would keep it held for a
        // while, in case the end had not reached it.
        try {
          await this.request({ type: "leave", table_id });
        } catch (e) {
          log(`${this.name}: leave: ${e.message}`);
        }
        return;
      }
      // A non-empty legal list means it is our turn now; a replayed event whose turn is over has
      // none, so the bot never acts on a turn that is gone.
      const legal = message.observation.legal;
      if (legal.length > 0) {
        const action = legal[Math.floor(this.rng() * legal.length)];
        // With ack "reply" the reply is `accepted`, and the event that follows is the news.
        // With ack "event" the event the action produced is the reply (it carries our id): it is
        // kept, to be handled as the next event.
        const by_event = this.ack === "event";
        const reply = await this.request({ type: "action", table_id, action }, by_event);
        if (by_event && reply.type !== "event") {
          throw new ServerError(`ack event: the action was answered by ${reply.type}`);
        }
      }
    }
  }

  async find_or_create(variant) {
    // The server filters and pages the lobby: ask only for tables one could sit at.
    const page = await this.request({
      type: "list_tables",
      variant,
      status: "waiting",
      min_free: 1,
      limit: 10,
    });
    const table = page.tables.find(
      (t) => t.variant === variant && t.status === "waiting" && t.free_seats > 0,
    );
    if (table) return table.table_id;
    const created = await this.request({ type: "create_table", variant });
    return created.table.table_id;
  }
}

function log(text) {
  console.error(text);
}

function usage_error(text) {
  console.error(`bot: ${text}\n${USAGE}`);
  process.exit(2);
}

function integer_option(values, name, fallback) {
  const text = values[name];
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text)) usage_error(`--${name} wants an integer, not "${text}"`);
  return Number(text);
}

function parse_command_line(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: "string", default: "ws://127.0.0.1:8080/ws" },
        name: { type: "string", default: "node-bot" },
        variant: { type: "string", default: "french" },
        create: { type: "string" },
        table: { type: "string" },
        seat: { type: "string" },
        against: { type: "string" },
        seed: { type: "string" },
        ack: { type: "string", default: "reply" },
        "drop-after": { type: "string" },
        "away-ms": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    usage_error(e.message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.against !== undefined && !["random", "rules", "sampling"].includes(values.against)) {
    usage_error(`--against wants random, rules or sampling, not "${values.against}"`);
  }
  if (values.against !== undefined && values.create === undefined) {
    usage_error("--against needs --create");
  }
  if (values.create !== undefined && values.table !== undefined) {
    usage_error("--create and --table exclude each other");
  }
  if (!["reply", "event"].includes(values.ack)) {
    usage_error(`--ack wants reply or event, not "${values.ack}"`);
  }
  const seed = integer_option(values, "seed", undefined);
  return {
    url: values.url,
    name: values.name,
    variant: values.variant,
    create: values.create,
    table: values.table,
    seat: integer_option(values, "seat", undefined),
    against: values.against,
    seed: seed ?? Math.floor(Math.random() * 2 ** 32),
    ack: values.ack,
    drop_after: integer_option(values, "drop-after", 0),
    away_ms: integer_option(values, "away-ms", 2500),
  };
}

const args = parse_command_line(process.argv.slice(2));
const bot = new Bot(args.url, args.name, make_rng(args.seed), args.ack);
try {
  await bot.run(args);
  bot.close();
} catch (e) {
  log(`bot: ${e.message}`);
  bot.close();
  process.exitCode = 1;
}
