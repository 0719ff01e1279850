// The client's state and how each server message changes it: pure functions, no sockets, no DOM.
import { trick_winner } from './cards';
import type {
  ChatMessage,
  ErrorMessage,
  EventMessage,
  HandResult,
  MatchResult,
  ServerMessage,
  TableSummary,
  Trick,
  VariantInfo,
} from './protocol';

export interface TableState {
  table_id: string;
  seat: number | null; // null: watching
  invite?: string;
  owner: boolean; // this player made the table: before the match starts it seats and removes bots
  summary?: TableSummary;
  last_seq: number; // the latest event applied; 0 before the match starts
  event?: EventMessage; // the current view
  last_trick?: Trick; // the last completed trick of the deal, or of the deal that just ended
  last_trick_winner?: number; // the seat that won it
  match_id?: string; // from the deal commitments: the match's replay once it has ended
  hands: HandResult[]; // every hand result seen, by deal
  // Each deal's commitment as first published during play (deal number to hash), to check against
  // the seed its hand result reveals.
  commitments: Record<number, string>;
  match_result?: MatchResult;
  turn_deadline?: number; // local clock (ms) when the seat to act runs out of time
  chat: ChatMessage[];
  duplicates: number; // events received again and dropped
  gaps: number; // events that did not follow the last one seen (resynchronised by the server)
}

export interface State {
  connection: 'connecting' | 'open' | 'closed' | 'replaced';
  player_id?: string;
  name?: string;
  variants: VariantInfo[];
  lobby: Record<string, TableSummary>;
  lobby_chat: ChatMessage[];
  table?: TableState;
  error?: ErrorMessage;
  notice?: string; // a goodbye or another thing to tell the player
}

export const kChatKept = 100;

export function initial_state(): State {
  return { connection: 'connecting', variants: [], lobby: {}, lobby_chat: [] };
}

export function new_table(table_id: string, seat: number | null, invite?: string): TableState {
  return {
    table_id,
    seat,
    invite,
    owner: false,
    last_seq: 0,
    hands: [],
    commitments: {},
    chat: [],
    duplicates: 0,
    gaps: 0,
  };
}

function add_hand(hands: HandResult[], h: HandResult): HandResult[] {
  if (hands.some((x) => x.deal_number === h.deal_number)) return hands;
  return [...hands, h].sort((a, b) => a.deal_number - b.deal_number);
}

// One event at the table: events already seen are dropped (a resume may overlap), a snapshot
// replaces the view at its seq, and the last trick is kept across the end of a deal.
export function apply_event(t: TableState, ev: EventMessage, now: number): TableState {
  const snapshot = ev.kind === 'snapshot';
  if (ev.seq < t.last_seq || (ev.seq === t.last_seq && !snapshot && t.last_seq > 0)) {
    return { ...t, duplicates: t.duplicates + 1 };
  }
  const gap = !snapshot && t.event !== undefined && ev.seq !== t.last_seq + 1 && ev.seq > t.last_seq;
  const obs = ev.observation;
  const players = obs.hand_sizes.length;
  let last_trick = t.last_trick;
  let last_trick_winner = t.last_trick_winner;
  if (obs.tricks && obs.tricks.length > 0) {
    last_trick = obs.tricks[obs.tricks.length - 1];
    // The winner of a trick leads the next one.
    last_trick_winner =
      obs.phase === 'playing' && obs.trick
        ? obs.trick.leader
        : trick_winner(last_trick.cards, last_trick.leader, players, obs.contract?.trump);
  } else if (ev.hand_result && ev.last_action?.action.type === 'play' && t.event?.observation.trick) {
    // The deal ended with this card: its trick is the previous one plus the card.
    const prev = t.event.observation.trick;
    last_trick = { leader: prev.leader, cards: [...prev.cards, ev.last_action.action.card ?? ''] };
    const trump = ev.hand_result.contract?.trump ?? t.event.observation.contract?.trump;
    last_trick_winner = trick_winner(last_trick.cards, last_trick.leader, players, trump);
  } else if (obs.phase === 'bidding') {
    last_trick = ev.hand_result ? last_trick : undefined;
    last_trick_winner = ev.hand_result ? last_trick_winner : undefined;
  }
  let hands = t.hands;
  if (ev.hand_result) hands = add_hand(hands, ev.hand_result);
  if (ev.match_result) for (const h of ev.match_result.hands) hands = add_hand(hands, h);
  const seat = obs.seat !== undefined ? obs.seat : snapshot ? null : t.seat;
  // The first commitment seen for a deal is the one the check holds the server to.
  const c = ev.commitment;
  const commitments = c && !(c.deal_number in t.commitments) ? { ...t.commitments, [c.deal_number]: c.hash } : t.commitments;
  return {
    ...t,
    seat,
    last_seq: ev.seq,
    event: ev,
    last_trick,
    last_trick_winner: last_trick ? last_trick_winner : undefined,
    match_id: ev.commitment?.match_id ?? t.match_id,
    hands,
    commitments,
    match_result: ev.match_result ?? t.match_result,
    turn_deadline: ev.turn_ms_left !== undefined ? now + ev.turn_ms_left : undefined,
    gaps: t.gaps + (gap ? 1 : 0),
  };
}

// Every server message, applied to the whole state.
export function reduce(s: State, m: ServerMessage, now: number): State {
  switch (m.type) {
    case 'welcome':
      return { ...s, connection: 'open', player_id: m.player_id, name: m.name, error: undefined };
    case 'variants':
      return { ...s, variants: m.variants };
    case 'tables': {
      const lobby: Record<string, TableSummary> = {};
      for (const t of m.tables) lobby[t.table_id] = t;
      return { ...s, lobby };
    }
    case 'lobby_update':
      return { ...s, lobby: { ...s.lobby, [m.table.table_id]: m.table } };
    case 'lobby_remove': {
      const lobby = { ...s.lobby };
      delete lobby[m.table_id];
      return { ...s, lobby };
    }
    case 'table_created':
      return { ...s, table: { ...new_table(m.table.table_id, null, m.invite), owner: true, summary: m.table } };
    case 'seated': {
      const keep = s.table && s.table.table_id === m.table_id;
      const base = keep && s.table ? s.table : new_table(m.table_id, m.seat);
      return { ...s, table: { ...base, seat: m.seat } };
    }
    case 'watching': {
      const keep = s.table && s.table.table_id === m.table_id;
      const base = keep && s.table ? s.table : new_table(m.table_id, null);
      return { ...s, table: { ...base, seat: null } };
    }
    case 'table_update':
      if (!s.table || s.table.table_id !== m.table.table_id) return s;
      return { ...s, table: { ...s.table, summary: m.table } };
    case 'event':
      if (!s.table || s.table.table_id !== m.table_id) return s;
      return { ...s, table: apply_event(s.table, m, now) };
    case 'ok':
      if (m.request === 'leave' && s.table && s.table.table_id === m.table_id) return { ...s, table: undefined };
      if (m.request === 'stand' && s.table && s.table.table_id === m.table_id)
        return { ...s, table: { ...s.table, seat: null } };
      return s;
    case 'chat_message': {
      if (m.table_id === undefined) return { ...s, lobby_chat: [...s.lobby_chat, m].slice(-kChatKept) };
      if (!s.table || s.table.table_id !== m.table_id) return s;
      return { ...s, table: { ...s.table, chat: [...s.table.chat, m].slice(-kChatKept) } };
    }
    case 'error':
      return { ...s, error: m };
    case 'goodbye':
      return { ...s, connection: m.reason === 'replaced' ? 'replaced' : 'closed', notice: m.message };
    default:
      return s;
  }
}

// Whether `card` may be played now: the legal list offers a play of it.
export function playable(t: TableState | undefined, card: string): boolean {
  return !!t?.event?.observation.legal.some((a) => a.type === 'play' && a.card === card);
}

// The legal actions that are not card plays: the bidding, doubling, declaring and conceding forms.
export function other_actions(t: TableState | undefined) {
  return (t?.event?.observation.legal ?? []).filter((a) => a.type !== 'play');
}

// What the table's owner may do at each seat before the match starts: seat a bot in a free seat,
// or take out the bot sitting there. Nothing for anyone else, or once the match has started. The
// server keeps the last free seat for a person while only bots sit at the table, so no bot is
// offered there then.
export type SeatControl = 'add_bot' | 'remove_bot' | null;

export function seat_controls(t: TableState | undefined): SeatControl[] {
  const summary = t?.summary;
  if (!t || !summary) return [];
  const open = t.owner && summary.status === 'waiting' && t.event === undefined;
  const free = summary.seats.filter((s) => s.player_id === null).length;
  const person = summary.seats.some((s) => s.player_id !== null && s.bot === undefined);
  return summary.seats.map((s) => {
    if (!open) return null;
    if (s.bot !== undefined) return 'remove_bot';
    if (s.player_id !== null) return null;
    return free > 1 || person ? 'add_bot' : null;
  });
}
