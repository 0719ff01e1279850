import { describe, expect, it } from 'vitest';
import { check_deal, commitment_command, commitment_of, commitment_text } from '../src/fair';

// Computed with the shell command the fair-dealing docs give:
// printf 'atout-deal-commit/1\n%s\n%s\n%s' 00112233445566778899aabbccddeeff m-42 3 | sha256sum
const kSeed = '00112233445566778899aabbccddeeff';
const kHash = '63e94791b80e1ccf0f2165815b23f9514a39bd4ba9029d3b801b2654c0fdb37f';

describe('fair dealing in the browser', () => {
  it('hashes the committed text as the server does', async () => {
    expect(commitment_text(kSeed, 'm-42', 3)).toBe(`atout-deal-commit/1\n${kSeed}\nm-42\n3`);
    expect(await commitment_of(kSeed, 'm-42', 3)).toBe(kHash);
  });

  it('verifies a deal whose seed matches its commitment', async () => {
    expect(await check_deal(kHash, kSeed, 'm-42', 3)).toBe('verified');
    expect(await check_deal(kHash.toUpperCase(), kSeed, 'm-42', 3)).toBe('verified');
  });

  it('refuses a changed seed, match or hand number', async () => {
    expect(await check_deal(kHash, '10112233445566778899aabbccddeeff', 'm-42', 3)).toBe('mismatch');
    expect(await check_deal(kHash, kSeed, 'm-43', 3)).toBe('mismatch');
    expect(await check_deal(kHash, kSeed, 'm-42', 4)).toBe('mismatch');
  });

  it('says when the commitment was never seen', async () => {
    expect(await check_deal(undefined, kSeed, 'm-42', 3)).toBe('unseen');
    expect(await check_deal(kHash, kSeed, undefined, 3)).toBe('unseen');
  });

  it('says when the page cannot hash, rather than claiming a result', async () => {
    expect(await check_deal(kHash, kSeed, 'm-42', 3, null)).toBe('unavailable');
    expect(await commitment_of(kSeed, 'm-42', 3, null)).toBeUndefined();
  });

  it('offers the same check as a shell command', () => {
    expect(commitment_command(kSeed, 'm-42', 3)).toBe(
      `printf 'atout-deal-commit/1\\n%s\\n%s\\n%s' ${kSeed} m-42 3 | sha256sum`,
    );
  });
});
