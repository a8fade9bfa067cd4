import { describe, expect, it } from 'vitest';
import { deletionGate, type DeletionImpact } from './useDeletionImpact';

type Counts = { projects: number; photos: number };
const takes = (c: Counts) => c.projects > 0;
const gate = (impact: DeletionImpact<Counts>, typed = '') => deletionGate(impact, typed, 'Jamie Carter', takes);

describe('deletionGate', () => {
  it('waits for the count before Delete works', () => {
    expect(gate({ state: 'counting' })).toEqual({ mustType: false, ready: false });
  });

  it('lets nothing-to-lose deletions through at once', () => {
    expect(gate({ state: 'counted', projects: 0, photos: 0 })).toEqual({ mustType: false, ready: true });
  });

  it('asks for the name when something goes with it, or the count failed', () => {
    for (const impact of [{ state: 'counted', projects: 2, photos: 9 } as const, { state: 'unknown' } as const]) {
      expect(gate(impact)).toEqual({ mustType: true, ready: false });
      expect(gate(impact, 'jamie  carter ')).toEqual({ mustType: true, ready: true });
      expect(gate(impact, 'Jamie')).toEqual({ mustType: true, ready: false });
    }
  });
});
