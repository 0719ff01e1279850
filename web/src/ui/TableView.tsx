// A table: seats with their marks, the auction, the trick in progress and the last one, the hand
// with its legal cards, the actions the server offers, scores per deal, the turn timer and chat.
import { useEffect, useState } from 'preact/hooks';
import { card_label, is_red, sort_hand } from '../cards';
import {
  kBotLevels,
  type BotLevel,
  type Card,
  type EventMessage,
  type HandResult,
  type SeatedAction,
  type Trick,
} from '../protocol';
import { replay_href } from '../route';
import { other_actions, playable, seat_controls, type TableState } from '../state';
import { useEnv } from './context';
import { DealCheckView } from './DealCheck';

// Where each seat sits on screen, seen from `me` (or from seat 0 when watching).
function position(seat: number, me: number, players: number): string {
  const rel = (seat - me + players) % players;
  if (players === 2) return rel === 0 ? 'bottom' : 'top';
  return ['bottom', 'left', 'top', 'right'][rel];
}

export function CardFace({ card }: { card: Card }) {
  const { i18n } = useEnv();
  return (
    <span class={`card ${is_red(card) ? 'red' : 'black'}`} role="img" aria-label={i18n.card(card)} data-card={card}>
      {card_label(card)}
    </span>
  );
}

// A trick, each card with the seat that played it, and for a complete trick the seat that won it.
export function TrickView({
  trick,
  players,
  names,
  label,
  testid,
  winner,
}: {
  trick: Trick;
  players: number;
  names: (seat: number) => string;
  label: string;
  testid: string;
  winner?: number;
}) {
  const { i18n } = useEnv();
  return (
    <div class="trick" aria-label={label} data-testid={testid} data-winner={winner}>
      {trick.cards.map((c, i) => {
        const seat = (trick.leader + i) % players;
        return (
          <span class={`played ${seat === winner ? 'won' : ''}`} data-seat={seat}>
            <CardFace card={c} />
            <span class="by">{names(seat)}</span>
          </span>
        );
      })}
      {winner !== undefined && (
        <span class="winner" data-testid={`${testid}-winner`}>
          {i18n.t('won_by', { name: names(winner) })}
        </span>
      )}
    </div>
  );
}

// The auction so far, each call with its seat's name; nothing before the first call.
export function BidsView({ bids, names }: { bids: SeatedAction[]; names: (seat: number) => string }) {
  const { i18n } = useEnv();
  if (bids.length === 0) return null;
  return (
    <section class="bids" aria-label={i18n.t('bids')}>
      {bids.map((b) => (
        <span>
          {names(b.seat)}: {i18n.action(b)}
        </span>
      ))}
    </section>
  );
}

function TurnTimer({ deadline }: { deadline?: number }) {
  const { i18n } = useEnv();
  const [now, set_now] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => set_now(Date.now()), 250);
    return () => clearInterval(id);
  }, []);
  if (deadline === undefined) return null;
  const s = Math.max(0, Math.ceil((deadline - now) / 1000));
  return (
    <span class="timer" data-testid="timer" role="timer">
      {i18n.t('time_left', { s })}
    </span>
  );
}

// Each hand's score, line by line. `team_names` overrides the default names (us and them for a
// player, team 1 and 2 for a spectator).
export function Scores({
  hands,
  me,
  team_names,
  commitments,
  match_id,
}: {
  hands: HandResult[];
  me: number | null;
  team_names?: (team: number) => string;
  commitments?: Record<number, string>; // with them, each hand shows its fair-dealing check
  match_id?: string;
}) {
  const { i18n } = useEnv();
  const team_name = (n: number) =>
    team_names
      ? team_names(n)
      : me === null
        ? i18n.t('team', { n: n + 1 })
        : me % 2 === n
          ? i18n.t('team_us')
          : i18n.t('team_them');
  const rows: [string, keyof HandResult['teams'][0]][] = [
    ['card_points', 'card_points'],
    ['last_trick_points', 'last_trick'],
    ['declarations', 'declarations'],
    ['belote', 'belote'],
    ['capot_bonus', 'capot_bonus'],
    ['raw', 'raw'],
    ['score', 'score'],
  ];
  return (
    <section class="scores" aria-label={i18n.t('scores')}>
      <h3>{i18n.t('scores')}</h3>
      {hands.map((h) => (
        <details data-testid="hand-result">
          <summary>
            {i18n.t('hand')} {h.deal_number + 1}: {i18n.t(`outcome_${h.outcome}`)} — {team_name(0)} {h.teams[0].score},{' '}
            {team_name(1)} {h.teams[1].score}
          </summary>
          <table>
            <thead>
              <tr>
                <th></th>
                <th>{team_name(0)}</th>
                <th>{team_name(1)}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([key, field]) => (
                <tr>
                  <th>{i18n.t(key as 'raw')}</th>
                  <td>{h.teams[0][field]}</td>
                  <td>{h.teams[1][field]}</td>
                </tr>
              ))}
              <tr>
                <th>{i18n.t('match_score')}</th>
                <td>{h.match_score[0]}</td>
                <td>{h.match_score[1]}</td>
              </tr>
            </tbody>
          </table>
          {commitments && h.seed && (
            <DealCheckView
              commitment={commitments[h.deal_number]}
              seed={h.seed}
              match_id={match_id}
              deal_number={h.deal_number}
            />
          )}
        </details>
      ))}
    </section>
  );
}

function Chat({ table }: { table: TableState }) {
  const { client, i18n } = useEnv();
  const [text, set_text] = useState('');
  return (
    <section class="chat" aria-label={i18n.t('chat')}>
      <ul aria-live="polite">
        {table.chat.map((m) => (
          <li>
            <b>{m.name}</b>: {m.text}
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) client.chat(text.trim());
          set_text('');
        }}
      >
        <input aria-label={i18n.t('say')} value={text} maxLength={500} onInput={(e) => set_text(e.currentTarget.value)} />
        <button type="submit">{i18n.t('send')}</button>
      </form>
    </section>
  );
}

// The last action at the table, saying who chose it: a computer player, or the server for an
// absent one.
function LastAction({ ev, names }: { ev: EventMessage; names: (seat: number) => string }) {
  const { i18n } = useEnv();
  const last = ev.last_action;
  if (!last) return null;
  const what = last.redacted ? last.action.type : i18n.action(last.action);
  return (
    <p class="last-action" data-testid="last-action" data-seat={last.seat} data-by-bot={last.by_bot}>
      {i18n.t('last_action')}: {names(last.seat)}: {what}
      {last.by_bot !== undefined && ` ${i18n.t('by_bot', { level: i18n.level(last.by_bot) })}`}
      {last.by_server && last.by_bot === undefined && ` ${i18n.t('by_server')}`}
    </p>
  );
}

export function TableView({ table }: { table: TableState }) {
  const { client, i18n } = useEnv();
  const [refusal, set_refusal] = useState('');
  const [bot_level, set_bot_level] = useState<BotLevel>('rules');
  const controls = seat_controls(table);
  const ev = table.event;
  const obs = ev?.observation;
  const summary = table.summary;
  const players = summary?.seats.length ?? obs?.hand_sizes.length ?? 4;
  const me = table.seat;
  const view_seat = me ?? 0;
  // A computer player is named by its level wherever a seat is named.
  const names = (seat: number) => {
    const info = summary?.seats[seat];
    if (info?.bot !== undefined) return i18n.t('bot_mark', { level: i18n.level(info.bot) });
    return info?.name ?? i18n.t('seat', { seat: seat + 1 });
  };
  const trump = obs?.contract?.trump;
  const hand = sort_hand(obs?.hand ?? [], trump);
  const my_turn = obs !== undefined && me !== null && obs.current === me && obs.legal.length > 0;
  const invite_url = table.invite ? `${location.origin}/t/${table.invite}` : undefined;
  const result = table.match_result;

  return (
    <div
      class="table"
      data-testid="table"
      data-table-id={table.table_id}
      data-seq={table.last_seq}
      data-duplicates={table.duplicates}
      data-gaps={table.gaps}
    >
      <div class="table-head">
        <h2>{i18n.t('table', { id: table.table_id })}</h2>
        {invite_url && (
          <label>
            {i18n.t('invite_link')} <input readOnly value={invite_url} data-testid="invite" />
          </label>
        )}
        {me !== null && (
          <button type="button" onClick={() => client.stand()}>
            {i18n.t('stand')}
          </button>
        )}
        <button type="button" onClick={() => client.leave()}>
          {i18n.t('leave')}
        </button>
        {controls.includes('add_bot') && (
          <label for="add-bot-level">
            {i18n.t('bot_level')}{' '}
            <select
              id="add-bot-level"
              value={bot_level}
              onChange={(e) => set_bot_level(e.currentTarget.value as BotLevel)}
            >
              {kBotLevels.map((l) => (
                <option value={l}>{i18n.level(l)}</option>
              ))}
            </select>
          </label>
        )}
      </div>

      <div class="felt">
        {Array.from({ length: players }, (_, seat) => {
          const info = summary?.seats[seat];
          return (
            <div
              class={`seat ${position(seat, view_seat, players)} ${obs?.current === seat ? 'current' : ''}`}
              data-testid={`seat-${seat}`}
              data-bot={info?.bot}
              aria-current={obs?.current === seat ? 'true' : undefined}
            >
              <span class="name">
                {names(seat)} {seat === me && `(${i18n.t('you')})`}
              </span>
              {controls[seat] === 'add_bot' && (
                <button type="button" onClick={() => client.add_bot(seat, bot_level)}>
                  {i18n.t('add_bot')}
                </button>
              )}
              {controls[seat] === 'remove_bot' && (
                <button type="button" onClick={() => client.remove_bot(seat)}>
                  {i18n.t('remove_bot')}
                </button>
              )}
              {info?.away && <span class="mark">{i18n.t('away')}</span>}
              {info && info.player_id !== null && !info.connected && <span class="mark">{i18n.t('disconnected')}</span>}
              {obs && <span class="count">🂠×{obs.hand_sizes[seat]}</span>}
              {obs?.current === seat && <TurnTimer deadline={table.turn_deadline} />}
            </div>
          );
        })}
        <div class="center">
          {!obs && <p>{i18n.t('waiting_players')}</p>}
          {obs?.turn_up && obs.phase === 'bidding' && (
            <div>
              {i18n.t('turn_up')}: <CardFace card={obs.turn_up} />
            </div>
          )}
          {obs?.contract && (
            <div data-testid="contract">
              {i18n.t('contract')}: {names(obs.contract.taker)} · {i18n.trump(obs.contract.trump)}
              {obs.contract.value !== undefined && ` · ${obs.contract.value}`}
              {obs.contract.multiplier > 1 && ` ×${obs.contract.multiplier}`}
            </div>
          )}
          {obs?.trick && (
            <TrickView trick={obs.trick} players={players} names={names} label={i18n.t('trick')} testid="trick" />
          )}
        </div>
      </div>

      {obs && obs.phase === 'bidding' && <BidsView bids={obs.bids} names={names} />}
      {ev && <LastAction ev={ev} names={names} />}
      {table.last_trick && (
        <details class="last-trick">
          <summary>{i18n.t('show_last_trick')}</summary>
          <TrickView
            trick={table.last_trick}
            players={players}
            names={names}
            label={i18n.t('last_trick')}
            testid="last-trick"
            winner={table.last_trick_winner}
          />
        </details>
      )}

      {result && (
        <section class="result" role="status" data-testid="match-result" data-score={result.match_score.join('-')}>
          <h3>{i18n.t('match_over')}</h3>
          <p>
            {me === null
              ? i18n.t('winner', { n: result.winner + 1 })
              : me % 2 === result.winner
                ? i18n.t('you_win')
                : i18n.t('you_lose')}{' '}
            <span data-testid="final-score">
              {result.match_score[0]} – {result.match_score[1]}
            </span>
          </p>
          {result.abandoned && <p>{i18n.t('abandoned', { seat: (result.abandoned_by ?? 0) + 1 })}</p>}
          {table.match_id && (
            <p>
              <a href={replay_href(table.match_id)} data-testid="replay-link">
                {i18n.t('watch_replay')}
              </a>
            </p>
          )}
        </section>
      )}

      {me !== null && obs && (
        <section class="hand" aria-label={i18n.t('your_hand')}>
          <p class="turn" role="status">
            {my_turn ? i18n.t('your_turn') : obs.current >= 0 ? i18n.t('turn_of', { name: names(obs.current) }) : ''}
          </p>
          <div class="cards">
            {hand.map((c) => {
              const ok = playable(table, c);
              return (
                <button
                  type="button"
                  class={`card-button ${ok ? 'legal' : 'not-legal'}`}
                  aria-disabled={ok ? undefined : 'true'}
                  aria-label={ok ? i18n.t('a_play', { card: i18n.card(c) }) : i18n.card(c)}
                  data-card={c}
                  onClick={() => {
                    if (ok) {
                      set_refusal('');
                      client.act({ type: 'play', card: c });
                    } else set_refusal(my_turn ? i18n.t('not_playable') : i18n.t('not_your_turn'));
                  }}
                >
                  <CardFace card={c} />
                </button>
              );
            })}
          </div>
          {refusal && (
            <p class="refusal" role="alert">
              {refusal}
            </p>
          )}
          {my_turn && other_actions(table).length > 0 && (
            <div class="actions" role="group" aria-label={i18n.t('actions')}>
              {other_actions(table).map((a) => (
                <button
                  type="button"
                  data-action={a.type}
                  data-value={a.value}
                  data-capot={a.capot ? 'true' : undefined}
                  onClick={() => client.act(a)}
                >
                  {i18n.action(a)}
                </button>
              ))}
            </div>
          )}
        </section>
      )}

      {obs && (
        <p class="match-score" data-testid="match-score">
          {i18n.t('match_score')}: {obs.match_score[0]} – {obs.match_score[1]}
        </p>
      )}
      <Scores hands={table.hands} me={me} commitments={table.commitments} match_id={table.match_id} />
      <Chat table={table} />
    </div>
  );
}
