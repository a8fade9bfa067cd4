import { describe, expect, it } from 'vitest';
import type { Geometry, Shape } from '../protocol/types';
import {
  addPenPoint,
  clampPoint,
  hitTest,
  isDegenerate,
  moveShape,
  penPointCount,
  pinNumbers,
  resizeShape,
  shapeHandles,
} from './markupGeometry';

const size = { width: 1000, height: 500 };
const shape = (id: string, geometry: Geometry, over: Partial<Shape> = {}): Shape => ({ id, color: 'red', width: 'medium', geometry, authorId: 'b1', ...over });
const line = (id: string, x1: number, y1: number, x2: number, y2: number) => shape(id, { kind: 'line', from: { x: x1, y: y1 }, to: { x: x2, y: y2 } });

describe('clamping and the pen', () => {
  it('keeps points on the photo', () => {
    expect(clampPoint({ x: -0.2, y: 1.4 })).toEqual({ x: 0, y: 1 });
    expect(clampPoint({ x: Number.NaN, y: 0.5 })).toEqual({ x: 0, y: 0.5 });
  });

  it('drops points too close to the last kept one and stops at the limit', () => {
    let pts = addPenPoint([], { x: 0.1, y: 0.1 });
    pts = addPenPoint(pts, { x: 0.101, y: 0.1 });
    expect(pts).toHaveLength(1);
    pts = addPenPoint(pts, { x: 0.11, y: 0.1 });
    expect(pts).toHaveLength(2);
    let many = [{ x: 0, y: 0 }];
    for (let i = 1; i < 800; i++) many = addPenPoint(many, { x: i * 0.001, y: (i % 2) * 0.01 });
    expect(many).toHaveLength(500);
    expect(addPenPoint([{ x: 0, y: 0 }], { x: 0.5, y: 0.5 }, 1)).toHaveLength(1);
  });

  it('counts pen points across strokes', () => {
    const pen = shape('p', { kind: 'pen', points: [{ x: 0, y: 0 }, { x: 0.1, y: 0.1 }, { x: 0.2, y: 0.2 }] });
    expect(penPointCount([pen, line('l', 0, 0, 1, 1), pen])).toBe(6);
  });
});

describe('pins', () => {
  it('are numbered by their order among the pins', () => {
    const pin = (id: string) => shape(id, { kind: 'pin', at: { x: 0.5, y: 0.5 }, note: '' });
    const numbers = pinNumbers([pin('a'), line('l', 0, 0, 1, 1), pin('b'), pin('c')]);
    expect([...numbers.entries()]).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
  });
});

describe('hit testing', () => {
  it('finds the topmost shape near the pointer, within the tolerance', () => {
    const shapes = [line('under', 0.1, 0.5, 0.9, 0.5), line('over', 0.1, 0.5, 0.9, 0.5)];
    expect(hitTest(shapes, { x: 0.5, y: 0.51 }, size, 10)).toBe('over');
    expect(hitTest(shapes, { x: 0.5, y: 0.6 }, size, 10)).toBeNull();
  });

  it('prefers an outline over the inside of a box drawn around it', () => {
    const box = shape('box', { kind: 'rect', from: { x: 0.1, y: 0.1 }, to: { x: 0.9, y: 0.9 } });
    const inner = line('inner', 0.4, 0.5, 0.6, 0.5);
    expect(hitTest([inner, box], { x: 0.5, y: 0.5 }, size, 8)).toBe('inner');
    expect(hitTest([inner, box], { x: 0.5, y: 0.3 }, size, 8)).toBe('box');
    expect(hitTest([inner, box], { x: 0.1, y: 0.5 }, size, 8)).toBe('box');
  });

  it('hits ellipses on their outline, pins and labels by their area', () => {
    const ellipse = shape('e', { kind: 'ellipse', from: { x: 0.2, y: 0.2 }, to: { x: 0.4, y: 0.6 } });
    expect(hitTest([ellipse], { x: 0.4, y: 0.4 }, size, 5)).toBe('e');
    expect(hitTest([ellipse], { x: 0.45, y: 0.4 }, size, 5)).toBeNull();
    const pin = shape('pin', { kind: 'pin', at: { x: 0.7, y: 0.7 }, note: 'Why?' });
    expect(hitTest([pin], { x: 0.705, y: 0.7 }, size, 2)).toBe('pin');
    const label = shape('t', { kind: 'text', at: { x: 0.1, y: 0.1 }, text: 'Outlet here' });
    expect(hitTest([label], { x: 0.15, y: 0.13 }, size, 2)).toBe('t');
  });

  it('skips shapes the user may not change', () => {
    const shapes = [line('theirs', 0.1, 0.5, 0.9, 0.5)];
    expect(hitTest(shapes, { x: 0.5, y: 0.5 }, size, 10, () => false)).toBeNull();
  });
});

describe('moving and resizing', () => {
  it('moves every point, stopping at the edge without squashing the shape', () => {
    const moved = moveShape(line('l', 0.1, 0.2, 0.3, 0.4), 0.1, 0.1);
    expect(moved.geometry).toEqual({ kind: 'line', from: { x: expect.closeTo(0.2), y: expect.closeTo(0.3) }, to: { x: expect.closeTo(0.4), y: expect.closeTo(0.5) } });
    const atEdge = moveShape(line('l', 0.1, 0.2, 0.3, 0.4), 0.9, -0.5);
    expect(atEdge.geometry).toEqual({ kind: 'line', from: { x: expect.closeTo(0.8), y: 0 }, to: { x: 1, y: expect.closeTo(0.2) } });
  });

  it('drags a line by its ends and a box by its corners', () => {
    expect(shapeHandles(line('l', 0.1, 0.2, 0.3, 0.4)).map((h) => h.id)).toEqual(['from', 'to']);
    const l = resizeShape(line('l', 0.1, 0.2, 0.3, 0.4), 'to', { x: 1.5, y: 0.9 });
    expect(l.geometry).toEqual({ kind: 'line', from: { x: 0.1, y: 0.2 }, to: { x: 1, y: 0.9 } });
    const box = shape('b', { kind: 'rect', from: { x: 0.2, y: 0.2 }, to: { x: 0.6, y: 0.6 } });
    const r = resizeShape(box, 'nw', { x: 0.1, y: 0.05 });
    expect(r.geometry).toEqual({ kind: 'rect', from: { x: 0.6, y: 0.6 }, to: { x: 0.1, y: 0.05 } });
    expect(shapeHandles(shape('t', { kind: 'text', at: { x: 0, y: 0 }, text: 'a' }))).toEqual([]);
  });

  it('scales a pen stroke within its box from the opposite corner', () => {
    const pen = shape('p', { kind: 'pen', points: [{ x: 0.2, y: 0.2 }, { x: 0.4, y: 0.3 }, { x: 0.6, y: 0.6 }] });
    const scaled = resizeShape(pen, 'se', { x: 1, y: 1 });
    if (scaled.geometry.kind !== 'pen') throw new Error('pen');
    expect(scaled.geometry.points[0]).toEqual({ x: 0.2, y: 0.2 });
    expect(scaled.geometry.points[1].x).toBeCloseTo(0.6);
    expect(scaled.geometry.points[2]).toEqual({ x: 1, y: 1 });
  });

  it('a click with a drawing tool is no shape', () => {
    expect(isDegenerate({ kind: 'arrow', from: { x: 0.5, y: 0.5 }, to: { x: 0.501, y: 0.5 } })).toBe(true);
    expect(isDegenerate({ kind: 'rect', from: { x: 0.1, y: 0.1 }, to: { x: 0.5, y: 0.101 } })).toBe(true);
    expect(isDegenerate({ kind: 'line', from: { x: 0.1, y: 0.1 }, to: { x: 0.5, y: 0.1 } })).toBe(false);
    expect(isDegenerate({ kind: 'pen', points: [{ x: 0, y: 0 }] })).toBe(true);
    expect(isDegenerate({ kind: 'pin', at: { x: 0, y: 0 }, note: '' })).toBe(false);
  });
});
