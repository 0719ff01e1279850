// Messages as the server sends them, for the unit tests.
import type { EventMessage, Observation, TableSummary } from '../src/protocol';

export function observation(over: Partial<Observation> = {}): Observation {
  return {
    variant: 'french',
    phase: 'playing',
    deal_number: 0,
    dealer: 0,
    current: 1,
    hand_sizes: [8, 8, 8, 8],
    match_score: [0, 0],
    held_points: 0,
    bids: [],
    legal: [],
    seat: 1,
    hand: ['JS', '9S', 'AH', '7D', 'TC', 'KH', 'QD', '8C'],
    trick: { leader: 0, cards: [] },
    tricks: [],
    ...over,
  };
}

export function event(seq: number, over: Partial<EventMessage> = {}, obs: Partial<Observation> = {}): EventMessage {
  return { type: 'event', table_id: 't1', seq, kind: 'action', observation: observation(obs), ...over };
}

export function summary(over: Partial<TableSummary> = {}): TableSummary {
  return {
    table_id: 't1',
    variant: 'french',
    options: { target: 501 },
    private: false,
    status: 'waiting',
    settings: { turn_ms: 30000, reconnect_ms: 60000, away_after: 2, rated: true, abandon: 'forfeit' },
    seats: [0, 1, 2, 3].map((seat) => ({ seat, player_id: null, name: null, connected: false, away: false })),
    free_seats: 4,
    spectators: 0,
    seq: 0,
    ...over,
  };
}
