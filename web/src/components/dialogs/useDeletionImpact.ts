import { useEffect, useState } from 'react';
import { namesMatch } from '../../lib/people';

/** What deleting something takes with it: being counted, the server's counts, or unknown. */
export type DeletionImpact<Counts> = { state: 'counting' } | ({ state: 'counted' } & Counts) | { state: 'unknown' };

/**
 * The careful delete of a user or a company: the server counts what goes with it when the
 * dialog opens, and when anything does (`takesSomething`), or the count could not be had,
 * the name must be typed before Delete works.
 */
export function useDeletionImpact<Counts extends object>(
  id: string,
  name: string,
  count: (id: string) => Promise<Counts>,
  takesSomething: (counts: Counts) => boolean,
) {
  const [impact, setImpact] = useState<DeletionImpact<Counts>>({ state: 'counting' });
  const [typed, setTyped] = useState('');

  useEffect(() => {
    let cancelled = false;
    count(id)
      .then((counts) => !cancelled && setImpact({ state: 'counted', ...counts }))
      .catch(() => !cancelled && setImpact({ state: 'unknown' }));
    return () => {
      cancelled = true;
    };
  }, [id, count]);

  return { impact, typed, setTyped, ...deletionGate(impact, typed, name, takesSomething) };
}

/** Whether the name must be typed, and whether Delete may be pressed yet. */
export function deletionGate<Counts extends object>(
  impact: DeletionImpact<Counts>,
  typed: string,
  name: string,
  takesSomething: (counts: Counts) => boolean,
): { mustType: boolean; ready: boolean } {
  const mustType = impact.state === 'unknown' || (impact.state === 'counted' && takesSomething(impact));
  const ready = impact.state !== 'counting' && (!mustType || namesMatch(typed, name));
  return { mustType, ready };
}
