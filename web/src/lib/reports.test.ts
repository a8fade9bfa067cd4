import { describe, expect, it } from 'vitest';
import { photo, report, reportContent, reportOptions as options } from '../testing/fixtures';
import {
  addDays,
  canDeleteReport,
  DEFAULT_REPORT_FORM,
  laterReport,
  matchQuickPeriod,
  mergeReports,
  periodLabel,
  photosInScope,
  previewHeading,
  previewPages,
  quickPeriod,
  REPORT_MESSAGES,
  reportAccess,
  reportFormErrors,
  reportOptions,
  reportPages,
  reportPdfUrl,
  reportPercent,
  reportStatusText,
  reportSummary,
  reportTitle,
  upsertReport,
} from './reports';

const me = { id: 'b1', email: 'builder@example.com', name: 'Summit Homes' };

describe('periodLabel', () => {
  it('names both ends, the year once when they share it', () => {
    expect(periodLabel('2026-03-01', '2026-11-24')).toBe('Mar 1 – Nov 24, 2026');
    expect(periodLabel('2025-12-12', '2026-01-03')).toBe('Dec 12, 2025 – Jan 3, 2026');
    expect(periodLabel('2026-03-01', '2026-03-01')).toBe('Mar 1, 2026');
  });

  it('says which end is open, and "All time" when both are', () => {
    expect(periodLabel('2026-03-01', undefined)).toBe('From Mar 1, 2026');
    expect(periodLabel(null, '2026-11-24')).toBe('Until Nov 24, 2026');
    expect(periodLabel(undefined, undefined)).toBe('All time');
    expect(periodLabel('', '')).toBe('All time');
  });

  it('shows a day it cannot read as it came', () => {
    expect(periodLabel('2026-13-01', '2026-11-24')).toBe('2026-13-01 – 2026-11-24');
  });
});

describe('quick periods', () => {
  it('all time is open; the last 30 days include today; this month starts on the 1st', () => {
    expect(quickPeriod('all', '2026-11-24')).toEqual({ from: '', to: '' });
    expect(quickPeriod('last30', '2026-11-24')).toEqual({ from: '2026-10-26', to: '2026-11-24' });
    expect(quickPeriod('month', '2026-11-24')).toEqual({ from: '2026-11-01', to: '2026-11-24' });
    expect(quickPeriod('last30', '2026-03-10')).toEqual({ from: '2026-02-09', to: '2026-03-10' });
  });

  it('recognises a period that is a quick choice', () => {
    expect(matchQuickPeriod('', '', '2026-11-24')).toBe('all');
    expect(matchQuickPeriod('2026-11-01', '2026-11-24', '2026-11-24')).toBe('month');
    expect(matchQuickPeriod('2026-11-02', '2026-11-24', '2026-11-24')).toBeNull();
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('reportOptions', () => {
  it('leaves an open end out rather than sending undefined', () => {
    const sent = reportOptions({ ...DEFAULT_REPORT_FORM, from: '2026-03-01' }, []);
    expect(sent.from).toBe('2026-03-01');
    expect('to' in sent).toBe(false);
    expect(sent).toMatchObject({ perPage: 2, markup: true, comments: false, photos: 'all', picked: [], milestoneIds: [] });
  });

  it('sends the picked ids only with "Selected photos", and the period only with the period scope', () => {
    expect(reportOptions({ ...DEFAULT_REPORT_FORM, photos: 'all' }, ['i1']).picked).toEqual([]);
    expect(reportOptions({ ...DEFAULT_REPORT_FORM, photos: 'picked' }, ['i1', 'i2']).picked).toEqual(['i1', 'i2']);
    const byMilestone = reportOptions({ ...DEFAULT_REPORT_FORM, scope: 'milestones', from: '2026-03-01', milestoneIds: ['m2'] }, []);
    expect('from' in byMilestone).toBe(false);
    expect(byMilestone.milestoneIds).toEqual(['m2']);
    expect(reportOptions({ ...DEFAULT_REPORT_FORM, milestoneIds: ['m2'] }, []).milestoneIds).toEqual([]);
  });
});

describe('reportFormErrors', () => {
  it('finds what the server would refuse, in its words, by its field names', () => {
    expect(reportFormErrors(DEFAULT_REPORT_FORM, [])).toEqual({});
    expect(reportFormErrors({ ...DEFAULT_REPORT_FORM, from: '2026-11-24', to: '2026-03-01' }, [])).toEqual({ to: REPORT_MESSAGES.order });
    expect(reportFormErrors({ ...DEFAULT_REPORT_FORM, from: '24/11/2026' }, [])).toEqual({ from: REPORT_MESSAGES.date });
    expect(reportFormErrors({ ...DEFAULT_REPORT_FORM, to: '2026-02-30' }, [])).toEqual({ to: REPORT_MESSAGES.date });
    expect(reportFormErrors({ ...DEFAULT_REPORT_FORM, photos: 'picked' }, [])).toEqual({ picked: REPORT_MESSAGES.picked });
    expect(reportFormErrors({ ...DEFAULT_REPORT_FORM, perPage: 3 as 2 }, [])).toEqual({ perPage: REPORT_MESSAGES.perPage });
    expect(reportFormErrors({ ...DEFAULT_REPORT_FORM, scope: 'milestones' }, [])).toEqual({ milestoneIds: REPORT_MESSAGES.milestones });
    const pairs = Array.from({ length: 21 }, (_, i) => ({ before: `a${i}`, after: `b${i}` }));
    expect(reportFormErrors({ ...DEFAULT_REPORT_FORM, pairs }, [])).toEqual({ pairs: REPORT_MESSAGES.tooManyPairs });
  });
});

describe('photosInScope', () => {
  const day = (d: string) => Date.parse(`${d}T12:00:00Z`);
  const photos = [
    photo({ id: 'a', takenAt: day('2026-02-28'), milestoneId: 'm1' }),
    photo({ id: 'b', takenAt: day('2026-03-01'), milestoneId: 'm2' }),
    photo({ id: 'c', takenAt: day('2026-03-31'), milestoneId: null }),
  ];
  it('keeps the photos of the period, both ends included', () => {
    const ids = (form: Parameters<typeof photosInScope>[1]) => photosInScope(photos, form).map((p) => p.id);
    expect(ids({ scope: 'period', from: '2026-03-01', to: '2026-03-31', milestoneIds: [] })).toEqual(['b', 'c']);
    expect(ids({ scope: 'period', from: '', to: '2026-03-01', milestoneIds: [] })).toEqual(['a', 'b']);
    expect(ids({ scope: 'milestones', from: '', to: '', milestoneIds: ['m1', 'm2'] })).toEqual(['a', 'b']);
  });
});

describe('reportSummary and reportTitle', () => {
  it('says what a report holds in a line', () => {
    expect(reportSummary(options({ comments: true }), me, 'b1')).toBe('All photos · 2 per page · with comments · markup on');
    expect(reportSummary(options({ perPage: 4, markup: false, groupBy: 'milestone' }), me, 'b1')).toBe('All photos · 4 per page · by milestone · no markup');
    expect(reportSummary(options({ photos: 'picked', picked: ['a'], pairs: [{ before: 'a', after: 'b' }] }), me, 'b1')).toBe(
      '1 chosen photo · 2 per page · markup on · 1 before/after pair',
    );
  });

  it("names whose favorites they are", () => {
    const jamie = { id: 'h1', email: 'homeowner@example.com', name: 'Jamie Carter' };
    expect(reportSummary(options({ photos: 'favourites' }), jamie, 'h1')).toMatch(/^Your favorites · /);
    expect(reportSummary(options({ photos: 'favourites' }), jamie, 'a1')).toMatch(/^Jamie Carter's favorites · /);
  });

  it('titles a report by its period, or by its milestones when it has none', () => {
    const names: Record<string, string> = { m1: 'Framing', m2: 'Roofing' };
    const lookup = (id: string) => names[id];
    expect(reportTitle(options({ from: '2026-03-01', to: '2026-11-24' }))).toBe('Mar 1 – Nov 24, 2026');
    expect(reportTitle(options({}))).toBe('All time');
    expect(reportTitle(options({ milestoneIds: ['m1', 'm2'] }), lookup)).toBe('Milestones: Framing, Roofing');
    expect(reportTitle(options({ milestoneIds: ['m1'] }), lookup)).toBe('Milestone: Framing');
    expect(reportTitle(options({ milestoneIds: ['m1', 'm2', 'm3'] }), lookup)).toBe('3 milestones');
    // With a period, the milestones go in the summary instead.
    expect(reportSummary(options({ from: '2026-03-01', milestoneIds: ['m2'] }), me, 'b1', lookup)).toBe('All photos · Milestone: Roofing · 2 per page · markup on');
  });
});

describe('reportStatusText and reportPercent', () => {
  it('says where a report is', () => {
    expect(reportStatusText(report({ done: 12, total: 40 }))).toBe('Generating… 12 of 40 photos');
    expect(reportStatusText(report({ done: 0, total: 0 }))).toBe('Generating…');
    expect(reportStatusText(report({ status: 'ready', done: 40, pages: 14, byteSize: 8.2 * 1024 * 1024 }))).toBe('Ready · 14 pages · 8.2 MB');
    expect(reportStatusText(report({ status: 'ready', pages: 1, byteSize: null }))).toBe('Ready · 1 page');
    expect(reportStatusText(report({ status: 'failed', error: 'A photo could not be read.' }))).toBe('Failed: A photo could not be read.');
  });

  it('measures progress in percent of the photos placed', () => {
    expect(reportPercent(report({ done: 12, total: 40 }))).toBe(30);
    expect(reportPercent(report({ done: 0, total: 0 }))).toBe(0);
    expect(reportPercent(report({ done: 50, total: 40 }))).toBe(100);
    expect(reportPercent(report({ status: 'ready' }))).toBe(100);
  });

  it('links the PDF as an attachment or to view', () => {
    expect(reportPdfUrl('r1')).toBe('/api/reports/r1/pdf');
    expect(reportPdfUrl('r1', true)).toBe('/api/reports/r1/pdf?inline=1');
  });
});

describe('who may do what', () => {
  const project = { builderId: 'b1', homeownerId: 'h1' };
  it('admins and the builder make any report; the homeowner, of their favourites', () => {
    expect(reportAccess({ id: 'a1', role: 'admin' }, project)).toEqual({ canMake: true, favouritesOnly: false });
    expect(reportAccess({ id: 'b1', role: 'builder' }, project)).toEqual({ canMake: true, favouritesOnly: false });
    expect(reportAccess({ id: 'b2', role: 'builder' }, project).canMake).toBe(false);
    expect(reportAccess({ id: 'h1', role: 'homeowner' }, project)).toEqual({ canMake: true, favouritesOnly: true });
    expect(reportAccess(null, project).canMake).toBe(false);
  });

  it('its maker or an admin deletes a report', () => {
    const made = report({});
    expect(canDeleteReport({ id: 'b1', role: 'builder' }, made)).toBe(true);
    expect(canDeleteReport({ id: 'a1', role: 'admin' }, made)).toBe(true);
    expect(canDeleteReport({ id: 'h1', role: 'homeowner' }, made)).toBe(false);
    expect(canDeleteReport({ id: 'h1', role: 'homeowner' }, report({ createdBy: null }))).toBe(false);
  });
});

describe('the list: upsert and merge', () => {
  it('keeps newest first and each report once', () => {
    const older = report({ id: 'r1', createdAt: 1000 });
    const newer = report({ id: 'r2', createdAt: 2000 });
    let list = upsertReport([], older);
    list = upsertReport(list, newer);
    expect(list.map((r) => r.id)).toEqual(['r2', 'r1']);
    list = upsertReport(list, { ...older, done: 5 });
    expect(list.map((r) => [r.id, r.done])).toEqual([
      ['r2', 0],
      ['r1', 5],
    ]);
  });

  it('never goes back: a late progress event does not undo ready, nor fewer photos more', () => {
    const ready = report({ status: 'ready', done: 10, pages: 6 });
    expect(laterReport(ready, report({ done: 9 }))).toBe(ready);
    const at7 = report({ done: 7 });
    expect(laterReport(at7, report({ done: 3 }))).toBe(at7);
    const list = [at7];
    expect(upsertReport(list, report({ done: 3 }))).toBe(list);
    expect(laterReport(at7, ready)).toBe(ready);
  });

  it('merges a list read meanwhile with the events, leaving deleted ones out', () => {
    const held = [report({ id: 'r2', createdAt: 2000, done: 8 })];
    const listed = [report({ id: 'r2', createdAt: 2000, done: 2 }), report({ id: 'r1', createdAt: 1000 }), report({ id: 'r0', createdAt: 500 })];
    const merged = mergeReports(held, listed, { r0: true });
    expect(merged.map((r) => [r.id, r.done])).toEqual([
      ['r2', 8],
      ['r1', 0],
    ]);
  });
});

describe('the preview pages', () => {
  it('lays out the cover, the milestones, each section from a new page, then the pairs', () => {
    const content = reportContent([3, 4], { perPage: 2 });
    const pages = reportPages(content);
    expect(pages.map((p) => p.kind)).toEqual(['cover', 'milestones', 'photos', 'photos', 'photos', 'photos']);
    const photoPages = pages.filter((p) => p.kind === 'photos');
    expect(photoPages.map((p) => (p.kind === 'photos' ? [p.photos.length, p.first] : null))).toEqual([
      [2, true],
      [1, false],
      [2, true],
      [2, false],
    ]);
    const pair = { before: content.sections[0].photos[0], after: content.sections[1].photos[0] };
    const withPairs = reportPages({ ...content, pairs: [pair, pair, pair] });
    expect(withPairs.slice(-2).map((p) => p.kind)).toEqual(['pairs', 'pairs']);
  });

  it('estimates the pages for 1, 2 and 4 photos to a page', () => {
    expect(previewHeading(reportContent([24], { perPage: 2 }))).toBe('24 photos · about 14 pages');
    expect(previewHeading(reportContent([24], { perPage: 4 }))).toBe('24 photos · about 8 pages');
    expect(previewHeading(reportContent([1], { perPage: 1 }))).toBe('1 photo · about 3 pages');
    expect(previewHeading(reportContent([], { perPage: 1 }))).toBe('0 photos · about 2 pages');
  });

  it('draws the cover, the milestones and three photo pages, and counts the rest', () => {
    const { shown, more } = previewPages(reportPages(reportContent([10], { perPage: 2 })));
    expect(shown.map((p) => p.kind)).toEqual(['cover', 'milestones', 'photos', 'photos', 'photos']);
    expect(more).toBe(2);
    expect(previewPages(reportPages(reportContent([2], { perPage: 2 }))).more).toBe(0);
  });
});
