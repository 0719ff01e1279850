// The deal from a seed, against deals the server dealt: each seat's cards here are the cards that
// seat played in a match the server recorded (its first deal, French and duel).
import { describe, expect, it } from 'vitest';
import { deal_pack, shuffled_pack } from '../src/deal';

const sorted = (hands: string[][] | undefined) => hands?.map((h) => [...h].sort());

describe('the deal from a seed', () => {
  it('shuffles the whole pack, the same way each time', () => {
    const pack = shuffled_pack('13b4bb37963cd83ce167fee316fe7f93');
    expect(pack).toHaveLength(32);
    expect(new Set(pack).size).toBe(32);
    expect(shuffled_pack('13B4BB37963CD83CE167FEE316FE7F93')).toEqual(pack);
    expect(shuffled_pack('f965f46c1a235a0101e9c43347c6f7a5')).not.toEqual(pack);
  });

  it('refuses a seed that is not 32 hex digits', () => {
    expect(shuffled_pack('')).toBeUndefined();
    expect(shuffled_pack('13b4bb37963cd83ce167fee316fe7f9')).toBeUndefined();
    expect(shuffled_pack('13b4bb37963cd83ce167fee316fe7f9g')).toBeUndefined();
  });

  it('deals French as the server does: 5 cards each, one turned up, then the rest after the take', () => {
    const pack = shuffled_pack('13b4bb37963cd83ce167fee316fe7f93')!;
    const dealt = deal_pack('french', pack, 2, 3)!;
    expect(sorted(dealt.full)).toEqual([
      ['9C', '9S', 'AC', 'JC', 'JH', 'QD', 'QS', 'TH'],
      ['7C', '8H', '8S', 'AS', 'JD', 'JS', 'KD', 'TC'],
      ['8D', '9H', 'AD', 'AH', 'KC', 'QC', 'TD', 'TS'],
      ['7D', '7H', '7S', '8C', '9D', 'KH', 'KS', 'QH'],
    ]);
    expect(dealt.first.map((h) => h.length)).toEqual([5, 5, 5, 5]);
    expect(dealt.full?.[3]).toContain(dealt.turn_up); // the taker holds the turned-up card
    dealt.first.forEach((h, seat) => expect(dealt.full?.[seat].slice(0, 5)).toEqual(h));
    // Nobody took: five cards each and the turned-up card, nothing more.
    expect(deal_pack('french', pack, 2)?.full).toBeUndefined();
  });

  it('deals duel as the server does: 6 cards each, then 3, the taker 2 and the turned-up card', () => {
    const dealt = deal_pack('duel', shuffled_pack('f965f46c1a235a0101e9c43347c6f7a5')!, 0, 1)!;
    expect(sorted(dealt.full)).toEqual([
      ['7C', '7H', '8D', '8H', '9D', '9H', '9S', 'AD', 'QD'],
      ['AC', 'AS', 'JC', 'JD', 'JH', 'KD', 'QC', 'TH', 'TS'],
    ]);
    expect(dealt.first.map((h) => h.length)).toEqual([6, 6]);
  });

  it('deals no other variant', () => {
    const pack = shuffled_pack('13b4bb37963cd83ce167fee316fe7f93')!;
    expect(deal_pack('coinche', pack, 0)).toBeUndefined();
    expect(deal_pack('french', pack.slice(1), 0)).toBeUndefined();
  });
});
