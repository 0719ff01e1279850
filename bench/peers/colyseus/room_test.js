// Checks that the Colyseus duel room keeps Atout's rules and hiding, so the comparison is honest:
// it refuses an action before the match, out of turn, malformed, or against the rules (each with
// its code); it sends each seat its own hand and never a card of the other seat's hand (shown
// declarations aside); the actor's event carries its request id; a whole match plays to its
// result, and the room deals the next one. Exit status 0 when every check holds, 1 otherwise.
//
//   node room_test.js --addon build/rel/bench/peers/colyseus/atout_duel.node
'use strict';
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const { Client } = require('colyseus.js');

const addon = process.argv[process.argv.indexOf('--addon') + 1];
if (process.argv.indexOf('--addon') < 0 || !addon) {
  console.error('room_test.js: give --addon PATH/atout_duel.node');
  process.exit(2);
}

let failures = 0;
function check(ok, what) {
  if (!ok) {
    ++failures;
    console.error(`FAIL: ${what}`);
  }
  return ok;
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// One seat's messages in order, and a way to wait for the next.
class Inbox {
  constructor(room) {
    this.items = [];
    this.waiters = [];
    room.onMessage('event', (text) => this.push({ type: 'event', text, e: JSON.parse(text) }));
    room.onMessage('error', (e) => this.push({ type: 'error', e }));
  }
  push(m) {
    const w = this.waiters.shift();
    if (w) w(m);
    else this.items.push(m);
  }
  next(ms = 5000) {
    if (this.items.length) return Promise.resolve(this.items.shift());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no message within 5 s')), ms);
      this.waiters.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  }
}

// The cards of `otherHand` that appear in `mine` (an event text), leaving out what both seats may
// know: the deal's turned-up card (public, then taken into a hand), shown declarations, and the
// action just played with the hand it ended (its card may be dealt again in the next hand).
function leaks(mine, otherHand, turnUp) {
  const e = JSON.parse(mine);
  delete e.observation.declarations;
  delete e.last_action;
  delete e.hand_result;
  const text = JSON.stringify(e);
  return otherHand.filter((c) => c !== turnUp && text.includes(`"${c}"`));
}

async function main() {
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(__dirname, 'server.js'), '--port', String(port), '--addon', addon], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    server.on('exit', (code) => reject(new Error(`server.js exited (${code})`)));
    server.stdout.on('data', (d) => String(d).includes('listening') && resolve());
  });
  try {
    const client = new Client(`ws://127.0.0.1:${port}`);
    const rooms = [await client.create('duel')];
    rooms.push(await client.joinById(rooms[0].roomId));
    const inbox = rooms.map((r) => new Inbox(r));

    rooms[0].send('action', { action: '{"type":"pass"}', id: 1 });
    let m = await inbox[0].next();
    check(m.type === 'error' && m.e.code === 'match_not_running' && m.e.id === 1, `an action before the match: ${JSON.stringify(m.e)}`);

    rooms[0].send('sit');
    rooms[1].send('sit');
    let ev = [(await inbox[0].next()).e, (await inbox[1].next()).e];
    let texts = ev.map((x) => JSON.stringify(x));
    check(ev[0].kind === 'start' && ev[1].kind === 'start', 'both seats get the start event');
    check(ev[0].observation.seat !== ev[1].observation.seat, 'the two clients hold different seats');
    check(ev[0].observation.hand.length === 6 && ev[1].observation.hand.length === 6, 'each seat sees its 6 cards');
    check(typeof ev[0].commitment?.hash === 'string', 'the event commits to the deal');
    const bySeat = (e) => (e[0].observation.seat === 0 ? [0, 1] : [1, 0]);
    let [c0, c1] = bySeat(ev); // client index of seat 0 and of seat 1
    const clientOf = (seat) => (seat === 0 ? c0 : c1);

    let cur = ev[0].observation.current;
    const other = 1 - cur;
    const legalNow = ev[clientOf(cur)].observation.legal;
    check(legalNow.length > 0 && ev[clientOf(other)].observation.legal.length === 0, 'only the seat to act has legal actions');
    rooms[clientOf(other)].send('action', { action: JSON.stringify(legalNow[0]), id: 2 });
    m = await inbox[clientOf(other)].next();
    check(m.type === 'error' && m.e.code === 'illegal_action' && m.e.message.includes('not_your_turn'), `out of turn: ${JSON.stringify(m.e)}`);
    rooms[clientOf(cur)].send('action', { action: '{"type":"play","card":', id: 3 });
    m = await inbox[clientOf(cur)].next();
    check(m.type === 'error' && m.e.code === 'bad_action', `a malformed action: ${JSON.stringify(m.e)}`);
    rooms[clientOf(cur)].send('action', { action: JSON.stringify({ type: 'play', card: ev[clientOf(cur)].observation.hand[0] }), id: 4 });
    m = await inbox[clientOf(cur)].next();
    check(m.type === 'error' && m.e.code === 'illegal_action', `a card during the bidding: ${JSON.stringify(m.e)}`);
    rooms[clientOf(cur)].send('action', { action: 7, id: 5 });
    m = await inbox[clientOf(cur)].next();
    check(m.type === 'error' && m.e.code === 'bad_request', `an action that is not text: ${JSON.stringify(m.e)}`);

    // The whole match, random legal actions, checking every pair of events.
    let id = 10;
    let steps = 0;
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    let seq = ev[0].seq;
    let turnUp = ev[0].observation.turn_up;
    let checked = 0;
    for (;;) {
      if (ev[0].observation.turn_up) turnUp = ev[0].observation.turn_up;
      const hands = [ev[c0].observation.hand, ev[c1].observation.hand];
      checked += hands[0].length + hands[1].length;
      const leak0 = leaks(texts[c0], hands[1], turnUp);
      const leak1 = leaks(texts[c1], hands[0], turnUp);
      check(leak0.length === 0 && leak1.length === 0, `step ${steps}: a hidden card reached the other seat (${leak0} ${leak1})`);
      if (ev[0].match_result) break;
      cur = ev[0].observation.current;
      const legal = ev[clientOf(cur)].observation.legal;
      if (!check(legal.length > 0, `step ${steps}: the seat to act has legal actions`)) break;
      rooms[clientOf(cur)].send('action', { action: JSON.stringify(legal[Math.floor(random() * legal.length)]), id: ++id });
      ev = [(await inbox[0].next()).e, (await inbox[1].next()).e];
      texts = ev.map((x) => JSON.stringify(x));
      if (!check(ev[0].kind === 'action' && ev[1].kind === 'action', `step ${steps}: events, not ${JSON.stringify(ev)}`)) break;
      check(ev[clientOf(cur)].id === id && ev[clientOf(1 - cur)].id === undefined, `step ${steps}: only the actor's event has its id`);
      check(ev[0].seq === seq + 1 && ev[1].seq === seq + 1, `step ${steps}: seq goes up by one`);
      seq = ev[0].seq;
      if (++steps > 5000) {
        check(false, 'the match ended within 5,000 actions');
        break;
      }
    }
    check(ev[0].match_result && ev[1].match_result, 'both seats get the match result');
    const again = [(await inbox[0].next()).e, (await inbox[1].next()).e];
    check(again[0].kind === 'start' && again[0].seq === 0 && again[0].observation.hand.length === 6, 'the room deals a new match');
    check(checked > 1000, `the hiding check saw the hands (${checked} cards)`);
    console.log(`room_test: ${steps} actions played, ${checked} hidden cards checked, ${failures} failure(s)`);
    for (const r of rooms) r.connection.close();
  } finally {
    server.kill('SIGTERM');
  }
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(`room_test.js: ${e.stack || e}`);
  process.exit(1);
});
