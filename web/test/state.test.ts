import { describe, expect, it } from 'vitest';
import type { HandResult } from '../src/protocol';
import { apply_event, initial_state, new_table, other_actions, playable, reduce, seat_controls } from '../src/state';
import { event, summary } from './fixtures';

const hand_result = (deal_number: number): HandResult => ({
  deal_number,
  dealer: 0,
  outcome: 'made',
  capot: false,
  teams: [
    { card_points: 100, last_trick: 10, declarations: 0, belote: 20, capot_bonus: 0, tricks: 5, raw: 130, score: 130 },
    { card_points: 52, last_trick: 0, declarations: 0, belote: 0, capot_bonus: 0, tricks: 3, raw: 52, score: 50 },
  ],
  held_before: 0,
  held_after: 0,
  match_score: [130, 50],
  seed: 'ab',
});

describe('apply_event', () => {
  it('keeps the first commitment published for each deal, to check against its revealed seed', () => {
    let t = new_table('t1', 1);
    const c = (deal_number: number, hash: string) => ({ commitment: { match_id: 'm1', deal_number, hash } });
    t = apply_event(t, event(1, c(0, 'aa')), 0);
    t = apply_event(t, event(2, c(0, 'bb')), 0); // a later, different hash does not replace the first
    t = apply_event(t, event(3, c(1, 'cc')), 0);
    t = apply_event(t, event(4), 0);
    expect(t.commitments).toEqual({ 0: 'aa', 1: 'cc' });
    expect(t.match_id).toBe('m1');
  });

  it('applies events in order and keeps the turn deadline', () => {
    let t = new_table('t1', 1);
    t = apply_event(t, event(1, { kind: 'start', turn_ms_left: 30000 }), 1000);
    t = apply_event(t, event(2, { turn_ms_left: 20000 }), 5000);
    expect(t.last_seq).toBe(2);
    expect(t.turn_deadline).toBe(25000);
    expect(t.duplicates).toBe(0);
    expect(t.gaps).toBe(0);
  });

  it('drops an event already seen, whether older or repeated', () => {
    let t = new_table('t1', 1);
    t = apply_event(t, event(1), 0);
    t = apply_event(t, event(2), 0);
    const again = apply_event(t, event(2, {}, { current: 3 }), 0);
    expect(again.event?.observation.current).toBe(1);
    expect(again.duplicates).toBe(1);
    const older = apply_event(again, event(1), 0);
    expect(older.last_seq).toBe(2);
    expect(older.duplicates).toBe(2);
  });

  it('takes a snapshot at the current seq as the view, and counts a jump as a gap', () => {
    let t = new_table('t1', 1);
    t = apply_event(t, event(3), 0);
    t = apply_event(t, event(3, { kind: 'snapshot' }, { current: 2 }), 0);
    expect(t.event?.observation.current).toBe(2);
    expect(t.duplicates).toBe(0);
    t = apply_event(t, event(5), 0);
    expect(t.gaps).toBe(1);
    expect(t.last_seq).toBe(5);
  });

  it('a resumed table applies the replayed events after its last seq and none before', () => {
    let t = { ...new_table('t1', 1), last_seq: 7 };
    t = apply_event(t, event(7, { replayed: true }), 0); // the table had it before the reload
    expect(t.event).toBeUndefined();
    t = apply_event(t, event(8, { replayed: true }), 0);
    t = apply_event(t, event(9, { kind: 'snapshot' }, { current: 0 }), 0);
    expect(t.last_seq).toBe(9);
    expect(t.event?.observation.current).toBe(0);
  });

  it('keeps hand results once each, from events and from the match result', () => {
    let t = new_table('t1', 1);
    t = apply_event(t, event(1, { hand_result: hand_result(0) }), 0);
    t = apply_event(t, event(1, { hand_result: hand_result(0) }), 0);
    t = apply_event(
      t,
      event(2, { match_result: { winner: 0, match_score: [501, 200], hands: [hand_result(0), hand_result(1)] } }),
      0,
    );
    expect(t.hands.map((h) => h.deal_number)).toEqual([0, 1]);
    expect(t.match_result?.match_score).toEqual([501, 200]);
  });

  it('keeps the last trick: from the tricks played, and across the end of a deal', () => {
    let t = new_table('t1', 1);
    t = apply_event(t, event(1, {}, { tricks: [{ leader: 0, cards: ['AS', 'KS', 'QS', 'JS'] }] }), 0);
    expect(t.last_trick?.cards).toEqual(['AS', 'KS', 'QS', 'JS']);
    expect(t.last_trick_winner).toBe(0); // the fixture's current trick is led by seat 0
    const contract = { taker: 1, trump: 'clubs' as const, multiplier: 1 };
    t = apply_event(t, event(2, {}, { trick: { leader: 2, cards: ['7H', '8H', '9H'] }, tricks: [], contract }), 0);
    t = apply_event(
      t,
      event(
        3,
        { hand_result: hand_result(0), last_action: { seat: 1, action: { type: 'play', card: 'TH' } } },
        { phase: 'bidding', trick: undefined, tricks: undefined },
      ),
      0,
    );
    expect(t.last_trick).toEqual({ leader: 2, cards: ['7H', '8H', '9H', 'TH'] });
    expect(t.last_trick_winner).toBe(1); // the ten of hearts, played by seat 1, with clubs trumps
    t = apply_event(t, event(4, {}, { phase: 'bidding', trick: undefined, tricks: undefined }), 0);
    expect(t.last_trick).toBeUndefined();
    expect(t.last_trick_winner).toBeUndefined();
  });

  it('names the winner of the last trick by who leads the next, and keeps the match id', () => {
    let t = new_table('t1', 1);
    t = apply_event(
      t,
      event(
        1,
        { commitment: { match_id: 'm1', deal_number: 0, hash: 'ab' } },
        { tricks: [{ leader: 0, cards: ['7S', '8S', '9S', 'AS'] }], trick: { leader: 3, cards: [] } },
      ),
      0,
    );
    expect(t.last_trick_winner).toBe(3);
    t = apply_event(t, event(2), 0);
    expect(t.match_id).toBe('m1');
  });

  it('a snapshot without a seat (after stand) makes the table a watched one', () => {
    let t = new_table('t1', 1);
    t = apply_event(t, event(4, { kind: 'snapshot' }, { seat: undefined, hand: undefined }), 0);
    expect(t.seat).toBeNull();
  });
});

describe('reduce', () => {
  it('keeps the lobby from tables, updates and removals', () => {
    let s = initial_state();
    s = reduce(s, { type: 'tables', offset: 0, limit: 100, total: 1, tables: [summary()] }, 0);
    s = reduce(s, { type: 'lobby_update', table: summary({ table_id: 't2' }) }, 0);
    expect(Object.keys(s.lobby).sort()).toEqual(['t1', 't2']);
    s = reduce(s, { type: 'lobby_remove', table_id: 't1' }, 0);
    expect(Object.keys(s.lobby)).toEqual(['t2']);
  });

  it('follows a table from creation to a seat, and ignores other tables', () => {
    let s = initial_state();
    s = reduce(s, { type: 'table_created', table: summary(), invite: 'abc' }, 0);
    expect(s.table?.seat).toBeNull();
    expect(s.table?.invite).toBe('abc');
    s = reduce(s, { type: 'seated', table_id: 't1', seat: 2, resumed: false }, 0);
    expect(s.table?.seat).toBe(2);
    expect(s.table?.invite).toBe('abc');
    s = reduce(s, event(1), 0);
    s = reduce(s, { ...event(2), table_id: 't9' }, 0);
    expect(s.table?.last_seq).toBe(1);
    s = reduce(s, { type: 'table_update', table: summary({ table_id: 't9', status: 'playing' }) }, 0);
    expect(s.table?.summary?.status).toBe('waiting');
  });

  it('keeps errors for display and chat per table', () => {
    let s = reduce(initial_state(), { type: 'watching', table_id: 't1' }, 0);
    s = reduce(s, { type: 'error', code: 'seat_taken', message: 'taken' }, 0);
    expect(s.error?.code).toBe('seat_taken');
    s = reduce(s, { type: 'chat_message', table_id: 't1', player_id: 'p1', name: 'ann', text: 'hi' }, 0);
    s = reduce(s, { type: 'chat_message', player_id: 'p1', name: 'ann', text: 'lobby' }, 0);
    expect(s.table?.chat.map((m) => m.text)).toEqual(['hi']);
    expect(s.lobby_chat.map((m) => m.text)).toEqual(['lobby']);
  });

  it('a goodbye for a replaced connection says so', () => {
    const s = reduce(initial_state(), { type: 'goodbye', reason: 'replaced', message: 'replaced' }, 0);
    expect(s.connection).toBe('replaced');
  });
});

describe('legal actions', () => {
  it('marks only the cards the legal list offers, and offers every other form as given', () => {
    let t = new_table('t1', 1);
    t = apply_event(
      t,
      event(1, {}, {
        legal: [
          { type: 'play', card: 'JS' },
          { type: 'play', card: '9S' },
          { type: 'announce', cards: ['KH', 'QH'] },
        ],
      }),
      0,
    );
    expect(playable(t, 'JS')).toBe(true);
    expect(playable(t, 'AH')).toBe(false);
    expect(other_actions(t)).toEqual([{ type: 'announce', cards: ['KH', 'QH'] }]);
    expect(playable(undefined, 'JS')).toBe(false);
  });
});

describe('seat_controls', () => {
  const bot_seat = (seat: number) => ({
    seat,
    player_id: 'bot:rules',
    name: 'bot:rules',
    connected: true,
    away: false,
    bot: 'rules' as const,
  });
  const person = (seat: number) => ({ seat, player_id: 'p1', name: 'ann', connected: true, away: false });
  const free = (seat: number) => ({ seat, player_id: null, name: null, connected: false, away: false });
  const seats = [person(0), bot_seat(1), free(2), free(3)];

  it('offers the owner a bot for each free seat and removal of each bot, before the match', () => {
    const created = reduce(initial_state(), { type: 'table_created', table: summary({ seats }) }, 0);
    expect(created.table?.owner).toBe(true);
    expect(seat_controls(created.table)).toEqual([null, 'remove_bot', 'add_bot', 'add_bot']);
  });

  it('keeps the last free seat for a person while only bots sit', () => {
    const owned = { ...new_table('t1', 0), owner: true };
    const bots_only = { ...owned, summary: summary({ seats: [bot_seat(0), bot_seat(1), bot_seat(2), free(3)] }) };
    expect(seat_controls(bots_only)).toEqual(['remove_bot', 'remove_bot', 'remove_bot', null]);
    const two_free = { ...owned, summary: summary({ seats: [bot_seat(0), bot_seat(1), free(2), free(3)] }) };
    expect(seat_controls(two_free)).toEqual(['remove_bot', 'remove_bot', 'add_bot', 'add_bot']);
    const with_person = { ...owned, summary: summary({ seats: [person(0), bot_seat(1), bot_seat(2), free(3)] }) };
    expect(seat_controls(with_person)).toEqual([null, 'remove_bot', 'remove_bot', 'add_bot']);
  });

  it('offers nothing to a player who did not make the table', () => {
    const t = { ...new_table('t1', 0), summary: summary({ seats }) };
    expect(t.owner).toBe(false);
    expect(seat_controls(t)).toEqual([null, null, null, null]);
  });

  it('offers nothing once the match has started, nor without a summary', () => {
    const owned = { ...new_table('t1', 0), owner: true };
    expect(seat_controls(owned)).toEqual([]);
    expect(seat_controls(undefined)).toEqual([]);
    const playing = { ...owned, summary: summary({ seats, status: 'playing' }) };
    expect(seat_controls(playing)).toEqual([null, null, null, null]);
    // The start event may come before the table_update that says "playing".
    const started = apply_event({ ...owned, summary: summary({ seats }) }, event(1, { kind: 'start' }), 0);
    expect(seat_controls(started)).toEqual([null, null, null, null]);
  });

  it('keeps ownership through a seat and a table update of the same table', () => {
    let s = reduce(initial_state(), { type: 'table_created', table: summary({ seats }) }, 0);
    s = reduce(s, { type: 'seated', table_id: 't1', seat: 0, resumed: false }, 0);
    s = reduce(s, { type: 'table_update', table: summary({ seats: [person(0), free(1), free(2), free(3)] }) }, 0);
    expect(s.table?.owner).toBe(true);
    expect(seat_controls(s.table)).toEqual([null, 'add_bot', 'add_bot', 'add_bot']);
    // Sitting at another table is not owning it.
    s = reduce(s, { type: 'seated', table_id: 't2', seat: 1, resumed: false }, 0);
    expect(s.table?.owner).toBe(false);
  });
});
