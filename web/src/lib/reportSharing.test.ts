import { describe, expect, it } from 'vitest';
import type { GuestLink } from '../protocol/types';
import { report, reportContent, reportPhoto } from '../testing/fixtures';
import {
  DEFAULT_REPORT_LINK_EXPIRY,
  inlinePdfUrl,
  linksOfReport,
  mailButtonLabel,
  mailedLabel,
  mailRecipient,
  projectLinks,
  reportLinksNote,
  reportSharing,
  sharedReportFacts,
  sharedReportHeading,
  sharedReportPhotos,
  shareReportRequest,
} from './reportSharing';

const NOW = Date.UTC(2026, 10, 25, 12);
const project = { builderId: 'c1', homeownerId: 'h1', homeownerName: 'Jamie Carter', crew: ['k1'] };
const member = (id: string, companyRole: 'owner' | 'manager' | 'crew', companyId = 'c1') => ({ id, role: 'builder' as const, companyId, companyRole, allProjects: false });

const link = (id: string, reportId: string | null): GuestLink => ({
  id,
  projectId: 'p1',
  photos: 'all',
  downloads: false,
  expiresAt: null,
  createdAt: NOW,
  createdBy: null,
  revokedAt: null,
  lastOpenedAt: null,
  reportId,
});

describe('who may share and mail a report', () => {
  it('shares like the project: admins, its company\'s owners and managers and its homeowner; mails: admins, owners and managers', () => {
    expect(reportSharing({ id: 'a1', role: 'admin' }, project)).toEqual({ canShare: true, canMail: true });
    expect(reportSharing(member('o1', 'owner'), project)).toEqual({ canShare: true, canMail: true });
    expect(reportSharing(member('m1', 'manager'), project)).toEqual({ canShare: true, canMail: true });
    expect(reportSharing({ id: 'h1', role: 'homeowner' }, project)).toEqual({ canShare: true, canMail: false });
  });

  it('crew on the project neither share nor mail', () => {
    expect(reportSharing(member('k1', 'crew'), project)).toEqual({ canShare: false, canMail: false });
  });

  it('offers nothing to another company, another project’s homeowner, or to nobody', () => {
    expect(reportSharing(member('o2', 'owner', 'c2'), project)).toEqual({ canShare: false, canMail: false });
    expect(reportSharing({ id: 'h2', role: 'homeowner' }, project)).toEqual({ canShare: false, canMail: false });
    expect(reportSharing(null, project)).toEqual({ canShare: false, canMail: false });
    // A project without a builder company: no member's company matches null.
    expect(reportSharing(member('o1', 'owner'), { ...project, builderId: null })).toEqual({ canShare: false, canMail: false });
  });
});

describe('report links among the project’s links', () => {
  const links = [link('p-link', null), link('r1-a', 'r1'), link('r2-a', 'r2'), link('r1-b', 'r1')];

  it('the project’s Share dialog lists only project links', () => {
    expect(projectLinks(links).map((l) => l.id)).toEqual(['p-link']);
  });

  it('a report’s dialog lists only its own links', () => {
    expect(linksOfReport(links, 'r1').map((l) => l.id)).toEqual(['r1-a', 'r1-b']);
    expect(linksOfReport(links, 'r3')).toEqual([]);
  });

  it('says where the report links went', () => {
    expect(reportLinksNote(0)).toBeNull();
    expect(reportLinksNote(1)).toBe('1 active report link is listed with its report in the Reports tab.');
    expect(reportLinksNote(3)).toBe('3 active report links are listed with their reports in the Reports tab.');
  });
});

describe('shareReportRequest', () => {
  it('starts at 30 days, sends the chosen days, and no field at all for Never', () => {
    expect(DEFAULT_REPORT_LINK_EXPIRY).toBe('30');
    expect(shareReportRequest('r1', '30')).toEqual({ reportId: 'r1', expiresInDays: 30 });
    expect(shareReportRequest('r1', '1')).toEqual({ reportId: 'r1', expiresInDays: 1 });
    expect(shareReportRequest('r1', '7')).toEqual({ reportId: 'r1', expiresInDays: 7 });
    const never = shareReportRequest('r1', 'never');
    expect(never).toEqual({ reportId: 'r1' });
    expect('expiresInDays' in never).toBe(false);
  });
});

describe('mailing', () => {
  it('says who it was mailed to and when, once mailed', () => {
    expect(mailedLabel(report({}), NOW)).toBeNull();
    expect(mailedLabel(report({ mailedAt: NOW - 10_000, mailedTo: 'Priya Shah' }), NOW)).toBe('Mailed to Priya Shah · just now');
    expect(mailedLabel(report({ mailedAt: NOW - 3 * 3_600_000, mailedTo: 'Priya Shah' }), NOW)).toBe('Mailed to Priya Shah · 3 h ago');
    expect(mailedLabel(report({ mailedAt: NOW - 60_000, mailedTo: null }), NOW)).toBe('Mailed to the homeowner · 1 min ago');
  });

  it('mails again once mailed', () => {
    expect(mailButtonLabel(report({}))).toBe('Mail to homeowner');
    expect(mailButtonLabel(report({ mailedAt: NOW }))).toBe('Mail again');
  });

  it('names the homeowner in the confirmation, never by an address', () => {
    expect(mailRecipient({ homeownerName: 'Jamie Carter' })).toBe('Jamie Carter');
    expect(mailRecipient({ homeownerName: 'jamie@example.com' })).toBe('the homeowner');
    expect(mailRecipient({ homeownerName: ' ' })).toBe('the homeowner');
  });
});

describe('the report link’s page', () => {
  it('heads with the period as the PDF writes it', () => {
    expect(sharedReportHeading({ from: '2026-03-01', to: '2026-11-24' })).toBe('Progress report · Mar 1, 2026 – Nov 24, 2026');
    expect(sharedReportHeading({ from: null, to: null })).toBe('Progress report · All dates');
    expect(sharedReportHeading(null)).toBe('Progress report');
  });

  it('says who made it, when, and how big the PDF is', () => {
    const made = Date.UTC(2026, 10, 25, 9);
    expect(sharedReportFacts({ madeBy: 'Summit Homes', createdAt: made, pages: 14, byteSize: 8.2 * 1024 * 1024 })).toBe('Made by Summit Homes · Nov 25, 2026 · 14 pages · 8.2 MB');
    expect(sharedReportFacts({ madeBy: null, createdAt: made, pages: 1, byteSize: 2048 })).toBe('Made Nov 25, 2026 · 1 page · 2 KB');
  });

  it('counts the sections’ photos and two per pair', () => {
    const content = reportContent([2, 3], { pairs: [{ before: reportPhoto('a'), after: reportPhoto('b') }] });
    expect(sharedReportPhotos(content)).toBe(7);
  });

  it('opens the PDF inline', () => {
    expect(inlinePdfUrl('/api/reports/r1/pdf')).toBe('/api/reports/r1/pdf?inline=1');
    expect(inlinePdfUrl('/api/reports/r1/pdf?v=2')).toBe('/api/reports/r1/pdf?v=2&inline=1');
  });
});
