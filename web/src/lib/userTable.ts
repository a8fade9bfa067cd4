import type { UserSort } from '../protocol/types';

/** The columns a user table sorts by (the server sorts: SPEC §2 Tables). */
export type SortKey = UserSort;
export type SortDirection = 'ascending' | 'descending';
export interface Sort {
  key: SortKey;
  direction: SortDirection;
}

/** Rows per page of a list paged in the browser (the user tables are paged by the server). */
export const PAGE_SIZE = 50;

export const DEFAULT_SORT: Sort = { key: 'name', direction: 'ascending' };

/** Clicking a column header: sorts by it ascending, or flips it when it already sorts. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key !== key) return { key, direction: 'ascending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** Where a page sits among all the rows that match. */
export interface PageRange {
  /** 0-based, clamped to the pages there are. */
  page: number;
  pages: number;
  /** 1-based positions of the first and last row shown (0 and 0 when there are none). */
  from: number;
  to: number;
  total: number;
}

export interface Page<T> extends PageRange {
  rows: T[];
}

/**
 * The range of a page of `shown` rows out of `total`, for "Showing x–y of total" and the
 * Previous and Next buttons: a user table's page as the server answered it.
 */
export function pageRange(total: number, page: number, size: number, shown: number): PageRange {
  const pages = Math.max(1, Math.ceil(total / size));
  const p = Math.min(Math.max(0, page), pages - 1);
  return { page: p, pages, from: shown ? p * size + 1 : 0, to: p * size + shown, total };
}

/** One page of rows held whole in the browser (the Companies tab). */
export function pageOf<T>(rows: T[], page: number, size = PAGE_SIZE): Page<T> {
  const { page: p } = pageRange(rows.length, page, size, 0);
  const slice = rows.slice(p * size, (p + 1) * size);
  return { rows: slice, ...pageRange(rows.length, p, size, slice.length) };
}
