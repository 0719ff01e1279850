// A Colyseus server doing an Atout duel table's work: room "duel" seats two clients, checks each
// action against the duel rules (Atout's engine, through the atout_duel.node addon), applies it,
// and sends each seat its own event, the other seat's hand hidden: the very text atout-server
// sends (`event`, with the deal commitment, the last action, hand and match results). Room "idle"
// holds connections that do nothing, for the memory per idle connection.
//
//   node server.js --port PORT --addon build/rel/bench/peers/colyseus/atout_duel.node
//
// Prints "listening PORT" once it accepts connections.
'use strict';
const crypto = require('node:crypto');
const { Server, Room } = require('@colyseus/core');
const { WebSocketTransport } = require('@colyseus/ws-transport');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const port = Number(arg('--port', '2567'));
const addonPath = arg('--addon');
if (!addonPath) {
  console.error('server.js: give --addon PATH/atout_duel.node (cmake -DATOUT_NODE_ADDON=ON)');
  process.exit(2);
}
const engine = require(require('node:path').resolve(addonPath));

class DuelRoom extends Room {
  maxClients = 2;
  patchRate = null; // no synchronised state: every view is a per-seat message

  onCreate() {
    this.seats = [null, null];
    this.match = null;
    this.seq = 0;
    this.onMessage('sit', (client) => this.onSit(client));
    this.onMessage('action', (client, message) => this.onAction(client, message));
  }

  // As atout-server's `sit`: a joined client takes the first free seat; the match starts when both
  // are taken.
  onSit(client) {
    if (client.userData) return;
    const seat = this.seats[0] === null ? 0 : 1;
    if (this.seats[seat] !== null) {
      client.send('error', { code: 'seat_taken', message: 'both seats are taken', id: -1 });
      return;
    }
    this.seats[seat] = client;
    client.userData = { seat };
    if (this.seats[0] && this.seats[1]) this.startMatch();
  }

  onLeave(client) {
    const seat = client.userData ? client.userData.seat : -1;
    if (seat >= 0) this.seats[seat] = null;
    this.match = null;
  }

  // A new match with a fresh secret seed and a random first dealer, as atout-server draws them.
  startMatch() {
    this.match = engine.create(crypto.randomBytes(16).toString('hex'), crypto.randomUUID(), crypto.randomInt(2));
    this.seq = 0;
    this.broadcastEvent('start', -1, -1);
  }

  broadcastEvent(kind, actor, id) {
    for (let s = 0; s < 2; ++s) {
      const c = this.seats[s];
      if (c) c.send('event', engine.event(this.match, s, this.roomId, this.seq, kind, s === actor ? id : -1));
    }
  }

  onAction(client, message) {
    const seat = client.userData ? client.userData.seat : -1;
    const id = message && Number.isSafeInteger(message.id) ? message.id : -1;
    if (seat < 0 || !this.match) {
      client.send('error', { code: 'match_not_running', message: 'the match starts when both seats are taken', id });
      return;
    }
    if (!message || typeof message.action !== 'string') {
      client.send('error', { code: 'bad_request', message: 'action: a JSON text', id });
      return;
    }
    const refused = engine.act(this.match, seat, message.action);
    if (refused) {
      const [code, reason] = refused.split(':');
      client.send('error', { code, message: `the engine refused ${message.action}: ${reason || code}`, id });
      return;
    }
    ++this.seq;
    this.broadcastEvent('action', seat, id);
    // atout-server's load generator opens a new table after each match; this room deals a new
    // match to the same two seats (cheaper for Colyseus: no new connections).
    if (engine.over(this.match)) this.startMatch();
  }
}

class IdleRoom extends Room {
  maxClients = 1000;
  patchRate = null;
  onCreate() {}
}

const gameServer = new Server({ transport: new WebSocketTransport({}), greet: false, gracefullyShutdown: false });
gameServer.define('duel', DuelRoom);
gameServer.define('idle', IdleRoom);
gameServer.listen(port, '127.0.0.1').then(() => console.log(`listening ${port}`));
process.on('SIGTERM', () => process.exit(0));

// The event loop's delay, for the load client's window: SIGUSR1 starts it afresh, SIGUSR2 prints
// "loop p50 P99 MAX" in ms. A long delay here is time every message waits in the server.
const loopDelay = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
process.on('SIGUSR1', () => loopDelay.reset());
process.on('SIGUSR2', () => {
  const ms = (ns) => (ns / 1e6).toFixed(1);
  console.log(`loop ${ms(loopDelay.percentile(50))} ${ms(loopDelay.percentile(99))} ${ms(loopDelay.max)}`);
});
