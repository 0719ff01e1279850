// The page: header, error and connection banners, then the lobby or the table, or the page the
// path names (a replay, a player, the leaderboard).
import type { Route } from '../route';
import type { State } from '../state';
import { Lobby } from './Lobby';
import { LeaderboardPage } from './LeaderboardView';
import { PlayerPage } from './PlayerView';
import { ReplayPage } from './ReplayView';
import { TableView } from './TableView';
import { useEnv } from './context';

function Page({ state, route }: { state: State; route: Route }) {
  switch (route.kind) {
    case 'replay':
      return <ReplayPage match_id={route.match_id} />;
    case 'player':
      return <PlayerPage player_id={route.player_id} />;
    case 'leaderboard':
      return <LeaderboardPage variants={state.variants} initial={route.variant} />;
    default:
      return state.table ? <TableView table={state.table} /> : <Lobby state={state} />;
  }
}

export function App({ state, route }: { state: State; route: Route }) {
  const { client, i18n, set_lang } = useEnv();
  return (
    <div class="app">
      <header>
        <h1>{i18n.t('app_title')}</h1>
        <span class="me" data-testid="me" data-player-id={state.player_id}>
          {state.name}
        </span>
        <label>
          {i18n.t('language')}{' '}
          <select value={i18n.lang} onChange={(e) => set_lang((e.currentTarget.value as 'en' | 'fr') ?? 'en')}>
            <option value="en">English</option>
            <option value="fr">Français</option>
          </select>
        </label>
      </header>
      {state.connection === 'connecting' && <p class="banner">{i18n.t('connecting')}</p>}
      {state.connection === 'closed' && <p class="banner">{i18n.t('reconnecting')}</p>}
      {state.connection === 'replaced' && <p class="banner">{i18n.t('replaced')}</p>}
      {state.error && (
        <div class="error" role="alert" data-testid="error" data-code={state.error.code}>
          <span>{i18n.error(state.error)}</span>
          <button type="button" onClick={() => client.dismiss_error()}>
            {i18n.t('dismiss')}
          </button>
        </div>
      )}
      <main>
        <Page state={state} route={route} />
      </main>
    </div>
  );
}
