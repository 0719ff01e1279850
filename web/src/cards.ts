// Cards as the client shows them: parsing, names for screen readers, and the order of a hand.
import type { Card, Trump } from './protocol';

export type Suit = 'C' | 'D' | 'H' | 'S';
export const kSuits: Suit[] = ['S', 'H', 'C', 'D']; // colours alternate across the hand
export const kSuitOfTrump: Record<string, Suit> = { clubs: 'C', diamonds: 'D', hearts: 'H', spades: 'S' };
export const kSuitSymbol: Record<Suit, string> = { C: '♣', D: '♦', H: '♥', S: '♠' };
const kPlainOrder = ['A', 'T', 'K', 'Q', 'J', '9', '8', '7'];
const kTrumpOrder = ['J', '9', 'A', 'T', 'K', 'Q', '8', '7'];

export function rank_of(card: Card): string {
  return card.length === 3 ? 'T' : card[0]; // "10H" is read as "TH"
}

export function suit_of(card: Card): Suit {
  return card[card.length - 1] as Suit;
}

function is_trump_suit(suit: Suit, trump: Trump | undefined): boolean {
  return trump === 'all_trumps' || (trump !== undefined && kSuitOfTrump[trump] === suit);
}

// Suits in alternating colours, strongest card first within each, by the contract's order.
export function sort_hand(hand: Card[], trump?: Trump): Card[] {
  const key = (c: Card) => {
    const s = suit_of(c);
    const order = is_trump_suit(s, trump) ? kTrumpOrder : kPlainOrder;
    return kSuits.indexOf(s) * 10 + order.indexOf(rank_of(c));
  };
  return [...hand].sort((a, b) => key(a) - key(b));
}

export function card_label(card: Card): string {
  const r = rank_of(card);
  return `${r === 'T' ? '10' : r}${kSuitSymbol[suit_of(card)]}`;
}

export function is_red(card: Card): boolean {
  const s = suit_of(card);
  return s === 'H' || s === 'D';
}

// The seat that wins a complete trick: the highest trump if one was played, else the highest card
// of the suit led. Under all trumps every suit ranks as trumps; under no trumps (or an unknown
// trump) the plain order holds.
export function trick_winner(cards: Card[], leader: number, players: number, trump?: Trump): number {
  if (cards.length === 0) return leader;
  const led = suit_of(cards[0]);
  const trump_suit = trump ? kSuitOfTrump[trump] : undefined;
  const strength = (c: Card): number => {
    const s = suit_of(c);
    if (trump_suit !== undefined && s === trump_suit) return 100 - kTrumpOrder.indexOf(rank_of(c));
    if (s !== led) return -1;
    return (trump === 'all_trumps' ? 50 - kTrumpOrder.indexOf(rank_of(c)) : 50 - kPlainOrder.indexOf(rank_of(c)));
  };
  let best = 0;
  cards.forEach((c, i) => {
    if (strength(c) > strength(cards[best])) best = i;
  });
  return (leader + best) % players;
}
