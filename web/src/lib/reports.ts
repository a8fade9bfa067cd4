import type {
  Comment,
  ProjectImage,
  ProjectStatus,
  Report,
  ReportContent,
  ReportGrouping,
  ReportMilestone,
  ReportOptions,
  ReportPair,
  ReportPairView,
  ReportPhoto,
  ReportPhotos,
  ReportSection,
  TimelineEntry,
  UserSummary,
} from '../protocol/types';
import { localDay, parseDay } from './milestones';
import { displayName } from './names';
import { possessive } from './people';
import { photoDate } from './photoDates';
import { formatBytes } from './photoUpload';

// Progress reports (docs/FEATURES.md, "Progress reports"): the choices, their words, the
// preview's pages and the list's rules, kept out of the components so they can be tested
// without a browser.

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

// Who may make and delete reports, and the list's rules: their own module, which the
// project page and the store load with the app; this one comes with the Reports tab.
export { canDeleteReport, compareReports, laterReport, mergeReports, reportAccess, upsertReport, type ReportAccess } from './reportRules';

// --- The preview's pages -------------------------------------------------------------
//
// The preview draws the first pages of the PDF as the server lays it out
// (server/src/media/report/layout.rs and mod.rs): US Letter, sizes in PDF points,
// the same order, headings and words. The server measures text in its own font; the
// preview estimates line counts (`estimateLines`) where a page break depends on them.

/** What `preview_report` answers. */
export interface ReportPreviewData {
  /** The report's first pages' content: at most 12 photos over its sections, 2 pairs and 30 changes. */
  content: ReportContent;
  /** The whole report's photos: its sections' and 2 per before/after pair. */
  photos: number;
  /** The whole report's pages, as the PDF will have them. */
  pages: number;
  /**
   * How many before/after pairs the whole report has (the request's), when known: the
   * content names the first two only.
   */
  pairs?: number;
}

/** The page, its margins and where page content starts and ends, in points (layout.rs). */
export const REPORT_PAGE = { width: 612, height: 792, margin: 54, contentTop: 78, contentBottom: 738 } as const;
export const REPORT_CONTENT_WIDTH = REPORT_PAGE.width - 2 * REPORT_PAGE.margin;
/** Milestone rows on one page. */
export const MILESTONES_PER_PAGE = 22;
/** Before/after pairs on one page. */
export const PAIRS_PER_PAGE = 2;
/** Photo (or later) pages the preview draws after the cover and the milestones. */
export const PREVIEW_PHOTO_PAGES = 3;
/** The "What changed" list: sentence size, line height, gap between entries, date column. */
export const CHANGE_SIZE = 9.5;
export const CHANGE_LINE = 13;
export const CHANGE_GAP = 6;
export const DATE_COLUMN = 92;
/** The band a list page's heading takes ("Milestones", "What changed"). */
export const HEADING_BAND = 44;

export type ReportPage =
  | { kind: 'cover' }
  /** `first`: the list starts on this page (else its heading says "(continued)"). */
  | { kind: 'milestones'; milestones: ReportMilestone[]; first: boolean }
  /** `first`: the section starts on this page (its note is shown; else "(continued)"). */
  | { kind: 'photos'; section: ReportSection; photos: ReportPhoto[]; first: boolean }
  | { kind: 'pairs'; pairs: ReportPairView[] }
  | { kind: 'changes'; changes: TimelineEntry[]; first: boolean };

/** Photos a page holds: 1, 2 or 4 (the server clamps to 1-4). */
export function photosPerPage(perPage: number): number {
  return Math.min(4, Math.max(1, Math.trunc(perPage) || 1));
}

/** The slots a photo page draws: one, two stacked, or a 2×2 grid (3 to a page draws 4 slots, as the server does). */
export function photoSlots(perPage: number): 1 | 2 | 4 {
  const n = photosPerPage(perPage);
  return n === 1 ? 1 : n === 2 ? 2 : 4;
}

/**
 * Roughly how many lines `text` takes at `size` points in a `width`-point column,
 * broken at spaces as the server breaks it (an average glyph is about 0.55 em wide in
 * the regular face, 0.62 em in the bold). Line breaks in the text are kept.
 */
export function estimateLines(text: string, size: number, width: number, bold = false): number {
  const perLine = Math.max(1, Math.floor(width / (size * (bold ? 0.62 : 0.55))));
  let lines = 0;
  for (const paragraph of text.split('\n')) {
    let used = 0;
    let count = 1;
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const wanted = used === 0 ? word.length : used + 1 + word.length;
      if (wanted <= perLine) {
        used = wanted;
        continue;
      }
      if (used > 0) count += 1;
      // A word longer than a line is cut.
      count += Math.ceil(word.length / perLine) - 1;
      used = word.length % perLine || perLine;
    }
    lines += count;
  }
  return lines;
}

/** The lines a change's sentence takes in its column. */
function changeLines(entry: TimelineEntry): number {
  return estimateLines(reportChangeText(entry), CHANGE_SIZE, REPORT_CONTENT_WIDTH - DATE_COLUMN);
}

/**
 * The report's pages in order, as the server paginates them: the cover; the
 * milestones (only when the project has some), 22 to a page; each section's photos
 * `perPage` to a page, every section from a new page; the before/after pairs, 2 to a
 * page; then "What changed", as many entries as fit a page (always one page, which
 * says so when there is nothing).
 */
export function reportPages(content: Pick<ReportContent, 'perPage' | 'milestones' | 'sections' | 'pairs' | 'changes'>): ReportPage[] {
  const pages: ReportPage[] = [{ kind: 'cover' }];
  for (let i = 0; i < content.milestones.length; i += MILESTONES_PER_PAGE) {
    pages.push({ kind: 'milestones', milestones: content.milestones.slice(i, i + MILESTONES_PER_PAGE), first: i === 0 });
  }
  const perPage = photosPerPage(content.perPage);
  for (const section of content.sections) {
    for (let i = 0; i < section.photos.length; i += perPage) {
      pages.push({ kind: 'photos', section, photos: section.photos.slice(i, i + perPage), first: i === 0 });
    }
  }
  for (let i = 0; i < content.pairs.length; i += PAIRS_PER_PAGE) {
    pages.push({ kind: 'pairs', pairs: content.pairs.slice(i, i + PAIRS_PER_PAGE) });
  }
  const room = REPORT_PAGE.contentBottom - REPORT_PAGE.contentTop - HEADING_BAND;
  let start = 0;
  let used = 0;
  content.changes.forEach((entry, index) => {
    const height = changeLines(entry) * CHANGE_LINE + CHANGE_GAP;
    if (used + height > room && index > start) {
      pages.push({ kind: 'changes', changes: content.changes.slice(start, index), first: start === 0 });
      start = index;
      used = 0;
    }
    used += height;
  });
  pages.push({ kind: 'changes', changes: content.changes.slice(start), first: start === 0 });
  return pages;
}

/**
 * The pages the preview draws: the cover, the milestone pages and the first
 * `photoPages` pages after them (the first photo pages, or what follows when there
 * are fewer), never past what the preview's content names: with more before/after
 * pairs than the two it holds, it stops after their first page. `more` is how many
 * of the report's pages (the server's count) are not drawn.
 */
export function previewPages(preview: ReportPreviewData, photoPages = PREVIEW_PHOTO_PAGES): { shown: ReportPage[]; more: number } {
  const pages = reportPages(preview.content);
  const lead = pages.filter((p) => p.kind === 'cover' || p.kind === 'milestones');
  let rest = pages.filter((p) => p.kind !== 'cover' && p.kind !== 'milestones');
  if ((preview.pairs ?? 0) > preview.content.pairs.length) {
    const after = rest.map((p) => p.kind).lastIndexOf('pairs') + 1;
    if (after > 0) rest = rest.slice(0, after);
  }
  const shown = [...lead, ...rest.slice(0, Math.max(0, photoPages))];
  return { shown, more: Math.max(0, preview.pages - shown.length) };
}

/** The preview's header, in the server's numbers: "24 photos · 13 pages". */
export function previewHeading(preview: Pick<ReportPreviewData, 'photos' | 'pages'>): string {
  return `${count(preview.photos, 'photo', 'photos')} · ${count(preview.pages, 'page', 'pages')}`;
}

// --- The report's words (server/src/media/report/words.rs) ---------------------------

const reportDateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** A moment's day as the report writes it: "Mar 4, 2026" (UTC). */
export function reportDate(ms: number): string {
  return reportDateFormat.format(new Date(ms));
}

/** A `YYYY-MM-DD` day as "Mar 4, 2026"; text that is not a real day is shown as it is. */
export function reportDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, date));
  at.setUTCFullYear(year);
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== date) return day;
  return reportDate(at.getTime());
}

/** The report's period: "Mar 1, 2026 – Nov 24, 2026", "From Mar 1, 2026", "Up to Nov 24, 2026", "All dates". */
export function reportPeriod(from: string | null | undefined, to: string | null | undefined): string {
  if (from && to) return `${reportDay(from)} – ${reportDay(to)}`;
  if (from) return `From ${reportDay(from)}`;
  if (to) return `Up to ${reportDay(to)}`;
  return 'All dates';
}

/** A project's status as the report says it. */
export const REPORT_STATUS_WORDS: Record<ProjectStatus, string> = {
  planning: 'Planning',
  'in-progress': 'In progress',
  'on-hold': 'On hold',
  completed: 'Completed',
};

/** Late: not done and its target day passed (a current milestone may be late too). */
export function milestoneLate(m: Pick<ReportMilestone, 'state' | 'late'>): boolean {
  return m.state !== 'done' && (m.late || m.state === 'late');
}

/** What a milestone row says after its name: "Done Mar 4, 2026", "Late · was due …", "In progress · due …", "Due …", "No target date". */
export function milestoneStateText(m: ReportMilestone): string {
  const target = m.targetDate ? reportDay(m.targetDate) : null;
  if (m.state === 'done') return m.doneDate ? `Done ${reportDay(m.doneDate)}` : 'Done';
  if (target && milestoneLate(m)) return `Late · was due ${target}`;
  if (m.state === 'current') return target ? `In progress · due ${target}` : 'In progress';
  return target ? `Due ${target}` : 'No target date';
}

/** "3 of 7 done". */
export function milestonesDone(milestones: readonly ReportMilestone[]): string {
  return `${milestones.filter((m) => m.state === 'done').length} of ${milestones.length} done`;
}

/** A timeline entry as the report's closing pages write it: "Dana Ortiz completed Framing". */
export function reportChangeText(entry: TimelineEntry): string {
  const actor = entry.actorName?.trim() ? entry.actorName : null;
  const withActor = (did: string, happened: string) => (actor ? `${actor} ${did}` : happened);
  const d = entry.detail;
  switch (d.type) {
    case 'project_created':
      return withActor('created the project', 'The project was created');
    case 'status_changed':
      return withActor(`changed the status from ${REPORT_STATUS_WORDS[d.from]} to ${REPORT_STATUS_WORDS[d.to]}`, 'The status changed');
    case 'progress_changed':
      return withActor(`changed the progress from ${d.from}% to ${d.to}%`, 'The progress changed');
    case 'milestone_completed':
      return actor ? `${actor} completed ${d.name}` : `${d.name} was completed`;
    case 'milestone_reopened':
      return actor ? `${actor} reopened ${d.name}` : `${d.name} was reopened`;
    case 'photos_added': {
      const photos = `${d.count} new ${d.count === 1 ? 'photo' : 'photos'} from a site visit`;
      const note = d.note?.trim();
      return note ? `${photos}: “${note}”` : photos;
    }
    case 'comment':
      return actor ? `${actor} commented on a photo: “${d.excerpt}”` : `A comment on a photo: “${d.excerpt}”`;
    case 'marked_up':
      return withActor('marked up a photo', 'A photo was marked up');
    default:
      return withActor('updated the project', 'The project was updated');
  }
}

/**
 * A photo section's heading: the milestone's name when grouped by milestone (untagged
 * photos: "Photos without a milestone"), else "Site visit · Mar 4, 2026".
 */
export function sectionHeading(section: ReportSection, sections: readonly ReportSection[]): string {
  if (section.milestone !== null) return section.milestone;
  if (section.date !== null && sections.every((s) => s.milestone === null)) return `Site visit · ${reportDate(section.date)}`;
  return 'Photos without a milestone';
}

/** The bold line under a photo: its day, and " · marked up" when markup is drawn on it. */
export function photoDateLine(item: ReportPhoto): string {
  const day = reportDate(item.photo.takenAt ?? item.photo.createdAt);
  return item.shapes.length > 0 ? `${day} · marked up` : day;
}

/** "Before · Mar 4, 2026". */
export function pairLabel(side: 'before' | 'after', item: ReportPhoto): string {
  return `${side === 'before' ? 'Before' : 'After'} · ${reportDate(item.photo.takenAt ?? item.photo.createdAt)}`;
}

/** A comment under a photo: "Jamie Carter: Is this crack a problem?". */
export function commentLine(comment: Pick<Comment, 'author' | 'body'>): string {
  return `${comment.author.name ?? 'Someone'}: ${comment.body.trim()}`;
}

/** The room under a photo for its date, caption and comments, by photos per page (points). */
export function photoTextHeight(perPage: number): number {
  const slots = photoSlots(perPage);
  return slots === 1 ? 128 : slots === 2 ? 74 : 84;
}

/** How wide a photo's slot is (points). */
export function photoSlotWidth(perPage: number): number {
  return photoSlots(perPage) === 4 ? (REPORT_CONTENT_WIDTH - 18) / 2 : REPORT_CONTENT_WIDTH;
}

/** Lines a caption may take: 3 with one photo to a page, else 2. */
export function captionMaxLines(perPage: number): number {
  return photoSlots(perPage) === 1 ? 3 : 2;
}

/**
 * Which of a photo's comments fit under it, as the server fits them: each takes its
 * lines (at most 3), a line is kept for "+ N more comments" unless it is the last, and
 * that line is written when it fits. `lines` is each comment's line count.
 */
export function fitComments(lines: readonly number[], room: number, line = 11): { shown: number[]; more: number; moreFits: boolean } {
  const shown: number[] = [];
  let y = 0;
  for (const [i, n] of lines.entries()) {
    const left = lines.length - i;
    const fits = Math.floor((room - y) / line);
    const budget = left > 1 ? Math.max(0, fits - 1) : Math.max(0, fits);
    if (budget === 0) break;
    const taken = Math.min(n, budget, 3);
    shown.push(taken);
    y += taken * line;
  }
  const more = lines.length - shown.length;
  return { shown, more, moreFits: more > 0 && y + line <= room + 2 };
}

/** "+ 1 more comment", "+ 3 more comments". */
export function moreComments(n: number): string {
  return n === 1 ? '+ 1 more comment' : `+ ${n} more comments`;
}

/**
 * The comments a photo shows (each with the lines it may take) and how many are left
 * out, for a photo `perPage` to a page.
 */
export function photoComments(item: ReportPhoto, perPage: number): { shown: { comment: Comment; lines: number }[]; more: number; moreFits: boolean } {
  const width = photoSlotWidth(perPage);
  const caption = item.photo.caption?.trim();
  const captionLines = caption ? Math.min(estimateLines(caption, 9.5, width), captionMaxLines(perPage)) : 0;
  // Under the image: the date's baseline 14 pt down, 13 to the caption, 12 a caption line, 3 before the comments.
  const room = photoTextHeight(perPage) - 14 - 13 - captionLines * 12 - 3;
  const fit = fitComments(item.comments.map((c) => estimateLines(commentLine(c), 8.5, width)), room);
  return { shown: fit.shown.map((lines, i) => ({ comment: item.comments[i], lines })), more: fit.more, moreFits: fit.moreFits };
}

/** The cover's facts, in order: Homeowner, Builder, Period, Status, Complete, Photos, and Milestones when there are some. */
export function coverDetails(preview: ReportPreviewData): { label: string; value: string }[] {
  const { content } = preview;
  const { project } = content;
  const pairs = Math.max(preview.pairs ?? 0, content.pairs.length);
  // The cover counts the sections' photos: the whole report's, less the pairs'.
  const photos = Math.max(0, preview.photos - 2 * pairs);
  const details = [
    { label: 'Homeowner', value: project.homeownerName },
    { label: 'Builder', value: project.builderName ?? 'Not assigned' },
    { label: 'Period', value: reportPeriod(content.from, content.to) },
    { label: 'Status', value: REPORT_STATUS_WORDS[project.status] ?? project.status },
    { label: 'Complete', value: `${reportProgress(project.progress)}%` },
    { label: 'Photos', value: count(photos, 'photo', 'photos') },
  ];
  if (content.milestones.length > 0) details.push({ label: 'Milestones', value: milestonesDone(content.milestones) });
  return details;
}

/** A project's progress as the report draws it: 0-100. */
export function reportProgress(progress: number): number {
  return Math.min(100, Math.max(0, Math.round(progress)));
}

/** The running header's right side: "Progress report · Mar 1, 2026 – Nov 24, 2026". */
export function runningHeader(content: Pick<ReportContent, 'from' | 'to'>): string {
  return `Progress report · ${reportPeriod(content.from, content.to)}`;
}

/** The footer: "Sitecast · Generated Mar 4, 2026" and "Page 3 of 14". */
export function reportFooter(generatedAt: number, page: number, pages: number): { made: string; page: string } {
  return { made: `Sitecast · Generated ${reportDate(generatedAt)}`, page: `Page ${page} of ${pages}` };
}
