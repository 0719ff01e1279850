import { describe, expect, it } from 'vitest';
import { api, ApiError, get_json } from '../src/api';
import { leaderboard_href, parse_route, player_href, replay_href } from '../src/route';

describe('parse_route', () => {
  it('reads the pages the server answers with the client', () => {
    expect(parse_route('/')).toEqual({ kind: 'home' });
    expect(parse_route('/t/ab12')).toEqual({ kind: 'home', invite: 'ab12' });
    expect(parse_route('/replay/m123')).toEqual({ kind: 'replay', match_id: 'm123' });
    expect(parse_route('/players/bot%3Arules')).toEqual({ kind: 'player', player_id: 'bot:rules' });
    expect(parse_route('/leaderboard')).toEqual({ kind: 'leaderboard', variant: undefined });
    expect(parse_route('/leaderboard', '?variant=duel')).toEqual({ kind: 'leaderboard', variant: 'duel' });
  });

  it('takes anything else, or a bad escape, for the lobby', () => {
    expect(parse_route('/replay/')).toEqual({ kind: 'home' });
    expect(parse_route('/replay/a/b')).toEqual({ kind: 'home' });
    expect(parse_route('/players/%E0%A4%A')).toEqual({ kind: 'home' });
    expect(parse_route('/t/xyz')).toEqual({ kind: 'home' });
    expect(parse_route('/elsewhere')).toEqual({ kind: 'home' });
  });

  it('makes links that read back as the same page', () => {
    expect(parse_route(player_href('bot:rules'))).toEqual({ kind: 'player', player_id: 'bot:rules' });
    expect(parse_route(replay_href('m/1'))).toEqual({ kind: 'replay', match_id: 'm/1' });
    expect(parse_route(replay_href('m1'))).toEqual({ kind: 'replay', match_id: 'm1' });
    const [path, search] = leaderboard_href('coinche').split('?');
    expect(parse_route(path, `?${search}`)).toEqual({ kind: 'leaderboard', variant: 'coinche' });
  });
});

describe('get_json', () => {
  const reply = (status: number, body: unknown) => async () => ({
    ok: status < 400,
    status,
    json: async () => (body === undefined ? Promise.reject(new Error('no json')) : body),
  });

  it('gives the JSON of a 200', async () => {
    expect(await get_json('/api/x', reply(200, { a: 1 }))).toEqual({ a: 1 });
  });

  it('turns an error reply into its code, and anything unreadable into a code too', async () => {
    await expect(get_json('/api/x', reply(404, { error: 'unknown_match', message: 'm' }))).rejects.toMatchObject({
      code: 'unknown_match',
      status: 404,
    });
    await expect(get_json('/api/x', reply(500, undefined))).rejects.toMatchObject({ code: 'unknown', status: 500 });
    await expect(get_json('/api/x', reply(200, undefined))).rejects.toMatchObject({ code: 'bad_json' });
    const down = async () => Promise.reject(new Error('down'));
    await expect(get_json('/api/x', down)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('api', () => {
  it('asks for the paths of the HTTP API, ids escaped, a page at a time', async () => {
    const asked: string[] = [];
    const f = async (url: string) => {
      asked.push(url);
      return { ok: true, status: 200, json: async () => ({}) };
    };
    await api.replay('m 1', f);
    await api.profile('bot:rules', f);
    await api.history('p1', 50, f);
    await api.leaderboard('french', 0, f);
    expect(asked).toEqual([
      '/api/matches/m%201/replay',
      '/api/players/bot%3Arules',
      '/api/players/p1/matches?offset=50&limit=50',
      '/api/leaderboard/french?offset=0&limit=50',
    ]);
  });
});

