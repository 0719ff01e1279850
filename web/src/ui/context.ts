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

// A read of the HTTP API, done again when `key` changes: its data, or the error code.
export function useApi<T>(key: string, read: () => Promise<T>): { data?: T; error?: string } {
  const [result, set_result] = useState<{ key: string; data?: T; error?: string }>({ key: '' });
  useEffect(() => {
    let live = true;
    read().then(
      (data) => live && set_result({ key, data }),
      (e: unknown) => live && set_result({ key, error: (e as { code?: string }).code ?? 'unknown' }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return result.key === key ? result : {};
}
