// A replay read from /api/matches/<id>/replay, stepped action by action: pure functions, no DOM.
// The record holds the actions, not the cards dealt, so each seat's hand is the cards its plays
// show, the winner of a trick is the seat that leads the next one (the last trick's by the rules
// of play), and a first-round take's trump, which the record does not name, is the suit that
// explains those winners.
import { kSuitOfTrump, suit_of, trick_winner } from './cards';
import { deal_pack, shuffled_pack, type Dealt } from './deal';
import type { BotLevel, Card, Replay, SeatedAction, Trick, Trump } from './protocol';

const kBidding = new Set(['pass', 'take', 'bid', 'double', 'redouble']);
const kSuitTrumps: Trump[] = ['clubs', 'diamonds', 'hearts', 'spades'];

export interface ReplayTrick extends Trick {
  winner?: number; // undefined only when the trump is not known
}

export interface ReplayDeal {
  deal_number: number;
  dealer: number;
  first: number; // index in the record's actions of the deal's first action
  end: number; // one past its last
  hands: Card[][]; // each seat's cards, as its plays show them
  tricks: ReplayTrick[]; // in order, the last one possibly unfinished (a concession)
  trump?: Trump; // of the contract: named in the auction, from the turned-up card, or from the tricks' winners
  dealt?: Dealt; // the cards as dealt from the deal's seed, when they agree with the cards played
}

export function players_of(r: Replay): number {
  return Math.max(r.seats.length, ...r.actions.map((a) => a.seat + 1), 2);
}

function dealer_of(r: Replay, deal: number, players: number): number {
  return r.deals[deal]?.dealer ?? (r.dealer + deal) % players;
}

// The record's actions cut into deals. A deal ends at a bid that follows a card, or, for a deal
// that everyone passed, at the next dealer's first bidder, who breaks the turn order.
export function split_deals(r: Replay): ReplayDeal[] {
  const players = players_of(r);
  const starts = [0];
  let played = false;
  let all_passed = r.actions[0]?.type === 'pass';
  r.actions.forEach((a, i) => {
    if (i === 0) return;
    const prev = r.actions[i - 1];
    const bidding = kBidding.has(a.type);
    const next_first = (dealer_of(r, starts.length, players) + 1) % players;
    // Only a deal of passes ends without a card; the answers to a coinche leave the turn order
    // but come before the cards.
    const restart =
      bidding && (played || (all_passed && a.seat === next_first && a.seat !== (prev.seat + 1) % players));
    if (restart) {
      starts.push(i);
      played = false;
      all_passed = true;
    }
    if (!bidding) played = true;
    all_passed = all_passed && a.type === 'pass';
  });
  if (r.actions.length === 0) return [];
  const deals = starts.map((first, k) => build_deal(r, k, first, starts[k + 1] ?? r.actions.length, players));
  attach_dealt(r, deals);
  return deals;
}

const same_cards = (a: Card[], b: Card[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

// The cards dealt from each deal's seed (French and duel, shuffled deals), kept only when every
// deal played out shows the same cards in each seat's plays as that seat was dealt.
function attach_dealt(r: Replay, deals: ReplayDeal[]) {
  if (r.options.deal === 'cut') return;
  const dealt = deals.map((d, k) => {
    const pack = shuffled_pack(r.deals[k]?.seed ?? '');
    const taker = r.actions
      .slice(d.first, d.end)
      .filter((a) => a.type === 'take')
      .pop()?.seat;
    return pack && deal_pack(r.variant, pack, d.dealer, taker);
  });
  let checked = 0;
  for (const [k, d] of deals.entries()) {
    const x = dealt[k];
    if (!x) return;
    const full_size = x.full?.[0].length ?? 0;
    const played_out = d.tricks.length === full_size && d.tricks.every((t) => t.cards.length === d.hands.length);
    if (!x.full || !played_out) continue;
    if (!x.full.every((h, seat) => same_cards(h, d.hands[seat]))) return;
    ++checked;
  }
  if (checked === 0) return;
  deals.forEach((d, k) => {
    d.dealt = dealt[k];
    // A first-round take without a named trump takes the turned-up card's suit.
    const take = r.actions.slice(d.first, d.end).filter((a) => a.type === 'take' || a.type === 'bid').pop();
    const turn_up = d.dealt?.turn_up;
    if (take && !take.trump && turn_up) {
      d.trump = (Object.keys(kSuitOfTrump) as Trump[]).find((t) => kSuitOfTrump[t] === suit_of(turn_up));
      d.tricks.forEach((t, i) => {
        if (i + 1 === d.tricks.length && t.cards.length === d.hands.length && d.trump)
          t.winner = trick_winner(t.cards, t.leader, d.hands.length, d.trump);
      });
    }
  });
}

// The contract's trump as the auction names it: the last take or bid, if it names one.
function named_trump(actions: SeatedAction[]): Trump | undefined | null {
  const last = [...actions].reverse().find((a) => a.type === 'take' || a.type === 'bid');
  if (!last) return null;
  return last.trump;
}

function build_deal(r: Replay, k: number, first: number, end: number, players: number): ReplayDeal {
  const actions = r.actions.slice(first, end);
  const hands: Card[][] = Array.from({ length: players }, () => []);
  const tricks: ReplayTrick[] = [];
  for (const a of actions) {
    if (a.type !== 'play' || !a.card) continue;
    hands[a.seat].push(a.card);
    const open = tricks[tricks.length - 1];
    if (!open || open.cards.length === players) tricks.push({ leader: a.seat, cards: [a.card] });
    else open.cards.push(a.card);
  }
  let trump = named_trump(actions.filter((a) => kBidding.has(a.type))) ?? undefined;
  // The next trick's leader won the one before; find the suit trump that agrees with all of them.
  const known = (t: Trump) =>
    tricks.every(
      (tr, i) => i + 1 >= tricks.length || trick_winner(tr.cards, tr.leader, players, t) === tricks[i + 1].leader,
    );
  if (trump === undefined && tricks.length > 1) {
    const fits = kSuitTrumps.filter(known);
    if (fits.length === 1) trump = fits[0];
  }
  tricks.forEach((tr, i) => {
    if (i + 1 < tricks.length) tr.winner = tricks[i + 1].leader;
    else if (tr.cards.length === players && trump !== undefined)
      tr.winner = trick_winner(tr.cards, tr.leader, players, trump);
  });
  const deal_number = r.deals[k]?.deal_number ?? k;
  return { deal_number, dealer: dealer_of(r, k, players), first, end, hands, tricks, trump };
}

// What the replay shows after its first `step` actions.
export interface ReplayView {
  step: number;
  total: number;
  deal?: ReplayDeal;
  deal_index: number;
  bids: SeatedAction[]; // this deal's auction so far
  trick?: ReplayTrick; // the trick being played, or the one just completed (with its winner)
  tricks_done: number; // completed tricks of this deal
  tricks_won: [number, number]; // by team, this deal so far
  hands: Card[][]; // what each seat still holds
  turn_up?: Card; // the turned-up card, while the auction runs (when the deal is known)
  last?: SeatedAction;
  last_by_bot?: BotLevel;
  finished: boolean; // every action taken: the stored result stands
}

export function clamp_step(r: Replay, step: number): number {
  return Math.max(0, Math.min(r.actions.length, Math.trunc(step)));
}

export function replay_view(r: Replay, deals: ReplayDeal[], raw_step: number): ReplayView {
  const step = clamp_step(r, raw_step);
  const total = r.actions.length;
  const players = players_of(r);
  const at = step === 0 ? 0 : step - 1; // the action just taken
  const deal_index = Math.max(0, deals.findIndex((d) => at >= d.first && at < d.end));
  const deal = deals[deal_index];
  const base: ReplayView = {
    step,
    total,
    deal_index,
    deal,
    bids: [],
    tricks_done: 0,
    tricks_won: [0, 0],
    hands: Array.from({ length: players }, () => []),
    finished: step === total,
  };
  if (!deal) return base;
  const taken = r.actions.slice(deal.first, Math.max(deal.first, step));
  const bids = taken.filter((a) => kBidding.has(a.type));
  const plays = taken.filter((a) => a.type === 'play' && a.card);
  const took = bids.some((a) => a.type === 'take');
  const held = deal.dealt ? ((took ? deal.dealt.full : undefined) ?? deal.dealt.first) : deal.hands;
  const hands = held.map((h, seat) => h.filter((c) => !plays.some((p) => p.seat === seat && p.card === c)));
  const turn_up = deal.dealt && !took ? deal.dealt.turn_up : undefined;
  const done = Math.floor(plays.length / players);
  const partial = plays.length % players;
  let trick: ReplayTrick | undefined;
  if (partial > 0) {
    const t = deal.tricks[done];
    trick = { leader: t.leader, cards: t.cards.slice(0, partial) };
  } else if (done > 0) {
    trick = deal.tricks[done - 1];
  }
  const tricks_won: [number, number] = [0, 0];
  for (const t of deal.tricks.slice(0, done)) if (t.winner !== undefined) tricks_won[t.winner % 2] += 1;
  const last = step > 0 ? r.actions[step - 1] : undefined;
  const last_by_bot = r.bot_actions.find((b) => b.action === step - 1)?.by_bot;
  return { ...base, bids, trick, tricks_done: done, tricks_won, hands, turn_up, last, last_by_bot };
}

// The first step of the deal after (or before) the one shown, for stepping deal by deal.
export function deal_step(deals: ReplayDeal[], view: ReplayView, direction: 1 | -1): number {
  if (direction === 1) {
    const next = deals[view.deal_index + 1];
    return next ? next.first + 1 : view.total;
  }
  const current = deals[view.deal_index];
  if (current && view.step > current.first + 1) return current.first + 1;
  const prev = deals[view.deal_index - 1];
  return prev ? prev.first + 1 : 0;
}
