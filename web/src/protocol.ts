// The Atout protocol v1 as the client reads it: the server messages and shapes it uses. Field
// names follow protocol/schema/*.json; test/schema.test.ts checks them against those schemas.

export type Seat = number;
export type Card = string; // rank then suit: "JS", "TH"
export type BotLevel = 'random' | 'rules' | 'sampling';
export const kBotLevels: BotLevel[] = ['random', 'rules', 'sampling'];
export type Trump = 'clubs' | 'diamonds' | 'hearts' | 'spades' | 'no_trumps' | 'all_trumps';

export interface Action {
  type: string; // pass, take, bid, double, redouble, play, announce, show, concede
  trump?: Trump;
  value?: number;
  capot?: boolean;
  card?: Card;
  cards?: Card[];
}

export interface SeatedAction extends Action {
  seat: Seat;
}

export interface Contract {
  taker: Seat;
  trump: Trump;
  multiplier: number;
  value?: number;
  capot?: boolean;
  doubled_by?: Seat;
  redoubled_by?: Seat;
}

export interface Trick {
  leader: Seat;
  cards: Card[];
}

export interface Declaration {
  seat: Seat;
  kind: string;
  top: Card;
  points: number;
  shown: boolean;
  cards?: Card[];
}

export interface Observation {
  variant: string;
  phase: 'bidding' | 'playing' | 'match_over';
  deal_number: number;
  dealer: Seat;
  current: Seat;
  hand_sizes: number[];
  match_score: [number, number];
  held_points: number;
  bids: SeatedAction[];
  legal: Action[];
  seat?: Seat;
  hand?: Card[];
  turn_up?: Card;
  contract?: Contract;
  trick?: Trick;
  tricks?: Trick[];
  tricks_won?: number[];
  declarations?: Declaration[];
  belote?: Seat[];
}

export interface TeamTally {
  card_points: number;
  last_trick: number;
  declarations: number;
  belote: number;
  capot_bonus: number;
  tricks: number;
  raw: number;
  score: number;
}

export interface HandResult {
  deal_number: number;
  dealer: Seat;
  contract?: Contract;
  outcome: 'made' | 'failed' | 'tie_held' | 'all_passed';
  capot: boolean;
  capot_team?: number;
  teams: [TeamTally, TeamTally];
  held_before: number;
  held_after: number;
  match_score: [number, number];
  seed: string;
}

export interface MatchResult {
  winner: number;
  match_score: [number, number];
  hands: HandResult[];
  abandoned?: boolean;
  abandoned_by?: Seat;
}

export interface SeatInfo {
  seat: Seat;
  player_id: string | null;
  name: string | null;
  connected: boolean;
  away: boolean;
  bot?: BotLevel; // a server bot of this level sits here
}

export interface TableSettings {
  turn_ms: number;
  reconnect_ms: number;
  away_after: number;
  rated: boolean;
  abandon: 'forfeit' | 'free_seat';
  bot_level?: BotLevel;
}

export interface TableSummary {
  table_id: string;
  variant: string;
  options: Record<string, boolean | number | string>;
  private: boolean;
  status: 'waiting' | 'playing' | 'paused' | 'finished';
  settings: TableSettings;
  seats: SeatInfo[];
  free_seats: number;
  spectators: number;
  seq: number;
}

export interface OptionSpec {
  name: string;
  type: 'boolean' | 'integer' | 'choice';
  default: boolean | number | string;
  description: string;
  allowed?: number[];
  min?: number;
  max?: number;
  choices?: string[];
}

export interface VariantInfo {
  id: string;
  title: string;
  players: number;
  deck_size: number;
  options: OptionSpec[];
}

export interface Welcome {
  type: 'welcome';
  id?: number | string;
  protocol: number;
  player_id: string;
  name: string;
  token: string;
  resumed: boolean;
  seats: { table_id: string; seat: Seat }[];
}

export interface EventMessage {
  type: 'event';
  id?: number | string;
  table_id: string;
  seq: number;
  kind: 'start' | 'action' | 'snapshot' | 'abandoned';
  observation: Observation;
  last_action?: { seat: Seat; action: Action; redacted?: boolean; by_server?: boolean; by_bot?: BotLevel };
  commitment?: { match_id: string; deal_number: number; hash: string };
  hand_result?: HandResult;
  match_result?: MatchResult;
  turn_ms_left?: number;
  replayed?: boolean;
}

// An event as the change from the connection's previous one at the table (hello's views: delta):
// every key beside the frame's is the patch.
export interface DeltaMessage {
  type: 'delta';
  id?: number | string;
  table_id: string;
  seq?: number; // with base; both absent: the event after the last one
  base?: number;
  [patch: string]: unknown;
}

export interface ErrorMessage {
  type: 'error';
  id?: number | string;
  code: string;
  message: string;
  field?: string;
  reason?: string;
  table_id?: string;
  // With unknown_table on a server of several nodes: another node is taking the table over.
  moving?: boolean;
  // With moving: the longest the take-over can take (ms).
  takeover_ms?: number;
}

export interface ChatMessage {
  type: 'chat_message';
  table_id?: string;
  player_id: string;
  name: string;
  seat?: Seat;
  text: string;
}

export type ServerMessage =
  | Welcome
  | EventMessage
  | DeltaMessage
  | ErrorMessage
  | ChatMessage
  | { type: 'pong'; id?: number | string }
  | { type: 'variants'; id?: number | string; variants: VariantInfo[] }
  | { type: 'tables'; id?: number | string; offset: number; limit: number; total: number; tables: TableSummary[] }
  | { type: 'table_created'; id?: number | string; table: TableSummary; invite?: string }
  | { type: 'seated'; id?: number | string; table_id: string; seat: Seat; resumed: boolean }
  | { type: 'watching'; id?: number | string; table_id: string }
  | { type: 'ok'; id?: number | string; request: string; table_id?: string }
  | { type: 'accepted'; id?: number | string; table_id: string; seq: number }
  | { type: 'table_update'; table: TableSummary }
  | { type: 'lobby_update'; table: TableSummary }
  | { type: 'lobby_remove'; table_id: string }
  | { type: 'goodbye'; reason: 'replaced' | 'shutdown'; message: string }
  | { type: 'redirect'; id?: number | string; table_id: string; url: string };

// The reads of the HTTP API (/api/...): the same JSON as the WebSocket replies of these names.

export interface ReplaySeat {
  seat: Seat;
  team: number;
  player_id: string;
  name: string;
}

// An ended match: an atout-record/1 record (its actions, each with its seat) and how it ended.
// One card of an ended deal valued with every hand known (GET /api/matches/<id>/analysis?deal=n):
// the declaring side's final points after it and after the seat's best card, and the difference.
export interface PlayAnalysis {
  action: number; // index in the replay's actions
  seat: Seat;
  card: Card;
  value: number;
  best: number;
  cost: number;
  best_cards: Card[];
}

export interface Analysis {
  match_id: string;
  deal_number: number;
  declarer: Seat | null;
  plays: PlayAnalysis[];
}

export interface Replay {
  variant: string;
  options: Record<string, boolean | number | string>;
  dealer: Seat;
  actions: SeatedAction[];
  match_id: string;
  table_id: string;
  seats: ReplaySeat[];
  // `result`: how the hand ended, as the event's `hand_result`; null for a hand cut short.
  deals: { deal_number: number; dealer: Seat; commitment: string; seed: string; result: HandResult | null }[];
  rated: boolean;
  started_at: number;
  ended_at: number;
  end_reason: 'finished' | 'abandoned' | 'aborted';
  match_score: [number, number] | null;
  winner: number | null;
  bot_actions: { action: number; by_bot: BotLevel }[];
}

export interface Rating {
  ladder: string;
  mu: number;
  sigma: number;
  ordinal: number;
  matches: number;
}

export interface Profile {
  player_id: string;
  name: string;
  created_at: number;
  last_seen: number;
  ratings: Rating[];
}

export interface HistoryEntry {
  match_id: string;
  variant: string;
  seat: Seat;
  team: number;
  started_at: number;
  ended_at: number | null;
  end_reason: 'finished' | 'abandoned' | 'aborted' | null;
  match_score: [number, number] | null;
  winner: number | null;
}

export interface History {
  player_id: string;
  offset: number;
  limit: number;
  matches: HistoryEntry[];
}

export interface LeaderboardEntry {
  rank: number;
  player_id: string;
  name: string;
  mu: number;
  sigma: number;
  ordinal: number;
  matches: number;
}

export interface Leaderboard {
  ladder: string;
  offset: number;
  limit: number;
  total: number;
  entries: LeaderboardEntry[];
}

// The server message types the client handles, and the fields it reads of each: the schema test
// checks that every one of them is declared.
export const kReadFields: Record<string, string[]> = {
  welcome: ['player_id', 'name', 'token', 'resumed', 'seats'],
  event: [
    'table_id', 'seq', 'kind', 'observation', 'last_action', 'commitment', 'hand_result', 'match_result', 'turn_ms_left',
    'replayed',
  ],
  delta: [
    'table_id', 'seq', 'base', 'id', 'kind', 'observation', 'last_action', 'commitment', 'hand_result', 'match_result',
    'turn_ms_left', 'replayed',
  ],
  error: ['code', 'message', 'field', 'reason', 'table_id'],
  chat_message: ['table_id', 'player_id', 'name', 'seat', 'text'],
  variants: ['variants'],
  tables: ['tables', 'total'],
  table_created: ['table', 'invite'],
  seated: ['table_id', 'seat', 'resumed'],
  watching: ['table_id'],
  ok: ['request', 'table_id'],
  accepted: ['table_id', 'seq'],
  table_update: ['table'],
  lobby_update: ['table'],
  lobby_remove: ['table_id'],
  goodbye: ['reason', 'message'],
  redirect: ['table_id', 'url'],
  // Read over HTTP.
  replay: [
    'variant', 'options', 'dealer', 'actions', 'match_id', 'table_id', 'seats', 'deals', 'rated', 'started_at',
    'ended_at', 'end_reason', 'match_score', 'winner', 'bot_actions',
  ],
  profile: ['player_id', 'name', 'created_at', 'last_seen', 'ratings'],
  history: ['player_id', 'offset', 'limit', 'matches'],
  leaderboard: ['ladder', 'offset', 'limit', 'total', 'entries'],
  analysis: ['match_id', 'deal_number', 'declarer', 'plays'],
};
