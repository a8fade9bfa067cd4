import type {
  Profile,
  Project,
  ProjectImage,
  Report,
  ReportContent,
  ReportGrouping,
  ReportOptions,
  ReportPair,
  ReportPairView,
  ReportPhoto,
  ReportPhotos,
  ReportSection,
  UserSummary,
} from '../protocol/types';
import { localDay, parseDay } from './milestones';
import { displayName } from './names';
import { possessive } from './people';
import { photoDate } from './photoDates';
import { formatBytes } from './photoUpload';

// Progress reports (issue 28): the choices, their words, the preview's pages and the
// list's rules, kept out of the components so they can be tested without a browser.

/** Photos per page the server accepts (anything else: "Choose 1, 2 or 4 photos per page."). */
export const PER_PAGE_CHOICES = [1, 2, 4] as const;
export type PerPage = (typeof PER_PAGE_CHOICES)[number];

/** The server's caps: a larger report is refused with the messages below. */
export const MAX_REPORT_PHOTOS = 500;
export const MAX_REPORT_PAIRS = 20;

/** The server's messages (server/src/domain), so the form can say the same before asking. */
export const REPORT_MESSAGES = {
  perPage: 'Choose 1, 2 or 4 photos per page.',
  date: 'Enter a date as YYYY-MM-DD.',
  order: 'The period must end on or after its first day.',
  picked: 'Pick at least one photo.',
  noPhotos: 'No photos match these choices.',
  tooManyPhotos: `A report holds at most ${MAX_REPORT_PHOTOS} photos. Choose a shorter period or fewer photos.`,
  tooManyPairs: `A report holds at most ${MAX_REPORT_PAIRS} before/after pairs.`,
  homeowner: 'Homeowners can make a report of their favourites.',
  // Ours: the server reads an empty list as "every milestone", which is not what a
  // person who chose "Milestones" and ticked none meant.
  milestones: 'Choose at least one milestone.',
} as const;

/** What the report covers: the photos of a period, or those tagged with some milestones. */
export type ReportScope = 'period' | 'milestones';

/** The New report dialog's choices; `from`/`to` are `YYYY-MM-DD` or '' for open-ended. */
export interface ReportForm {
  scope: ReportScope;
  from: string;
  to: string;
  milestoneIds: string[];
  photos: ReportPhotos;
  perPage: PerPage;
  groupBy: ReportGrouping;
  comments: boolean;
  markup: boolean;
  pairs: ReportPair[];
}

/** All time, every photo, two to a page by site visit, markup drawn, no comments. */
export const DEFAULT_REPORT_FORM: ReportForm = {
  scope: 'period',
  from: '',
  to: '',
  milestoneIds: [],
  photos: 'all',
  perPage: 2,
  groupBy: 'visit',
  comments: false,
  markup: true,
  pairs: [],
};

/**
 * The request's options. An open end of the period is an absent field, not
 * `undefined` (which msgpackr would send as a value); the picked ids go only with
 * "Selected photos", and the period only with the period scope.
 */
export function reportOptions(form: ReportForm, picked: readonly string[]): ReportOptions {
  const options: ReportOptions = {
    milestoneIds: form.scope === 'milestones' ? [...form.milestoneIds] : [],
    photos: form.photos,
    picked: form.photos === 'picked' ? [...picked] : [],
    pairs: form.pairs.map((p) => ({ before: p.before, after: p.after })),
    perPage: form.perPage,
    groupBy: form.groupBy,
    comments: form.comments,
    markup: form.markup,
  };
  if (form.scope === 'period' && form.from) options.from = form.from;
  if (form.scope === 'period' && form.to) options.to = form.to;
  return options;
}

/** A real calendar day as `YYYY-MM-DD` (not "2026-02-30", which `Date` would roll over). */
export function readDay(day: string): Date | null {
  const date = parseDay(day);
  return date && localDay(date) === day ? date : null;
}

/** The errors the form can find itself, by the request field the server would name. */
export function reportFormErrors(form: ReportForm, picked: readonly string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!(PER_PAGE_CHOICES as readonly number[]).includes(form.perPage)) errors.perPage = REPORT_MESSAGES.perPage;
  if (form.scope === 'period') {
    if (form.from && !readDay(form.from)) errors.from = REPORT_MESSAGES.date;
    if (form.to && !readDay(form.to)) errors.to = REPORT_MESSAGES.date;
    // `YYYY-MM-DD` strings compare as the days they name.
    else if (form.from && form.to && !errors.from && form.to < form.from) errors.to = REPORT_MESSAGES.order;
  } else if (form.milestoneIds.length === 0) {
    errors.milestoneIds = REPORT_MESSAGES.milestones;
  }
  if (form.photos === 'picked' && picked.length === 0) errors.picked = REPORT_MESSAGES.picked;
  if (form.photos === 'picked' && picked.length > MAX_REPORT_PHOTOS) errors.picked = REPORT_MESSAGES.tooManyPhotos;
  if (form.pairs.length > MAX_REPORT_PAIRS) errors.pairs = REPORT_MESSAGES.tooManyPairs;
  return errors;
}

// --- Periods -------------------------------------------------------------------------

export type QuickPeriod = 'all' | 'last30' | 'month';

export const QUICK_PERIODS: { value: QuickPeriod; label: string }[] = [
  { value: 'all', label: 'All time' },
  { value: 'last30', label: 'Last 30 days' },
  { value: 'month', label: 'This month' },
];

/** `day` moved by `days` calendar days (local calendar; no time zone shift). */
export function addDays(day: string, days: number): string {
  const date = parseDay(day);
  if (!date) return day;
  date.setDate(date.getDate() + days);
  return localDay(date);
}

/**
 * A quick choice's period on `today`: all time is open at both ends; the last 30 days
 * are today and the 29 before it (the period is inclusive); this month runs from its
 * first day to today.
 */
export function quickPeriod(kind: QuickPeriod, today: string = localDay()): { from: string; to: string } {
  switch (kind) {
    case 'all':
      return { from: '', to: '' };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
  }
}

/** Which quick choice the period is, if any, so that choice shows as chosen. */
export function matchQuickPeriod(from: string, to: string, today: string = localDay()): QuickPeriod | null {
  return QUICK_PERIODS.find((q) => {
    const period = quickPeriod(q.value, today);
    return period.from === from && period.to === to;
  })?.value ?? null;
}

const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const monthDayYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/**
 * A report's period (SPEC §9: en-US dates): "Mar 1 – Nov 24, 2026", the year once when
 * both ends share it; "Dec 12, 2025 – Jan 3, 2026" across years; "From Mar 1, 2026" or
 * "Until Nov 24, 2026" when one end is open; "All time" when both are (as the dialog's
 * quick choice says: "All photos" would repeat the photo choice in the line under it).
 */
export function periodLabel(from: string | null | undefined, to: string | null | undefined): string {
  const start = from ? readDay(from) : null;
  const end = to ? readDay(to) : null;
  if (from && !start) return to ? `${from} – ${to}` : from;
  if (to && !end) return from ? `${from} – ${to}` : to;
  if (start && end) {
    if (from === to) return monthDayYear.format(start);
    const sameYear = start.getFullYear() === end.getFullYear();
    return `${(sameYear ? monthDay : monthDayYear).format(start)} – ${monthDayYear.format(end)}`;
  }
  if (start) return `From ${monthDayYear.format(start)}`;
  if (end) return `Until ${monthDayYear.format(end)}`;
  return 'All time';
}

/** The calendar day a photo shows (`YYYY-MM-DD`), on the clock `photoDate` reads it on. */
export function photoDay(photo: Pick<ProjectImage, 'takenAt' | 'createdAt'>): string {
  const d = photoDate(photo);
  return `${d.year}-${String(d.month + 1).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** The photos a report of this form could hold (for choosing before/after pairs): its period or milestones. */
export function photosInScope<T extends Pick<ProjectImage, 'takenAt' | 'createdAt' | 'milestoneId'>>(photos: readonly T[], form: Pick<ReportForm, 'scope' | 'from' | 'to' | 'milestoneIds'>): T[] {
  if (form.scope === 'milestones') {
    const chosen = new Set(form.milestoneIds);
    return photos.filter((p) => p.milestoneId !== null && chosen.has(p.milestoneId));
  }
  return photos.filter((p) => {
    const day = photoDay(p);
    return (!form.from || day >= form.from) && (!form.to || day <= form.to);
  });
}

// --- Words for a report in the list --------------------------------------------------

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The milestones a report covers: "Milestones: Framing, Roofing", or "3 milestones" past two (or when one is not in the plan held). */
export function milestonesLabel(ids: readonly string[], milestoneName: (id: string) => string | undefined = () => undefined): string {
  const names = ids.map(milestoneName);
  if (ids.length > 0 && ids.length <= 2 && names.every((n): n is string => Boolean(n))) {
    return `${ids.length === 1 ? 'Milestone' : 'Milestones'}: ${names.join(', ')}`;
  }
  return count(ids.length, 'milestone', 'milestones');
}

/** A report's heading: its period, or the milestones it covers when it has no period. */
export function reportTitle(options: ReportOptions, milestoneName?: (id: string) => string | undefined): string {
  if (!options.from && !options.to && options.milestoneIds.length > 0) return milestonesLabel(options.milestoneIds, milestoneName);
  return periodLabel(options.from, options.to);
}

/**
 * What a report holds, in a line: "All photos · 2 per page · with comments · markup on".
 * Favorites are the maker's, so the line says whose. Milestones are named here only when
 * the title is the period (see `reportTitle`).
 */
export function reportSummary(
  options: ReportOptions,
  maker: Pick<UserSummary, 'id' | 'name' | 'email'> | null,
  myId: string | null | undefined,
  milestoneName?: (id: string) => string | undefined,
): string {
  const parts: string[] = [];
  if (options.photos === 'all') parts.push('All photos');
  else if (options.photos === 'picked') parts.push(count(options.picked.length, 'chosen photo', 'chosen photos'));
  else if (!maker || maker.id === myId) parts.push('Your favorites');
  else {
    const name = displayName(maker);
    parts.push(name ? `${possessive(name)} favorites` : 'Favorites');
  }
  if ((options.from || options.to) && options.milestoneIds.length > 0) parts.push(milestonesLabel(options.milestoneIds, milestoneName));
  parts.push(`${options.perPage} per page`);
  if (options.groupBy === 'milestone') parts.push('by milestone');
  if (options.comments) parts.push('with comments');
  parts.push(options.markup ? 'markup on' : 'no markup');
  if (options.pairs.length > 0) parts.push(count(options.pairs.length, 'before/after pair', 'before/after pairs'));
  return parts.join(' · ');
}

/** 0-100, for the progress bar of a report being made. */
export function reportPercent(report: Pick<Report, 'done' | 'total' | 'status'>): number {
  if (report.status !== 'generating') return 100;
  if (report.total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((report.done * 100) / report.total)));
}

/** "Generating… 12 of 40 photos", "Ready · 14 pages · 8.2 MB", "Failed: …". */
export function reportStatusText(report: Pick<Report, 'status' | 'done' | 'total' | 'pages' | 'byteSize' | 'error'>): string {
  switch (report.status) {
    case 'generating':
      return report.total > 0 ? `Generating… ${Math.min(report.done, report.total)} of ${count(report.total, 'photo', 'photos')}` : 'Generating…';
    case 'ready': {
      const parts = ['Ready'];
      if (report.pages !== null) parts.push(count(report.pages, 'page', 'pages'));
      if (report.byteSize !== null) parts.push(formatBytes(report.byteSize));
      return parts.join(' · ');
    }
    case 'failed':
      return `Failed: ${report.error?.trim() || 'the report could not be made.'}`;
  }
}

/** The PDF, served to the signed-in session: as an attachment, or (`inline`) to view in the tab. */
export function reportPdfUrl(id: string, inline = false): string {
  return `/api/reports/${encodeURIComponent(id)}/pdf${inline ? '?inline=1' : ''}`;
}

// --- Who may do what (the server decides; the screen offers only what it allows) -----

export interface ReportAccess {
  /** Admins, the project's builder, and its homeowner. */
  canMake: boolean;
  /** The homeowner's reports are of their favourites; the other photo choices are not theirs. */
  favouritesOnly: boolean;
}

export function reportAccess(user: Pick<Profile, 'id' | 'role'> | null | undefined, project: Pick<Project, 'builderId' | 'homeownerId'>): ReportAccess {
  if (!user) return { canMake: false, favouritesOnly: false };
  if (user.role === 'admin') return { canMake: true, favouritesOnly: false };
  if (user.role === 'builder') return { canMake: project.builderId === user.id, favouritesOnly: false };
  return { canMake: project.homeownerId === user.id, favouritesOnly: true };
}

/** Its maker or an admin. */
export function canDeleteReport(user: Pick<Profile, 'id' | 'role'> | null | undefined, report: Pick<Report, 'createdBy'>): boolean {
  if (!user) return false;
  return user.role === 'admin' || report.createdBy?.id === user.id;
}

// --- The list: newest first, each report once, never going back ----------------------

/** Newest first; the id breaks a tie so the order is the same everywhere. */
export function compareReports(a: Pick<Report, 'createdAt' | 'id'>, b: Pick<Report, 'createdAt' | 'id'>): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * Of two copies of one report, the one further along. Reports carry no version, but a
 * report only moves forward: generating with more photos placed, then ready or failed.
 * So a list read before an event cannot undo it, and a late progress event cannot
 * turn a ready report back into a generating one.
 */
export function laterReport(held: Report | undefined, next: Report): Report {
  if (!held) return next;
  const finished = (r: Report) => r.status !== 'generating';
  if (finished(held) && !finished(next)) return held;
  if (!finished(held) && !finished(next) && next.done < held.done) return held;
  return next;
}

/** The list with this copy of a report in it (replacing an older copy), newest first. */
export function upsertReport(list: readonly Report[], report: Report): Report[] {
  const held = list.find((r) => r.id === report.id);
  const next = laterReport(held, report);
  if (held === next) return list as Report[];
  return [...list.filter((r) => r.id !== report.id), next].sort(compareReports);
}

/** A list read from the server merged with what events brought meanwhile; deleted ids stay out. */
export function mergeReports(held: readonly Report[], listed: readonly Report[], deleted: Readonly<Record<string, true>> = {}): Report[] {
  const byId = new Map(held.map((r) => [r.id, r]));
  for (const report of listed) byId.set(report.id, laterReport(byId.get(report.id), report));
  return [...byId.values()].filter((r) => !deleted[r.id]).sort(compareReports);
}

// --- The preview's pages -------------------------------------------------------------

/** Before/after pairs on one page. */
export const PAIRS_PER_PAGE = 2;

export type ReportPage =
  | { kind: 'cover' }
  | { kind: 'milestones' }
  /** `first`: the section starts on this page (its heading is shown). */
  | { kind: 'photos'; section: ReportSection; photos: ReportPhoto[]; first: boolean }
  | { kind: 'pairs'; pairs: ReportPairView[]; first: boolean };

/**
 * The report's pages in order, as the preview draws them: the cover, the milestones
 * and what changed, then each section's photos `perPage` to a page (a section starts
 * on a new page), then the before/after pairs.
 */
export function reportPages(content: Pick<ReportContent, 'perPage' | 'sections' | 'pairs'>): ReportPage[] {
  const perPage = Math.max(1, content.perPage);
  const pages: ReportPage[] = [{ kind: 'cover' }, { kind: 'milestones' }];
  for (const section of content.sections) {
    for (let i = 0; i < section.photos.length; i += perPage) {
      pages.push({ kind: 'photos', section, photos: section.photos.slice(i, i + perPage), first: i === 0 });
    }
  }
  for (let i = 0; i < content.pairs.length; i += PAIRS_PER_PAGE) {
    pages.push({ kind: 'pairs', pairs: content.pairs.slice(i, i + PAIRS_PER_PAGE), first: i === 0 });
  }
  return pages;
}

/** How many photos the report places (the sections'; pairs show photos of these again). */
export function reportPhotoCount(content: Pick<ReportContent, 'sections'>): number {
  return content.sections.reduce((n, s) => n + s.photos.length, 0);
}

/** The preview's header: "24 photos · about 13 pages". */
export function previewHeading(content: Pick<ReportContent, 'perPage' | 'sections' | 'pairs'>): string {
  const pages = reportPages(content).length;
  return `${count(reportPhotoCount(content), 'photo', 'photos')} · about ${count(pages, 'page', 'pages')}`;
}

/**
 * The pages the preview draws: the cover, the milestones and the first `photoPages`
 * pages after them; `more` is how many are left out ("and 9 more pages").
 */
export function previewPages(pages: readonly ReportPage[], photoPages = 3): { shown: ReportPage[]; more: number } {
  const lead = pages.filter((p) => p.kind === 'cover' || p.kind === 'milestones');
  const rest = pages.filter((p) => p.kind !== 'cover' && p.kind !== 'milestones');
  const shown = [...lead, ...rest.slice(0, photoPages)];
  return { shown, more: pages.length - shown.length };
}
