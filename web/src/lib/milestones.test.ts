import { describe, expect, it } from 'vitest';
import { plan } from '../testing/fixtures';
import { formatDay, localDay, milestoneProgress, milestoneStates, milestoneSummary, orderedMilestones } from './milestones';

const states = (p: Parameters<typeof milestoneStates>[0], today: string) => milestoneStates(p, today).map((v) => `${v.milestone.name}:${v.state}`);

describe('milestoneStates', () => {
  it('done, then the first not done is current, the rest upcoming', () => {
    const p = plan(['Foundation', 'Framing', 'Roofing', 'Finishes'], { 0: { doneDate: '2026-10-01' }, 1: { doneDate: '2026-11-02' } });
    expect(states(p, '2026-11-20')).toEqual(['Foundation:done', 'Framing:done', 'Roofing:current', 'Finishes:upcoming']);
    expect(milestoneStates(p, '2026-11-20').map((v) => v.isCurrent)).toEqual([false, false, true, false]);
  });

  it('late is not done with its target day before today; on the day itself it is not late', () => {
    const p = plan(['Roofing', 'Drywall', 'Paint'], { 0: { targetDate: '2026-11-19' }, 1: { targetDate: '2026-11-20' }, 2: { targetDate: '2026-11-01' } });
    expect(states(p, '2026-11-20')).toEqual(['Roofing:late', 'Drywall:upcoming', 'Paint:late']);
    // The late one is still where the work is.
    expect(milestoneStates(p, '2026-11-20')[0].isCurrent).toBe(true);
  });

  it('a done milestone is never late, whatever its target', () => {
    const p = plan(['Roofing'], { 0: { targetDate: '2026-01-01', doneDate: '2026-03-01' } });
    expect(states(p, '2026-11-20')).toEqual(['Roofing:done']);
  });

  it('follows position, not the order of the wire list', () => {
    const p = plan(['A', 'B', 'C']);
    p.milestones.reverse();
    expect(orderedMilestones(p).map((m) => m.name)).toEqual(['A', 'B', 'C']);
    expect(states(p, '2026-01-01')).toEqual(['A:current', 'B:upcoming', 'C:upcoming']);
  });

  it('a milestone done out of order does not end the current one before it', () => {
    const p = plan(['A', 'B', 'C'], { 1: { doneDate: '2026-01-02' } });
    expect(states(p, '2026-01-05')).toEqual(['A:current', 'B:done', 'C:upcoming']);
  });
});

describe('milestoneSummary', () => {
  it('counts done and names the next with its target', () => {
    const names = ['Site preparation', 'Foundation', 'Framing', 'Roofing', 'Rough-in', 'Insulation & drywall', 'Finishes', 'Final inspection', 'Handover'];
    const done = { doneDate: '2026-10-01' };
    const p = plan(names, { 0: done, 1: done, 2: done, 3: { targetDate: '2026-12-03' } });
    // Three done here; the summary counts what is done, not positions.
    expect(milestoneSummary(p, '2026-11-20').text).toBe('3 of 9 done · next: Roofing, target Dec 3');
    expect(milestoneSummary(plan(['A', 'B']), '2026-11-20').text).toBe('0 of 2 done · next: A');
  });

  it('says when all are done and when there are none', () => {
    expect(milestoneSummary(plan(['A', 'B'], { 0: { doneDate: '2026-01-01' }, 1: { doneDate: '2026-01-02' } })).text).toBe('All 2 milestones done');
    expect(milestoneSummary(plan([])).text).toBe('No milestones yet');
  });

  it('says when the next one is late', () => {
    expect(milestoneSummary(plan(['Roofing'], { 0: { targetDate: '2026-11-19' } }), '2026-11-20').text).toBe('0 of 1 done · next: Roofing, late (target Nov 19)');
  });

  it('shows the year of a target in another year', () => {
    expect(milestoneSummary(plan(['Handover'], { 0: { targetDate: '2027-02-14' } }), '2026-11-20').text).toBe('0 of 1 done · next: Handover, target Feb 14, 2027');
  });
});

describe('days', () => {
  it('formats a calendar day without shifting it by the time zone', () => {
    expect(formatDay('2026-12-03', '2026-11-20')).toBe('Dec 3');
    expect(formatDay('2026-01-01', '2025-12-31')).toBe('Jan 1, 2026');
    expect(formatDay('not a day', '2026-01-01')).toBe('not a day');
  });

  it('today is the local calendar day', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(localDay(new Date(2026, 11, 31, 0, 1))).toBe('2026-12-31');
  });

  it('progress is the share of done milestones', () => {
    expect(milestoneProgress(plan(['A', 'B', 'C'], { 0: { doneDate: '2026-01-01' } }))).toBe(33);
    expect(milestoneProgress(plan([]))).toBe(0);
  });
});
