import { describe, expect, it } from 'vitest';
import type { TagUse } from '../protocol/types';
import { canonicalTag, cleanTag, hasRoomForTag, sameTag, tagKind, tagOptions, tagProblem, tagsMetadata, withoutTag, withTag } from './tags';

const uses: TagUse[] = [
  { name: 'Kitchen', kind: 'area', photos: 5 },
  { name: 'Electrical', kind: 'trade', photos: 3 },
  { name: 'punch list', kind: 'free', photos: 1 },
  { name: 'Living room', kind: 'area', photos: 0 },
  { name: 'Roofing', kind: 'trade', photos: 0 },
  { name: 'Roof', kind: 'area', photos: 0 },
];

describe('tag rules', () => {
  it('trims and collapses spaces as the server does', () => {
    expect(cleanTag('  Primary   bath ')).toBe('Primary bath');
  });

  it('compares without case', () => {
    expect(sameTag('kitchen', ' KITCHEN ')).toBe(true);
    expect(sameTag('Kitchen', 'Kitchens')).toBe(false);
  });

  it('says why a tag cannot be used', () => {
    expect(tagProblem('  ')).toBe('Type a tag first.');
    expect(tagProblem('a,b')).toBe('Tags cannot contain commas.');
    expect(tagProblem('x'.repeat(41))).toBe('Tags can be at most 40 characters.');
    expect(tagProblem(` ${'x'.repeat(40)} `)).toBeNull();
  });

  it("keeps an existing tag's spelling", () => {
    expect(canonicalTag('kitchen', uses)).toBe('Kitchen');
    expect(canonicalTag(' new  tag ', uses)).toBe('new tag');
  });

  it('adds a tag once and removes it in any case', () => {
    expect(withTag(['Kitchen'], 'KITCHEN')).toEqual(['Kitchen']);
    expect(withTag(['Kitchen'], 'Electrical')).toEqual(['Kitchen', 'Electrical']);
    expect(withoutTag(['Kitchen', 'Electrical'], 'kitchen')).toEqual(['Electrical']);
  });

  it('allows 20 tags on a photo', () => {
    expect(hasRoomForTag(Array.from({ length: 19 }, (_, i) => `t${i}`))).toBe(true);
    expect(hasRoomForTag(Array.from({ length: 20 }, (_, i) => `t${i}`))).toBe(false);
  });

  it('knows the kind of a known tag, free otherwise', () => {
    expect(tagKind('kitchen', uses)).toBe('area');
    expect(tagKind('anything', uses)).toBe('free');
  });

  it('joins a batch’s tags for the upload metadata', () => {
    expect(tagsMetadata([' Kitchen ', 'Electrical'])).toBe('Kitchen,Electrical');
    expect(tagsMetadata([])).toBeUndefined();
    expect(tagsMetadata(['bad,tag'])).toBeUndefined();
  });
});

describe('combobox options', () => {
  it('offers the known tags in the order given, without those chosen', () => {
    expect(tagOptions(uses, '', ['Kitchen'], 3).map((t) => t.name)).toEqual(['Electrical', 'punch list', 'Living room']);
  });

  it('matches the start of the name or of one of its words', () => {
    expect(tagOptions(uses, 'roo', []).map((t) => t.name)).toEqual(['Living room', 'Roofing', 'Roof']);
    expect(tagOptions(uses, 'LIST', []).map((t) => t.name)).toEqual(['punch list']);
    expect(tagOptions(uses, 'itch', [])).toEqual([]);
  });
});
