import { describe, expect, it } from 'vitest';
import type { UserListing } from '../protocol/types';
import { profile } from '../testing/fixtures';
import { DEFAULT_SORT, nextSort, pageOf, sortListings } from './userTable';

const listing = (id: string, name: string, over: { email?: string; phone?: string | null; projects?: number; builder?: string | null } = {}): UserListing => ({
  user: profile({ id, name, email: over.email ?? `${id}@example.com`, phone: over.phone ?? null }),
  projectCount: over.projects ?? 0,
  builderName: over.builder ?? null,
});

const names = (rows: UserListing[]) => rows.map((r) => r.user.name);

describe('sortListings', () => {
  const rows = [
    listing('a', 'priya shah', { email: 'z@x.com', phone: '555-2', projects: 1, builder: 'Summit Homes' }),
    listing('b', 'Jamie Carter', { email: 'a@x.com', projects: 3 }),
    listing('c', 'Alex Morgan', { email: 'm@x.com', phone: '555-1', projects: 1, builder: 'Acme' }),
  ];

  it('sorts by name without regard to case by default', () => {
    expect(names(sortListings(rows, DEFAULT_SORT))).toEqual(['Alex Morgan', 'Jamie Carter', 'priya shah']);
    expect(names(sortListings(rows, { key: 'name', direction: 'descending' }))).toEqual(['priya shah', 'Jamie Carter', 'Alex Morgan']);
  });

  it('sorts by email, and by project count with the name breaking ties', () => {
    expect(names(sortListings(rows, { key: 'email', direction: 'ascending' }))).toEqual(['Jamie Carter', 'Alex Morgan', 'priya shah']);
    expect(names(sortListings(rows, { key: 'projects', direction: 'descending' }))).toEqual(['Jamie Carter', 'Alex Morgan', 'priya shah']);
    expect(names(sortListings(rows, { key: 'projects', direction: 'ascending' }))).toEqual(['Alex Morgan', 'priya shah', 'Jamie Carter']);
  });

  it('puts people without a phone or builder last in either direction', () => {
    expect(names(sortListings(rows, { key: 'phone', direction: 'ascending' }))).toEqual(['Alex Morgan', 'priya shah', 'Jamie Carter']);
    expect(names(sortListings(rows, { key: 'phone', direction: 'descending' }))).toEqual(['priya shah', 'Alex Morgan', 'Jamie Carter']);
    expect(names(sortListings(rows, { key: 'builder', direction: 'descending' }))).toEqual(['priya shah', 'Alex Morgan', 'Jamie Carter']);
  });

  it('does not reorder its input', () => {
    sortListings(rows, { key: 'email', direction: 'ascending' });
    expect(names(rows)).toEqual(['priya shah', 'Jamie Carter', 'Alex Morgan']);
  });
});

describe('nextSort', () => {
  it('sorts a new column ascending and flips the current one', () => {
    expect(nextSort(DEFAULT_SORT, 'email')).toEqual({ key: 'email', direction: 'ascending' });
    expect(nextSort(DEFAULT_SORT, 'name')).toEqual({ key: 'name', direction: 'descending' });
    expect(nextSort({ key: 'name', direction: 'descending' }, 'name')).toEqual(DEFAULT_SORT);
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
});
