import { describe, expect, it } from 'vitest';
import { photo } from '../testing/fixtures';
import {
  defaultDateFilter,
  differsFromDefault,
  formatTagParam,
  matchesTags,
  monthChoices,
  newestFirst,
  parseChoice,
  parseTagParam,
  usedTags,
  shownOf,
  visiblePhotos,
  withMonth,
  withYear,
  yearChoices,
} from './photoFilters';

// Local time throughout: the filters follow the viewer's calendar.
const now = new Date(2026, 10, 21, 15, 0); // 21 November 2026
const at = (y: number, m: number, d = 15) => new Date(y, m, d, 12).getTime();

describe('year and month choices', () => {
  it('offers All Years, the current year and the two before', () => {
    expect(yearChoices(now)).toEqual([
      { value: 'all', label: 'All Years' },
      { value: 2026, label: '2026' },
      { value: 2025, label: '2025' },
      { value: 2024, label: '2024' },
    ]);
  });

  it('offers All Months and the twelve month names', () => {
    const months = monthChoices();
    expect(months).toHaveLength(13);
    expect(months[0]).toEqual({ value: 'all', label: 'All Months' });
    expect(months[1]).toEqual({ value: 0, label: 'January' });
    expect(months[12]).toEqual({ value: 11, label: 'December' });
  });

  it('reads select values back', () => {
    expect(parseChoice('all')).toBe('all');
    expect(parseChoice('2025')).toBe(2025);
    expect(parseChoice('0')).toBe(0);
  });
});

describe('defaults and reset', () => {
  it('defaults to the current year and month', () => {
    expect(defaultDateFilter(now)).toEqual({ year: 2026, month: 10 });
  });

  it('shows reset only when the filter differs from the defaults', () => {
    expect(differsFromDefault({ year: 2026, month: 10 }, now)).toBe(false);
    expect(differsFromDefault({ year: 2026, month: 'all' }, now)).toBe(true);
    expect(differsFromDefault({ year: 'all', month: 10 }, now)).toBe(true);
    expect(differsFromDefault({ year: 2025, month: 10 }, now)).toBe(true);
  });

  it('changing the year resets the month to the current month', () => {
    expect(withYear({ year: 2026, month: 2 }, 2025, now)).toEqual({ year: 2025, month: 10 });
    expect(withYear({ year: 2026, month: 'all' }, 'all', now)).toEqual({ year: 'all', month: 10 });
    // Choosing the same year again changes nothing.
    expect(withYear({ year: 2026, month: 2 }, 2026, now)).toEqual({ year: 2026, month: 2 });
  });

  it('changing the month keeps the year', () => {
    expect(withMonth({ year: 2025, month: 10 }, 'all')).toEqual({ year: 2025, month: 'all' });
  });
});

describe('visible photos', () => {
  const photos = [
    photo({ id: 'oct', createdAt: at(2026, 9) }),
    photo({ id: 'nov-early', createdAt: at(2026, 10, 2) }),
    photo({ id: 'nov-late', createdAt: at(2026, 10, 19) }),
    photo({ id: 'nov-2025', createdAt: at(2025, 10) }),
    photo({ id: 'jan-2024', createdAt: at(2024, 0) }),
  ];

  it('filters by year and month of the upload date when there is no capture date, newest first', () => {
    expect(visiblePhotos(photos, { year: 2026, month: 10 }, false, {}).map((p) => p.id)).toEqual(['nov-late', 'nov-early']);
    expect(visiblePhotos(photos, { year: 2026, month: 'all' }, false, {}).map((p) => p.id)).toEqual(['nov-late', 'nov-early', 'oct']);
    expect(visiblePhotos(photos, { year: 'all', month: 10 }, false, {}).map((p) => p.id)).toEqual(['nov-late', 'nov-early', 'nov-2025']);
    expect(visiblePhotos(photos, { year: 'all', month: 'all' }, false, {}).map((p) => p.id)).toEqual([
      'nov-late',
      'nov-early',
      'oct',
      'nov-2025',
      'jan-2024',
    ]);
    expect(visiblePhotos(photos, { year: 2025, month: 0 }, false, {})).toEqual([]);
  });

  it('with Favorites on shows only favourites and ignores the dates', () => {
    const favourites = { 'jan-2024': true, oct: true } as const;
    expect(visiblePhotos(photos, { year: 2026, month: 10 }, true, favourites).map((p) => p.id)).toEqual(['oct', 'jan-2024']);
    expect(visiblePhotos(photos, { year: 2026, month: 10 }, true, {})).toEqual([]);
  });

  it('breaks ties in upload time by id, so the order is stable', () => {
    const same = [photo({ id: 'b', createdAt: 5 }), photo({ id: 'a', createdAt: 5 }), photo({ id: 'c', createdAt: 9 })];
    expect(newestFirst(same).map((p) => p.id)).toEqual(['c', 'a', 'b']);
  });

  it('files and orders a photo by its capture date when it has one', () => {
    // Taken on 28 October (camera clock), uploaded on 19 November.
    const late = photo({ id: 'late-upload', createdAt: at(2026, 10, 19), takenAt: Date.UTC(2026, 9, 28, 9) });
    const all = [...photos, late];
    expect(visiblePhotos(all, { year: 2026, month: 9 }, false, {}).map((p) => p.id)).toEqual(['late-upload', 'oct']);
    expect(visiblePhotos(all, { year: 2026, month: 10 }, false, {}).map((p) => p.id)).toEqual(['nov-late', 'nov-early']);
    expect(newestFirst(all).map((p) => p.id).slice(0, 4)).toEqual(['nov-late', 'nov-early', 'late-upload', 'oct']);
  });

  it('orders photos with equal capture times by upload time, then id', () => {
    const taken = Date.UTC(2026, 9, 28, 9);
    const same = [
      photo({ id: 'b', takenAt: taken, createdAt: 50 }),
      photo({ id: 'a', takenAt: taken, createdAt: 50 }),
      photo({ id: 'c', takenAt: taken, createdAt: 70 }),
    ];
    expect(newestFirst(same).map((p) => p.id)).toEqual(['c', 'a', 'b']);
    expect(newestFirst([...same].reverse()).map((p) => p.id)).toEqual(['c', 'a', 'b']);
  });
});

describe('tag filter', () => {
  const tagged = (id: string, tags: string[]) => photo({ id, tags, createdAt: at(2026, 10) });
  const kitchenWired = tagged('a', ['Kitchen', 'Electrical']);
  const kitchen = tagged('b', ['kitchen']);
  const bare = tagged('c', []);
  const all = [kitchenWired, kitchen, bare];
  const thisMonth = defaultDateFilter(now);

  it('keeps photos that carry every chosen tag, in any case', () => {
    expect(matchesTags(kitchenWired, ['kitchen', 'ELECTRICAL'])).toBe(true);
    expect(matchesTags(kitchen, ['Kitchen', 'Electrical'])).toBe(false);
    expect(matchesTags(bare, [])).toBe(true);
  });

  it('narrows the date and favourite filters further', () => {
    expect(visiblePhotos(all, thisMonth, false, {}, ['Kitchen']).map((p) => p.id).sort()).toEqual(['a', 'b']);
    expect(visiblePhotos(all, thisMonth, false, {}, ['Kitchen', 'Electrical']).map((p) => p.id)).toEqual(['a']);
    expect(visiblePhotos(all, thisMonth, true, { b: true }, ['Electrical'])).toEqual([]);
    expect(visiblePhotos(all, { year: 2024, month: 'all' }, false, {}, ['Kitchen'])).toEqual([]);
    expect(visiblePhotos(all, thisMonth, false, {})).toHaveLength(3);
  });

  it('lists the tags in use, most photos first, each once', () => {
    expect(usedTags(all)).toEqual([
      { tag: 'Kitchen', photos: 2 },
      { tag: 'Electrical', photos: 1 },
    ]);
    expect(usedTags([photo({ tags: ['Roof', 'roof'] })])).toEqual([{ tag: 'Roof', photos: 1 }]);
  });

  it('reads and writes the ?tags= parameter', () => {
    expect(parseTagParam('Kitchen, Electrical ,,kitchen')).toEqual(['Kitchen', 'Electrical']);
    expect(parseTagParam(null)).toEqual([]);
    expect(formatTagParam(['Kitchen', 'Primary  bath'])).toBe('Kitchen,Primary bath');
    expect(formatTagParam([])).toBeNull();
  });
});

describe('shownOf', () => {
  it('answers the sorted list itself when nothing is taken out, so a big gallery is not drawn again', () => {
    const sorted = newestFirst([photo({ id: 'a', createdAt: 2 }), photo({ id: 'b', createdAt: 1 })]);
    expect(shownOf(sorted, { year: 'all', month: 'all' }, false, { a: true })).toBe(sorted);
    expect(shownOf(sorted, { year: 'all', month: 'all' }, true, { a: true }).map((p) => p.id)).toEqual(['a']);
  });
});
