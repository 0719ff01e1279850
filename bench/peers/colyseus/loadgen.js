// The Colyseus side's atout-loadgen: starts server.js, holds idle connections, plays duel tables
// of random legal actions (closed loop, or paced by --think-ms), and reports the same fields as
// atout-loadgen's JSON line (actions/s, RTT percentiles, server and generator CPU over the window
// from /proc, server RSS per idle and per table connection). Human text first, then one JSON line.
// Exit status: 0 when actions were accepted and nothing failed, 1 otherwise, 2 for bad flags.
//
//   node loadgen.js --addon build/rel/bench/peers/colyseus/atout_duel.node --tables 1000 --duration 8
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { Client } = require('colyseus.js');

const FLAGS = {
  '--addon': ['addon', String, ''],
  '--tables': ['tables', Number, 100],
  '--idle': ['idle', Number, 0],
  '--duration': ['duration', Number, 10],
  '--think-ms': ['thinkMs', Number, 0],
  '--seed': ['seed', Number, 1],
  '--port': ['port', Number, 0],
  '--server-pid': ['serverPid', Number, 0],
};

function usage(message) {
  console.error(`loadgen.js: ${message}\nflags: ${Object.keys(FLAGS).join(' ')} (give --addon to spawn server.js, or --port and --server-pid)`);
  process.exit(2);
}

function parse(argv) {
  const o = {};
  for (const [, [key, , value]] of Object.entries(FLAGS)) o[key] = value;
  for (let i = 0; i < argv.length; i += 2) {
    const f = FLAGS[argv[i]];
    if (!f || i + 1 >= argv.length) usage(`unknown flag or missing value: ${argv[i]}`);
    o[f[0]] = f[1](argv[i + 1]);
    if (f[1] === Number && !Number.isFinite(o[f[0]])) usage(`${argv[i]} takes a number`);
  }
  if (!o.addon && !o.port) usage('give --addon (spawn) or --port');
  if (o.tables < 0 || o.tables > 100000 || o.idle < 0 || o.idle > 1000000) usage('--tables 0..100000, --idle 0..1000000');
  if (o.tables === 0 && o.idle === 0) usage('nothing to do: --tables and --idle are both 0');
  if (!(o.duration > 0 && o.duration <= 3600) || o.thinkMs < 0) usage('--duration 0..3600 s, --think-ms >= 0');
  return o;
}

// ---- The server process -----------------------------------------------------------------------

function rssKib(pid) {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : -1;
  } catch {
    return -1;
  }
}

// User + system CPU seconds of `pid`, from /proc/PID/stat (as atout-loadgen reads it); with
// `systemOnly`, the system (kernel) part alone.
const CLK_TCK = 100;
function cpuSeconds(pid, systemOnly = false) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return ((systemOnly ? 0 : Number(fields[11])) + Number(fields[12])) / CLK_TCK;
  } catch {
    return -1;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function spawnServer(o) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, 'server.js'), '--port', String(port), '--addon', o.addon], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server.js did not start within 20 s')), 20000);
    child.on('exit', (code) => reject(new Error(`server.js exited (${code})`)));
    child.stdout.on('data', (d) => {
      if (String(d).includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, port };
}

// The spawned server's event-loop delay over the window ({p50, p99, max} in ms), or null.
function serverLoopDelay(child) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 2000);
    const onData = (d) => {
      const m = /loop (\S+) (\S+) (\S+)/.exec(String(d));
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({ p50: Number(m[1]), p99: Number(m[2]), max: Number(m[3]) });
    };
    child.stdout.on('data', onData);
    child.kill('SIGUSR2');
  });
}

function stopServer(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.on('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// ---- Tables -------------------------------------------------------------------------------------

// mulberry32: the random choices of one table, seeded per table as atout-loadgen seeds its own.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const stats = {
  actions: 0, // in the window
  allActions: 0,
  matches: 0,
  tablesStarted: 0,
  idleReady: 0,
  connectFailures: 0,
  closedEarly: 0,
  errors: {},
  rttUs: [],
  measuring: false,
  stopping: false,
};

class TableBot {
  constructor(client, seed, thinkMs) {
    this.client = client;
    this.random = rng(seed);
    this.thinkMs = thinkMs;
    this.rooms = [null, null];
    this.pendingId = [-1, -1];
    this.sentAt = [0n, 0n];
    this.nextId = 1;
    this.started = false;
  }

  async connect() {
    this.rooms[0] = await this.client.create('duel');
    this.rooms[1] = await this.client.joinById(this.rooms[0].roomId);
    for (let s = 0; s < 2; ++s) {
      const room = this.rooms[s];
      room.onMessage('event', (text) => this.onEvent(s, text));
      room.onMessage('error', (e) => {
        stats.errors[e.code] = (stats.errors[e.code] || 0) + 1;
        this.pendingId[s] = -1;
      });
      room.onLeave(() => {
        if (!stats.stopping) ++stats.closedEarly;
      });
    }
  }

  play() {
    for (const room of this.rooms) room.send('sit');
  }

  onEvent(seat, text) {
    if (stats.stopping) return;
    const e = JSON.parse(text);
    if (this.pendingId[seat] >= 0 && e.id === this.pendingId[seat]) {
      this.pendingId[seat] = -1;
      ++stats.allActions;
      if (stats.measuring) {
        ++stats.actions;
        stats.rttUs.push(Number((process.hrtime.bigint() - this.sentAt[seat]) / 1000n));
      }
    }
    if (seat === 0 && e.kind === 'start' && !this.started) {
      this.started = true;
      ++stats.tablesStarted;
    }
    if (e.match_result && seat === 0 && stats.measuring) ++stats.matches;
    const legal = e.observation.legal;
    if (!legal || legal.length === 0) return;
    const action = JSON.stringify(legal[Math.floor(this.random() * legal.length)]);
    const id = this.nextId++;
    if (this.thinkMs <= 0) return this.act(seat, action, id);
    // Thinking T/2 to 3T/2 ms, as atout-loadgen's players do.
    setTimeout(() => {
      if (!stats.stopping) this.act(seat, action, id);
    }, this.thinkMs / 2 + this.random() * this.thinkMs);
  }

  act(seat, action, id) {
    this.pendingId[seat] = id;
    this.sentAt[seat] = process.hrtime.bigint();
    this.rooms[seat].send('action', { action, id });
  }

  close() {
    for (const room of this.rooms) if (room) room.connection.close();
  }
}

// Runs the `jobs` (functions returning promises) at most `window` at a time, as atout-loadgen opens
// its connections, so the server's accept queue never overflows.
async function inWindow(jobs, window) {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      try {
        await job();
      } catch {
        ++stats.connectFailures;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, jobs.length) }, worker));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1) + 0.5));
  return sorted[i] / 1000;
}

async function waitUntil(pred, seconds) {
  const end = Date.now() + seconds * 1000;
  while (!pred()) {
    if (Date.now() > end) return false;
    await sleep(20);
  }
  return true;
}

async function main() {
  const o = parse(process.argv.slice(2));
  let server = null;
  let port = o.port;
  let pid = o.serverPid;
  if (o.addon) {
    server = await spawnServer(o);
    port = server.port;
    pid = server.child.pid;
  }
  const client = new Client(`ws://127.0.0.1:${port}`);

  // Idle connections first, so the server's memory per idle connection is measured alone.
  const rssStart = rssKib(pid);
  const idleRooms = [];
  await inWindow(
    Array.from({ length: o.idle }, () => async () => {
      idleRooms.push(await client.joinOrCreate('idle'));
      ++stats.idleReady;
    }),
    64,
  );
  await sleep(500);
  const rssIdle = rssKib(pid);

  // Tables: every seat joins before any table plays.
  const setupStart = Date.now();
  const bots = Array.from({ length: o.tables }, (_, t) => new TableBot(client, o.seed * 1000003 + t, o.thinkMs));
  await inWindow(
    bots.map((b) => () => b.connect()),
    32,
  );
  const ready = bots.filter((b) => b.rooms[1]);
  for (const b of ready) b.play();
  const tablesOk = await waitUntil(() => stats.tablesStarted >= o.tables, 300);
  const setupS = (Date.now() - setupStart) / 1000;
  const rssTables = rssKib(pid);

  // This client's own event-loop delay over the window: a round trip cannot be shorter than the
  // client's wait to read its event, so a long one here is the client's, not the server's.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  if (server) server.child.kill('SIGUSR1');
  stats.measuring = true;
  const t0 = process.hrtime.bigint();
  const serverCpu0 = cpuSeconds(pid);
  const serverSys0 = cpuSeconds(pid, true);
  const self0 = process.cpuUsage();
  await sleep(o.duration * 1000);
  stats.measuring = false;
  loopDelay.disable();
  const serverLoop = server ? await serverLoopDelay(server.child) : null;
  const windowS = Number(process.hrtime.bigint() - t0) / 1e9;
  const serverCpu = pid > 0 ? cpuSeconds(pid) - serverCpu0 : -1;
  const serverSys = pid > 0 ? cpuSeconds(pid, true) - serverSys0 : -1;
  const selfUsage = process.cpuUsage(self0);
  const selfCpu = (selfUsage.user + selfUsage.system) / 1e6;
  const rssEnd = rssKib(pid);

  stats.stopping = true;
  for (const b of bots) b.close();
  for (const r of idleRooms) r.connection.close();
  if (server) await stopServer(server.child);

  const rtts = stats.rttUs.sort((a, b) => a - b);
  const errorCount = Object.values(stats.errors).reduce((a, b) => a + b, 0);
  const perSecond = windowS > 0 ? stats.actions / windowS : 0;
  const perConn = (before, after, n) => (before < 0 || after < 0 || n <= 0 ? -1 : (after - before) / n);
  const idleKib = perConn(rssStart, rssIdle, stats.idleReady);
  const tableKib = perConn(rssIdle, rssTables, stats.tablesStarted * 2);
  const acts = Math.max(stats.actions, 1);
  console.log(
    `colyseus loadgen: ${o.tables} table(s) of duel (${o.tables * 2} connections), ${o.idle} idle connection(s), think ${o.thinkMs} ms`,
  );
  console.log(`  set-up        ${setupS.toFixed(1)} s; tables started ${stats.tablesStarted} of ${o.tables}; idle ready ${stats.idleReady} of ${o.idle}`);
  console.log(`  window        ${windowS.toFixed(2)} s; accepted actions ${stats.actions} (${perSecond.toFixed(0)} /s); matches ${stats.matches}`);
  console.log(
    `  action RTT    p50 ${percentile(rtts, 0.5).toFixed(3)} ms, p99 ${percentile(rtts, 0.99).toFixed(3)} ms, p999 ${percentile(rtts, 0.999).toFixed(3)} ms (${rtts.length} samples)`,
  );
  console.log(`  errors        ${errorCount} ${JSON.stringify(stats.errors)}; connect failures ${stats.connectFailures}; closed by the server ${stats.closedEarly}`);
  console.log(
    `  CPU in window server ${serverCpu.toFixed(2)} s (${((serverCpu * 1e6) / acts).toFixed(0)} us per action), load generator ${selfCpu.toFixed(2)} s`,
  );
  console.log(
    `  client loop   event-loop delay p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
  );
  if (serverLoop) console.log(`  server loop   event-loop delay p50 ${serverLoop.p50} ms, p99 ${serverLoop.p99} ms, max ${serverLoop.max} ms`);
  console.log(`  server RSS    ${rssStart} KiB at start, ${rssIdle} with idle (${idleKib.toFixed(1)} KiB each), ${rssTables} with tables (${tableKib.toFixed(1)} KiB per table connection), ${rssEnd} at the end`);
  const report = {
    server: 'colyseus',
    tables: o.tables,
    variant: 'duel',
    idle: o.idle,
    threads: 1,
    think_ms: o.thinkMs,
    ack: 'event',
    tables_started: stats.tablesStarted,
    idle_ready: stats.idleReady,
    setup_s: setupS,
    window_s: windowS,
    actions: stats.actions,
    actions_per_s: perSecond,
    matches: stats.matches,
    rtt_ms: {
      p50: percentile(rtts, 0.5),
      p99: percentile(rtts, 0.99),
      p999: percentile(rtts, 0.999),
      max: percentile(rtts, 1),
      samples: rtts.length,
    },
    errors: stats.errors,
    cpu_s: { server: serverCpu, loadgen: selfCpu },
    cpu_sys_s: { server: serverSys, loadgen: selfUsage.system / 1e6 },
    server_loop_delay_ms: serverLoop,
    loadgen_loop_delay_ms: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    error_count: errorCount,
    connect_failures: stats.connectFailures,
    closed_by_server: stats.closedEarly,
    server_rss_kib: { start: rssStart, idle: rssIdle, tables: rssTables, end: rssEnd, per_idle_connection: idleKib, per_table_connection: tableKib },
  };
  console.log(JSON.stringify(report));
  const ok =
    tablesOk &&
    stats.idleReady === o.idle &&
    (o.tables === 0 || stats.actions > 0) &&
    errorCount === 0 &&
    stats.connectFailures === 0 &&
    stats.closedEarly === 0;
  process.exit(ok ? 0 : 1);
}

main().catch((e) => {
  console.error(`loadgen.js: ${e.stack || e}`);
  process.exit(1);
});
