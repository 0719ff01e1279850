import { describe, expect, it } from 'vitest';
import type { Replay, SeatedAction } from '../src/protocol';
import { clamp_step, deal_step, replay_view, split_deals } from '../src/replay';

const pass = (seat: number): SeatedAction => ({ type: 'pass', seat });
const play = (seat: number, card: string): SeatedAction => ({ type: 'play', seat, card });

// Deal 0 (dealer 0): everyone passes twice. Deal 1 (dealer 1): seat 3 takes in the first round
// (the record does not name the trump: spades, as the tricks show), three tricks are played.
// Deal 2 (dealer 2) has begun with seat 3 passing.
function record(over: Partial<Replay> = {}): Replay {
  const actions: SeatedAction[] = [
    ...[1, 2, 3, 0, 1, 2, 3, 0].map(pass),
    pass(2),
    { type: 'take', seat: 3 },
    ...[play(2, 'AH'), play(3, '7S'), play(0, 'KH'), play(1, '8H')], // seat 3 trumps
    ...[play(3, 'JS'), play(0, '7D'), play(1, '9S'), play(2, '7C')], // jack of trumps
    ...[play(3, 'AD'), play(0, 'TD'), play(1, '8D'), play(2, 'KD')],
    pass(3),
  ];
  return {
    variant: 'french',
    options: {},
    dealer: 0,
    actions,
    match_id: 'm1',
    table_id: 't1',
    seats: [0, 1, 2, 3].map((seat) => ({ seat, team: seat % 2, player_id: `p${seat}`, name: `n${seat}` })),
    deals: [0, 1, 2].map((d) => ({ deal_number: d, dealer: d, commitment: '0'.repeat(64), seed: '0'.repeat(32), result: null })),
    rated: true,
    started_at: 0,
    ended_at: 1,
    end_reason: 'finished',
    match_score: [12, 34],
    winner: 1,
    bot_actions: [{ action: 9, by_bot: 'rules' }],
    ...over,
  };
}

describe('split_deals', () => {
  it('cuts the actions into deals: after a card, and where an all-passed deal gives way to the next', () => {
    const deals = split_deals(record());
    expect(deals.map((d) => [d.first, d.end, d.dealer])).toEqual([
      [0, 8, 0],
      [8, 22, 1],
      [22, 23, 2],
    ]);
    expect(deals[0].tricks).toEqual([]);
  });

  it('two all-passed deals in a row are two deals: the next dealer\'s first bidder breaks the turn order', () => {
    const r = record({ actions: [...[1, 2, 3, 0, 1, 2, 3, 0].map(pass), ...[2, 3, 0, 1].map(pass)] });
    expect(split_deals(r).map((d) => [d.first, d.end])).toEqual([
      [0, 8],
      [8, 12],
    ]);
  });

  it('the answers to a coinche, out of the turn order, stay in their deal', () => {
    // Dealer 0: seat 2 bids, seat 3 coinches; seat 0 then seat 2 (out of turn, and the next
    // dealer's first bidder) pass; the cards follow.
    const actions: SeatedAction[] = [
      pass(1),
      { type: 'bid', seat: 2, value: 80, trump: 'hearts' },
      { type: 'double', seat: 3 },
      pass(0),
      pass(2),
      play(1, 'AH'),
    ];
    const r = record({ variant: 'coinche', actions });
    expect(split_deals(r).map((d) => [d.first, d.end])).toEqual([[0, 6]]);
  });

  it('shows each seat\'s hand from its plays, the winners of the tricks, and the trump they imply', () => {
    const deal = split_deals(record())[1];
    expect(deal.hands).toEqual([
      ['KH', '7D', 'TD'],
      ['8H', '9S', '8D'],
      ['AH', '7C', 'KD'],
      ['7S', 'JS', 'AD'],
    ]);
    expect(deal.trump).toBe('spades');
    expect(deal.tricks.map((t) => [t.leader, t.winner])).toEqual([
      [2, 3],
      [3, 3],
      [3, 3], // the last trick: by the rules, with spades trumps
    ]);
  });

  it('a trump the auction names is taken as it is, and an ambiguous one is left unknown', () => {
    const named = record();
    named.actions[9] = { type: 'take', seat: 3, trump: 'hearts' };
    expect(split_deals(named)[1].trump).toBe('hearts');
    // One trick only: nothing tells the trump, so the last trick has no winner.
    const short = record({ actions: record().actions.slice(0, 14) });
    const deal = split_deals(short)[1];
    expect(deal.trump).toBeUndefined();
    expect(deal.tricks[0].winner).toBeUndefined();
  });

  it('an empty record has no deals', () => {
    expect(split_deals(record({ actions: [] }))).toEqual([]);
  });
});

describe('replay_view', () => {
  const r = record();
  const deals = split_deals(r);

  it('starts before the first action, in the first deal', () => {
    const v = replay_view(r, deals, 0);
    expect(v.deal_index).toBe(0);
    expect(v.bids).toEqual([]);
    expect(v.last).toBeUndefined();
    expect(v.finished).toBe(false);
  });

  it('steps through the auction and the play, with what each seat still holds', () => {
    expect(replay_view(r, deals, 8).bids).toHaveLength(8);
    const bidding = replay_view(r, deals, 10);
    expect(bidding.deal_index).toBe(1);
    expect(bidding.bids.map((b) => b.type)).toEqual(['pass', 'take']);
    expect(bidding.last_by_bot).toBe('rules');
    expect(bidding.hands[2]).toEqual(['AH', '7C', 'KD']);
    const one_card = replay_view(r, deals, 11);
    expect(one_card.trick).toEqual({ leader: 2, cards: ['AH'] });
    expect(one_card.hands[2]).toEqual(['7C', 'KD']);
    expect(one_card.last_by_bot).toBeUndefined();
    const trick_done = replay_view(r, deals, 14);
    expect(trick_done.trick?.winner).toBe(3);
    expect(trick_done.tricks_done).toBe(1);
    expect(trick_done.tricks_won).toEqual([0, 1]);
    const deal_done = replay_view(r, deals, 22);
    expect(deal_done.deal_index).toBe(1);
    expect(deal_done.tricks_won).toEqual([0, 3]);
    expect(deal_done.hands).toEqual([[], [], [], []]);
  });

  it('ends on the last action, and steps out of range are held to it', () => {
    expect(replay_view(r, deals, 23).finished).toBe(true);
    expect(replay_view(r, deals, 99).step).toBe(23);
    expect(replay_view(r, deals, -5).step).toBe(0);
    expect(clamp_step(r, 4.7)).toBe(4);
  });

  it('steps deal by deal', () => {
    expect(deal_step(deals, replay_view(r, deals, 3), 1)).toBe(9);
    expect(deal_step(deals, replay_view(r, deals, 12), 1)).toBe(23);
    expect(deal_step(deals, replay_view(r, deals, 23), 1)).toBe(23);
    expect(deal_step(deals, replay_view(r, deals, 12), -1)).toBe(9);
    expect(deal_step(deals, replay_view(r, deals, 9), -1)).toBe(1);
    expect(deal_step(deals, replay_view(r, deals, 1), -1)).toBe(0);
  });
});

// The first deal of a French match the server recorded: seat 3 takes in the first round, and the
// cards follow (seat and card, in order).
const kRecorded =
  '3KH 0JH 18H 29H 37D 0QD 1JD 28D 09S 1JS 2TS 37S 17C 2QC 38C 0JC 2TD 39D 0TH 1KD 2AH 3QH 0AC 18S 1AS 2AD 3KS 0QS ' +
  '1TC 2KC 37H 09C';

describe('a replay whose deals are dealt from their seeds', () => {
  const recorded = (seed: string) =>
    record({
      dealer: 2,
      actions: [{ type: 'take', seat: 3 }, ...kRecorded.split(' ').map((x) => play(Number(x[0]), x.slice(1)))],
      deals: [{ deal_number: 0, dealer: 2, commitment: '0'.repeat(64), seed, result: null }],
    });

  it('shows five cards each and the turned-up card before the take, then the trump it makes', () => {
    const r = recorded('13b4bb37963cd83ce167fee316fe7f93');
    const deals = split_deals(r);
    expect(deals[0].dealt).toBeDefined();
    const before = replay_view(r, deals, 0);
    expect(before.hands.map((h) => h.length)).toEqual([5, 5, 5, 5]);
    expect(before.turn_up).toBeDefined();
    const after = replay_view(r, deals, 1);
    expect(after.turn_up).toBeUndefined();
    expect(after.hands.map((h) => h.length)).toEqual([8, 8, 8, 8]);
    expect(after.hands[3]).toContain(before.turn_up);
    expect(deals[0].trump).toBe('spades'); // the suit of the turned-up card
    expect(before.turn_up?.endsWith('S')).toBe(true);
  });

  it('ignores a seed whose deal disagrees with the cards played', () => {
    const r = recorded('f965f46c1a235a0101e9c43347c6f7a5');
    const deals = split_deals(r);
    expect(deals[0].dealt).toBeUndefined();
    expect(replay_view(r, deals, 0).hands.map((h) => h.length)).toEqual([8, 8, 8, 8]);
    expect(replay_view(r, deals, 0).turn_up).toBeUndefined();
  });
});

