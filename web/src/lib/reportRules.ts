import type { Profile, Project, Report } from '../protocol/types';
import { projectStanding, type Viewer } from './companyRules';

// Progress reports (docs/FEATURES.md, "Progress reports"): who may make and delete them,
// and how the list of a project's reports stays in order. Apart from lib/reports (the
// form, the preview's pages), which only the Reports tab and the report dialogs need: the
// project page and the store load this with the app (docs/LIMITS.md, "First paint").

// --- Who may do what (the server decides; the screen offers only what it allows) -----

export interface ReportAccess {
  /** Admins, the project's builder (its company's people on it, crew too), and its homeowner. */
  canMake: boolean;
  /** The homeowner's reports are of their favourites; the other photo choices are not theirs. */
  favouritesOnly: boolean;
}

export function reportAccess(user: Viewer | null | undefined, project: Pick<Project, 'builderId' | 'homeownerId' | 'crew'>): ReportAccess {
  const standing = projectStanding(user, project);
  if (user?.role === 'homeowner') return { canMake: standing === 'homeowner', favouritesOnly: true };
  return { canMake: standing !== 'none', favouritesOnly: false };
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
 * report only moves forward: generating with more photos placed, then ready or failed,
 * then (ready) mailed, and mailed again.
 * So a list read before an event cannot undo it, and a late progress event cannot
 * turn a ready report back into a generating one.
 */
export function laterReport(held: Report | undefined, next: Report): Report {
  if (!held) return next;
  const finished = (r: Report) => r.status !== 'generating';
  if (finished(held) && !finished(next)) return held;
  if (!finished(held) && !finished(next) && next.done < held.done) return held;
  // A finished report moves on only by being mailed: a copy read before a mail must
  // not take "Mailed to …" away again.
  if (finished(held) && (held.mailedAt ?? 0) > (next.mailedAt ?? 0)) return held;
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
