// Previous and next pages of a list read from the HTTP API, `kPage` entries at a time.
import { kPage } from '../api';
import { useEnv } from './context';

export function Pager({
  offset,
  count,
  total,
  set,
}: {
  offset: number;
  count: number; // entries on this page
  total?: number; // all entries, when the API says
  set: (offset: number) => void;
}) {
  const { i18n } = useEnv();
  const more = total !== undefined ? offset + count < total : count === kPage;
  if (offset === 0 && !more) return null;
  return (
    <p class="pager">
      <button type="button" disabled={offset === 0} onClick={() => set(Math.max(0, offset - kPage))}>
        {i18n.t('page_prev')}
      </button>
      <span>
        {count > 0 ? `${offset + 1}–${offset + count}` : '0'}
        {total !== undefined && ` / ${total}`}
      </span>
      <button type="button" disabled={!more} onClick={() => set(offset + kPage)}>
        {i18n.t('page_next')}
      </button>
    </p>
  );
}
