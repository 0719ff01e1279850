import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { I18n, pick_lang } from '../src/i18n';
import { en } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';

const defs = JSON.parse(readFileSync(new URL('../../protocol/schema/defs.json', import.meta.url), 'utf8'));
const codes: string[] = defs.$defs.error_code.enum;

describe('texts', () => {
  it('has every key in both languages, none empty', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    for (const [k, v] of [...Object.entries(en), ...Object.entries(fr)]) expect(v, k).not.toBe('');
  });

  it('has a clear message for every error code of the protocol, in both languages', () => {
    expect(codes.length).toBeGreaterThan(20);
    for (const lang of ['en', 'fr'] as const) {
      const i18n = new I18n(lang);
      for (const code of codes) {
        const text = i18n.error({ code });
        expect(text, `${lang} ${code}`).not.toContain('(' + code + ')');
      }
    }
    // An unknown code still says something, naming the code.
    expect(new I18n('en').error({ code: 'new_code' })).toContain('new_code');
    expect(new I18n('fr').error({ code: 'illegal_action', reason: 'must_trump' })).toContain('must_trump');
  });

  it('names cards and actions', () => {
    const e = new I18n('en');
    const f = new I18n('fr');
    expect(e.card('JS')).toBe('Jack of spades');
    expect(f.card('TH')).toBe('Dix de cœur');
    expect(e.action({ type: 'bid', value: 90, trump: 'hearts' })).toBe('Bid 90 hearts');
    expect(f.action({ type: 'take', trump: 'spades' })).toBe('Prendre à pique');
    expect(e.action({ type: 'announce', cards: ['KH', 'QH'] })).toBe('Announce King of hearts, Queen of hearts');
    expect(e.action({ type: 'mystery' })).toBe('mystery');
  });

  it('names bot levels and explains the bot errors', () => {
    expect(new I18n('en').level('sampling')).toBe('sampling');
    expect(new I18n('fr').level('random')).toBe('hasard');
    expect(new I18n('en').level('future')).toBe('future');
    expect(new I18n('en').error({ code: 'not_owner' })).toContain('creator');
    expect(new I18n('fr').error({ code: 'match_started' })).toContain('commencé');
    expect(new I18n('en').error({ code: 'unknown_bot_level', field: 'level' })).toContain('level');
  });

  it('names a server bot as a computer player and anyone else by their name', () => {
    expect(new I18n('en').player('bot:rules', 'bot:rules')).toBe('computer (rules)');
    expect(new I18n('fr').player('bot:sampling', 'bot:sampling')).toBe(`ordinateur (${new I18n('fr').level('sampling')})`);
    expect(new I18n('en').player('p123', 'ann')).toBe('ann');
    expect(new I18n('en').player('p123', 'bot:rules')).toBe('bot:rules');  // a person may pick that name
  });

  it('picks the saved language, else the browser one, else English', () => {
    expect(pick_lang('fr', 'en-GB')).toBe('fr');
    expect(pick_lang(null, 'fr-FR')).toBe('fr');
    expect(pick_lang('de', 'de-DE')).toBe('en');
  });
});
