// Entry point: the client on this page's origin, its texts, and the page.
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { Client, type Socket } from './client';
import { I18n, pick_lang, type Lang } from './i18n';
import { parse_route } from './route';
import { App } from './ui/App';
import { EnvContext, useClientState } from './ui/context';
import './style.css';

const ws_url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
const client = new Client((url) => new WebSocket(url ?? ws_url) as unknown as Socket, window.localStorage);
const route = parse_route(location.pathname, location.search);
const invite = route.kind === 'home' ? route.invite : undefined;
// A name for a newcomer, kept afterwards.
if (!client.name) client.set_name(`guest-${Math.floor(Math.random() * 9000 + 1000)}`);

function Root() {
  const [lang, set_lang] = useState<Lang>(pick_lang(localStorage.getItem('atout.lang'), navigator.language));
  const state = useClientState(client);
  const i18n = new I18n(lang);
  document.documentElement.lang = lang;
  const choose = (l: Lang) => {
    localStorage.setItem('atout.lang', l);
    set_lang(l);
  };
  return (
    <EnvContext.Provider value={{ client, i18n, set_lang: choose }}>
      <App state={state} route={route} />
    </EnvContext.Provider>
  );
}

const root = document.getElementById('app');
if (root) render(<Root />, root);
client.start(invite);
