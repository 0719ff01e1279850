// The leaderboard of a variant (each variant is rated on its own ladder), best rating first.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Pager } from './Pager';
import type { VariantInfo } from '../protocol';
import { leaderboard_href, player_href } from '../route';
import { ApiError } from './ApiError';
import { useApi, useEnv } from './context';

export function LeaderboardPage({ variants, initial }: { variants: VariantInfo[]; initial?: string }) {
  const { i18n } = useEnv();
  const [chosen, set_ladder] = useState(initial);
  // French by default, or the server's first variant when it has no French.
  const has_french = variants.length === 0 || variants.some((v) => v.id === 'french');
  const ladder = chosen ?? (has_french ? 'french' : variants[0].id);
  const [offset, set_offset] = useState(0);
  const board = useApi(`l:${ladder}:${offset}`, () => api.leaderboard(ladder, offset));
  const ids = variants.length > 0 ? variants.map((v) => v.id) : [ladder];
  return (
    <div class="page leaderboard" data-testid="leaderboard" data-ladder={ladder}>
      <p>
        <a href="/">{i18n.t('back_lobby')}</a>
      </p>
      <h2>{i18n.t('leaderboard')}</h2>
      <label for="ladder">
        {i18n.t('variant')}{' '}
        <select
          id="ladder"
          value={ladder}
          onChange={(e) => {
            const v = e.currentTarget.value;
            set_ladder(v);
            set_offset(0);
            history.replaceState(null, '', leaderboard_href(v));
          }}
        >
          {ids.map((id) => (
            <option value={id}>{variants.find((v) => v.id === id)?.title ?? id}</option>
          ))}
        </select>
      </label>
      <ApiError code={board.error} />
      {!board.error && !board.data && <p>{i18n.t('loading')}</p>}
      {board.data &&
        (board.data.entries.length === 0 ? (
          <p>{i18n.t('no_ratings')}</p>
        ) : (
          <table class="list">
            <thead>
              <tr>
                <th>#</th>
                <th>{i18n.t('player')}</th>
                <th>{i18n.t('rating')}</th>
                <th>{i18n.t('matches')}</th>
              </tr>
            </thead>
            <tbody>
              {board.data.entries.map((e) => (
                <tr data-testid="leader" data-player-id={e.player_id}>
                  <td>{e.rank}</td>
                  <td>
                    <a href={player_href(e.player_id)}>{i18n.player(e.player_id, e.name)}</a>
                  </td>
                  <td>{e.ordinal.toFixed(1)}</td>
                  <td>{e.matches}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {board.data && (
        <Pager offset={offset} count={board.data.entries.length} total={board.data.total} set={set_offset} />
      )}
    </div>
  );
}
