import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Shape } from '../../protocol/types';
import { comment, photo, profile, project, report, reportContent, reportOptions, reportPhoto, timelineEntry } from '../../testing/fixtures';
import { ReportPreview } from './ReportPreview';
import { ReportRow } from './ReportRow';
import { SharedReportView } from './SharedReportView';

const NO_SHARING = { canShare: false, canMail: false };
const row = (over: Parameters<typeof report>[0], canDelete = false, sharing = NO_SHARING) =>
  renderToStaticMarkup(
    <ReportRow
      report={report(over)}
      myId="b1"
      now={2000}
      milestoneName={() => undefined}
      canDelete={canDelete}
      onDelete={() => undefined}
      sharing={sharing}
      onShare={() => undefined}
      onMail={() => undefined}
    />,
  );

describe('ReportRow', () => {
  it('shows a report being made as a progress bar of the photos placed', () => {
    const html = row({ options: reportOptions({ from: '2026-03-01', to: '2026-11-24', comments: true }), done: 12, total: 40 });
    expect(html).toContain('Mar 1 – Nov 24, 2026');
    expect(html).toContain('All photos · 2 per page · with comments · markup on');
    expect(html).toContain('Made by you');
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="30"');
    expect(html).toContain('aria-valuetext="Generating… 12 of 40 photos"');
    expect(html).not.toContain('Download PDF');
  });

  it('offers a ready report as a PDF to download and to open', () => {
    const html = row({ status: 'ready', done: 40, total: 40, pages: 14, byteSize: 8.2 * 1024 * 1024 });
    expect(html).toContain('Ready · 14 pages · 8.2 MB');
    expect(html).toContain('href="/api/reports/r1/pdf" download=""');
    expect(html).toContain('href="/api/reports/r1/pdf?inline=1" target="_blank"');
    expect(html).not.toContain('role="progressbar"');
  });

  it('says why a report failed, and offers delete only to those who may', () => {
    const html = row({ status: 'failed', error: 'A photo could not be read.' }, true);
    expect(html).toContain('Failed: A photo could not be read.');
    expect(html).toContain('aria-label="Delete report All time"');
    expect(row({ status: 'failed' })).not.toContain('Delete report');
  });

  it('offers Share link and Mail only on a ready report, and only to those who may', () => {
    const ready = { status: 'ready' as const, done: 40, total: 40, pages: 14, byteSize: 1000 };
    const builderHtml = row(ready, false, { canShare: true, canMail: true });
    expect(builderHtml).toContain('Share link');
    expect(builderHtml).toContain('Mail to homeowner');
    const homeownerHtml = row(ready, false, { canShare: true, canMail: false });
    expect(homeownerHtml).toContain('Share link');
    expect(homeownerHtml).not.toContain('Mail to homeowner');
    expect(row(ready)).not.toContain('Share link');
    const making = row({ done: 3, total: 40 }, false, { canShare: true, canMail: true });
    expect(making).not.toContain('Share link');
    expect(making).not.toContain('Mail to homeowner');
  });

  it('says to whom and when it was mailed, and mails again', () => {
    const html = row({ status: 'ready', done: 40, total: 40, pages: 2, byteSize: 1000, mailedAt: 1000, mailedTo: 'Priya Shah' }, false, { canShare: true, canMail: true });
    expect(html).toContain('Mailed to Priya Shah · just now');
    expect(html).toContain('Mail again');
    expect(row({ status: 'ready', done: 40, total: 40, pages: 2, byteSize: 1000 })).not.toContain('Mailed to');
  });

  it('names another maker', () => {
    const html = row({ createdBy: { id: 'h1', email: 'homeowner@example.com', name: 'Jamie Carter', role: 'homeowner', createdAt: 0, company: null }, options: reportOptions({ photos: 'favourites' }) });
    expect(html).toContain('Made by Jamie Carter');
    expect(html).toContain('Jamie Carter&#x27;s favorites');
  });
});

describe('ReportPreview', () => {
  type Content = ReturnType<typeof reportContent>;
  const draw = (content: Content | null, photos = 0, pages = 0, pairs?: number, problem: string | null = null) =>
    renderToStaticMarkup(<ReportPreview preview={content ? { content, photos, pages, pairs } : null} loading={false} problem={problem} />);
  const count = (html: string, testId: string) => html.match(new RegExp(`data-testid="${testId}"`, 'g'))?.length ?? 0;
  const labels = (html: string) => [...html.matchAll(/aria-label="(Page \d+: [^"]*)"/g)].map((m) => m[1]);
  const planned: Content['milestones'] = [
    { name: 'Foundation', state: 'done', late: false, targetDate: '2026-03-01', doneDate: '2026-03-03' },
    { name: 'Framing', state: 'current', late: true, targetDate: '2026-04-01', doneDate: null },
    { name: 'Roofing', state: 'upcoming', late: false, targetDate: null, doneDate: null },
  ];

  it('says the server’s photo and page counts, draws the cover, the milestones and three photo pages, then counts the rest', () => {
    const content = reportContent([10], { perPage: 2, milestones: planned });
    content.sections[0].date = Date.UTC(2026, 2, 4);
    const html = draw(content, 24, 13);
    expect(html).toContain('24 photos · 13 pages');
    expect(html).not.toContain('about');
    expect(labels(html)).toEqual(['Page 1: cover', 'Page 2: milestones', 'Page 3: Site visit · Mar 4, 2026', 'Page 4: Site visit · Mar 4, 2026', 'Page 5: Site visit · Mar 4, 2026']);
    expect(html).toContain('Page 1 of 13');
    expect(html).toContain('Page 5 of 13');
    expect(html).toContain('and 8 more pages');
    expect(count(html, 'report-preview-photo')).toBe(6);
    expect(html).toContain('Site visit · Mar 4, 2026 (continued)');
  });

  it('draws the cover as the PDF does: the label, the title, the address and the facts', () => {
    const content = reportContent([1], { milestones: planned, from: '2026-03-01', to: '2026-11-24' });
    content.project.thumbnailUrl = '/media/images/i9/thumb';
    const html = draw(content, 14, 9, 2);
    expect(html).toContain('PROGRESS REPORT');
    expect(html).toContain('data-testid="report-preview-title">Maple Street Residence<');
    expect(html).toContain('1428 Maple Street');
    expect(html).toContain('src="/media/images/i9/thumb"');
    const facts = [...html.matchAll(/<dt[^>]*>([^<]*)<\/dt><dd[^>]*><span[^>]*>([^<]*)<\/span>/g)].map((m) => [m[1], m[2]]);
    expect(facts).toEqual([
      ['Homeowner', 'Jamie Carter'],
      ['Builder', 'Summit Homes'],
      ['Period', 'Mar 1, 2026 – Nov 24, 2026'],
      ['Status', 'In progress'],
      ['Complete', '45%'],
      ['Photos', '10 photos'],
      ['Milestones', '1 of 3 done'],
    ]);
    expect(count(html, 'report-cover-bar')).toBe(1);
    expect(html).toContain('width:45%');
  });

  it('lists the milestones with their dots and where each stands, only when there are some', () => {
    const html = draw(reportContent([1], { milestones: planned }), 1, 4);
    expect([...html.matchAll(/data-tone="(\w+)"/g)].map((m) => m[1])).toEqual(['done', 'late', 'upcoming']);
    expect(html).toContain('Done Mar 3, 2026');
    expect(html).toContain('Late · was due Apr 1, 2026');
    expect(html).toContain('No target date');
    expect(html).toContain('1 of 3 done');
    expect(labels(draw(reportContent([1]), 1, 3))).toEqual(['Page 1: cover', 'Page 2: Photos without a milestone', 'Page 3: what changed']);
  });

  it('puts a running header on every page but the cover, and a footer on every page', () => {
    const html = draw(reportContent([1], { from: '2026-03-01', to: '2026-11-24', generatedAt: Date.UTC(2026, 10, 25) }), 1, 3);
    expect(count(html, 'report-page')).toBe(3);
    expect(count(html, 'report-page-header')).toBe(2);
    expect(count(html, 'report-page-footer')).toBe(3);
    expect(html).toContain('Progress report · Mar 1, 2026 – Nov 24, 2026');
    expect(html.match(/Sitecast · Generated Nov 25, 2026/g)).toHaveLength(3);
    expect(html).toContain('Page 3 of 3');
    expect(html).not.toContain('data-testid="report-preview-more"');
  });

  it('writes each photo’s date (marked up when it is), caption and comments, the markup in the photo’s own pixels', () => {
    const shape: Shape = { id: 's1', color: 'red', width: 'medium', authorId: 'b1', geometry: { kind: 'rect', from: { x: 0.1, y: 0.1 }, to: { x: 0.5, y: 0.5 } } };
    const content = reportContent([], { perPage: 1 });
    content.sections = [
      {
        milestone: null,
        date: 0,
        note: 'Framing inspection',
        photos: [{ ...reportPhoto('a', { caption: 'Framing passed', takenAt: Date.UTC(2026, 2, 4) }), shapes: [shape], comments: [comment({ author: { ...profile({ name: 'Summit Homes' }), company: 'Summit Homes' }, body: 'Looks good' })] }],
      },
    ];
    const html = draw(content, 1, 3);
    expect(html).toContain('viewBox="0 0 1600 1200"');
    expect(html).toContain('data-testid="markup-shape"');
    expect(html).toContain('Mar 4, 2026 · marked up');
    expect(html).toContain('Framing passed');
    expect(html).toContain('Summit Homes: Looks good');
    expect(html).toContain('“Framing inspection”');
    // Under the photo: the date, then the caption, then the comments.
    const under = html.slice(html.indexOf('<figcaption'));
    expect(under.indexOf('>Mar 4, 2026 · marked up<')).toBeGreaterThan(-1);
    expect(under.indexOf('>Mar 4, 2026 · marked up<')).toBeLessThan(under.indexOf('>Framing passed<'));
    expect(under.indexOf('>Framing passed<')).toBeLessThan(under.indexOf('Summit Homes: Looks good'));
  });

  it('heads sections by milestone when grouped so, and keeps a section’s note to its first page', () => {
    const content = reportContent([3, 1], { perPage: 2 });
    content.sections[0].milestone = 'Framing';
    content.sections[0].note = 'Walls up';
    const html = draw(content, 4, 5);
    expect(labels(html).slice(1, 4)).toEqual(['Page 2: Framing', 'Page 3: Framing', 'Page 4: Photos without a milestone']);
    expect(html).toContain('Framing (continued)');
    expect(count(html, 'report-section-note')).toBe(1);
    expect(html).toContain('and 1 more page');
  });

  it('puts the before/after pairs side by side after the photos, then what changed, oldest first', () => {
    const content = reportContent([1], { perPage: 1 });
    content.pairs = [{ before: reportPhoto('b', { caption: 'Bare lot', takenAt: Date.UTC(2026, 0, 5) }), after: reportPhoto('a', { caption: 'Framed', takenAt: Date.UTC(2026, 5, 1) }) }];
    content.changes = [
      timelineEntry({ id: 't1', createdAt: Date.UTC(2026, 0, 2), actorName: 'Dana Ortiz', detail: { type: 'milestone_completed', milestoneId: 'm1', name: 'Foundation' } }),
      timelineEntry({ id: 't2', createdAt: Date.UTC(2026, 1, 3) }),
    ];
    const html = draw(content, 3, 4, 1);
    expect(labels(html)).toEqual(['Page 1: cover', 'Page 2: Photos without a milestone', 'Page 3: before and after', 'Page 4: what changed']);
    expect(html).toContain('Before · Jan 5, 2026');
    expect(html).toContain('After · Jun 1, 2026');
    expect(html.indexOf('Bare lot')).toBeLessThan(html.indexOf('Framed'));
    expect(html.indexOf('Jan 2, 2026')).toBeLessThan(html.indexOf('Dana Ortiz completed Foundation'));
    expect(html.indexOf('Dana Ortiz completed Foundation')).toBeLessThan(html.indexOf('Alex Morgan changed the status from Planning to In progress'));
    expect(html).toContain('3 photos · 4 pages');
  });

  it('says when nothing was recorded in the period', () => {
    expect(draw(reportContent([1]), 1, 3)).toContain('Nothing was recorded in this period.');
  });

  it('says why there is no preview', () => {
    const html = draw(null, 0, 0, undefined, 'No photos match these choices.');
    expect(html).toContain('No photos match these choices.');
    expect(html).not.toContain('data-testid="report-page"');
  });
});

describe('SharedReportView (a report link’s page)', () => {
  const shared = (content: ReturnType<typeof reportContent> | null) => ({
    id: 'r1',
    pages: 5,
    byteSize: 2 * 1024 * 1024,
    createdAt: Date.UTC(2026, 10, 25, 9),
    madeBy: 'Summit Homes',
    content,
    pdfUrl: '/api/reports/r1/pdf',
  });
  const draw = (content: ReturnType<typeof reportContent> | null) => renderToStaticMarkup(<SharedReportView report={shared(content)} project={project({})} />);

  it('heads with the project, the period, who made it and the PDF to download', () => {
    const content = reportContent([2], { from: '2026-03-01', to: '2026-11-24' });
    content.project.thumbnailUrl = '/media/images/cover/thumb';
    const html = draw(content);
    expect(html).toContain('>Maple Street Residence</h1>');
    expect(html).toContain('1428 Maple Street');
    expect(html).toContain('Progress report · Mar 1, 2026 – Nov 24, 2026');
    expect(html).toContain('Made by Summit Homes · Nov 25, 2026 · 5 pages · 2.0 MB');
    expect(html).toMatch(/<a href="\/api\/reports\/r1\/pdf" download=""[^>]*>.*Download PDF<\/a>/);
    expect(html).toContain('href="/api/reports/r1/pdf?inline=1" target="_blank"');
    expect(html).toContain('src="/media/images/cover/thumb"');
  });

  it('shows every photo of every section with its date, caption, markup and comments, in the guest’s /media URLs', () => {
    const content = reportContent([3, 1], { perPage: 2 });
    content.sections[0].milestone = 'Framing';
    content.sections[0].note = 'Walls up';
    const shapes: Shape[] = [{ id: 's1', color: 'red', width: 'medium', authorId: 'b1', geometry: { kind: 'rect', from: { x: 0.1, y: 0.1 }, to: { x: 0.5, y: 0.5 } } }];
    content.sections[0].photos[0] = {
      photo: photo({ id: 'i9', caption: 'Framing passed', takenAt: Date.UTC(2026, 2, 4) }),
      comments: [comment({ id: 'c1', body: 'Looks good', author: { ...profile({ id: 'b1', name: 'Summit Homes' }), company: 'Summit Homes' } })],
      shapes,
    };
    const html = draw(content);
    expect((html.match(/data-testid="shared-report-photo"/g) ?? []).length).toBe(4);
    expect(html).toContain('src="/media/images/i9/display"');
    expect(html).toContain('/media/images/i9/thumb 480w, /media/images/i9/display 1600w');
    expect(html).toContain('alt="Framing passed"');
    expect(html).toContain('Mar 4, 2026 · marked up');
    expect(html).toContain('data-testid="markup-shape"');
    expect(html).toContain('Looks good');
    expect(html).toContain('“Walls up” · 3 photos');
    expect(html).toContain('>Framing</h2>');
    expect(html).toContain('>Photos without a milestone</h2>');
    expect(html).toContain('Nothing was recorded in this period.');
  });

  it('without its content, says the pages are in the PDF and still offers it', () => {
    const html = draw(null);
    expect(html).toContain('>Maple Street Residence</h1>');
    expect(html).toContain('Progress report</p>');
    expect(html).toContain('Download PDF');
    expect(html).toContain('This report&#x27;s pages are in its PDF');
    expect(html).not.toContain('data-testid="shared-report-photo"');
  });
});
