import type { ProjectImage } from '../protocol/types';

// SPEC §9: dates are shown in en-US format (month short or long, day, year).
const withoutYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const withYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const long = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
// The same formats read on the camera's clock (see `photoDate`).
const withoutYearUtc = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const withYearUtc = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The date a photo is shown, filtered and ordered by: when it was taken (EXIF) if the
 * file said so, else when it was uploaded. A builder who uploads on Friday the photos
 * of Monday's visit shows Monday. The server keeps a capture time without a zone as if
 * it were UTC (the camera's own clock), so a capture date is read in UTC and an upload
 * date in the viewer's time zone.
 */
export interface PhotoDate {
  ms: number;
  source: 'taken' | 'uploaded';
  year: number;
  /** 0 (January) to 11. */
  month: number;
  day: number;
}

export function photoDate(photo: Pick<ProjectImage, 'takenAt' | 'createdAt'>): PhotoDate {
  if (photo.takenAt !== null) {
    const d = new Date(photo.takenAt);
    return { ms: photo.takenAt, source: 'taken', year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() };
  }
  const d = new Date(photo.createdAt);
  return { ms: photo.createdAt, source: 'uploaded', year: d.getFullYear(), month: d.getMonth(), day: d.getDate() };
}

/** The date on a gallery tile: SPEC §2 omits the year for the current year. */
export function tileDateLabel(date: PhotoDate, now: Date): string {
  const at = new Date(date.ms);
  const utc = date.source === 'taken';
  if (date.year === now.getFullYear()) return (utc ? withoutYearUtc : withoutYear).format(at);
  return (utc ? withYearUtc : withYear).format(at);
}

/**
 * The dates under a photo in the lightbox, saying which is which: "Taken Nov 3, 2026 ·
 * uploaded Nov 5" (the upload's year only when it differs), or "Uploaded November 5,
 * 2026" for a photo without a capture time.
 */
export function lightboxDateLabel(photo: Pick<ProjectImage, 'takenAt' | 'createdAt'>): string {
  const uploaded = new Date(photo.createdAt);
  if (photo.takenAt === null) return `Uploaded ${long.format(uploaded)}`;
  const taken = photoDate(photo);
  const uploadedLabel = (uploaded.getFullYear() === taken.year ? withoutYear : withYear).format(uploaded);
  return `Taken ${withYearUtc.format(new Date(taken.ms))} · uploaded ${uploadedLabel}`;
}

/**
 * One photo's day under a compared photo: "Taken Nov 3, 2026", or "Uploaded Nov 5,
 * 2026" when the file had no capture time.
 */
export function photoDayLabel(photo: Pick<ProjectImage, 'takenAt' | 'createdAt'>): string {
  const date = photoDate(photo);
  const at = new Date(date.ms);
  return date.source === 'taken' ? `Taken ${withYearUtc.format(at)}` : `Uploaded ${withYear.format(at)}`;
}

/** Calendar days from one photo's day to another's, each on its own clock (see `photoDate`). */
function dayNumber(date: PhotoDate): number {
  return Math.floor(Date.UTC(date.year, date.month, date.day) / 86_400_000);
}

/**
 * How far apart two compared photos are, in the unit a homeowner thinks in: "Same
 * day", "3 days apart", "5 weeks apart", "4 months apart", "1 year apart".
 */
export function timeApartLabel(a: Pick<ProjectImage, 'takenAt' | 'createdAt'>, b: Pick<ProjectImage, 'takenAt' | 'createdAt'>): string {
  const days = Math.abs(dayNumber(photoDate(b)) - dayNumber(photoDate(a)));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'} apart`;
  if (days === 0) return 'Same day';
  if (days < 14) return unit(days, 'day');
  if (days < 60) return unit(Math.round(days / 7), 'week');
  if (days < 365) return unit(Math.round(days / 30.44), 'month');
  return unit(Math.round(days / 365.25), 'year');
}
