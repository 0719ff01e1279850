// The lobby: live public tables (subscribe_lobby), and a new table from the server's variants and
// their options.
import { useState } from 'preact/hooks';
import { kBotLevels, type BotLevel, type OptionSpec, type TableSummary, type VariantInfo } from '../protocol';
import { leaderboard_href, player_href } from '../route';
import type { State } from '../state';
import { useEnv } from './context';

function OptionField({ spec, value, set }: { spec: OptionSpec; value: unknown; set: (v: unknown) => void }) {
  const id = `opt-${spec.name}`;
  if (spec.type === 'boolean') {
    return (
      <label for={id} title={spec.description}>
        <input id={id} type="checkbox" checked={Boolean(value)} onChange={(e) => set(e.currentTarget.checked)} />{' '}
        {spec.name}
      </label>
    );
  }
  const choices: (string | number)[] =
    spec.type === 'choice' ? (spec.choices ?? []) : (spec.allowed ?? []);
  return (
    <label for={id} title={spec.description}>
      {spec.name}{' '}
      {choices.length > 0 ? (
        <select
          id={id}
          value={String(value)}
          onChange={(e) => set(spec.type === 'integer' ? Number(e.currentTarget.value) : e.currentTarget.value)}
        >
          {choices.map((c) => (
            <option value={String(c)}>{String(c)}</option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type="number"
          min={spec.min}
          max={spec.max}
          step={1}
          required
          value={Number(value)}
          onChange={(e) => set(Number(e.currentTarget.value))}
        />
      )}
    </label>
  );
}

const kDefaultVariant = 'french';

function NewTable({ variants }: { variants: VariantInfo[] }) {
  const { client, i18n } = useEnv();
  const [variant_id, set_variant] = useState('');
  const [options, set_options] = useState<Record<string, unknown>>({});
  const [is_private, set_private] = useState(false);
  const [level, set_level] = useState<BotLevel>('rules');
  const variant =
    variants.find((v) => v.id === variant_id) ?? variants.find((v) => v.id === kDefaultVariant) ?? variants[0];
  if (!variant) return null;
  const value = (spec: OptionSpec) => (spec.name in options ? options[spec.name] : spec.default);
  const chosen_options = () => {
    const chosen: Record<string, unknown> = {};
    for (const spec of variant.options) if (spec.name in options) chosen[spec.name] = options[spec.name];
    return chosen;
  };
  return (
    <form
      class="new-table"
      aria-label={i18n.t('new_table')}
      onSubmit={(e) => {
        e.preventDefault();
        client.create_table(variant.id, chosen_options(), is_private);
      }}
    >
      <h2>{i18n.t('new_table')}</h2>
      <label for="variant">
        {i18n.t('variant')}{' '}
        <select
          id="variant"
          value={variant.id}
          onChange={(e) => {
            set_variant(e.currentTarget.value);
            set_options({});
          }}
        >
          {variants.map((v) => (
            <option value={v.id}>{v.title}</option>
          ))}
        </select>
      </label>
      <fieldset>
        {variant.options.map((spec) => (
          <OptionField spec={spec} value={value(spec)} set={(v) => set_options({ ...options, [spec.name]: v })} />
        ))}
      </fieldset>
      <label>
        <input type="checkbox" checked={is_private} onChange={(e) => set_private(e.currentTarget.checked)} />{' '}
        {i18n.t('private_table')}
      </label>
      <div class="buttons">
        <button type="submit">{i18n.t('create')}</button>
        <button type="button" onClick={() => client.play_computer(variant.id, chosen_options(), level)}>
          {i18n.t('play_computer')}
        </button>
        <label for="bot-level">
          {i18n.t('bot_level')}{' '}
          <select id="bot-level" value={level} onChange={(e) => set_level(e.currentTarget.value as BotLevel)}>
            {kBotLevels.map((l) => (
              <option value={l}>{i18n.level(l)}</option>
            ))}
          </select>
        </label>
      </div>
    </form>
  );
}

function TableRow({ table }: { table: TableSummary }) {
  const { client, i18n } = useEnv();
  return (
    <li class="table-row" data-table={table.table_id}>
      <span>
        {table.table_id} · {table.variant} · {i18n.t(`status_${table.status}`)}
      </span>
      <span class="seats">
        {table.seats.map((s) =>
          s.player_id === null ? (
            <button type="button" onClick={() => client.sit(table.table_id, s.seat)}>
              {i18n.t('sit', { seat: s.seat + 1 })}
            </button>
          ) : (
            <span class="seat-name" data-bot={s.bot}>
              {s.bot !== undefined ? i18n.t('bot_mark', { level: i18n.level(s.bot) }) : s.name}
            </span>
          ),
        )}
        <button type="button" onClick={() => client.spectate(table.table_id)}>
          {i18n.t('watch')}
        </button>
      </span>
    </li>
  );
}

export function Lobby({ state }: { state: State }) {
  const { i18n } = useEnv();
  const tables = Object.values(state.lobby);
  return (
    <div class="lobby">
      <nav class="links" aria-label={i18n.t('links')}>
        <a href={leaderboard_href()} data-testid="leaderboard-link">
          {i18n.t('leaderboard')}
        </a>
        {state.player_id && (
          <a href={player_href(state.player_id)} data-testid="my-page-link">
            {i18n.t('my_page')}
          </a>
        )}
      </nav>
      <NewTable variants={state.variants} />
      <section aria-label={i18n.t('tables')}>
        <h2>{i18n.t('tables')}</h2>
        {tables.length === 0 ? (
          <p>{i18n.t('no_tables')}</p>
        ) : (
          <ul>
            {tables.map((t) => (
              <TableRow table={t} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
