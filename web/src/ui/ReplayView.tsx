// A match's replay: step through its actions (arrow keys, or deal by deal), with every seat's
// cards, the auction, the trick and who won it, each deal's contract and tricks, and the stored
// final score.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import { sort_hand } from '../cards';
import type { I18n } from '../i18n';
import type { TextKey } from '../i18n/en';
import type { HandResult, Replay, SeatedAction } from '../protocol';
import {
  clamp_step,
  deal_step,
  players_of,
  replay_view,
  split_deals,
  type ReplayDeal,
  type ReplayView,
} from '../replay';
import { player_href } from '../route';
import { ApiError } from './ApiError';
import { useApi, useEnv } from './context';
import { BidsView, CardFace, Scores, TrickView } from './TableView';

const kPlaces = ['bottom', 'left', 'top', 'right'];

// A seat by its player's name; a server bot (player id `bot:<level>`) as a computer player is
// named everywhere else.
function seat_name(r: Replay, seat: number, i18n: I18n): string {
  const s = r.seats.find((x) => x.seat === seat);
  if (!s) return i18n.t('seat', { seat: seat + 1 });
  return i18n.player(s.player_id, s.name);
}

function contract_of(r: Replay, d: ReplayDeal): SeatedAction | undefined {
  return r.actions
    .slice(d.first, d.end)
    .filter((a) => a.type === 'take' || a.type === 'bid')
    .pop();
}

// The double-dummy cost of the card just played, and what each seat gave away in the deal: read
// from the server's analysis of the deal, once per deal shown.
function DealAnalysisView({ replay, deal, at, names }: {
  replay: Replay;
  deal: ReplayDeal;
  at?: number;
  names: (seat: number) => string;
}) {
  const { i18n } = useEnv();
  const played = replay.actions.slice(deal.first, deal.end).some((a) => a.type === 'play');
  const key = played ? `${replay.match_id}/${deal.deal_number}` : '';
  const { data, error } = useApi(key, () =>
    played ? api.analysis(replay.match_id, deal.deal_number) : Promise.resolve(null),
  );
  if (!played) return null;
  const play = data?.plays.find((p) => p.action === at);
  const given = new Map<number, number>();
  for (const p of data?.plays ?? []) if (p.action <= (at ?? -1)) given.set(p.seat, (given.get(p.seat) ?? 0) + p.cost);
  return (
    <section class="analysis" aria-label={i18n.t('dd_title')} data-testid="replay-analysis">
      <h3>{i18n.t('dd_title')}</h3>
      <ApiError code={error} />
      {!data && !error && <p>{i18n.t('dd_loading')}</p>}
      {play && (
        <p data-testid="replay-cost" data-cost={play.cost}>
          {names(play.seat)}: {i18n.card(play.card)} ·{' '}
          {play.cost === 0
            ? i18n.t('dd_best')
            : i18n.t('dd_cost', { points: play.cost, cards: play.best_cards.map((c) => i18n.card(c)).join(', ') })}
        </p>
      )}
      {data && (
        <p data-testid="replay-given">
          {i18n.t('dd_totals')}:{' '}
          {Array.from({ length: players_of(replay) }, (_, seat) => `${names(seat)} ${given.get(seat) ?? 0}`).join(' · ')}
        </p>
      )}
    </section>
  );
}

function ReplayBoard({ replay }: { replay: Replay }) {
  const { i18n } = useEnv();
  const deals = useMemo(() => split_deals(replay), [replay]);
  const [step, set_step] = useState(0);
  const view = replay_view(replay, deals, step);
  const players = players_of(replay);
  const names = (seat: number) => seat_name(replay, seat, i18n);
  const team_name = (team: number) =>
    replay.seats
      .filter((s) => s.team === team)
      .map((s) => names(s.seat))
      .join(' & ') || i18n.t('team', { n: team + 1 });
  // Each move is computed from the step it applies to, so that keys pressed faster than the page
  // renders all count.
  const move = (to: (v: ReplayView) => number) =>
    set_step((s) => clamp_step(replay, to(replay_view(replay, deals, s))));
  const go = (n: number) => move(() => n);

  useEffect(() => {
    const moves: Record<string, (v: ReplayView) => number> = {
      ArrowRight: (v) => v.step + 1,
      ArrowLeft: (v) => v.step - 1,
      PageDown: (v) => deal_step(deals, v, 1),
      PageUp: (v) => deal_step(deals, v, -1),
      Home: () => 0,
      End: (v) => v.total,
    };
    const on_key = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      const to = moves[e.key];
      if (!to) return;
      e.preventDefault();
      move(to);
    };
    window.addEventListener('keydown', on_key);
    return () => window.removeEventListener('keydown', on_key);
  }, [replay, deals]);

  // The controls: [text, label, test id, move].
  const controls: [string, TextKey, string, (v: ReplayView) => number][] = [
    ['|◀', 'replay_start', 'replay-start', () => 0],
    ['◀◀', 'replay_prev_deal', 'replay-prev-deal', (v) => deal_step(deals, v, -1)],
    ['◀', 'replay_back', 'replay-back', (v) => v.step - 1],
    ['▶', 'replay_forward', 'replay-forward', (v) => v.step + 1],
    ['▶▶', 'replay_next_deal', 'replay-next-deal', (v) => deal_step(deals, v, 1)],
    ['▶|', 'replay_end', 'replay-end', (v) => v.total],
  ];
  const control = ([text, label, testid, to]: (typeof controls)[number]) => (
    <button type="button" onClick={() => move(to)} aria-label={i18n.t(label)} data-testid={testid}>
      {text}
    </button>
  );
  const deal = view.deal;
  const trump = deal?.trump;
  return (
    <div class="replay-board" data-testid="replay-board" data-step={view.step} data-total={view.total}>
      <div class="replay-controls" role="group" aria-label={i18n.t('replay_controls')}>
        {controls.slice(0, 3).map(control)}
        <span data-testid="replay-step">{i18n.t('replay_step', { step: view.step, total: view.total })}</span>
        {controls.slice(3).map(control)}
      </div>
      <p class="hint">{i18n.t('replay_keys')}</p>
      {deal && (
        <p data-testid="replay-deal" data-deal={deal.deal_number}>
          {i18n.t('hand')} {deal.deal_number + 1} · {i18n.t('dealer')}: {names(deal.dealer)}
          {trump && ` · ${i18n.t('trump')}: ${i18n.trump(trump)}`}
        </p>
      )}
      <div class="felt replay-felt">
        {Array.from({ length: players }, (_, seat) => (
          <div
            class={`seat ${kPlaces[players === 2 ? seat * 2 : seat]} ${view.last?.seat === seat ? 'current' : ''}`}
            data-testid={`replay-seat-${seat}`}
          >
            <span class="name">{names(seat)}</span>
            <span class="replay-hand" aria-label={i18n.t('hand_of', { name: names(seat) })}>
              {sort_hand(view.hands[seat] ?? [], trump).map((c) => (
                <CardFace card={c} />
              ))}
            </span>
          </div>
        ))}
        <div class="center">
          {view.turn_up && (
            <div data-testid="replay-turn-up">
              {i18n.t('turn_up')}: <CardFace card={view.turn_up} />
            </div>
          )}
          {view.trick && (
            <TrickView
              trick={view.trick}
              players={players}
              names={names}
              label={i18n.t('trick')}
              testid="replay-trick"
              winner={view.trick.cards.length === players ? view.trick.winner : undefined}
            />
          )}
          {deal && (
            <span>
              {i18n.t('tricks_won')}: {view.tricks_won[0]} – {view.tricks_won[1]}
            </span>
          )}
        </div>
      </div>
      <BidsView bids={view.bids} names={names} />
      {view.last && (
        <p class="last-action" data-testid="replay-last">
          {i18n.t('last_action')}: {names(view.last.seat)}: {i18n.action(view.last)}
          {view.last_by_bot !== undefined && ` ${i18n.t('by_bot', { level: i18n.level(view.last_by_bot) })}`}
        </p>
      )}
      {deal && <DealAnalysisView replay={replay} deal={deal} at={view.step > 0 ? view.step - 1 : undefined} names={names} />}
      {view.finished && replay.match_score && (
        <section class="result" role="status" data-testid="replay-final" data-score={replay.match_score.join('-')}>
          <h3>{i18n.t('final_score')}</h3>
          <p>
            {team_name(0)} {replay.match_score[0]} – {replay.match_score[1]} {team_name(1)}
            {replay.winner !== null && ` · ${i18n.t('winner_is', { name: team_name(replay.winner) })}`}
          </p>
        </section>
      )}
      <section class="scores" aria-label={i18n.t('deals')}>
        <h3>{i18n.t('deals')}</h3>
        <p>
          {[0, 1].map((team) => (
            <span class="team">
              {i18n.t('team', { n: team + 1 })}: {team_name(team)}
            </span>
          ))}
        </p>
        <table>
          <thead>
            <tr>
              <th>{i18n.t('hand')}</th>
              <th>{i18n.t('contract')}</th>
              <th title={team_name(0)}>
                {i18n.t('tricks_won')}: {i18n.t('team', { n: 1 })}
              </th>
              <th title={team_name(1)}>{i18n.t('team', { n: 2 })}</th>
            </tr>
          </thead>
          <tbody>
            {deals.map((d, i) => {
              const c = contract_of(replay, d);
              const won = [0, 1].map(
                (team) => d.tricks.filter((t) => t.winner !== undefined && t.winner % 2 === team).length,
              );
              return (
                <tr class={i === view.deal_index ? 'shown' : ''} data-testid="replay-deal-row">
                  <th>
                    <button type="button" onClick={() => go(d.first + 1)}>
                      {d.deal_number + 1}
                    </button>
                  </th>
                  <td>
                    {c
                      ? `${names(c.seat)}: ${i18n.action({ ...c, trump: c.trump ?? d.trump })}`
                      : i18n.t('outcome_all_passed')}
                  </td>
                  <td>{won[0]}</td>
                  <td>{won[1]}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <Scores
        hands={replay.deals.map((d) => d.result).filter((h): h is HandResult => h !== null)}
        me={null}
        team_names={team_name}
        commitments={Object.fromEntries(replay.deals.map((d) => [d.deal_number, d.commitment]))}
        match_id={replay.match_id}
      />
    </div>
  );
}

export function ReplayPage({ match_id }: { match_id: string }) {
  const { i18n } = useEnv();
  const { data, error } = useApi(match_id, () => api.replay(match_id));
  return (
    <div class="page replay" data-testid="replay">
      <p>
        <a href="/">{i18n.t('back_lobby')}</a>
      </p>
      <h2>{i18n.t('replay_of', { id: match_id })}</h2>
      <ApiError code={error} />
      {!data && !error && <p>{i18n.t('loading')}</p>}
      {data && (
        <>
          <p>
            {data.variant} · {new Date(data.started_at).toLocaleString(i18n.lang)} · {i18n.t(`end_${data.end_reason}`)}
            {data.rated && ` · ${i18n.t('rated')}`}
          </p>
          <p class="players">
            {data.seats.map((s) => (
              <a href={player_href(s.player_id)} data-testid="replay-player">
                {seat_name(data, s.seat, i18n)}
              </a>
            ))}
          </p>
          <ReplayBoard replay={data} />
        </>
      )}
    </div>
  );
}
