// The cards of a deal from its seed, as docs/records.md specifies them (xoshiro256** seeded by
// SplitMix64, Lemire's bounded draw, a Fisher–Yates shuffle), dealt as `french` and `duel` deal.
// The replay uses it to show the hands before the take and the turned-up card; it checks the
// result against the cards each seat played before trusting it.
import type { Card } from './protocol';

const kMask = (1n << 64n) - 1n;
const rotl = (x: bigint, k: bigint) => ((x << k) | (x >> (64n - k))) & kMask;

class Xoshiro {
  private s: bigint[];

  constructor(hi: bigint, lo: bigint) {
    let x = hi;
    const splitmix = () => {
      x = (x + 0x9e3779b97f4a7c15n) & kMask;
      let z = x;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & kMask;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & kMask;
      return z ^ (z >> 31n);
    };
    const s0 = splitmix();
    const s1 = splitmix();
    x = lo;
    const s2 = splitmix();
    const s3 = splitmix();
    this.s = s0 === 0n && s1 === 0n && s2 === 0n && s3 === 0n ? [1n, s1, s2, s3] : [s0, s1, s2, s3];
  }

  next(): bigint {
    const s = this.s;
    const result = (rotl((s[1] * 5n) & kMask, 7n) * 9n) & kMask;
    const t = (s[1] << 17n) & kMask;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45n);
    return result;
  }

  // Uniform in [0, n), for 0 < n < 2^32.
  below(n: number): number {
    const N = BigInt(n);
    let m = (this.next() >> 32n) * N;
    let low = m & 0xffffffffn;
    if (low < N) {
      const threshold = ((1n << 32n) - N) % N;
      while (low < threshold) {
        m = (this.next() >> 32n) * N;
        low = m & 0xffffffffn;
      }
    }
    return Number(m >> 32n);
  }
}

const kSuitLetters = ['C', 'D', 'H', 'S'];
const kRankLetters = ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

// The 32-card pack of a deal seed (32 hex digits), shuffled, top card first.
export function shuffled_pack(seed: string): Card[] | undefined {
  if (!/^[0-9a-fA-F]{32}$/.test(seed)) return undefined;
  const rng = new Xoshiro(BigInt(`0x${seed.slice(0, 16)}`), BigInt(`0x${seed.slice(16)}`));
  const pack = kSuitLetters.flatMap((s) => kRankLetters.map((r) => r + s));
  for (let i = pack.length; i >= 2; --i) {
    const j = rng.below(i);
    [pack[i - 1], pack[j]] = [pack[j], pack[i - 1]];
  }
  return pack;
}

export interface Dealt {
  first: Card[][]; // each seat's cards before the take
  turn_up: Card;
  full?: Card[][]; // each seat's cards once the deal is completed (after a take)
}

// The deal of `pack` by `dealer` in `french` (4 seats) or `duel` (2 seats), completed for
// `taker` when someone took.
export function deal_pack(variant: string, pack: Card[], dealer: number, taker?: number): Dealt | undefined {
  const players = variant === 'french' ? 4 : variant === 'duel' ? 2 : 0;
  if (players === 0 || pack.length !== 32) return undefined;
  const hands: Card[][] = Array.from({ length: players }, () => []);
  let at = 0;
  const give = (seat: number, n: number) => {
    hands[seat].push(...pack.slice(at, at + n));
    at += n;
  };
  const order = Array.from({ length: players }, (_, i) => (dealer + 1 + i) % players);
  const packets = players === 4 ? [3, 2] : [3, 3];
  for (const n of packets) for (const seat of order) give(seat, n);
  const turn_up = pack[at++];
  const first = hands.map((h) => [...h]);
  if (taker === undefined) return { first, turn_up };
  hands[taker].push(turn_up);
  for (const seat of order) give(seat, seat === taker ? 2 : 3);
  return { first, turn_up, full: hands };
}
