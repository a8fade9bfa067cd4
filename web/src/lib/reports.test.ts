import { describe, expect, it } from 'vitest';
import type { ReportContent, ReportMilestone, Shape } from '../protocol/types';
import { comment, photo, report, reportContent, reportOptions as options, reportPhoto, timelineEntry } from '../testing/fixtures';
import {
  addDays,
  canDeleteReport,
  commentLine,
  coverDetails,
  estimateLines,
  fitComments,
  milestoneStateText,
  pairLabel,
  photoComments,
  photoDateLine,
  reportChangeText,
  reportDate,
  reportDay,
  reportPeriod,
  sectionHeading,
  type ReportPreviewData,
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
  const project = { builderId: 'c1', homeownerId: 'h1', crew: ['k1'] };
  const member = (id: string, companyRole: 'owner' | 'manager' | 'crew', companyId = 'c1') => ({ id, role: 'builder' as const, companyId, companyRole, allProjects: false });
  it('admins and the builder make any report; the homeowner, of their favourites', () => {
    expect(reportAccess({ id: 'a1', role: 'admin' }, project)).toEqual({ canMake: true, favouritesOnly: false });
    expect(reportAccess(member('o1', 'owner'), project)).toEqual({ canMake: true, favouritesOnly: false });
    // Crew on the project make reports of it too; crew not on it, nothing.
    expect(reportAccess(member('k1', 'crew'), project)).toEqual({ canMake: true, favouritesOnly: false });
    expect(reportAccess(member('k2', 'crew'), project).canMake).toBe(false);
    expect(reportAccess(member('o2', 'owner', 'c2'), project).canMake).toBe(false);
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

  it('a copy read before a mail does not take the mail away; a later mail wins', () => {
    const ready = report({ status: 'ready', done: 10, pages: 6 });
    const mailed = { ...ready, mailedAt: 5000, mailedTo: 'Jamie Carter' };
    expect(laterReport(ready, mailed)).toBe(mailed);
    expect(laterReport(mailed, ready)).toBe(mailed);
    const again = { ...mailed, mailedAt: 9000 };
    expect(laterReport(mailed, again)).toBe(again);
    expect(mergeReports([mailed], [ready])).toEqual([mailed]);
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

const milestone = (over: Partial<ReportMilestone>): ReportMilestone => ({ name: 'Framing', state: 'upcoming', late: false, targetDate: null, doneDate: null, ...over });
const preview = (content: ReportContent, photos: number, pages: number, pairs?: number): ReportPreviewData => ({ content, photos, pages, pairs });

describe('the report pages', () => {
  it('starts each section on a new page and fills pages of its size, then closes with what changed', () => {
    const pages = reportPages(reportContent([5, 4], { perPage: 4 }));
    expect(pages.map((p) => (p.kind === 'photos' ? [p.kind, p.photos.length, p.first] : [p.kind]))).toEqual([
      ['cover'],
      ['photos', 4, true],
      ['photos', 1, false],
      ['photos', 4, true],
      ['changes'],
    ]);
    expect(reportPages(reportContent([3], { perPage: 1 }))).toHaveLength(5);
    expect(reportPages(reportContent([3, 4], { perPage: 2 })).filter((p) => p.kind === 'photos')).toHaveLength(4);
  });

  it('has milestone pages only when the project has milestones, 22 rows to a page', () => {
    expect(reportPages(reportContent([1])).some((p) => p.kind === 'milestones')).toBe(false);
    const milestones = Array.from({ length: 23 }, (_, i) => milestone({ name: `M${i}` }));
    const pages = reportPages(reportContent([1], { milestones }));
    expect(pages.map((p) => p.kind)).toEqual(['cover', 'milestones', 'milestones', 'photos', 'changes']);
    expect(pages[1]).toMatchObject({ kind: 'milestones', first: true });
    expect(pages[2]).toMatchObject({ kind: 'milestones', first: false, milestones: [{ name: 'M22' }] });
    expect(pages[1].kind === 'milestones' && pages[1].milestones).toHaveLength(22);
  });

  it('puts the before/after pairs two to a page after the photos, and what changed last', () => {
    const content = reportContent([1], { perPage: 1 });
    const pair = { before: content.sections[0].photos[0], after: content.sections[0].photos[0] };
    const pages = reportPages({ ...content, pairs: [pair, pair, pair] });
    expect(pages.map((p) => p.kind)).toEqual(['cover', 'photos', 'pairs', 'pairs', 'changes']);
    expect(pages.map((p) => (p.kind === 'pairs' ? p.pairs.length : null)).filter((n) => n !== null)).toEqual([2, 1]);
  });

  it('runs a long change list onto more pages, keeping every entry in order', () => {
    const changes = Array.from({ length: 120 }, (_, i) => timelineEntry({ id: `t${i}`, createdAt: i }));
    const lists = reportPages(reportContent([], { changes })).flatMap((p) => (p.kind === 'changes' ? [p] : []));
    expect(lists.length).toBeGreaterThan(1);
    expect(lists.map((p) => p.first)).toEqual(lists.map((_, i) => i === 0));
    expect(lists.flatMap((p) => p.changes.map((c) => c.id))).toEqual(changes.map((c) => c.id));
    // One-line entries: 616 points of room at 19 points each.
    expect(lists[0].changes).toHaveLength(32);
  });
});

describe('the preview', () => {
  it('says the server’s counts of the whole report, without "about"', () => {
    expect(previewHeading({ photos: 24, pages: 13 })).toBe('24 photos · 13 pages');
    expect(previewHeading({ photos: 1, pages: 1 })).toBe('1 photo · 1 page');
  });

  it('draws the cover, the milestones and three photo pages, and counts the rest from the server’s pages', () => {
    const content = reportContent([12], { perPage: 2, milestones: [milestone({ state: 'done', doneDate: '2026-03-04' })] });
    const { shown, more } = previewPages(preview(content, 40, 25));
    expect(shown.map((p) => p.kind)).toEqual(['cover', 'milestones', 'photos', 'photos', 'photos']);
    expect(more).toBe(20);
    // A small report is drawn whole: its photos, pairs and what changed.
    const small = reportContent([2], { perPage: 2 });
    small.pairs = [{ before: small.sections[0].photos[0], after: small.sections[0].photos[1] }];
    const whole = previewPages(preview(small, 4, 4, 1));
    expect(whole.shown.map((p) => p.kind)).toEqual(['cover', 'photos', 'pairs', 'changes']);
    expect(whole.more).toBe(0);
  });

  it('stops after the pairs it holds when the report has more', () => {
    const content = reportContent([1], { perPage: 1 });
    const pair = { before: content.sections[0].photos[0], after: content.sections[0].photos[0] };
    content.pairs = [pair, pair];
    const { shown, more } = previewPages(preview(content, 11, 5, 5));
    expect(shown.map((p) => p.kind)).toEqual(['cover', 'photos', 'pairs']);
    expect(more).toBe(2);
  });
});

describe('the report’s words', () => {
  it('writes dates as en-US days in UTC, and periods as the PDF does', () => {
    expect(reportDate(1_772_582_400_000)).toBe('Mar 4, 2026');
    expect(reportDate(Date.UTC(2026, 2, 4, 23, 59))).toBe('Mar 4, 2026');
    expect(reportDay('2026-11-24')).toBe('Nov 24, 2026');
    expect(reportDay('2026-02-30')).toBe('2026-02-30');
    expect(reportDay('not a day')).toBe('not a day');
    expect(reportPeriod('2026-03-01', '2026-11-24')).toBe('Mar 1, 2026 – Nov 24, 2026');
    expect(reportPeriod('2026-03-01', null)).toBe('From Mar 1, 2026');
    expect(reportPeriod(null, '2026-11-24')).toBe('Up to Nov 24, 2026');
    expect(reportPeriod(null, null)).toBe('All dates');
  });

  it('says where each milestone stands', () => {
    expect(milestoneStateText(milestone({ state: 'done', targetDate: '2026-03-01', doneDate: '2026-03-04' }))).toBe('Done Mar 4, 2026');
    expect(milestoneStateText(milestone({ state: 'current', late: true, targetDate: '2026-03-01' }))).toBe('Late · was due Mar 1, 2026');
    expect(milestoneStateText(milestone({ state: 'late', late: true, targetDate: '2026-03-01' }))).toBe('Late · was due Mar 1, 2026');
    expect(milestoneStateText(milestone({ state: 'current', targetDate: '2026-12-01' }))).toBe('In progress · due Dec 1, 2026');
    expect(milestoneStateText(milestone({ state: 'upcoming', targetDate: '2026-12-01' }))).toBe('Due Dec 1, 2026');
    expect(milestoneStateText(milestone({ state: 'upcoming' }))).toBe('No target date');
  });

  it('writes what changed in the report’s sentences', () => {
    expect(reportChangeText(timelineEntry({ actorName: 'Dana Ortiz', detail: { type: 'milestone_completed', milestoneId: 'm1', name: 'Framing' } }))).toBe('Dana Ortiz completed Framing');
    expect(reportChangeText(timelineEntry({ actorName: 'Alex Morgan' }))).toBe('Alex Morgan changed the status from Planning to In progress');
    expect(reportChangeText(timelineEntry({ actorName: null }))).toBe('The status changed');
    expect(reportChangeText(timelineEntry({ detail: { type: 'photos_added', count: 3, photos: [], note: ' Slab poured ' } }))).toBe('3 new photos from a site visit: “Slab poured”');
  });

  it('heads a section by its milestone, or by its visit when grouped by visit', () => {
    const byVisit = [{ milestone: null, date: 1_772_582_400_000, note: null, photos: [] }];
    expect(sectionHeading(byVisit[0], byVisit)).toBe('Site visit · Mar 4, 2026');
    const byMilestone = [
      { milestone: 'Framing', date: 0, note: null, photos: [] },
      { milestone: null, date: 0, note: null, photos: [] },
    ];
    expect(byMilestone.map((s) => sectionHeading(s, byMilestone))).toEqual(['Framing', 'Photos without a milestone']);
  });

  it('dates a photo by when it was taken, saying when it is marked up', () => {
    const item = reportPhoto('a', { takenAt: 1_772_582_400_000, createdAt: 0 });
    expect(photoDateLine(item)).toBe('Mar 4, 2026');
    const shape: Shape = { id: 's1', color: 'red', width: 'medium', authorId: 'b1', geometry: { kind: 'rect', from: { x: 0, y: 0 }, to: { x: 1, y: 1 } } };
    expect(photoDateLine({ ...item, shapes: [shape] })).toBe('Mar 4, 2026 · marked up');
    expect(photoDateLine(reportPhoto('b', { takenAt: null, createdAt: 1_772_582_400_000 }))).toBe('Mar 4, 2026');
    expect(pairLabel('before', item)).toBe('Before · Mar 4, 2026');
    expect(commentLine(comment({ body: ' Looks good ' }))).toBe('Jamie Carter: Looks good');
    expect(commentLine(comment({ author: { id: 'x', email: 'x@example.com', name: null, role: 'builder', createdAt: 0, company: null } }))).toBe('Someone: Is this crack a problem?');
  });

  it('lists the cover’s facts, counting the sections’ photos of the whole report', () => {
    const content = reportContent([2], { from: '2026-03-01', to: '2026-11-24' });
    content.project.builderName = null;
    expect(coverDetails(preview(content, 16, 9, 3))).toEqual([
      { label: 'Homeowner', value: 'Jamie Carter' },
      { label: 'Builder', value: 'Not assigned' },
      { label: 'Period', value: 'Mar 1, 2026 – Nov 24, 2026' },
      { label: 'Status', value: 'In progress' },
      { label: 'Complete', value: '45%' },
      { label: 'Photos', value: '10 photos' },
    ]);
    const withPlan = reportContent([1], { milestones: [milestone({ state: 'done' }), milestone({ state: 'current' }), milestone({})] });
    expect(coverDetails(preview(withPlan, 1, 4)).at(-1)).toEqual({ label: 'Milestones', value: '1 of 3 done' });
    expect(coverDetails(preview(withPlan, 1, 4)).find((d) => d.label === 'Photos')?.value).toBe('1 photo');
  });
});

describe('fitting comments under a photo', () => {
  it('keeps a line for "+ N more" until the last comment, at most 3 lines each', () => {
    expect(fitComments([1, 1, 1, 1, 1], 44)).toEqual({ shown: [1, 1, 1], more: 2, moreFits: true });
    expect(fitComments([5], 44)).toEqual({ shown: [3], more: 0, moreFits: false });
    expect(fitComments([2, 2, 2], 22)).toEqual({ shown: [1], more: 2, moreFits: true });
    // The last comment may take the line kept for "+ N more".
    expect(fitComments([2, 2], 22)).toEqual({ shown: [1, 1], more: 0, moreFits: false });
    expect(fitComments([1], 5)).toEqual({ shown: [], more: 1, moreFits: false });
  });

  it('gives a photo two to a page room for four comment lines without a caption', () => {
    const item = { ...reportPhoto('a'), comments: Array.from({ length: 6 }, (_, i) => comment({ id: `c${i}`, body: 'Fine' })) };
    const fit = photoComments(item, 2);
    expect(fit.shown).toHaveLength(3);
    expect(fit.more).toBe(3);
    expect(fit.moreFits).toBe(true);
  });

  it('estimates lines by words', () => {
    expect(estimateLines('Framing', 9.5, 504)).toBe(1);
    expect(estimateLines('word '.repeat(60).trim(), 9.5, 243)).toBeGreaterThan(3);
    expect(estimateLines('one\ntwo', 9.5, 504)).toBe(2);
  });
});
