import type { GuestLink, Project, Report, ReportContent, ShareReport, SharedReport } from '../protocol/types';
import { projectAbilities, projectStanding, type Viewer } from './companyRules';
import { relativeTime } from './dates';
import type { GuestLinkExpiry } from './guestLinks';
import { formatBytes } from './photoUpload';
import { reportDate, reportPeriod } from './reports';

// Sharing a progress report (docs/FEATURES.md, "Progress reports"): a report link (a
// guest link naming one report) and a mail to the homeowner. The words and rules, kept
// out of the components.

// --- Who may do what (the server decides; the screen offers only what it allows) -----

export interface ReportSharing {
  /**
   * A link to the report: whoever may share the project (admins, its company's owners
   * and managers, its homeowner; not crew).
   */
  canShare: boolean;
  /** Mail it to the homeowner: admins and its company's owners and managers. */
  canMail: boolean;
}

/** Mirrors the project page's Share and the server's policy for `mail_report`. */
export function reportSharing(user: Viewer | null | undefined, project: Pick<Project, 'builderId' | 'homeownerId' | 'crew'>): ReportSharing {
  const abilities = projectAbilities(projectStanding(user, project));
  return { canShare: abilities.share, canMail: abilities.mailReports };
}

// --- Report links among a project's guest links --------------------------------------

/** A report link names its report; a project link names none. */
export const isReportLink = (link: Pick<GuestLink, 'reportId'>): boolean => link.reportId != null;

/** The project's own links: report links are listed with their reports, not in the project's Share dialog. */
export function projectLinks<T extends Pick<GuestLink, 'reportId'>>(links: readonly T[]): T[] {
  return links.filter((l) => !isReportLink(l));
}

/** The links to one report. */
export function linksOfReport<T extends Pick<GuestLink, 'reportId'>>(links: readonly T[], reportId: string): T[] {
  return links.filter((l) => l.reportId === reportId);
}

/** A report link is sent on to someone, so it lasts a month unless chosen otherwise. */
export const DEFAULT_REPORT_LINK_EXPIRY: GuestLinkExpiry = '30';

/** The `share_report` request: "Never" leaves `expiresInDays` out (an absent field, not undefined on the wire). */
export function shareReportRequest(reportId: string, expiry: GuestLinkExpiry): ShareReport {
  return expiry === 'never' ? { reportId } : { reportId, expiresInDays: Number(expiry) };
}

/**
 * "1 active report link is listed with its report in the Reports tab.": why the
 * project's list may not hold every link that counts towards the cap of active links.
 */
export function reportLinksNote(active: number): string | null {
  if (active <= 0) return null;
  return active === 1
    ? '1 active report link is listed with its report in the Reports tab.'
    : `${active} active report links are listed with their reports in the Reports tab.`;
}

// --- Mailing ---------------------------------------------------------------------------

/** "Mailed to Jamie Carter · 5 min ago", or null for a report never mailed. */
export function mailedLabel(report: Pick<Report, 'mailedAt' | 'mailedTo'>, now: number): string | null {
  if (report.mailedAt === null) return null;
  const who = report.mailedTo?.trim();
  return `${who ? `Mailed to ${who}` : 'Mailed to the homeowner'} · ${relativeTime(report.mailedAt, now)}`;
}

/** The row's mail button: once mailed, it mails again. */
export function mailButtonLabel(report: Pick<Report, 'mailedAt'>): string {
  return report.mailedAt === null ? 'Mail to homeowner' : 'Mail again';
}

/** The homeowner as the confirmation names them ("Mail this report to Jamie Carter?"). */
export function mailRecipient(project: Pick<Project, 'homeownerName'>): string {
  const name = project.homeownerName.trim();
  return name && !name.includes('@') ? name : 'the homeowner';
}

// --- The report link's page ------------------------------------------------------------

/** The line under the title: "Progress report · Mar 1, 2026 – Nov 24, 2026"; just "Progress report" without its content. */
export function sharedReportHeading(content: Pick<ReportContent, 'from' | 'to'> | null): string {
  return content ? `Progress report · ${reportPeriod(content.from, content.to)}` : 'Progress report';
}

/** "Made by Summit Homes · Nov 25, 2026 · 14 pages · 8.2 MB". */
export function sharedReportFacts(report: Pick<SharedReport, 'madeBy' | 'createdAt' | 'pages' | 'byteSize'>): string {
  const parts: string[] = [];
  const maker = report.madeBy?.trim();
  parts.push(maker ? `Made by ${maker} · ${reportDate(report.createdAt)}` : `Made ${reportDate(report.createdAt)}`);
  if (report.pages > 0) parts.push(report.pages === 1 ? '1 page' : `${report.pages} pages`);
  if (report.byteSize > 0) parts.push(formatBytes(report.byteSize));
  return parts.join(' · ');
}

/** The photos a report's cover counts (its sections') and the whole report's (2 per before/after pair). */
export function sharedReportPhotos(content: Pick<ReportContent, 'sections' | 'pairs'>): number {
  return content.sections.reduce((n, s) => n + s.photos.length, 0) + 2 * content.pairs.length;
}

/** The PDF to read in the browser rather than save. */
export function inlinePdfUrl(pdfUrl: string): string {
  return `${pdfUrl}${pdfUrl.includes('?') ? '&' : '?'}inline=1`;
}
