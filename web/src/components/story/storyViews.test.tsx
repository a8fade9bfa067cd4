import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { plan, timelineEntry } from '../../testing/fixtures';
import { MilestoneList } from './MilestoneList';
import { TimelineFeed } from './TimelineFeed';

// The shared views render from props alone (the guest page has no app store): these
// render them to markup without a browser.
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const noop = () => undefined;

describe('TimelineFeed', () => {
  const now = new Date(2026, 10, 23, 15).getTime();
  it('says when nothing has happened yet', () => {
    expect(text(renderToStaticMarkup(<TimelineFeed entries={[]} hasMore={false} loading={false} onLoadMore={noop} />))).toContain('Nothing has happened yet.');
  });

  it('shows a skeleton while the first page loads, and the error with a retry', () => {
    expect(renderToStaticMarkup(<TimelineFeed entries={[]} hasMore loading onLoadMore={noop} />)).toContain('timeline-loading');
    const failed = text(renderToStaticMarkup(<TimelineFeed entries={[]} hasMore loading={false} error="Failed to load the timeline." onLoadMore={noop} />));
    expect(failed).toContain('Failed to load the timeline.');
    expect(failed).toContain('Try again');
  });

  it('renders entries under their day with sentence, note and time; thumbnails are buttons only with onOpenPhoto', () => {
    const entries = [
      timelineEntry({
        id: 'b',
        createdAt: now - 3_600_000,
        actorName: 'Summit Homes',
        actorRole: 'builder',
        detail: { type: 'photos_added', count: 12, photos: [{ id: 'i1', thumbUrl: '/t1' }], note: 'Trusses up' },
      }),
      timelineEntry({ id: 'a', createdAt: now - 86_400_000 - 3_600_000, actorName: 'Alex', actorRole: 'builder' }),
    ];
    const html = renderToStaticMarkup(<TimelineFeed entries={entries} hasMore onLoadMore={noop} loading={false} now={now} onOpenPhoto={noop} />);
    const t = text(html);
    expect(t).toContain('Today');
    expect(t).toContain('Yesterday');
    expect(t).toContain('12 new photos from a site visit');
    expect(t).toContain('“Trusses up”');
    expect(t).toContain('By Summit Homes (Builder) · 1 h ago');
    expect(t).toContain('Alex (Builder) changed the status from Planning to In Progress');
    expect(t).toContain('Load older');
    expect(html).toContain('aria-label="Open photo 1 of 12"');
    expect(html).toMatch(/<button[^>]*aria-label="Open photo 1 of 12"/);
    const readOnly = renderToStaticMarkup(<TimelineFeed entries={entries} hasMore={false} onLoadMore={noop} loading={false} now={now} />);
    expect(readOnly).not.toMatch(/<button[^>]*aria-label="Open photo/);
    expect(text(readOnly)).toContain('That’s the beginning of this project’s story.');
  });
});

describe('MilestoneList', () => {
  it('names every state in words, with dates', () => {
    const p = plan(['Foundation', 'Framing', 'Roofing', 'Finishes'], {
      0: { doneDate: '2026-10-02' },
      1: { targetDate: '2026-11-01' },
      2: { targetDate: '2026-12-03' },
    });
    const t = text(renderToStaticMarkup(<MilestoneList plan={p} today="2026-11-20" />));
    expect(t).toContain('1 of 4 done · next: Framing, late (target Nov 1)');
    expect(t).toContain('Foundation Done Oct 2 Done');
    expect(t).toContain('Framing Target was Nov 1 Late');
    expect(t).toContain('Roofing Target Dec 3 Upcoming');
    expect(t).toContain('Finishes Upcoming');
  });

  it('an empty plan says so', () => {
    expect(text(renderToStaticMarkup(<MilestoneList plan={plan([])} />))).toContain('No milestones yet.');
  });
});
