// A hand's fair-dealing check under its score: the commitment published before the deal, hashed
// again here from the seed the hand's result revealed.
import { useEffect, useState } from 'preact/hooks';
import { check_deal, commitment_command, type DealCheck } from '../fair';
import { useEnv } from './context';

export function DealCheckView({
  commitment,
  seed,
  match_id,
  deal_number,
}: {
  commitment?: string;
  seed: string;
  match_id?: string;
  deal_number: number;
}) {
  const { i18n } = useEnv();
  const [result, set_result] = useState<DealCheck | 'checking'>('checking');
  useEffect(() => {
    let live = true;
    set_result('checking');
    void check_deal(commitment, seed, match_id, deal_number).then((r) => {
      if (live) set_result(r);
    });
    return () => {
      live = false;
    };
  }, [commitment, seed, match_id, deal_number]);
  return (
    <div class={`deal-check ${result}`} data-testid="deal-check" data-state={result}>
      <p>{i18n.t(`deal_${result}`)}</p>
      <dl>
        <dt>{i18n.t('deal_commitment')}</dt>
        <dd>
          <code>{commitment ?? '—'}</code>
        </dd>
        <dt>{i18n.t('deal_seed')}</dt>
        <dd>
          <code>{seed}</code>
        </dd>
        {match_id && (
          <>
            <dt>{i18n.t('deal_command')}</dt>
            <dd>
              <code>{commitment_command(seed, match_id, deal_number)}</code>
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
