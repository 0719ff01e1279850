// The texts of the chosen language, with {name} parameters filled in.
import type { Action, ErrorMessage } from '../protocol';
import { rank_of, suit_of } from '../cards';
import { en, type TextKey, type Texts } from './en';
import { fr } from './fr';

export type Lang = 'en' | 'fr';
const kTexts: Record<Lang, Texts> = { en, fr };

export function pick_lang(saved: string | null, browser: string | undefined): Lang {
  if (saved === 'en' || saved === 'fr') return saved;
  return browser?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

export class I18n {
  constructor(readonly lang: Lang) {}

  t(key: TextKey, params: Record<string, string | number> = {}): string {
    return kTexts[this.lang][key].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? ''));
  }

  card(card: string): string {
    return this.t('card_name', {
      rank: this.t(`rank_${rank_of(card)}` as TextKey),
      suit: this.t(`suit_${suit_of(card)}` as TextKey),
    });
  }

  // A computer player's level, by name.
  level(level: string): string {
    const key = `level_${level}` as TextKey;
    return key in kTexts[this.lang] ? this.t(key) : level;
  }

  // A player as the page names it: a server bot (player id `bot:<level>`) as a computer player of
  // that level, anyone else by the name they chose.
  player(player_id: string, name: string): string {
    const bot = /^bot:(\w+)$/.exec(player_id)?.[1];
    return bot ? this.t('bot_mark', { level: this.level(bot) }) : name;
  }

  trump(trump: string | undefined): string {
    return trump ? this.t(`trump_${trump}` as TextKey) : '';
  }

  // What a button offering `a` says.
  action(a: Action): string {
    const cards = (a.cards ?? []).map((c) => this.card(c)).join(', ');
    switch (a.type) {
      case 'pass':
        return this.t('a_pass');
      case 'take':
        return a.trump ? this.t('a_take_trump', { trump: this.trump(a.trump) }) : this.t('a_take');
      case 'bid':
        return a.capot
          ? this.t('a_bid_capot', { trump: this.trump(a.trump) })
          : this.t('a_bid', { value: a.value ?? '', trump: this.trump(a.trump) });
      case 'double':
        return this.t('a_double');
      case 'redouble':
        return this.t('a_redouble');
      case 'announce':
        return this.t('a_announce', { cards });
      case 'show':
        return this.t('a_show', { cards });
      case 'concede':
        return this.t('a_concede');
      case 'play':
        return this.t('a_play', { card: a.card ? this.card(a.card) : '' });
      default:
        return a.type;
    }
  }

  error(e: Pick<ErrorMessage, 'code' | 'field' | 'reason'>): string {
    const key = `err.${e.code}` as TextKey;
    const text = key in kTexts[this.lang] ? this.t(key, { field: e.field ?? '' }) : this.t('err.unknown', { code: e.code });
    return e.reason ? `${text} (${e.reason})` : text;
  }
}
