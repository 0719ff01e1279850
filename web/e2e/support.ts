// What the browser tests share: an atout-server of their own, and scripted players over WebSocket.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { expect } from '@playwright/test';
import { DeltaViews } from '../src/delta';
import type { DeltaMessage, EventMessage } from '../src/protocol';

// import.meta.dirname would need Node 20.11; the client supports Node 18.20 (Debian 12's).
const kRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function free_port(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => ok(port));
    });
  });
}

export class AtoutServer {
  protected constructor(
    private readonly child: ChildProcess | null,
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  // ATOUT_E2E_URL and ATOUT_E2E_PORT: use a server already running (the page at the URL, its
  // WebSocket port at the port) instead of starting one.
  static async start(): Promise<AtoutServer> {
    if (process.env.ATOUT_E2E_URL) return new External(process.env.ATOUT_E2E_URL, Number(process.env.ATOUT_E2E_PORT));
    const bin = process.env.ATOUT_SERVER_BIN ?? join(kRoot, 'build', 'dev', 'server', 'atout-server');
    const dir = mkdtempSync(join(tmpdir(), 'atout-web-e2e-'));
    const port = await free_port();
    const child = spawn(
      bin,
      ['--bind', '127.0.0.1', '--port', String(port), '--db', join(dir, 'atout.db'), '--web-root',
        join(kRoot, 'web', 'dist'), '--log-level', 'warn'],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const server = new AtoutServer(child, dir, port);
    for (let i = 0; i < 100; ++i) {
      try {
        const r = await fetch(`${server.url}/healthz`);
        if (r.ok) return server;
      } catch {
        // not listening yet
      }
      await new Promise((ok) => setTimeout(ok, 100));
    }
    await server.stop();
    throw new Error(`atout-server (${bin}) did not start`);
  }

  async stop() {
    const child = this.child;
    if (!child) return;
    if (child.exitCode === null) {
      const exited = new Promise((ok) => child.once('exit', ok));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  async api(path: string): Promise<any> {
    const r = await fetch(`${this.url}${path}`);
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json();
  }
}

class External extends AtoutServer {
  constructor(
    private readonly page_url: string,
    port: number,
  ) {
    super(null, '', port);
  }

  override get url() {
    return this.page_url;
  }
}

// A player that sits and answers every turn with an action from its legal list: in the auction it
// takes (or bids) when it can, so that deals are played, else the first action offered.
export class ScriptedPlayer {
  player_id = '';
  match_result: any = undefined; // the match_result of the last match this player saw end
  private ws!: WebSocket;
  private next_id = 1;
  private waiting = new Map<number, (m: any) => void>();

  static async connect(port: number, name: string): Promise<ScriptedPlayer> {
    const p = new ScriptedPlayer();
    p.ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise((ok, fail) => {
      p.ws.once('open', ok);
      p.ws.once('error', fail);
    });
    p.ws.on('message', (data) => p.on_message(JSON.parse(String(data))));
    const welcome = await p.request({ type: 'hello', protocol: 1, name });
    p.player_id = welcome.player_id;
    return p;
  }

  request(m: Record<string, unknown>): Promise<any> {
    const id = this.next_id++;
    return new Promise((ok) => {
      this.waiting.set(id, ok);
      this.ws.send(JSON.stringify({ ...m, id }));
    });
  }

  private on_message(m: any) {
    if (m.id !== undefined && this.waiting.has(m.id)) {
      const done = this.waiting.get(m.id)!;
      this.waiting.delete(m.id);
      done(m);
      return;
    }
    if (m.type !== 'event') return;
    if (m.match_result) this.match_result = m.match_result;
    const legal: any[] = m.observation.legal ?? [];
    if (legal.length === 0) return;
    const choice =
      legal.find((a) => a.type === 'take') ?? legal.find((a) => a.type === 'bid') ?? legal.find((a) => a.type === 'play') ??
      legal.find((a) => a.type === 'pass') ?? legal[0];
    this.ws.send(JSON.stringify({ type: 'action', table_id: m.table_id, action: choice }));
  }

  close() {
    this.ws.close();
  }
}

// Checks every frame a spectator received: no hand, no seat and no legal action, in a whole event
// or in a delta (as sent, and as the event it rebuilds). Returns how many of each it saw.
export function expect_public_frames(frames: string[]): { events: number; deltas: number } {
  let events = 0;
  let deltas = 0;
  const views = new DeltaViews();
  for (const raw of frames) {
    let m = JSON.parse(raw);
    if (m.type === 'event') views.keep(m as EventMessage);
    if (m.type === 'delta') {
      ++deltas;
      const o = m.observation ?? {};
      for (const k of ['hand', 'hand+', 'hand-', 'hand#', 'seat', 'legal+', 'legal#']) expect(o[k], raw).toBeUndefined();
      m = views.rebuild(m as DeltaMessage);
      expect(m, raw).toBeDefined();
    }
    if (m.type !== 'event') continue;
    ++events;
    expect(m.observation.hand, raw).toBeUndefined();
    expect(m.observation.seat, raw).toBeUndefined();
    expect(m.observation.legal, raw).toEqual([]);
  }
  return { events, deltas };
}
