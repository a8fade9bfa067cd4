import type { ProjectImage } from '../protocol/types';
import { photoDate } from './photoDates';
import { MONTH_NAMES, type DateFilter } from './photoFilters';

/**
 * A stretch of a project's gallery order that this tab holds whole (docs/FEATURES.md,
 * "Big projects"): every photo shown (`photoDate(…).ms`, the server's order) strictly
 * after `oldest` and strictly before `newest` is held, or was deleted while held. The
 * background read of the pages holds a stretch from the newest (`newest` infinite); a
 * month read directly holds one that ends where the month does. Live events keep
 * what is held current, so a stretch stays held while the project is open.
 */
export interface ShownRange {
  /** Exclusive; `-Infinity` once a read reached the oldest photo. */
  oldest: number;
  /** Exclusive; `Infinity` for the read from the newest photo. */
  newest: number;
}

/**
 * The photos a date filter names (a month of a year, or a whole year): those shown in
 * `[start, end)`, in milliseconds. A photo with a capture time is dated on the camera's
 * clock (UTC) and one without by its upload in local time (`photoDate`), so the window
 * spans both readings of its first and last day: a few hours of the months beside it may
 * come with it, never a photo of its own missing.
 */
export interface PhotoWindow {
  /** Which window, for telling a load's answers from a later choice's. */
  key: string;
  start: number;
  end: number;
  /** "March 2025", or "2025" for a whole year. */
  label: string;
}

/** The window of a year and month, or of a year; null for every year (no one window). */
export function dateWindow(filter: DateFilter): PhotoWindow | null {
  const { year, month } = filter;
  if (year === 'all') return null;
  const [from, to] = month === 'all' ? [0, 12] : [month, month + 1];
  // Date.UTC and new Date(y, m) roll a month of 12 over into January of the next year.
  const start = Math.min(Date.UTC(year, from, 1), new Date(year, from, 1).getTime());
  const end = Math.max(Date.UTC(year, to, 1), new Date(year, to, 1).getTime());
  return month === 'all'
    ? { key: String(year), start, end, label: String(year) }
    : { key: `${year}-${month + 1}`, start, end, label: `${MONTH_NAMES[month]} ${year}` };
}

/**
 * What one read of the pages holds once a page arrived: every photo shown before
 * `newest` down to the page's oldest (photos shown at that same moment may be on the next
 * page), or down to the very oldest when the page was the last. Null when it says
 * nothing (an empty page that still has a next).
 */
export function listedRange(photos: readonly ProjectImage[], next: string | null, newest: number): ShownRange | null {
  if (next === null) return { oldest: -Infinity, newest };
  if (photos.length === 0) return null;
  let oldest = Infinity;
  for (const photo of photos) oldest = Math.min(oldest, photoDate(photo).ms);
  return oldest < newest ? { oldest, newest } : null;
}

/** `ranges` (oldest first, apart) with `range` added, joining those that meet. */
export function withRange(ranges: readonly ShownRange[], range: ShownRange): ShownRange[] {
  const sorted = [...ranges, range].sort((a, b) => a.oldest - b.oldest);
  const out: ShownRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    // Both bounds are exclusive and times whole milliseconds: (a, b) and (c, d) with
    // c < b leave no moment between them.
    if (last && r.oldest < last.newest) out[out.length - 1] = { oldest: last.oldest, newest: Math.max(last.newest, r.newest) };
    else out.push(r);
  }
  return out;
}

/**
 * Where a direct read of the window starts (its `before`): the window's end, or below the
 * held stretch that reaches into the window from above (a month still going on, whose
 * newest photos came with the project's first page), so no page brings again what is
 * held. Photos shown at that stretch's oldest moment may be read twice; none is missed.
 */
export function windowReadStart(ranges: readonly ShownRange[], window: Pick<PhotoWindow, 'end'>): number {
  const above = ranges.find((r) => r.newest >= window.end && r.oldest + 1 < window.end);
  return above ? above.oldest + 1 : window.end;
}

/** Whether every photo of the window is held. */
export function coversWindow(ranges: readonly ShownRange[], window: Pick<PhotoWindow, 'start' | 'end'>): boolean {
  return ranges.some((r) => r.oldest < window.start && r.newest >= window.end);
}

/** Whether every photo of the project is held. */
export function coversAll(ranges: readonly ShownRange[]): boolean {
  return ranges.some((r) => r.oldest === -Infinity && r.newest === Infinity);
}

/**
 * The ids of `order` (the gallery's order now) that come after the last of `ids` still
 * in it and are not among `ids`: what older pages brought since a list of `ids` was
 * taken, for it to grow at its end. Photos that arrived ahead of it (a new upload) are
 * not added, so a list being stepped through keeps its positions.
 */
export function arrivedAfter(ids: readonly string[], order: readonly { id: string }[]): string[] {
  const at = new Map(order.map((p, i) => [p.id, i]));
  let last = -1;
  for (let i = ids.length - 1; i >= 0 && last < 0; i--) last = at.get(ids[i]) ?? -1;
  if (last < 0 || last === order.length - 1) return [];
  const held = new Set(ids);
  return order.slice(last + 1).filter((p) => !held.has(p.id)).map((p) => p.id);
}
