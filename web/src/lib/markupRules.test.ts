import { describe, expect, it } from 'vitest';
import type { Shape } from '../protocol/types';
import { encodeClientMsg } from '../protocol/codec';
import { MAX_FRAME_BYTES } from '../protocol/types';
import { MARKUP_MAX_LABEL, MARKUP_MAX_NOTE, MARKUP_MAX_PEN_POINTS, MARKUP_MAX_POINTS, MARKUP_MAX_SHAPES, MARKUP_MAX_TEXT } from './limits';
import { canRedo, canUndo, historyKey, historyPush, historyRedo, historyStart, historyUndo } from './markupHistory';
import { addProblem, canChangeShape, labelProblem, markupAccess, markupLimitProblem, penBudget, textCount, toolsFor } from './markupRules';
import { penPointCount } from './markupGeometry';

// Built by company c1; crew member k1 is on its crew, k2 is not, k3 sees all projects.
const project = { builderId: 'c1', homeownerId: 'h1', crew: ['k1'] };
const member = (id: string, companyRole: 'owner' | 'manager' | 'crew', companyId = 'c1', allProjects = false) => ({ id, role: 'builder' as const, companyId, companyRole, allProjects });
const pin = (id: string, authorId: string): Shape => ({ id, color: 'red', width: 'medium', geometry: { kind: 'pin', at: { x: 0.5, y: 0.5 }, note: '' }, authorId });
const arrow = (id: string): Shape => ({ id, color: 'red', width: 'medium', geometry: { kind: 'arrow', from: { x: 0, y: 0 }, to: { x: 1, y: 1 } }, authorId: 'b1' });
const pen = (id: string, n: number): Shape => ({
  id,
  color: 'blue',
  width: 'thin',
  geometry: { kind: 'pen', points: Array.from({ length: n }, (_, i) => ({ x: i / n, y: 0.5 })) },
  authorId: 'b1',
});

describe('who may draw (as the server decides)', () => {
  it('admins and the project builder: every tool; its homeowner: pins; others: nothing', () => {
    expect(markupAccess({ id: 'a1', role: 'admin' }, project)).toBe('all');
    expect(markupAccess(member('o1', 'owner'), project)).toBe('all');
    expect(markupAccess(member('m1', 'manager'), project)).toBe('all');
    // Crew draw on the projects they are on (or on all, when they see all).
    expect(markupAccess(member('k1', 'crew'), project)).toBe('all');
    expect(markupAccess(member('k2', 'crew'), project)).toBe('none');
    expect(markupAccess(member('k3', 'crew', 'c1', true), project)).toBe('all');
    expect(markupAccess(member('o2', 'owner', 'c2'), project)).toBe('none');
    // A builder outside any company, whatever their id.
    expect(markupAccess({ id: 'c1', role: 'builder' }, project)).toBe('none');
    expect(markupAccess({ id: 'h1', role: 'homeowner' }, project)).toBe('own-pins');
    expect(markupAccess({ id: 'h2', role: 'homeowner' }, project)).toBe('none');
    expect(markupAccess(null, project)).toBe('none');
    expect(toolsFor('all')).toEqual(['select', 'arrow', 'line', 'rect', 'ellipse', 'pen', 'text', 'pin']);
    expect(toolsFor('own-pins')).toEqual(['pin']);
    expect(toolsFor('none')).toEqual([]);
  });

  it('a homeowner changes only their own pins', () => {
    expect(canChangeShape('own-pins', 'h1', pin('p', 'h1'))).toBe(true);
    expect(canChangeShape('own-pins', 'h1', pin('p', 'b1'))).toBe(false);
    expect(canChangeShape('own-pins', 'h1', { ...arrow('a'), authorId: 'h1' })).toBe(false);
    expect(canChangeShape('all', 'b1', pin('p', 'h1'))).toBe(true);
    expect(canChangeShape('none', 'x', pin('p', 'x'))).toBe(false);
  });
});

describe('limits', () => {
  it('stops at the most shapes a photo holds', () => {
    const full = Array.from({ length: MARKUP_MAX_SHAPES }, (_, i) => arrow(`a${i}`));
    expect(addProblem(full.slice(1), 'arrow')).toBeNull();
    expect(addProblem(full, 'arrow')).toMatch(/most shapes/);
    expect(markupLimitProblem(full)).toBeNull();
    expect(markupLimitProblem([...full, arrow('x')])).toMatch(/at most 100 shapes/);
  });

  it('budgets freehand points per stroke and per photo', () => {
    expect(penBudget([])).toBe(MARKUP_MAX_PEN_POINTS);
    const strokes = [pen('a', 500), pen('b', 300)];
    expect(penBudget(strokes)).toBe(MARKUP_MAX_POINTS - 800);
    expect(markupLimitProblem([...strokes, pen('e', 201)])).toMatch(/1000 freehand points/);
    expect(markupLimitProblem([pen('big', MARKUP_MAX_PEN_POINTS + 1)])).toMatch(/500 points/);
    expect(addProblem([...strokes, pen('e', 199)], 'pen')).toMatch(/freehand/);
    expect(addProblem([...strokes, pen('e', 199)], 'pin')).toBeNull();
  });

  it('labels and notes', () => {
    expect(labelProblem('   ')).toMatch(/Type/);
    expect(labelProblem('a'.repeat(MARKUP_MAX_LABEL))).toBeNull();
    expect(labelProblem('a'.repeat(MARKUP_MAX_LABEL + 1))).toMatch(/100 characters/);
    expect(labelProblem('1\n2\n3\n4\n5')).toBeNull();
    expect(labelProblem('1\n2\n3\n4\n5\n6')).toMatch(/5 lines/);
    const note = (n: number): Shape => ({ ...pin('p', 'h1'), geometry: { kind: 'pin', at: { x: 0, y: 0 }, note: 'a'.repeat(n) } });
    expect(markupLimitProblem([note(MARKUP_MAX_NOTE)])).toBeNull();
    expect(markupLimitProblem([note(MARKUP_MAX_NOTE + 1)])).toMatch(/500 characters/);
  });
});

describe('undo and redo', () => {
  it('steps back and forth through finished changes; a new change drops redo', () => {
    const a = [arrow('a')];
    const ab = [...a, arrow('b')];
    let h = historyPush(historyPush(historyStart([]), a), ab);
    expect(h.present).toBe(ab);
    h = historyUndo(h);
    expect(h.present).toBe(a);
    expect(canRedo(h)).toBe(true);
    h = historyRedo(h);
    expect(h.present).toBe(ab);
    h = historyUndo(historyUndo(h));
    expect(h.present).toEqual([]);
    expect(canUndo(h)).toBe(false);
    expect(historyUndo(h)).toBe(h);
    h = historyPush(h, [arrow('c')]);
    expect(canRedo(h)).toBe(false);
    expect(historyPush(h, h.present)).toBe(h);
  });

  it('reads the platform keys', () => {
    const k = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }>) =>
      historyKey({ key, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });
    expect(k('z', { ctrlKey: true })).toBe('undo');
    expect(k('z', { metaKey: true })).toBe('undo');
    expect(k('Z', { ctrlKey: true, shiftKey: true })).toBe('redo');
    expect(k('y', { ctrlKey: true })).toBe('redo');
    expect(k('z', {})).toBeNull();
    expect(k('z', { ctrlKey: true, altKey: true })).toBeNull();
  });
});

describe('the largest document the limits allow', () => {
  it('is refused past the text budget, and at the limits still fits one 64 KiB client frame', () => {
    const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    // Two full freehand strokes (every coordinate a 64-bit float), and pins sharing the
    // whole text budget in three-byte characters.
    const strokes = [0, 1].map((k) => ({
      ...pen(uuid(k), MARKUP_MAX_PEN_POINTS),
      id: uuid(k),
      authorId: uuid(999),
      geometry: { kind: 'pen' as const, points: Array.from({ length: MARKUP_MAX_PEN_POINTS }, () => ({ x: Math.random(), y: Math.random() })) },
    }));
    const pins = Array.from({ length: MARKUP_MAX_SHAPES - strokes.length }, (_, i): Shape => ({
      id: uuid(100 + i),
      color: 'yellow',
      width: 'thick',
      geometry: { kind: 'pin', at: { x: Math.random(), y: Math.random() }, note: '' },
      authorId: uuid(998),
    }));
    let budget = MARKUP_MAX_TEXT;
    for (const p of pins) {
      const n = Math.min(MARKUP_MAX_NOTE, budget);
      budget -= n;
      if (p.geometry.kind === 'pin') p.geometry.note = '境'.repeat(n);
    }
    const shapes = [...strokes, ...pins];
    expect(penPointCount(shapes)).toBe(MARKUP_MAX_POINTS);
    expect(textCount(shapes)).toBe(MARKUP_MAX_TEXT);
    expect(markupLimitProblem(shapes)).toBeNull();
    const frame = encodeClientMsg({ id: 4_000_000_000, request: { type: 'save_markup', imageId: uuid(7), baseVersion: 1_000_000, shapes } });
    expect(frame.byteLength).toBeLessThan(MAX_FRAME_BYTES);
    // One character more is refused before it is sent.
    const last = pins[pins.length - 1];
    if (last.geometry.kind === 'pin') last.geometry.note += 'x';
    expect(markupLimitProblem(shapes)).toMatch(/at most 4,000 characters/);
  });
});
