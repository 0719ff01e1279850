import { describe, expect, it } from 'vitest';
import { Client, type KeyValue, type Socket } from '../src/client';
import { event } from './fixtures';

class FakeSocket implements Socket {
  readyState = 1;
  sent: Record<string, unknown>[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {}
  receive(m: object) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  types() {
    return this.sent.map((m) => m.type);
  }
}

class Memory implements KeyValue {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

const kToken = 'a'.repeat(64);
const welcome = { type: 'welcome', protocol: 1, player_id: 'p1', name: 'ann', token: kToken, resumed: false, seats: [] };

function setup(storage = new Memory()) {
  const sockets: FakeSocket[] = [];
  const timers: (() => void)[] = [];
  const urls: (string | undefined)[] = [];
  const waits: number[] = [];
  const clock = { ms: 0 };
  const client = new Client(
    (url) => {
      const s = new FakeSocket();
      sockets.push(s);
      urls.push(url);
      return s;
    },
    storage,
    () => clock.ms,
    (f, ms) => {
      timers.push(f);
      waits.push(ms);
    },
  );
  return { client, sockets, timers, storage, urls, waits, clock };
}

// Starts the client of `s` and seats it in seat 0 of `table_id`, whose last event is `seq`.
function seat_at(s: ReturnType<typeof setup>, table_id: string, seq: number) {
  s.client.start();
  s.sockets[0].onopen?.({});
  s.sockets[0].receive(welcome);
  s.sockets[0].receive({ type: 'seated', table_id, seat: 0, resumed: false });
  s.sockets[0].receive(event(seq, { table_id }));
}

// Opens the page from an invite link: socket `index` opens and is welcomed, and the client asks
// for the invite's table.
function follow_invite(client: Client, sockets: FakeSocket[], invite: string, index = 0) {
  client.start(invite);
  sockets[index].onopen?.({});
  sockets[index].receive(welcome);
}

// The answer of a node that cannot look an invite up this moment.
const kInviteUnsure = { type: 'error', code: 'bad_invite', message: 'x', moving: true };

describe('Client', () => {
  it('says hello, keeps the token, and asks for variants and the lobby', () => {
    const { client, sockets, storage } = setup();
    client.set_name('ann');
    client.start();
    sockets[0].onopen?.({});
    expect(sockets[0].sent[0]).toMatchObject({ type: 'hello', protocol: 1, name: 'ann' });
    expect(sockets[0].sent[0].token).toBeUndefined();
    sockets[0].receive(welcome);
    expect(storage.getItem('atout.token')).toBe(kToken);
    expect(sockets[0].types()).toEqual(['hello', 'list_variants', 'subscribe_lobby']);
    expect(client.state.connection).toBe('open');
  });

  it('after a reload, resumes its seat from the last seq it saw', () => {
    const first = setup();
    first.client.start();
    first.sockets[0].onopen?.({});
    first.sockets[0].receive(welcome);
    first.sockets[0].receive({ type: 'seated', table_id: 't1', seat: 1, resumed: false });
    first.sockets[0].receive(event(1, { kind: 'start', commitment: { match_id: 'm1', deal_number: 0, hash: 'aa' } }));
    first.sockets[0].receive(event(2));

    const again = setup(first.storage); // the page reloaded: same storage, new client
    expect(again.client.state.table?.last_seq).toBe(2);
    // The deal's commitment seen before the reload is still there to check the seed against.
    expect(again.client.state.table?.commitments).toEqual({ 0: 'aa' });
    expect(again.client.state.table?.match_id).toBe('m1');
    again.client.start();
    again.sockets[0].onopen?.({});
    expect(again.sockets[0].sent[0]).toMatchObject({ token: kToken, resume: [{ table_id: 't1', last_seq: 2 }] });
    again.sockets[0].receive({ ...welcome, resumed: true, seats: [{ table_id: 't1', seat: 1 }] });
    again.sockets[0].receive({ type: 'seated', table_id: 't1', seat: 1, resumed: true });
    again.sockets[0].receive(event(3, { replayed: true }));
    again.sockets[0].receive(event(3, { kind: 'snapshot' }));
    expect(again.client.state.table?.last_seq).toBe(3);
    expect(again.client.state.table?.duplicates).toBe(0);
    expect(again.client.state.table?.gaps).toBe(0);
  });

  it('after a reload, goes back to the lobby when the table it resumes has closed', () => {
    const first = setup();
    seat_at(first, 't7', 1);

    const again = setup(first.storage);
    expect(again.client.state.table?.table_id).toBe('t7');
    again.client.start();
    again.sockets[0].onopen?.({});
    expect(again.sockets[0].sent[0]).toMatchObject({ resume: [{ table_id: 't7', last_seq: 1 }] });
    // The match was forfeited and the table closed while the page was away.
    again.sockets[0].receive({ ...welcome, resumed: true, seats: [] });
    again.sockets[0].receive({ type: 'error', code: 'unknown_table', message: 'no table t7', table_id: 't7' });
    expect(again.client.state.table).toBeUndefined();
    expect(again.client.state.error).toMatchObject({ code: 'unknown_table' });
    expect(again.storage.getItem('atout.table')).toBeNull();
    // A later reload has nothing to resume.
    const third = setup(again.storage);
    third.client.start();
    third.sockets[0].onopen?.({});
    expect(third.sockets[0].sent[0].resume).toBeUndefined();
  });

  it('waits out a take-over of the table it resumes, then gives the table up after twelve in a row', () => {
    const first = setup();
    seat_at(first, 't7', 1);

    const { client, sockets, timers, waits, urls } = setup(first.storage);
    client.start();
    const moving = { type: 'error', code: 'unknown_table', message: 'x', table_id: 't7', moving: true };
    // Its node stopped and another is taking the table over: each answer is waited out, longer
    // each time, and the hello on a new connection (through the page's own server) resumes again.
    for (let i = 0; i < 3; ++i) {
      sockets[i].onopen?.({});
      expect(sockets[i].sent[0]).toMatchObject({ type: 'hello', resume: [{ table_id: 't7', last_seq: 1 }] });
      sockets[i].receive({ ...welcome, resumed: true, seats: [] });
      sockets[i].receive(moving);
      expect(client.state.table?.table_id).toBe('t7');
      expect(client.state.connection).toBe('closed');
      expect(urls.at(-1)).toBeUndefined();
      timers.shift()!();
    }
    expect(waits).toEqual([500, 1000, 2000]);
    // The new owner has it: the seat is back, and the count starts again.
    sockets[3].onopen?.({});
    sockets[3].receive({ ...welcome, resumed: true });
    sockets[3].receive({ type: 'seated', table_id: 't7', seat: 0, resumed: true });
    sockets[3].receive(event(2, { table_id: 't7', replayed: true }));
    expect(client.state.table?.last_seq).toBe(2);
    sockets[3].onclose?.({ code: 1006 });
    timers.shift()!();
    waits.length = 0;
    // A take-over that never ends: after twelve answers in a row the table is given up.
    for (let i = 4; i < 16; ++i) {
      sockets[i].onopen?.({});
      sockets[i].receive({ ...welcome, resumed: true, seats: [] });
      sockets[i].receive(moving);
      expect(client.state.table?.table_id).toBe('t7');
      timers.shift()!();
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000]);
    sockets[16].onopen?.({});
    sockets[16].receive({ ...welcome, resumed: true, seats: [] });
    sockets[16].receive(moving);
    expect(client.state.table).toBeUndefined();
    expect(client.state.error).toMatchObject({ code: 'unknown_table' });
    expect(timers).toHaveLength(0);
  });

  it('waits out a take-over of the table it watches, and watches it again', () => {
    const { client, sockets, timers, waits } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    client.spectate('t9');
    sockets[0].receive({ type: 'watching', table_id: 't9' });
    sockets[0].receive(event(4, { table_id: 't9' }, { seat: undefined, hand: undefined }));
    expect(client.state.table?.seat).toBeNull();
    // Its node stopped: the reconnection's spectate is told another node is taking the table over.
    sockets[0].onclose?.({ code: 1006 });
    timers.shift()!();
    waits.length = 0;
    const moving = { type: 'error', code: 'unknown_table', message: 'x', table_id: 't9', moving: true };
    for (let i = 1; i < 3; ++i) {
      sockets[i].onopen?.({});
      sockets[i].receive(welcome);
      expect(sockets[i].sent.at(-1)).toMatchObject({ type: 'spectate', table_id: 't9', last_seq: 4 });
      sockets[i].receive({ ...moving, id: sockets[i].sent.at(-1)!.id });
      expect(client.state.table?.table_id).toBe('t9');
      timers.shift()!();
    }
    expect(waits).toEqual([500, 1000]);
    sockets[3].onopen?.({});
    sockets[3].receive(welcome);
    sockets[3].receive({ type: 'watching', table_id: 't9', id: sockets[3].sent.at(-1)!.id });
    sockets[3].receive(event(5, { table_id: 't9', replayed: true }, { seat: undefined, hand: undefined }));
    expect(client.state.table?.last_seq).toBe(5);
    expect(client.state.error).toBeUndefined();
  });

  it('waits out a take-over as long as the cluster says one can take', () => {
    const first = setup();
    seat_at(first, 't7', 1);
    const { client, sockets, timers, waits, clock } = setup(first.storage);
    client.start();
    // A cluster of long leases: a take-over may take two minutes.
    const moving = { type: 'error', code: 'unknown_table', message: 'x', table_id: 't7', moving: true, takeover_ms: 120_000 };
    let i = 0;
    for (; clock.ms < 120_000; ++i) {
      sockets[i].onopen?.({});
      sockets[i].receive({ ...welcome, resumed: true, seats: [] });
      sockets[i].receive(moving);
      expect(client.state.table?.table_id).toBe('t7');
      clock.ms += waits.at(-1)!;
      timers.shift()!();
    }
    // Well past the twelve tries of a cluster that says nothing, every wait at most 5 s.
    expect(i).toBeGreaterThan(12);
    expect(Math.max(...waits)).toBe(5000);
    sockets[i].onopen?.({});
    sockets[i].receive({ ...welcome, resumed: true, seats: [] });
    sockets[i].receive(moving);
    expect(client.state.table).toBeUndefined();
    expect(client.state.error).toMatchObject({ code: 'unknown_table' });
  });

  it('after waiting out a take-over, gives the table up when it turns out to have closed', () => {
    const s = setup();
    const { client, sockets, timers } = s;
    seat_at(s, 't7', 3);
    // The table's node stopped: another node is taking it over.
    sockets[0].receive({ type: 'error', code: 'unknown_table', message: 'x', table_id: 't7', moving: true });
    expect(client.state.table?.table_id).toBe('t7');
    timers.shift()!();
    sockets[1].onopen?.({});
    sockets[1].receive({ ...welcome, resumed: true, seats: [] });
    // A plain unknown_table for another table changes nothing; for ours, the table is gone.
    sockets[1].receive({ type: 'error', id: 99, code: 'unknown_table', message: 'x', table_id: 't8' });
    expect(client.state.table?.table_id).toBe('t7');
    sockets[1].receive({ type: 'error', code: 'unknown_table', message: 'x', table_id: 't7' });
    expect(client.state.table).toBeUndefined();
    expect(client.state.error).toMatchObject({ code: 'unknown_table' });
  });

  it('goes back through its own server when the node it was sent to cannot be reached', () => {
    const s = setup();
    const { sockets, timers, urls } = s;
    seat_at(s, 't1', 5);
    sockets[0].receive({ type: 'redirect', table_id: 't1', url: 'ws://node-b/ws' });
    expect(urls.at(-1)).toBe('ws://node-b/ws');
    // Node b has stopped: the connection fails before it opens.
    sockets[1].onclose?.({ code: 1006 });
    timers.shift()!();
    expect(urls.at(-1)).toBeUndefined();
    sockets[2].onopen?.({});
    expect(sockets[2].sent[0]).toMatchObject({ type: 'hello', resume: [{ table_id: 't1', last_seq: 5 }] });
  });

  it('asks for deltas and applies them; a delta out of step closes the connection to resume', () => {
    const { client, sockets } = setup();
    client.start();
    sockets[0].onopen?.({});
    expect(sockets[0].sent[0]).toMatchObject({ type: 'hello', views: 'delta' });
    sockets[0].receive(welcome);
    sockets[0].receive({ type: 'seated', table_id: 't1', seat: 1, resumed: false });
    sockets[0].receive(event(1, { kind: 'start' }));
    sockets[0].receive({ type: 'delta', table_id: 't1', seq: 2, base: 1, kind: 'action', observation: { current: 2 } });
    expect(client.state.table?.last_seq).toBe(2);
    expect(client.state.table?.event?.observation.current).toBe(2);
    expect(client.state.table?.event?.observation.hand).toHaveLength(8);
    let closed = 0;
    sockets[0].close = () => void closed++;
    sockets[0].receive({ type: 'delta', table_id: 't1', seq: 4, base: 3, observation: { current: 0 } });
    expect(closed).toBe(1);
    expect(client.state.table?.last_seq).toBe(2);
  });

  it('starts again as a new guest when its token is unknown', () => {
    const storage = new Memory();
    storage.setItem('atout.token', kToken);
    const { client, sockets } = setup(storage);
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive({ type: 'error', code: 'unknown_token', message: 'no such token' });
    expect(storage.getItem('atout.token')).toBeNull();
    expect(sockets[0].sent[1].type).toBe('hello');
    expect(sockets[0].sent[1].token).toBeUndefined();
    expect(client.state.error?.code).toBe('unknown_token');
  });

  it('reconnects after a drop with a growing wait, but not after being replaced', () => {
    const { client, sockets, timers } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].onclose?.({ code: 1006 });
    expect(client.state.connection).toBe('closed');
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(sockets).toHaveLength(2);
    sockets[1].receive({ type: 'goodbye', reason: 'replaced', message: 'another connection' });
    sockets[1].onclose?.({ code: 4001 });
    expect(client.state.connection).toBe('replaced');
    expect(timers).toHaveLength(1);
  });

  it('joins an invite, and watches when the table is full', () => {
    const { client, sockets } = setup();
    client.start('0123456789abcdef0123456789abcdef');
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'sit', invite: '0123456789abcdef0123456789abcdef' });
    sockets[0].receive({ type: 'error', code: 'table_full', message: 'full' });
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'spectate', invite: '0123456789abcdef0123456789abcdef' });
    sockets[0].receive({ type: 'watching', table_id: 't4' });
    expect(client.state.table?.seat).toBeNull();
    expect(client.state.table?.invite).toBe('0123456789abcdef0123456789abcdef');
  });

  it('after a drop before an invite was answered, asks for a seat, then watches again', () => {
    const { client, sockets, timers } = setup();
    const invite = '0123456789abcdef0123456789abcdef';
    follow_invite(client, sockets, invite);
    sockets[0].receive({ type: 'error', code: 'table_full', message: 'full' });
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'spectate', invite });
    // The connection drops before the spectate is answered.
    sockets[0].onclose?.({ code: 1006 });
    timers.shift()!();
    sockets[1].onopen?.({});
    sockets[1].receive(welcome);
    expect(sockets[1].sent.at(-1)).toMatchObject({ type: 'sit', invite });
    sockets[1].receive({ type: 'error', code: 'table_full', message: 'full' });
    expect(sockets[1].sent.at(-1)).toMatchObject({ type: 'spectate', invite });
    sockets[1].receive({ type: 'watching', table_id: 't4' });
    expect(client.state.table?.seat).toBeNull();
  });

  it('watches a private table again after a drop, with its invite', () => {
    const { client, sockets, timers } = setup();
    const invite = '0123456789abcdef0123456789abcdef';
    follow_invite(client, sockets, invite);
    sockets[0].receive({ type: 'error', code: 'table_full', message: 'full' });
    sockets[0].receive({ type: 'watching', table_id: 't4' });
    // A spectator's view: no seat, no hand.
    sockets[0].receive(event(9, { table_id: 't4' }, { seat: undefined, hand: undefined }));
    sockets[0].onclose?.({ code: 1006 });
    timers[0]();
    sockets[1].onopen?.({});
    sockets[1].receive(welcome);
    expect(sockets[1].sent.at(-1)).toMatchObject({ type: 'spectate', table_id: 't4', last_seq: 9, invite });
  });

  it('gives a private table up when its invite names no table any more', () => {
    const { client, sockets, timers } = setup();
    const invite = '0123456789abcdef0123456789abcdef';
    follow_invite(client, sockets, invite);
    sockets[0].receive({ type: 'error', code: 'table_full', message: 'full' });
    sockets[0].receive({ type: 'watching', table_id: 't4' });
    sockets[0].receive(event(9, { table_id: 't4' }, { seat: undefined, hand: undefined }));
    sockets[0].onclose?.({ code: 1006 });
    timers[0]();
    sockets[1].onopen?.({});
    sockets[1].receive(welcome);
    const again = sockets[1].sent.at(-1)!;
    expect(again).toMatchObject({ type: 'spectate', table_id: 't4', invite });
    // The table closed meanwhile: its invite is unknown.
    sockets[1].receive({ type: 'error', id: again.id, code: 'bad_invite', message: 'no table has that invite code' });
    expect(client.state.table).toBeUndefined();
    expect(client.state.error).toMatchObject({ code: 'bad_invite' });
  });

  it('asks again with an invite that could not be looked up, and gives it up after twelve in a row', () => {
    const { client, sockets, timers, waits } = setup();
    const invite = '0123456789abcdef0123456789abcdef';
    follow_invite(client, sockets, invite);
    // The node cannot reach the cluster's Redis: the invite may still be good, so the same sit goes
    // again on the same connection after a wait, longer each time.
    for (let i = 0; i < 3; ++i) {
      const sit = sockets[0].sent.at(-1)!;
      expect(sit).toMatchObject({ type: 'sit', invite });
      sockets[0].receive({ ...kInviteUnsure, id: sit.id });
      expect(client.state.error).toBeUndefined();
      expect(client.state.connection).not.toBe('closed');
      timers.shift()!();
    }
    expect(waits).toEqual([500, 1000, 2000]);
    expect(sockets).toHaveLength(1);
    // Redis is back: the invite seats us.
    const sit = sockets[0].sent.at(-1)!;
    expect(sit).toMatchObject({ type: 'sit', invite });
    sockets[0].receive({ type: 'seated', id: sit.id, table_id: 't4', seat: 1 });
    expect(client.state.table?.table_id).toBe('t4');
    // Leaving while an invite waits to be asked again: it is not asked.
    client.leave();
    follow_invite(client, sockets, invite, 1);
    sockets[1].receive({ ...kInviteUnsure, id: sockets[1].sent.at(-1)!.id });
    // The row of waits started again with the new answer.
    expect(waits.at(-1)).toBe(500);
    const sent = sockets[1].sent.length;
    client.leave();
    timers.at(-1)!();
    expect(sockets[1].sent.slice(sent).filter((m) => m.type === 'sit')).toHaveLength(0);

    // Another page, whose node never reaches Redis again: after twelve waits the invite is refused.
    const other = setup();
    follow_invite(other.client, other.sockets, invite);
    for (let i = 0; i < 12; ++i) {
      other.sockets[0].receive({ ...kInviteUnsure, id: other.sockets[0].sent.at(-1)!.id });
      other.timers.shift()!();
    }
    expect(other.waits).toEqual([500, 1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000]);
    other.sockets[0].receive({ ...kInviteUnsure, id: other.sockets[0].sent.at(-1)!.id });
    expect(other.timers).toHaveLength(0);
    expect(other.client.state.error).toMatchObject({ code: 'bad_invite' });
    // The invite's table is being taken over: asked again the same way.
    const moved = setup();
    follow_invite(moved.client, moved.sockets, invite);
    const first = moved.sockets[0].sent.at(-1)!;
    moved.sockets[0].receive({ type: 'error', code: 'unknown_table', message: 'x', table_id: 't4', moving: true, id: first.id });
    expect(moved.client.state.error).toBeUndefined();
    moved.timers.shift()!();
    expect(moved.sockets[0].sent.at(-1)).toMatchObject({ type: 'sit', invite });
    expect(moved.sockets[0].sent.at(-1)!.id).not.toBe(first.id);
    // A bad_invite without `moving` is final at once.
    const third = setup();
    follow_invite(third.client, third.sockets, invite);
    third.sockets[0].receive({ type: 'error', code: 'bad_invite', message: 'x', id: third.sockets[0].sent.at(-1)!.id });
    expect(third.timers).toHaveLength(0);
    expect(third.client.state.error).toMatchObject({ code: 'bad_invite' });
  });

  it('keeps invite retries apart from take-overs, and asks once after a dropped connection', () => {
    const { client, sockets, timers, waits, clock } = setup();
    const invite = '0123456789abcdef0123456789abcdef';
    follow_invite(client, sockets, invite);
    for (let i = 0; i < 5; ++i) {
      sockets[0].receive({ ...kInviteUnsure, id: sockets[0].sent.at(-1)!.id });
      clock.ms += waits.at(-1)!;
      timers.shift()!();
    }
    // Redis is back, and the code names no table: final.
    sockets[0].receive({ type: 'error', code: 'bad_invite', message: 'x', id: sockets[0].sent.at(-1)!.id });
    expect(client.state.error).toMatchObject({ code: 'bad_invite' });
    expect(timers).toHaveLength(0);
    // Later, a table from the lobby, then a long take-over of it: waited out in full, from the
    // first wait, whatever the invite's answers were.
    clock.ms += 3_600_000;
    client.sit('t7');
    sockets[0].receive({ type: 'seated', table_id: 't7', seat: 0, resumed: false, id: sockets[0].sent.at(-1)!.id });
    waits.length = 0;
    const moving = { type: 'error', code: 'unknown_table', message: 'x', table_id: 't7', moving: true, takeover_ms: 120_000 };
    const start = clock.ms;
    for (let i = 0; clock.ms - start < 120_000; ++i) {
      if (i > 0) {
        sockets[i].onopen?.({});
        sockets[i].receive({ ...welcome, resumed: true, seats: [] });
      }
      sockets[i].receive(moving);
      expect(client.state.table?.table_id).toBe('t7');
      clock.ms += waits.at(-1)!;
      timers.shift()!();
    }
    expect(waits[0]).toBe(500);
    expect(waits.length).toBeGreaterThan(12);

    // Another page: the connection drops while an invite waits to be asked again. The new
    // connection's hello asks for it, and the wait set on the old one asks nothing more.
    const other = setup();
    follow_invite(other.client, other.sockets, invite);
    other.sockets[0].receive({ ...kInviteUnsure, id: other.sockets[0].sent.at(-1)!.id });
    const retry = other.timers.shift()!;
    other.sockets[0].onclose?.({ code: 1006 });
    other.timers.shift()!();
    other.sockets[1].onopen?.({});
    other.sockets[1].receive(welcome);
    const sits = () => other.sockets[1].sent.filter((m) => m.type === 'sit').length;
    expect(sits()).toBe(1);
    retry();
    expect(sits()).toBe(1);
    expect(other.sockets[0].sent.filter((m) => m.type === 'sit')).toHaveLength(1);
  });

  it('sits in the table it creates, and sends actions to its table', () => {
    const { client, sockets } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    client.create_table('french', { target: 501 }, false);
    sockets[0].receive({ type: 'table_created', table: { table_id: 't7' } });
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'sit', table_id: 't7' });
    client.act({ type: 'play', card: 'JS' });
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'action', table_id: 't7', action: { type: 'play', card: 'JS' } });
  });

  it('sits in the private table it creates with its invite, which alone names it', () => {
    const { client, sockets } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    client.create_table('duel', {}, true);
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'create_table', private: true });
    const invite = 'fedcba9876543210fedcba9876543210';
    sockets[0].receive({ type: 'table_created', table: { table_id: 't5' }, invite });
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'sit', table_id: 't5', invite });
    sockets[0].receive({ type: 'seated', table_id: 't5', seat: 0, resumed: false });
    // Stood up and sat again, or watching: the invite still goes along.
    client.sit('t5', 1);
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'sit', table_id: 't5', seat: 1, invite });
    client.spectate('t5');
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'spectate', table_id: 't5', invite });
    // Another table's sit carries no invite.
    client.sit('t6');
    expect(sockets[0].sent.at(-1)).toEqual({ type: 'sit', table_id: 't6', id: sockets[0].sent.at(-1)!.id });
  });

  it('plays against the computer: one create_table with bots, and no sit of its own', () => {
    const { client, sockets } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    client.play_computer('french', { target: 501 }, 'sampling');
    const request = sockets[0].sent.at(-1)!;
    expect(request).toMatchObject({
      type: 'create_table',
      variant: 'french',
      options: { target: 501 },
      bots: { level: 'sampling' },
    });
    expect(request.private).toBeUndefined();
    const sent = sockets[0].sent.length;
    sockets[0].receive({ type: 'table_created', id: request.id, table: { table_id: 't8' } });
    sockets[0].receive({ type: 'seated', table_id: 't8', seat: 0, resumed: false });
    expect(sockets[0].sent).toHaveLength(sent); // the server seated the creator itself
    expect(client.state.table).toMatchObject({ table_id: 't8', seat: 0, owner: true });

    // A later plain table is sat in as usual: the bots request was answered once and forgotten.
    client.create_table('french', {}, false);
    const plain = sockets[0].sent.at(-1)!;
    sockets[0].receive({ type: 'table_created', id: plain.id, table: { table_id: 't9' } });
    expect(sockets[0].sent.at(-1)).toMatchObject({ type: 'sit', table_id: 't9' });
  });

  it('a refused play_computer leaves the next table to be sat in', () => {
    const { client, sockets } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    client.play_computer('french', {}, 'rules');
    const request = sockets[0].sent.at(-1)!;
    sockets[0].receive({ type: 'error', id: request.id, code: 'too_many_tables', message: 'too many' });
    expect(client.state.error?.code).toBe('too_many_tables');
    expect(client.state.table).toBeUndefined();
  });

  it('adds and removes bots at its table, and keeps ownership across a reload', () => {
    const first = setup();
    first.client.start();
    first.sockets[0].onopen?.({});
    first.sockets[0].receive(welcome);
    first.client.create_table('french', {}, false);
    first.sockets[0].receive({ type: 'table_created', table: { table_id: 't3' } });
    first.sockets[0].receive({ type: 'seated', table_id: 't3', seat: 0, resumed: false });
    first.client.add_bot(2, 'random');
    expect(first.sockets[0].sent.at(-1)).toMatchObject({ type: 'add_bot', table_id: 't3', seat: 2, level: 'random' });
    first.client.remove_bot(2);
    expect(first.sockets[0].sent.at(-1)).toMatchObject({ type: 'remove_bot', table_id: 't3', seat: 2 });
    expect(first.sockets[0].sent.at(-1)?.level).toBeUndefined();

    const again = setup(first.storage);
    expect(again.client.state.table).toMatchObject({ table_id: 't3', owner: true });
  });

  it('sends no bot request without a table', () => {
    const { client, sockets } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    const sent = sockets[0].sent.length;
    client.add_bot(1, 'rules');
    client.remove_bot(1);
    expect(sockets[0].sent).toHaveLength(sent);
  });

  it('follows a redirect: sits again at the node that runs the table', () => {
    const { client, sockets, timers, urls } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    client.sit('t9', 1);
    const sit = sockets[0].sent.at(-1)!;
    expect(sit).toMatchObject({ type: 'sit', table_id: 't9', seat: 1 });
    sockets[0].receive({ type: 'redirect', id: sit.id, table_id: 't9', url: 'ws://node-b:8080/ws' });
    // At once, to the named node, not after a back-off; the old socket's close is not a drop.
    expect(urls).toEqual([undefined, 'ws://node-b:8080/ws']);
    sockets[0].onclose?.({ code: 1000 });
    expect(timers).toHaveLength(0);
    sockets[1].onopen?.({});
    expect(sockets[1].sent[0]).toMatchObject({ type: 'hello', token: kToken });
    sockets[1].receive({ ...welcome, resumed: true });
    expect(sockets[1].types()).toEqual(['hello', 'list_variants', 'subscribe_lobby', 'sit']);
    expect(sockets[1].sent.at(-1)).toMatchObject({ type: 'sit', table_id: 't9', seat: 1 });
    // Later reconnections go to that node too.
    sockets[1].onclose?.({ code: 1006 });
    timers.shift()!();
    expect(urls.at(-1)).toBe('ws://node-b:8080/ws');
  });

  it('follows a redirect of its resume: the hello there resumes the seat', () => {
    const s = setup();
    const { sockets, urls } = s;
    seat_at(s, 't1', 5);
    sockets[0].receive({ type: 'redirect', table_id: 't1', url: 'ws://node-c/ws' });
    expect(urls.at(-1)).toBe('ws://node-c/ws');
    sockets[1].onopen?.({});
    expect(sockets[1].sent[0]).toMatchObject({ type: 'hello', resume: [{ table_id: 't1', last_seq: 5 }] });
    sockets[1].receive({ ...welcome, resumed: true });
    expect(sockets[1].types()).not.toContain('sit');
  });

  it('reconnects and resumes when its node refuses an action at its own table as unknown', () => {
    const s = setup();
    const { client, sockets, timers, urls } = s;
    seat_at(s, 't1', 5);
    sockets[0].receive({ type: 'redirect', table_id: 't1', url: 'ws://node-c/ws' });
    sockets[1].onopen?.({});
    sockets[1].receive({ ...welcome, resumed: true });
    sockets[1].receive(event(6, { replayed: true }));
    client.act({ type: 'pass' });
    const action = sockets[1].sent.at(-1)!;
    expect(action).toMatchObject({ type: 'action', table_id: 't1' });
    // Node c has lost touch with the others: it no longer vouches for the table.
    sockets[1].receive({ type: 'error', id: action.id, code: 'unknown_table', message: 'x', table_id: 't1' });
    expect(client.state.connection).toBe('closed');
    // After the back-off, through the page's own server (not node c), resuming the seat.
    expect(timers).toHaveLength(1);
    timers.shift()!();
    expect(urls.at(-1)).toBeUndefined();
    sockets[2].onopen?.({});
    expect(sockets[2].sent[0]).toMatchObject({ type: 'hello', resume: [{ table_id: 't1', last_seq: 6 }] });
    // Any other error to an action, and unknown_table to another request, changes no connection.
    sockets[2].receive({ ...welcome, resumed: true });
    client.act({ type: 'pass' });
    const again = sockets[2].sent.at(-1)!;
    sockets[2].receive({ type: 'error', id: again.id, code: 'illegal_action', message: 'x', table_id: 't1' });
    sockets[2].receive({ type: 'error', id: 999, code: 'unknown_table', message: 'x', table_id: 't7' });
    expect(urls).toHaveLength(3);
    expect(timers).toHaveLength(0);
  });

  it('after a redirect, applies no delta to a base from the old node, and ignores the old socket', () => {
    const { client, sockets } = setup();
    client.start();
    sockets[0].onopen?.({});
    sockets[0].receive(welcome);
    sockets[0].receive({ type: 'seated', table_id: 't1', seat: 1, resumed: false });
    sockets[0].receive(event(1, { kind: 'start' }));
    sockets[0].receive({ type: 'redirect', table_id: 't1', url: 'ws://node-c/ws' });
    // The old node's socket is not read any more, even if it still delivers.
    sockets[0].receive({ type: 'delta', table_id: 't1', seq: 2, base: 1, observation: { current: 3 } });
    expect(client.state.table?.last_seq).toBe(1);
    sockets[1].onopen?.({});
    expect(sockets[1].sent[0]).toMatchObject({ type: 'hello', views: 'delta', resume: [{ table_id: 't1', last_seq: 1 }] });
    sockets[1].receive({ ...welcome, resumed: true });
    // A delta on the new socket before any whole event there has no base: the socket is closed.
    let closed = 0;
    sockets[1].close = () => void closed++;
    sockets[1].receive({ type: 'delta', table_id: 't1', seq: 2, base: 1, observation: { current: 3 } });
    expect(closed).toBe(1);
    expect(client.state.table?.last_seq).toBe(1);
    // The whole event the new node sends first is the base of the next delta.
    sockets[1].receive(event(2, { replayed: true }));
    sockets[1].receive({ type: 'delta', table_id: 't1', seq: 3, base: 2, observation: { current: 0 } });
    expect(closed).toBe(1);
    expect(client.state.table?.last_seq).toBe(3);
    expect(client.state.table?.event?.observation.current).toBe(0);
    expect(client.state.table?.event?.observation.hand).toHaveLength(8);
  });
});
