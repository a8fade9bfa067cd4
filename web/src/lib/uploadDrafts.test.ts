import { describe, expect, it } from 'vitest';
import { restoredState, restoreKept, type StoredSelection } from './uploadDrafts';
import type { StoredUpload } from './uploadStorage';

const photo = (name: string) => new File([new Uint8Array(100)], name, { type: 'image/jpeg' });

const kept = (key: string, over: Partial<StoredUpload> = {}): StoredUpload => ({
  key,
  projectId: 'p1',
  batchId: 'b1',
  batchSize: 0,
  file: photo(`${key}.jpg`),
  createdAt: 1000,
  userId: 'u1',
  held: true,
  uploadUrl: `http://x/api/uploads/${key}`,
  ...over,
});

const selection = (over: Partial<StoredSelection> = {}): StoredSelection => ({
  batchId: 'b1',
  projectId: 'p1',
  userId: 'u1',
  note: 'Deck framed; windows arrive Tuesday',
  milestoneId: 'm1',
  tags: ['Kitchen'],
  captions: {},
  order: [],
  phase: 'editing',
  createdAt: 1000,
  ...over,
});

describe('where a kept file stands after a reload', () => {
  it('sends a selection’s unfinished bytes by themselves, and shows its whole ones as sent', () => {
    expect(restoredState({ held: true })).toBe('queued');
    expect(restoredState({ held: true, paused: true })).toBe('paused');
    expect(restoredState({ held: true, whole: true })).toBe('held');
  });

  it('asks how a published whole file was stored; a published unfinished one waits like any cut-off file', () => {
    expect(restoredState({ held: true, published: true, whole: true })).toBe('storing');
    expect(restoredState({ held: true, published: true })).toBe('paused');
    expect(restoredState({ held: true, published: true, sendWhenOnline: true })).toBe('queued');
    expect(restoredState({})).toBe('paused');
    expect(restoredState({ sendWhenOnline: true })).toBe('queued');
    expect(restoredState({ sendWhenOnline: true, paused: true })).toBe('paused');
  });
});

describe('restoring a kept selection', () => {
  it('brings the photos back in their order, with their captions, categories and state, and the visit’s fields', () => {
    const files = [kept('u10', { whole: true }), kept('u2'), kept('u3', { whole: true })];
    const saved = selection({
      order: ['u3', 'u10', 'u2'],
      captions: { u3: { caption: 'North wall', category: 'structural' }, u10: { caption: '' }, u2: { caption: 'Joists' } },
      phase: 'publishing',
    });
    const { files: back, selections, forget } = restoreKept(files, [saved], 'u1');
    expect(back.map((f) => [f.key, f.caption, f.category, f.state, f.sent])).toEqual([
      ['u3', 'North wall', 'structural', 'held', 100],
      ['u10', '', undefined, 'held', 100],
      ['u2', 'Joists', undefined, 'queued', 0],
    ]);
    expect(selections).toEqual([{ ...saved, order: ['u3', 'u10', 'u2'] }]);
    expect(forget).toEqual([]);
  });

  it('keeps someone else’s selection for them, and forgets selections whose files are gone', () => {
    const theirs = kept('t1', { userId: 'u2', batchId: 'b2', projectId: 'p2' });
    const { files, selections, forget } = restoreKept(
      [theirs, kept('a1')],
      [selection(), selection({ batchId: 'b2', projectId: 'p2', userId: 'u2' }), selection({ batchId: 'b3', projectId: 'p3' })],
      'u1',
    );
    expect(files.map((f) => f.key)).toEqual(['a1']);
    expect(selections.map((s) => s.batchId)).toEqual(['b1']);
    // Not the other person's: it is theirs to find.
    expect(forget).toEqual(['b3']);
  });

  it('gives a file whose selection was lost a fresh one with its name as caption; two for one project become the newer', () => {
    const orphan = restoreKept([kept('o1', { batchId: 'b9', createdAt: 500 })], [], 'u1');
    expect(orphan.files[0]).toMatchObject({ key: 'o1', batchId: 'b9', caption: 'o1', state: 'queued' });
    expect(orphan.selections).toEqual([expect.objectContaining({ batchId: 'b9', projectId: 'p1', note: '', tags: [], order: ['o1'], phase: 'editing', userId: 'u1' })]);

    const older = selection({ batchId: 'bOld', createdAt: 1, note: 'old', captions: { x1: { caption: 'Old caption' } } });
    const newer = selection({ batchId: 'bNew', createdAt: 2, note: 'new' });
    const two = restoreKept([kept('x1', { batchId: 'bOld' }), kept('x2', { batchId: 'bNew', createdAt: 2000 })], [older, newer], 'u1');
    expect(two.selections.map((s) => [s.batchId, s.note])).toEqual([['bNew', 'new']]);
    expect(two.files.map((f) => [f.key, f.batchId, f.caption])).toEqual([
      ['x1', 'bNew', 'Old caption'],
      ['x2', 'bNew', 'x2'],
    ]);
    expect(two.forget).toEqual(['bOld']);
  });

  it('joins found photos to the selection this page already has for their project', () => {
    const { files, selections, forget } = restoreKept([kept('k1')], [selection()], 'u1', new Set(), new Map([['p1', 'bHere']]));
    expect(files.map((f) => [f.key, f.batchId])).toEqual([['k1', 'bHere']]);
    expect(selections).toEqual([]);
    expect(forget).toEqual(['b1']);
  });

  it('leaves files that are not a selection’s as they were: oldest first, outside any selection', () => {
    const old = kept('q1', { held: undefined, batchId: 'v1', batchSize: 2, createdAt: 5, sendWhenOnline: true });
    const published = kept('q2', { published: true, whole: true, batchId: 'v2', createdAt: 1 });
    const known = kept('q3', { held: undefined, batchId: 'v3' });
    const { files, selections } = restoreKept([old, published, known], [], 'u1', new Set(['q3']));
    expect(files.map((f) => [f.key, f.state])).toEqual([
      ['q2', 'storing'],
      ['q1', 'queued'],
    ]);
    expect(selections).toEqual([]);
  });
});
