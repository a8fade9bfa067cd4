import type { UserListing } from '../protocol/types';
import { displayName } from './names';

/** The columns a user table sorts by. */
export type SortKey = 'name' | 'email' | 'phone' | 'projects' | 'builder';
export type SortDirection = 'ascending' | 'descending';
export interface Sort {
  key: SortKey;
  direction: SortDirection;
}

/** Rows per page: a table longer than this pages rather than scrolling on and on. */
export const PAGE_SIZE = 50;

export const DEFAULT_SORT: Sort = { key: 'name', direction: 'ascending' };

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function text(listing: UserListing, key: Exclude<SortKey, 'projects'>): string {
  if (key === 'name') return displayName(listing.user);
  if (key === 'email') return listing.user.email;
  if (key === 'phone') return listing.user.phone ?? '';
  return listing.builderName ?? '';
}

/**
 * Sorted by the column, the name then the id breaking ties so equal values keep one
 * order. Empty values (no phone, no builder) go last whichever the direction.
 */
export function sortListings(listings: UserListing[], sort: Sort): UserListing[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const byName = (a: UserListing, b: UserListing) =>
    collator.compare(displayName(a.user), displayName(b.user)) || (a.user.id < b.user.id ? -1 : a.user.id > b.user.id ? 1 : 0);
  return [...listings].sort((a, b) => {
    if (sort.key === 'projects') return sign * (a.projectCount - b.projectCount) || byName(a, b);
    const [x, y] = [text(a, sort.key), text(b, sort.key)];
    if (!x !== !y) return x ? -1 : 1;
    return sign * collator.compare(x, y) || byName(a, b);
  });
}

/** Clicking a column header: sorts by it ascending, or flips it when it already sorts. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key !== key) return { key, direction: 'ascending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

export interface Page<T> {
  rows: T[];
  /** 0-based, clamped to the pages there are. */
  page: number;
  pages: number;
  /** 1-based positions of the first and last row shown (0 and 0 when there are none). */
  from: number;
  to: number;
  total: number;
}

export function pageOf<T>(rows: T[], page: number, size = PAGE_SIZE): Page<T> {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const p = Math.min(Math.max(0, page), pages - 1);
  const slice = rows.slice(p * size, (p + 1) * size);
  return { rows: slice, page: p, pages, from: slice.length ? p * size + 1 : 0, to: p * size + slice.length, total: rows.length };
}
