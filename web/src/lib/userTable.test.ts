import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, nextSort, pageOf, pageRange } from './userTable';

describe('nextSort', () => {
  it('sorts a new column ascending and flips the current one', () => {
    expect(nextSort(DEFAULT_SORT, 'email')).toEqual({ key: 'email', direction: 'ascending' });
    expect(nextSort(DEFAULT_SORT, 'name')).toEqual({ key: 'name', direction: 'descending' });
    expect(nextSort({ key: 'name', direction: 'descending' }, 'name')).toEqual(DEFAULT_SORT);
  });
});

describe('pageRange', () => {
  it('places a page the server answered among all the matches', () => {
    expect(pageRange(120, 0, 50, 50)).toEqual({ page: 0, pages: 3, from: 1, to: 50, total: 120 });
    expect(pageRange(120, 2, 50, 20)).toEqual({ page: 2, pages: 3, from: 101, to: 120, total: 120 });
  });

  it('says 0–0 of 0 when nothing matches', () => {
    expect(pageRange(0, 0, 50, 0)).toEqual({ page: 0, pages: 1, from: 0, to: 0, total: 0 });
  });
});

describe('pageOf', () => {
  const hundred = Array.from({ length: 120 }, (_, i) => i);

  it('pages past 50 rows', () => {
    expect(pageOf(hundred, 0)).toMatchObject({ page: 0, pages: 3, from: 1, to: 50, total: 120 });
    const last = pageOf(hundred, 2);
    expect(last).toMatchObject({ page: 2, from: 101, to: 120 });
    expect(last.rows).toHaveLength(20);
  });

  it('clamps a page that no longer exists (after a search or a deletion)', () => {
    expect(pageOf(hundred.slice(0, 30), 2)).toMatchObject({ page: 0, pages: 1, from: 1, to: 30 });
    expect(pageOf([], 1)).toMatchObject({ page: 0, pages: 1, from: 0, to: 0, total: 0 });
  });

  it('takes its own page size', () => {
    expect(pageOf(hundred, 1, 25)).toMatchObject({ page: 1, pages: 5, from: 26, to: 50 });
  });
});
