import { describe, expect, it } from 'vitest';
import { photo, plan } from '../testing/fixtures';
import { groupPhotos, parseGrouping } from './photoGroups';

const summary = (groups: ReturnType<typeof groupPhotos>) => groups.map((g) => `${g.title}: ${g.photos.map((p) => p.id).join(',')}`);

describe('groupPhotos', () => {
  const p = plan(['Foundation', 'Framing', 'Roofing']);
  it('by milestone: plan order, empty milestones left out, then Not tagged', () => {
    const photos = [
      photo({ id: 'a', milestoneId: 'm2', createdAt: 40 }),
      photo({ id: 'b', milestoneId: null, createdAt: 30 }),
      photo({ id: 'c', milestoneId: 'm1', createdAt: 20 }),
      photo({ id: 'd', milestoneId: 'gone', createdAt: 10 }),
      photo({ id: 'e', milestoneId: 'm2', createdAt: 5 }),
    ];
    expect(summary(groupPhotos(photos, 'milestone', p))).toEqual(['Foundation: c', 'Framing: a,e', 'Not tagged: b,d']);
    expect(groupPhotos(photos, 'milestone', p)[1].detail).toBe('2 photos');
  });

  it('by milestone without a plan: everything is not tagged', () => {
    expect(summary(groupPhotos([photo({ id: 'a', milestoneId: 'm1' })], 'milestone', undefined))).toEqual(['Not tagged: a']);
  });

  it('by site visit: newest visit first, with its date, count and note; unbatched last', () => {
    const day = (d: number) => new Date(2026, 10, d, 12).getTime();
    const photos = [
      photo({ id: 'a', batchId: 'v2', createdAt: day(20), visitNote: 'Roof trusses up' }),
      photo({ id: 'b', batchId: 'v2', createdAt: day(20) - 1, visitNote: 'Roof trusses up' }),
      photo({ id: 'c', batchId: null, createdAt: day(15) }),
      photo({ id: 'd', batchId: 'v1', createdAt: day(3) }),
    ];
    const groups = groupPhotos(photos, 'visit', p);
    expect(summary(groups)).toEqual(['Site visit · Nov 20, 2026: a,b', 'Site visit · Nov 3, 2026: d', 'Other uploads: c']);
    expect(groups[0]).toMatchObject({ detail: '2 photos', note: 'Roof trusses up' });
    expect(groups[1]).toMatchObject({ detail: '1 photo', note: null });
  });

  it('none: one group of everything, in the given order', () => {
    expect(summary(groupPhotos([photo({ id: 'b' }), photo({ id: 'a' })], 'none', p))).toEqual([': b,a']);
  });

  it('reads the grouping from the URL, anything else is none', () => {
    expect(parseGrouping('visit')).toBe('visit');
    expect(parseGrouping('milestone')).toBe('milestone');
    expect(parseGrouping('bogus')).toBe('none');
    expect(parseGrouping(null)).toBe('none');
  });
});
