// The message for a page's failed HTTP API read, by its error code; nothing when there is none.
import { useEnv } from './context';

export function ApiError({ code }: { code?: string }) {
  const { i18n } = useEnv();
  if (!code) return null;
  return (
    <p class="error" role="alert" data-code={code}>
      {i18n.error({ code })}
    </p>
  );
}
