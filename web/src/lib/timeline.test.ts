import { describe, expect, it } from 'vitest';
import { timelineEntry } from '../testing/fixtures';
import { groupByDay, mergeEntries, timelineText } from './timeline';

describe('timeline sentences', () => {
  it('names who did what', () => {
    expect(timelineText(timelineEntry({ actorName: 'Alex', actorRole: 'builder' }))).toBe(
      'Alex (Builder) changed the status from Planning to In Progress',
    );
    expect(
      timelineText(timelineEntry({ actorName: 'Summit Homes', actorRole: 'builder', detail: { type: 'milestone_completed', milestoneId: 'm1', name: 'Framing' } })),
    ).toBe('Summit Homes (Builder) completed Framing');
    expect(timelineText(timelineEntry({ actorName: 'Jamie', actorRole: 'homeowner', detail: { type: 'comment', commentId: 'c', excerpt: 'Nice', photo: { id: 'i', thumbUrl: '/t' } } }))).toBe(
      'Jamie (Homeowner) commented on a photo',
    );
    expect(timelineText(timelineEntry({ actorName: 'Summit Homes', actorRole: 'builder', detail: { type: 'marked_up', photo: { id: 'i', thumbUrl: '/t' } } }))).toBe(
      'Summit Homes (Builder) marked up a photo',
    );
    expect(timelineText(timelineEntry({ actorName: null, actorRole: null, detail: { type: 'marked_up', photo: { id: 'i', thumbUrl: '/t' } } }))).toBe('A photo was marked up');
    expect(timelineText(timelineEntry({ detail: { type: 'progress_changed', from: 40, to: 55 } }))).toBe('Alex Morgan (Admin) changed the progress from 40% to 55%');
  });

  it('a photo batch counts its photos; nobody named reads passively', () => {
    expect(timelineText(timelineEntry({ detail: { type: 'photos_added', count: 12, photos: [], note: null } }))).toBe('12 new photos from a site visit');
    expect(timelineText(timelineEntry({ detail: { type: 'photos_added', count: 1, photos: [], note: null } }))).toBe('1 new photo from a site visit');
    expect(timelineText(timelineEntry({ actorName: null, actorRole: null }))).toBe('The status changed from Planning to In Progress');
    expect(timelineText(timelineEntry({ actorName: null, actorRole: null, detail: { type: 'milestone_reopened', milestoneId: 'm', name: 'Roofing' } }))).toBe('Roofing was reopened');
  });

  it('an entry of a kind this build does not know still reads as a sentence', () => {
    const future = timelineEntry({ detail: { type: 'guest_link_created' } as unknown as ReturnType<typeof timelineEntry>['detail'] });
    expect(timelineText(future)).toBe('Alex Morgan (Admin) updated the project');
  });
});

describe('groupByDay', () => {
  const now = new Date(2026, 10, 23, 15, 0).getTime();
  it('heads entries with Today, Yesterday, then weekday and date', () => {
    const days = groupByDay(
      [
        timelineEntry({ id: 'a', createdAt: new Date(2026, 10, 23, 9).getTime() }),
        timelineEntry({ id: 'b', createdAt: new Date(2026, 10, 23, 8).getTime() }),
        timelineEntry({ id: 'c', createdAt: new Date(2026, 10, 22, 23).getTime() }),
        timelineEntry({ id: 'd', createdAt: new Date(2026, 10, 16, 12).getTime() }),
        timelineEntry({ id: 'e', createdAt: new Date(2025, 5, 1, 12).getTime() }),
      ],
      now,
    );
    expect(days.map((d) => [d.label, d.entries.map((e) => e.id).join('')])).toEqual([
      ['Today', 'ab'],
      ['Yesterday', 'c'],
      ['Monday, Nov 16', 'd'],
      ['Jun 1, 2025', 'e'],
    ]);
  });
});

describe('mergeEntries', () => {
  const e = (id: string, createdAt: number) => timelineEntry({ id, createdAt });
  it('keeps each id once, newest first, when pages overlap', () => {
    const merged = mergeEntries([e('c', 30), e('b', 20)], [e('b', 20), e('a', 10)]);
    expect(merged.map((x) => x.id)).toEqual(['c', 'b', 'a']);
  });
  it('orders entries of one millisecond by id, as the cursor does', () => {
    expect(mergeEntries([e('x1', 5)], [e('x3', 5), e('x2', 5)]).map((x) => x.id)).toEqual(['x3', 'x2', 'x1']);
  });
  it('a removed id does not come back with a late page', () => {
    expect(mergeEntries([e('c', 30)], [e('b', 20), e('a', 10)], { b: true }).map((x) => x.id)).toEqual(['c', 'a']);
  });
});
