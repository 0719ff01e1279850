// What every view gets: the client (state and actions) and the texts.
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Client } from '../client';
import type { I18n } from '../i18n';
import type { State } from '../state';

export interface Env {
  client: Client;
  i18n: I18n;
  set_lang: (lang: 'en' | 'fr') => void;
}

export const EnvContext = createContext<Env | null>(null);

export function useEnv(): Env {
  const env = useContext(EnvContext);
  if (!env) throw new Error('no EnvContext');
  return env;
}

// The client's state, re-rendering on each change.
export function useClientState(client: Client): State {
  const [state, set_state] = useState(client.state);
  useEffect(() => client.subscribe(() => set_state(client.state)), [client]);
  return state;
}
