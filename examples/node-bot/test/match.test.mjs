// Plays bot.mjs against a live atout-server (ATOUT_SERVER_BIN): a complete match of every variant
// alone against the server's random bots, one duel between two bot processes and one french table
// of four (the odd seats acknowledged by events, seat 1 dropping its connection once and resuming). Each bot must exit 0 and
// print the final score the server stored for its player (GET /api/players/<id>/matches).
// Run with `npm test` in examples/node-bot, or through scripts/node_bot_test.sh.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const BOT = join(dirname(fileURLToPath(import.meta.url)), "..", "bot.mjs");
const SERVER_BIN = process.env.ATOUT_SERVER_BIN;
const BOT_TIMEOUT_MS = 60_000;
const STORE_WAIT_MS = 10_000;

let server;
let data_dir;
let port;

// Starts the server on a free loopback port with a database of its own; resolves to its port.
function start_server() {
  data_dir = mkdtempSync(join(tmpdir(), "atout-node-bot-"));
  server = spawn(
    SERVER_BIN,
    ["--port", "0", "--bind", "127.0.0.1", "--threads", "2", "--db", join(data_dir, "atout.db")],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  server.stderr.resume(); // never let a chatty server block on a full pipe
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("atout-server did not report its port")), 30_000);
    server.once("exit", (code) => reject(new Error(`atout-server exited with ${code}`)));
    createInterface({ input: server.stdout }).on("line", (line) => {
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
}

// Runs bot.mjs with `args`; resolves to its exit code, stdout lines and stderr text. `on_line`
// sees each stdout line as it comes (the table id comes first).
function run_bot(args, on_line = () => {}) {
  const child = spawn(process.execPath, [BOT, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines = [];
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    on_line(line);
  });
  const timer = setTimeout(() => child.kill(), BOT_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, lines, stderr });
    });
  });
}

function url() {
  return `ws://127.0.0.1:${port}/ws`;
}

async function get_json(path) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  assert.equal(response.status, 200, `GET ${path}`);
  return response.json();
}

// Checks a finished bot: exit 0, its printed final score and winner are what the server stored as
// the player's one match, and that match is of `variant` at `seat`.
async function check_result(result, variant, seat) {
  assert.equal(result.code, 0, `exit status; stderr:\n${result.stderr}`);
  const player_id = /is (\S+)\n/.exec(result.stderr)?.[1];
  assert.ok(player_id, `no player id in:\n${result.stderr}`);
  const final = /^final score (\d+) (\d+), team ([01]) wins$/.exec(result.lines.at(-1) ?? "");
  assert.ok(final, `no final score in: ${result.lines.join(" | ")}`);
  // The store writes the result a moment after the match's last event is sent: read until it is
  // there, for up to STORE_WAIT_MS.
  let history = await get_json(`/api/players/${player_id}/matches`);
  for (const start = Date.now(); !history.matches[0]?.end_reason && Date.now() - start < STORE_WAIT_MS; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    history = await get_json(`/api/players/${player_id}/matches`);
  }
  assert.equal(history.matches.length, 1);
  const stored = history.matches[0];
  assert.equal(stored.variant, variant);
  assert.equal(stored.seat, seat);
  assert.equal(stored.end_reason, "finished");
  assert.deepEqual(stored.match_score, [Number(final[1]), Number(final[2])]);
  assert.equal(stored.winner, Number(final[3]));
  return stored;
}

before(async () => {
  assert.ok(SERVER_BIN, "set ATOUT_SERVER_BIN to an atout-server binary");
  port = await start_server();
});

after(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  if (data_dir) rmSync(data_dir, { recursive: true, force: true });
});

test("plays every variant alone against the server's random bots", async () => {
  const { variants } = await get_json("/api/variants");
  assert.ok(variants.length > 0);
  // All at once: each match has a table of its own.
  const matches = variants.map(async ({ id }) => {
    const result = await run_bot([
      "--url", url(), "--create", id, "--against", "random", "--name", `${id}-solo`, "--seed", "7",
    ]);
    assert.match(result.lines[0] ?? "", /^\S+$/, `${id}: the table id comes first`);
    await check_result(result, id, 0);
  });
  await Promise.all(matches);
});

// One bot creates a table of `variant` and sits at seat 0; when it prints the table id, one more
// bot per seat sits there: the odd seats are acknowledged by events, and seat 1 drops its
// connection once and resumes. Every bot must print the score stored for the same match.
async function play_table(variant, players) {
  const others = [];
  const creator = run_bot(
    ["--url", url(), "--create", variant, "--seat", "0", "--name", `${variant}-0`, "--seed", "0"],
    (line) => {
      if (others.length > 0) return; // the final score, not the table id
      for (let seat = 1; seat < players; ++seat) {
        others.push(run_bot([
          "--url", url(), "--table", line, "--seat", String(seat), "--name", `${variant}-${seat}`,
          "--seed", String(seat), "--ack", seat % 2 ? "event" : "reply",
          ...(seat === 1 ? ["--drop-after", "12", "--away-ms", "300"] : []),
        ]));
      }
    },
  );
  const results = [await creator];
  assert.equal(others.length, players - 1, "the creating bot printed no table id");
  results.push(...(await Promise.all(others)));
  assert.match(results[1].stderr, /resumed \S+ after seq \d+/);
  const stored = [];
  for (const [seat, result] of results.entries()) stored.push(await check_result(result, variant, seat));
  for (const match of stored) assert.equal(match.match_id, stored[0].match_id);
}

test("two bots play a duel, one of them acknowledged by events and resuming after a drop", async () => {
  await play_table("duel", 2);
});

test("four bots play a french table together", async () => {
  await play_table("french", 4);
});

test("a bad command line exits 2 with the usage", async () => {
  const command_lines = [["--bogus"], ["--seat", "one"], ["--against", "expert", "--create", "duel"],
    ["--against", "random"], ["--ack", "never"], ["--create", "duel", "--table", "t1"]];
  const results = await Promise.all(command_lines.map((args) => run_bot(args)));
  for (const [i, result] of results.entries()) {
    assert.equal(result.code, 2, command_lines[i].join(" "));
    assert.match(result.stderr, /usage: node bot\.mjs/);
    assert.equal(result.lines.length, 0, "nothing on standard output");
  }
});

test("an error from the server is printed with its code and exits 1", async () => {
  const [unknown, variant] = await Promise.all([
    run_bot(["--url", url(), "--table", "no-such-table"]),
    run_bot(["--url", url(), "--create", "no-such-variant"]),
  ]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /sit: unknown_table: /);
  assert.equal(variant.code, 1);
  assert.match(variant.stderr, /create_table: unknown_variant: /);
});

test("a server that is not there makes the bot exit 1", async () => {
  // A port nothing listens on: the server's own, once it is stopped, would race; port 1 is
  // reserved and closed on a test machine.
  const result = await run_bot(["--url", "ws://127.0.0.1:1/ws"]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^bot: /m);
});
