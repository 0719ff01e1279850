// The fair-dealing check, done in the browser. Before a deal the server publishes a commitment,
// SHA-256("atout-deal-commit/1\n" + seed + "\n" + match_id + "\n" + deal_number) in lower-case
// hex; when the hand ends it reveals the seed. Recomputing the hash here (Web Crypto) shows that the
// deal was fixed before any card was seen, without the command-line tool.

// What a hand's check found: the commitment seen during play matches the revealed seed, it does
// not, it was never seen here (the page joined after the deal started), or this page cannot hash
// (Web Crypto exists only in secure contexts: https, or http on localhost).
export type DealCheck = 'verified' | 'mismatch' | 'unseen' | 'unavailable';

export function commitment_text(seed: string, match_id: string, deal_number: number): string {
  return `atout-deal-commit/1\n${seed}\n${match_id}\n${deal_number}`;
}

// The shell command that does the same check, for pages without Web Crypto.
export function commitment_command(seed: string, match_id: string, deal_number: number): string {
  return `printf 'atout-deal-commit/1\\n%s\\n%s\\n%s' ${seed} ${match_id} ${deal_number} | sha256sum`;
}

type Subtle = Pick<SubtleCrypto, 'digest'>;

function default_subtle(): Subtle | null {
  return (globalThis as { crypto?: { subtle?: Subtle } }).crypto?.subtle ?? null;
}

export async function commitment_of(
  seed: string,
  match_id: string,
  deal_number: number,
  subtle: Subtle | null = default_subtle(),
): Promise<string | undefined> {
  if (!subtle) return undefined;
  const bytes = new TextEncoder().encode(commitment_text(seed, match_id, deal_number));
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function check_deal(
  commitment: string | undefined,
  seed: string,
  match_id: string | undefined,
  deal_number: number,
  subtle: Subtle | null = default_subtle(),
): Promise<DealCheck> {
  if (!commitment || !match_id) return 'unseen';
  const hash = await commitment_of(seed, match_id, deal_number, subtle);
  if (hash === undefined) return 'unavailable';
  return hash === commitment.toLowerCase() ? 'verified' : 'mismatch';
}
