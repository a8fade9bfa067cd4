import type { ProjectImage } from '../protocol/types';
import { photoDate } from './photoDates';
import { cleanTag, sameTag, tagKey } from './tags';

/** A year, or every year. */
export type YearChoice = number | 'all';
/** A month, 0 (January) to 11, or every month. */
export type MonthChoice = number | 'all';

export interface DateFilter {
  year: YearChoice;
  month: MonthChoice;
}

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** SPEC §2 Media filters: All Years, the current year and the two years before. */
export function yearChoices(now: Date): { value: YearChoice; label: string }[] {
  const year = now.getFullYear();
  return [{ value: 'all', label: 'All Years' }, ...[year, year - 1, year - 2].map((y) => ({ value: y, label: String(y) }))];
}

/** SPEC §2 Media filters: All Months plus the twelve month names. */
export function monthChoices(): { value: MonthChoice; label: string }[] {
  return [{ value: 'all', label: 'All Months' }, ...MONTH_NAMES.map((label, i) => ({ value: i, label }))];
}

/** SPEC §2 Media filters: the defaults are the current year and the current month. */
export function defaultDateFilter(now: Date): DateFilter {
  return { year: now.getFullYear(), month: now.getMonth() };
}

/** Whether the reset button shows: the filters differ from the defaults. */
export function differsFromDefault(filter: DateFilter, now: Date): boolean {
  const defaults = defaultDateFilter(now);
  return filter.year !== defaults.year || filter.month !== defaults.month;
}

/** SPEC §2 Media filters: changing the year resets the month to the current month. */
export function withYear(filter: DateFilter, year: YearChoice, now: Date): DateFilter {
  if (year === filter.year) return filter;
  return { year, month: now.getMonth() };
}

export function withMonth(filter: DateFilter, month: MonthChoice): DateFilter {
  return { ...filter, month };
}

/**
 * Newest first (SPEC §2 Media filters) by the date a photo shows (capture, else upload;
 * see `photoDate`). Equal dates fall back to the upload time and then the id, so photos
 * taken at the same moment, or uploaded together, keep one order everywhere.
 */
export function newestFirst(photos: Iterable<ProjectImage>): ProjectImage[] {
  return [...photos]
    .map((photo) => ({ photo, at: photoDate(photo).ms }))
    .sort((a, b) => b.at - a.at || b.photo.createdAt - a.photo.createdAt || (a.photo.id < b.photo.id ? -1 : a.photo.id > b.photo.id ? 1 : 0))
    .map(({ photo }) => photo);
}

/** Whether the date a photo shows (capture, else upload) falls in the chosen year and month. */
export function matchesDate(photo: ProjectImage, filter: DateFilter): boolean {
  const date = photoDate(photo);
  if (filter.year !== 'all' && date.year !== filter.year) return false;
  if (filter.month !== 'all' && date.month !== filter.month) return false;
  return true;
}

/** Whether the photo carries every one of the chosen tags (in any case); true when none are chosen. */
export function matchesTags(photo: Pick<ProjectImage, 'tags'>, tags: readonly string[]): boolean {
  return tags.every((tag) => photo.tags.some((t) => sameTag(t, tag)));
}

/**
 * The photos a gallery shows, newest first. SPEC §2 Media filters: with Favorites on,
 * only favourites show and the date filters are ignored. Chosen tags narrow
 * either further, to photos that carry all of them.
 */
export function visiblePhotos(
  photos: Iterable<ProjectImage>,
  filter: DateFilter,
  favouritesOnly: boolean,
  favourites: Readonly<Record<string, true>>,
  tags: readonly string[] = [],
): ProjectImage[] {
  return shownOf(newestFirst(photos), filter, favouritesOnly, favourites, tags);
}

/**
 * `visiblePhotos` of photos already newest first. With nothing to take out it answers
 * `sorted` itself, so what is drawn from it stays as it was (a big project's gallery
 * is not drawn again for a tap that changes no tile's place).
 */
export function shownOf(
  sorted: ProjectImage[],
  filter: DateFilter,
  favouritesOnly: boolean,
  favourites: Readonly<Record<string, true>>,
  tags: readonly string[] = [],
): ProjectImage[] {
  const everyDate = filter.year === 'all' && filter.month === 'all';
  const shown = favouritesOnly ? sorted.filter((p) => favourites[p.id]) : everyDate ? sorted : sorted.filter((p) => matchesDate(p, filter));
  return tags.length > 0 ? shown.filter((p) => matchesTags(p, tags)) : shown;
}

/**
 * The tags the project's photos carry, most photos first (then by name), each once in
 * the spelling of its first photo: what the gallery's tag filter offers.
 */
export function usedTags(photos: Iterable<Pick<ProjectImage, 'tags'>>): { tag: string; photos: number }[] {
  const counts = new Map<string, { tag: string; photos: number }>();
  for (const p of photos) {
    for (const t of new Set(p.tags.map(tagKey))) {
      const held = counts.get(t);
      if (held) held.photos += 1;
      else counts.set(t, { tag: p.tags.find((x) => tagKey(x) === t) ?? t, photos: 1 });
    }
  }
  return [...counts.values()].sort((a, b) => b.photos - a.photos || a.tag.localeCompare(b.tag));
}

/** `?tags=Kitchen,Electrical` back to the chosen tags (cleaned, each once). */
export function parseTagParam(value: string | null): string[] {
  if (!value) return [];
  const out: string[] = [];
  for (const raw of value.split(',')) {
    const tag = cleanTag(raw);
    if (tag && !out.some((t) => sameTag(t, tag))) out.push(tag);
  }
  return out;
}

/** The chosen tags as the `tags` parameter; null (no parameter) when none are chosen. */
export function formatTagParam(tags: readonly string[]): string | null {
  const clean = parseTagParam(tags.join(','));
  return clean.length > 0 ? clean.join(',') : null;
}

/** A select's string value back to a choice. */
export function parseChoice(value: string): number | 'all' {
  return value === 'all' ? 'all' : Number(value);
}
