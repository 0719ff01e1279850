// The client's message types against protocol/schema: every server message it handles exists, and
// every field it reads is declared there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kBotLevels, kReadFields } from '../src/protocol';

const schema = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../protocol/schema/${name}.json`, import.meta.url), 'utf8'));

describe('protocol schema', () => {
  for (const [type, fields] of Object.entries(kReadFields)) {
    it(`${type}: the fields the client reads are in the schema`, () => {
      const s = schema(type);
      expect(s.properties.type.const ?? s.properties.type.enum?.[0]).toBe(type);
      for (const f of fields) expect(Object.keys(s.properties), `${type}.${f}`).toContain(f);
    });
  }

  it('observation and table summary fields the views read are declared', () => {
    const defs = schema('defs').$defs;
    for (const f of ['phase', 'current', 'hand', 'legal', 'trick', 'tricks', 'contract', 'match_score', 'turn_up', 'bids'])
      expect(Object.keys(defs.observation.properties)).toContain(f);
    for (const f of ['table_id', 'seats', 'status', 'variant', 'free_seats'])
      expect(Object.keys(defs.table_summary.properties)).toContain(f);
    expect(Object.keys(defs.seat_info.properties)).toContain('bot');
    expect(Object.keys(defs.table_settings.properties)).toContain('bot_level');
    expect(Object.keys(schema('event').properties.last_action.properties)).toContain('by_bot');
    expect(defs.bot_level.enum).toEqual(kBotLevels);
    // The requests the client sends with bots.
    expect(Object.keys(schema('create_table').properties.bots.properties)).toContain('level');
    for (const f of ['table_id', 'seat', 'level']) expect(Object.keys(schema('add_bot').properties)).toContain(f);
    for (const f of ['table_id', 'seat']) expect(Object.keys(schema('remove_bot').properties)).toContain(f);
    for (const f of ['card_points', 'last_trick', 'declarations', 'belote', 'capot_bonus', 'raw', 'score'])
      expect(Object.keys(defs.team_tally.properties)).toContain(f);
  });
});
