import { describe, expect, it } from 'vitest';
import { photo } from '../testing/fixtures';
import { arrivedAfter, coversAll, coversWindow, dateWindow, listedRange, windowReadStart, withRange } from './photoCoverage';
import { matchesDate } from './photoFilters';

const DAY = 86_400_000;

describe('date windows', () => {
  it('every year is no one window', () => {
    expect(dateWindow({ year: 'all', month: 'all' })).toBeNull();
    expect(dateWindow({ year: 'all', month: 2 })).toBeNull();
  });

  it('a month holds every photo the filter shows for it, on either clock', () => {
    const window = dateWindow({ year: 2025, month: 2 })!;
    expect(window).toMatchObject({ key: '2025-3', label: 'March 2025' });
    const filter = { year: 2025, month: 2 } as const;
    // Captured photos are dated in UTC, uploads in local time (photoDate): both ends of
    // the month on both clocks, and the moments just outside, land where the filter says.
    const moments = [
      Date.UTC(2025, 2, 1),
      Date.UTC(2025, 3, 1) - 1,
      new Date(2025, 2, 1).getTime(),
      new Date(2025, 3, 1).getTime() - 1,
      Date.UTC(2025, 1, 28, 23, 59),
      Date.UTC(2025, 3, 1, 0, 1),
    ];
    for (const at of moments) {
      for (const p of [photo({ takenAt: at, createdAt: at + DAY }), photo({ takenAt: null, createdAt: at })]) {
        if (matchesDate(p, filter)) {
          const shown = p.takenAt ?? p.createdAt;
          expect(shown).toBeGreaterThanOrEqual(window.start);
          expect(shown).toBeLessThan(window.end);
        }
      }
    }
  });

  it('a whole year, December rolling over into the next January', () => {
    const window = dateWindow({ year: 2024, month: 'all' })!;
    expect(window).toMatchObject({ key: '2024', label: '2024' });
    expect(window.start).toBeLessThanOrEqual(Date.UTC(2024, 0, 1));
    expect(window.end).toBeGreaterThanOrEqual(Date.UTC(2025, 0, 1));
    expect(window.end - window.start).toBeLessThan(367 * DAY);
    const december = dateWindow({ year: 2024, month: 11 })!;
    expect(december.end).toBe(window.end);
  });
});

describe('held stretches', () => {
  const at = (ms: number, id = `i${ms}`) => photo({ id, takenAt: ms, createdAt: ms });

  it('a page holds from its read’s start down to its oldest photo, or everything below when it was the last', () => {
    expect(listedRange([at(90), at(70), at(80)], 'c', Infinity)).toEqual({ oldest: 70, newest: Infinity });
    expect(listedRange([at(90)], null, 100)).toEqual({ oldest: -Infinity, newest: 100 });
    expect(listedRange([], null, Infinity)).toEqual({ oldest: -Infinity, newest: Infinity });
    expect(listedRange([], 'c', 100)).toBeNull();
  });

  it('stretches that meet join; ones with a moment between them stay apart', () => {
    let ranges = withRange([], { oldest: 500, newest: Infinity });
    ranges = withRange(ranges, { oldest: 100, newest: 200 });
    expect(ranges).toEqual([
      { oldest: 100, newest: 200 },
      { oldest: 500, newest: Infinity },
    ]);
    // (100, 200) and (199, 300) leave nothing between them.
    ranges = withRange(ranges, { oldest: 199, newest: 300 });
    expect(ranges).toEqual([
      { oldest: 100, newest: 300 },
      { oldest: 500, newest: Infinity },
    ]);
    // (100, 300) and (300, 600) miss photos shown at 300.
    ranges = withRange(ranges, { oldest: 300, newest: 600 });
    expect(ranges).toHaveLength(2);
    ranges = withRange(ranges, { oldest: 250, newest: 501 });
    expect(ranges).toEqual([{ oldest: 100, newest: Infinity }]);
    expect(coversAll(ranges)).toBe(false);
    expect(coversAll(withRange(ranges, { oldest: -Infinity, newest: 150 }))).toBe(true);
  });

  it('a window is held when one stretch spans it, photos at its first moment included', () => {
    const ranges = [{ oldest: 100, newest: 300 }];
    expect(coversWindow(ranges, { start: 101, end: 300 })).toBe(true);
    expect(coversWindow(ranges, { start: 100, end: 200 })).toBe(false);
    expect(coversWindow(ranges, { start: 150, end: 301 })).toBe(false);
    expect(coversWindow([], { start: 150, end: 200 })).toBe(false);
  });

  it('a window is read from below what is held of it', () => {
    expect(windowReadStart([], { end: 1000 })).toBe(1000);
    // The first page reaches into the month from the newest: read on below it.
    expect(windowReadStart([{ oldest: 600, newest: Infinity }], { end: 1000 })).toBe(601);
    // A stretch older than the window's end does not help.
    expect(windowReadStart([{ oldest: 100, newest: 500 }], { end: 1000 })).toBe(1000);
  });
});

describe('a list that grows as older pages arrive', () => {
  const order = (...ids: string[]) => ids.map((id) => ({ id }));

  it('adds what came after its last photo, not what came ahead of it', () => {
    expect(arrivedAfter(['b', 'c'], order('new', 'b', 'c', 'd', 'e'))).toEqual(['d', 'e']);
    expect(arrivedAfter(['b', 'c'], order('b', 'c'))).toEqual([]);
  });

  it('goes on from its last photo still shown (one un-favourited or deleted)', () => {
    expect(arrivedAfter(['b', 'c'], order('b', 'd'))).toEqual(['d']);
    expect(arrivedAfter(['x'], order('a', 'b'))).toEqual([]);
  });
});
