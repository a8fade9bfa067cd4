import { describe, expect, it } from 'vitest';
import { photo } from '../testing/fixtures';
import { beforeAfter, comparePath, guestCompareBase, projectCompareBase, resolveComparePair } from './comparePaths';

describe('comparePath', () => {
  it('puts the pair in the query of the project or guest compare route', () => {
    expect(comparePath(projectCompareBase('p1'), 'i1', 'i2')).toBe('/projects/p1/compare?a=i1&b=i2');
    expect(comparePath(guestCompareBase('tok_en-1'), 'i2', 'i1')).toBe('/guest/tok_en-1/compare?a=i2&b=i1');
  });

  it('escapes what could break the address', () => {
    expect(comparePath(guestCompareBase('a/b'), 'x&y', 'z')).toBe('/guest/a%2Fb/compare?a=x%26y&b=z');
  });
});

describe('beforeAfter', () => {
  it('puts the earlier photo first, by capture date when there is one', () => {
    const slab = photo({ id: 'slab', createdAt: 5_000, takenAt: 1_000 });
    const frame = photo({ id: 'frame', createdAt: 3_000 });
    expect(beforeAfter(frame, slab).map((p) => p.id)).toEqual(['slab', 'frame']);
    expect(beforeAfter(slab, frame).map((p) => p.id)).toEqual(['slab', 'frame']);
  });

  it('keeps the tapped order for equal dates', () => {
    const a = photo({ id: 'a', createdAt: 1 });
    const b = photo({ id: 'b', createdAt: 1 });
    expect(beforeAfter(a, b).map((p) => p.id)).toEqual(['a', 'b']);
    expect(beforeAfter(b, a).map((p) => p.id)).toEqual(['b', 'a']);
  });
});

describe('resolveComparePair', () => {
  const photos = [photo({ id: 'i1' }), photo({ id: 'i2' })];

  it('finds both photos, in the order of the address', () => {
    const pair = resolveComparePair(photos, 'i2', 'i1');
    expect(pair.state).toBe('ready');
    if (pair.state === 'ready') expect([pair.before.id, pair.after.id]).toEqual(['i2', 'i1']);
  });

  it('asks for a pair when the address has none or the same photo twice', () => {
    expect(resolveComparePair(photos, null, 'i1')).toEqual({ state: 'choose' });
    expect(resolveComparePair(photos, 'i1', 'i1')).toEqual({ state: 'choose' });
  });

  it('says so when a photo is not visible (deleted, or outside a guest link)', () => {
    expect(resolveComparePair(photos, 'i1', 'gone')).toEqual({ state: 'missing' });
  });
});
