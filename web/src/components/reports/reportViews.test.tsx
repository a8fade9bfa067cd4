import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Shape } from '../../protocol/types';
import { comment, profile, report, reportContent, reportOptions, reportPhoto } from '../../testing/fixtures';
import { ReportPreview } from './ReportPreview';
import { ReportRow } from './ReportRow';

const row = (over: Parameters<typeof report>[0], canDelete = false) =>
  renderToStaticMarkup(<ReportRow report={report(over)} myId="b1" now={2000} milestoneName={() => undefined} canDelete={canDelete} onDelete={() => undefined} />);

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

  it('names another maker', () => {
    const html = row({ createdBy: { id: 'h1', email: 'homeowner@example.com', name: 'Jamie Carter', role: 'homeowner', createdAt: 0 }, options: reportOptions({ photos: 'favourites' }) });
    expect(html).toContain('Made by Jamie Carter');
    expect(html).toContain('Jamie Carter&#x27;s favorites');
  });
});

describe('ReportPreview', () => {
  const preview = (content: ReturnType<typeof reportContent> | null, problem: string | null = null) =>
    renderToStaticMarkup(<ReportPreview content={content} loading={false} problem={problem} />);

  it('draws the cover, the milestones and three photo pages, then counts the rest', () => {
    const content = reportContent([10], {
      perPage: 2,
      milestones: [
        { name: 'Foundation', state: 'done', late: false, targetDate: '2026-03-01', doneDate: '2026-03-03' },
        { name: 'Framing', state: 'late', late: true, targetDate: '2026-04-01', doneDate: null },
      ],
    });
    const html = preview(content);
    expect(html).toContain('10 photos · about 7 pages');
    expect(html.match(/data-testid="report-page"/g)).toHaveLength(5);
    expect(html).toContain('Maple Street Residence');
    expect(html).toContain('Foundation');
    expect(html).toContain('and 2 more pages');
    expect(html.match(/data-testid="report-preview-photo"/g)).toHaveLength(6);
  });

  it('lays the markup over each photo in its own pixels', () => {
    const shape: Shape = { id: 's1', color: 'red', width: 'medium', authorId: 'b1', geometry: { kind: 'rect', from: { x: 0.1, y: 0.1 }, to: { x: 0.5, y: 0.5 } } };
    const content = reportContent([], { perPage: 1 });
    content.sections = [{ milestone: null, date: 0, note: 'Framing inspection', photos: [{ ...reportPhoto('a', { caption: 'Framing passed' }), shapes: [shape], comments: [comment({ author: profile({ name: 'Summit Homes' }), body: 'Looks good' })] }] }];
    const html = preview(content);
    expect(html).toContain('viewBox="0 0 1600 1200"');
    expect(html).toContain('data-testid="markup-shape"');
    expect(html).toContain('Framing passed');
    expect(html).toContain('Looks good');
    expect(html).toContain('“Framing inspection”');
  });

  it('puts the before/after pairs side by side after the photos', () => {
    const content = reportContent([1], { perPage: 1 });
    content.pairs = [{ before: reportPhoto('b', { caption: 'Bare lot' }), after: reportPhoto('a', { caption: 'Framed' }) }];
    const html = preview(content);
    expect(html).toContain('Page 4: before and after');
    expect(html.indexOf('Bare lot')).toBeLessThan(html.indexOf('Framed'));
    expect(html).toContain('1 photo · about 4 pages');
  });

  it('says why there is no preview', () => {
    const html = preview(null, 'No photos match these choices.');
    expect(html).toContain('No photos match these choices.');
    expect(html).not.toContain('data-testid="report-page"');
  });
});
