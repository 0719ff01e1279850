// The page's path, read once at load: the lobby (or an invite), a replay, a player, the leaderboard.
export type Route =
  | { kind: 'home'; invite?: string }
  | { kind: 'replay'; match_id: string }
  | { kind: 'player'; player_id: string }
  | { kind: 'leaderboard'; variant?: string };

function segment(s: string): string | undefined {
  try {
    const v = decodeURIComponent(s);
    return v.length > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

export function parse_route(pathname: string, search = ''): Route {
  const invite = /^\/t\/([0-9a-fA-F]+)$/.exec(pathname)?.[1];
  if (invite) return { kind: 'home', invite };
  const replay = /^\/replay\/([^/]+)$/.exec(pathname)?.[1];
  const match_id = replay && segment(replay);
  if (match_id) return { kind: 'replay', match_id };
  const player = /^\/players\/([^/]+)$/.exec(pathname)?.[1];
  const player_id = player && segment(player);
  if (player_id) return { kind: 'player', player_id };
  if (pathname === '/leaderboard') {
    const variant = new URLSearchParams(search).get('variant') ?? undefined;
    return { kind: 'leaderboard', variant: variant || undefined };
  }
  return { kind: 'home' };
}

export const player_href = (id: string) => `/players/${encodeURIComponent(id)}`;
export const replay_href = (id: string) => `/replay/${encodeURIComponent(id)}`;
export const leaderboard_href = (variant?: string) =>
  variant ? `/leaderboard?variant=${encodeURIComponent(variant)}` : '/leaderboard';
