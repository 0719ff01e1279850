import { describe, expect, it } from 'vitest';
import { card_label, rank_of, sort_hand, suit_of } from '../src/cards';

describe('cards', () => {
  it('reads rank and suit, with 10 as T', () => {
    expect(rank_of('TH')).toBe('T');
    expect(rank_of('10H')).toBe('T');
    expect(suit_of('10H')).toBe('H');
    expect(card_label('TH')).toBe('10♥');
  });

  it('sorts by suit in alternating colours, strongest first, trumps in trump order', () => {
    const hand = ['7S', 'JS', 'AS', '9S', 'KH', 'AH', 'QC', '8D'];
    expect(sort_hand(hand)).toEqual(['AS', 'JS', '9S', '7S', 'AH', 'KH', 'QC', '8D']);
    expect(sort_hand(hand, 'spades')).toEqual(['JS', '9S', 'AS', '7S', 'AH', 'KH', 'QC', '8D']);
    expect(sort_hand(hand, 'all_trumps').slice(0, 4)).toEqual(['JS', '9S', 'AS', '7S']);
    expect(hand[0]).toBe('7S'); // the input is left alone
  });
});
