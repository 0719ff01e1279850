// A player's page: name, rating on each ladder, and the matches played, each with its replay.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Pager } from './Pager';
import { leaderboard_href, replay_href } from '../route';
import { ApiError } from './ApiError';
import { useApi, useEnv } from './context';

export function PlayerPage({ player_id }: { player_id: string }) {
  const { i18n } = useEnv();
  const profile = useApi(`p:${player_id}`, () => api.profile(player_id));
  const [offset, set_offset] = useState(0);
  const history = useApi(`h:${player_id}:${offset}`, () => api.history(player_id, offset));
  const error = profile.error ?? history.error;
  const p = profile.data;
  return (
    <div class="page player" data-testid="player" data-player-id={player_id}>
      <p>
        <a href="/">{i18n.t('back_lobby')}</a> · <a href={leaderboard_href()}>{i18n.t('leaderboard')}</a>
      </p>
      <ApiError code={error} />
      {!error && !p && <p>{i18n.t('loading')}</p>}
      {p && (
        <>
          <h2 data-testid="player-name">{i18n.player(p.player_id, p.name)}</h2>
          {/* A server bot has no date of its own (0): it is part of the server. */}
          {p.created_at > 0 && (
            <p>{i18n.t('member_since', { date: new Date(p.created_at).toLocaleDateString(i18n.lang) })}</p>
          )}
          <section aria-label={i18n.t('ratings')}>
            <h3>{i18n.t('ratings')}</h3>
            {p.ratings.length === 0 ? (
              <p>{i18n.t('no_ratings')}</p>
            ) : (
              <table class="list">
                <thead>
                  <tr>
                    <th>{i18n.t('variant')}</th>
                    <th>{i18n.t('rating')}</th>
                    <th>μ ± σ</th>
                    <th>{i18n.t('matches')}</th>
                  </tr>
                </thead>
                <tbody>
                  {p.ratings.map((r) => (
                    <tr data-testid="rating" data-ladder={r.ladder}>
                      <td>
                        <a href={leaderboard_href(r.ladder)}>{r.ladder}</a>
                      </td>
                      <td>{r.ordinal.toFixed(1)}</td>
                      <td>
                        {r.mu.toFixed(1)} ± {r.sigma.toFixed(1)}
                      </td>
                      <td>{r.matches}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
      {history.data && (
        <section aria-label={i18n.t('history')}>
          <h3>{i18n.t('history')}</h3>
          {history.data.matches.length === 0 ? (
            <p>{i18n.t('no_matches')}</p>
          ) : (
            <table class="list">
              <thead>
                <tr>
                  <th>{i18n.t('date')}</th>
                  <th>{i18n.t('variant')}</th>
                  <th>{i18n.t('result')}</th>
                  <th>{i18n.t('score')}</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                {history.data.matches.map((m) => (
                  <tr data-testid="history-match" data-match-id={m.match_id}>
                    <td>{new Date(m.started_at).toLocaleString(i18n.lang)}</td>
                    <td>{m.variant}</td>
                    <td>
                      {m.ended_at === null
                        ? i18n.t('status_playing')
                        : m.winner === null
                          ? i18n.t(`end_${m.end_reason ?? 'aborted'}`)
                          : m.winner === m.team
                            ? i18n.t('won')
                            : i18n.t('lost')}
                    </td>
                    <td>
                      {m.match_score &&
                        `${m.match_score[m.team]} – ${m.match_score[1 - m.team]}`}
                    </td>
                    <td>
                      {m.ended_at !== null && (
                        <a href={replay_href(m.match_id)} data-testid="history-replay">
                          {i18n.t('replay')}
                        </a>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager offset={offset} count={history.data.matches.length} set={set_offset} />
        </section>
      )}
    </div>
  );
}
