// Reads of the server's HTTP API (/api/...): the JSON, or an error with the server's code.
import type { Analysis, History, Leaderboard, Profile, Replay, VariantInfo } from './protocol';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
  ) {
    super(code);
  }
}

export type Fetch = (url: string) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export async function get_json<T>(path: string, fetcher: Fetch = (u) => fetch(u)): Promise<T> {
  let r;
  try {
    r = await fetcher(path);
  } catch {
    throw new ApiError('network', 0);
  }
  const body = (await r.json().catch(() => undefined)) as { error?: unknown } | undefined;
  if (!r.ok) throw new ApiError(typeof body?.error === 'string' ? body.error : 'unknown', r.status);
  if (typeof body !== 'object' || body === null) throw new ApiError('bad_json', r.status);
  return body as T;
}

const enc = encodeURIComponent;
export const kPage = 50; // entries per page of a history or a leaderboard
export const api = {
  replay: (match_id: string, f?: Fetch) => get_json<Replay>(`/api/matches/${enc(match_id)}/replay`, f),
  analysis: (match_id: string, deal: number, f?: Fetch) =>
    get_json<Analysis>(`/api/matches/${enc(match_id)}/analysis?deal=${deal}`, f),
  profile: (player_id: string, f?: Fetch) => get_json<Profile>(`/api/players/${enc(player_id)}`, f),
  history: (player_id: string, offset = 0, f?: Fetch) =>
    get_json<History>(`/api/players/${enc(player_id)}/matches?offset=${offset}&limit=${kPage}`, f),
  leaderboard: (ladder: string, offset = 0, f?: Fetch) =>
    get_json<Leaderboard>(`/api/leaderboard/${enc(ladder)}?offset=${offset}&limit=${kPage}`, f),
  variants: (f?: Fetch) => get_json<{ variants: VariantInfo[] }>('/api/variants', f),
};
