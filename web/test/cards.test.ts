import { describe, expect, it } from 'vitest';
import { card_label, rank_of, sort_hand, suit_of, trick_winner } from '../src/cards';

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

  it('finds the winner of a trick: highest trump, else highest of the suit led', () => {
    // Led by seat 1: 7H (1), AH (2), 8S (3), KH (0).
    const cards = ['7H', 'AH', '8S', 'KH'];
    expect(trick_winner(cards, 1, 4, 'clubs')).toBe(2); // no trump played: ace of the suit led
    expect(trick_winner(cards, 1, 4, 'spades')).toBe(3); // the only trump wins
    expect(trick_winner(cards, 1, 4, 'no_trumps')).toBe(2);
    expect(trick_winner(cards, 1, 4)).toBe(2);
    // Trump order: the jack beats the ace; all trumps ranks every suit so.
    expect(trick_winner(['AS', 'JS', '9S', 'TS'], 3, 4, 'spades')).toBe(0);
    expect(trick_winner(['AS', 'JS', '9S', 'TS'], 3, 4, 'hearts')).toBe(3);
    expect(trick_winner(['AD', 'JD', 'JC', '9D'], 0, 4, 'all_trumps')).toBe(1);
    expect(trick_winner(['AD', '9D'], 1, 2, 'all_trumps')).toBe(0); // two seats: 9 beats A in trumps
    expect(trick_winner([], 2, 4, 'hearts')).toBe(2);
  });
});
