import type { Geometry, Point, Shape } from '../protocol/types';
import { MARKUP_MAX_PEN_POINTS } from './limits';
import { fontSize, markupScale, pinRadius, strokeWidth, textLines } from './markupStyle';

/**
 * The maths of markup shapes, without React: points are fractions (0..1) of the
 * photo's width and height, so a shape stays on the same spot of the photo at any
 * display size. Hit testing works in the photo's pixels (W × H), where circles are round.
 */

export interface PhotoSize {
  width: number;
  height: number;
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

/** Every point stays on the photo: the server refuses coordinates outside 0..1. */
export const clampPoint = (p: Point): Point => ({ x: clamp01(p.x), y: clamp01(p.y) });

/** Pen strokes keep a point only this far (in photo fractions) from the last kept one. */
export const PEN_MIN_STEP = 0.003;

/**
 * Adds a pointer position to a freehand stroke while it is drawn: points closer than
 * `PEN_MIN_STEP` to the last kept one are dropped (a slow hand makes hundreds), and
 * none is added past `max` (the per-stroke limit, less when the photo's total is near).
 * Answers the same array when nothing was added.
 */
export function addPenPoint(points: Point[], next: Point, max: number = MARKUP_MAX_PEN_POINTS): Point[] {
  if (points.length >= max) return points;
  const p = clampPoint(next);
  const last = points[points.length - 1];
  if (last && Math.hypot(p.x - last.x, p.y - last.y) < PEN_MIN_STEP) return points;
  return [...points, p];
}

/** The points a geometry is made of (for moving, bounds and the limits). */
export function geometryPoints(g: Geometry): Point[] {
  switch (g.kind) {
    case 'pen':
      return g.points;
    case 'text':
    case 'pin':
      return [g.at];
    default:
      return [g.from, g.to];
  }
}

/** Every pen point on the photo (the per-photo limit counts them). */
export const penPointCount = (shapes: readonly Shape[]) =>
  shapes.reduce((n, s) => n + (s.geometry.kind === 'pen' ? s.geometry.points.length : 0), 0);

/** Pins are numbered 1, 2, 3 … in drawing order; answers shape id → number. */
export function pinNumbers(shapes: readonly Shape[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const s of shapes) if (s.geometry.kind === 'pin') numbers.set(s.id, numbers.size + 1);
  return numbers;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Rough width of a DejaVu Sans Bold glyph, in font sizes (its average advance is about 0.63). */
const GLYPH_WIDTH = 0.64;

/** A shape's bounds in photo fractions, its stroke included (for selection outlines and hit tests). */
export function shapeBounds(shape: Shape, size: PhotoSize): Box {
  const s = markupScale(size.width, size.height);
  const g = shape.geometry;
  if (g.kind === 'text') {
    const f = fontSize(shape.width, s);
    const lines = textLines(g.text);
    const longest = Math.max(1, ...lines.map((l) => l.length));
    return {
      left: g.at.x,
      top: g.at.y,
      right: g.at.x + (longest * GLYPH_WIDTH * f) / size.width,
      bottom: g.at.y + (f * (0.93 + 1.2 * (lines.length - 1)) + 0.3 * f) / size.height,
    };
  }
  if (g.kind === 'pin') {
    const r = pinRadius(shape.width, s) * 1.09;
    return { left: g.at.x - r / size.width, top: g.at.y - r / size.height, right: g.at.x + r / size.width, bottom: g.at.y + r / size.height };
  }
  const points = geometryPoints(g);
  const pad = strokeWidth(shape.width, s) / 2;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return {
    left: Math.min(...xs) - pad / size.width,
    top: Math.min(...ys) - pad / size.height,
    right: Math.max(...xs) + pad / size.width,
    bottom: Math.max(...ys) + pad / size.height,
  };
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

const toPx = (p: Point, size: PhotoSize): Point => ({ x: p.x * size.width, y: p.y * size.height });

/**
 * How far (photo pixels) `p` (fractions) is from the shape's drawn outline: 0 on it.
 * `inside` counts the inside of boxes, ellipses, labels and pins as on the shape.
 */
export function distanceToShape(shape: Shape, p: Point, size: PhotoSize, inside: boolean): number {
  const s = markupScale(size.width, size.height);
  const g = shape.geometry;
  const q = toPx(p, size);
  const half = strokeWidth(shape.width, s) / 2;
  switch (g.kind) {
    case 'line':
    case 'arrow':
      return Math.max(0, distanceToSegment(q, toPx(g.from, size), toPx(g.to, size)) - half);
    case 'pen': {
      const pts = g.points.map((pt) => toPx(pt, size));
      if (pts.length === 1) return Math.max(0, Math.hypot(q.x - pts[0].x, q.y - pts[0].y) - half);
      let best = Infinity;
      for (let i = 1; i < pts.length; i++) best = Math.min(best, distanceToSegment(q, pts[i - 1], pts[i]));
      return Math.max(0, best - half);
    }
    case 'rect': {
      const a = toPx(g.from, size);
      const b = toPx(g.to, size);
      const [l, r, t, bt] = [Math.min(a.x, b.x), Math.max(a.x, b.x), Math.min(a.y, b.y), Math.max(a.y, b.y)];
      const within = q.x >= l && q.x <= r && q.y >= t && q.y <= bt;
      if (within && inside) return 0;
      const corners = [{ x: l, y: t }, { x: r, y: t }, { x: r, y: bt }, { x: l, y: bt }];
      let best = Infinity;
      for (let i = 0; i < 4; i++) best = Math.min(best, distanceToSegment(q, corners[i], corners[(i + 1) % 4]));
      return Math.max(0, best - half);
    }
    case 'ellipse': {
      const a = toPx(g.from, size);
      const b = toPx(g.to, size);
      const cx = (a.x + b.x) / 2;
      const cy = (a.y + b.y) / 2;
      const rx = Math.abs(b.x - a.x) / 2;
      const ry = Math.abs(b.y - a.y) / 2;
      if (rx < 1e-9 || ry < 1e-9) return Math.max(0, distanceToSegment(q, a, b) - half);
      const k = Math.hypot((q.x - cx) / rx, (q.y - cy) / ry);
      if (k <= 1 && inside) return 0;
      // Radial distance to the outline, exact on circles and close enough on ellipses.
      return Math.max(0, Math.abs(k - 1) * Math.min(rx, ry) - half);
    }
    case 'text':
    case 'pin': {
      const box = shapeBounds(shape, size);
      const [l, r, t, bt] = [box.left * size.width, box.right * size.width, box.top * size.height, box.bottom * size.height];
      const dx = Math.max(l - q.x, 0, q.x - r);
      const dy = Math.max(t - q.y, 0, q.y - bt);
      return Math.hypot(dx, dy);
    }
  }
}

/**
 * The shape under a pointer at `p` (fractions), topmost first: outlines within
 * `tolerance` photo pixels win, then the insides of closed shapes, so a box drawn
 * around something does not hide what is in it. `selectable` filters (a homeowner's
 * own pins). Answers the shape's id, or null.
 */
export function hitTest(shapes: readonly Shape[], p: Point, size: PhotoSize, tolerance: number, selectable: (s: Shape) => boolean = () => true): string | null {
  for (const inside of [false, true]) {
    for (let i = shapes.length - 1; i >= 0; i--) {
      const shape = shapes[i];
      if (!selectable(shape)) continue;
      if (distanceToShape(shape, p, size, inside) <= tolerance) return shape.id;
    }
  }
  return null;
}

function mapPoints(g: Geometry, f: (p: Point) => Point): Geometry {
  switch (g.kind) {
    case 'pen':
      return { ...g, points: g.points.map(f) };
    case 'text':
    case 'pin':
      return { ...g, at: f(g.at) };
    default:
      return { ...g, from: f(g.from), to: f(g.to) };
  }
}

/**
 * The shape moved by (dx, dy) fractions, the move shortened so that every point stays
 * on the photo (the shape keeps its form at the edge rather than being squashed).
 */
export function moveShape(shape: Shape, dx: number, dy: number): Shape {
  const pts = geometryPoints(shape.geometry);
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const mx = Math.min(Math.max(dx, -Math.min(...xs)), 1 - Math.max(...xs));
  const my = Math.min(Math.max(dy, -Math.min(...ys)), 1 - Math.max(...ys));
  return { ...shape, geometry: mapPoints(shape.geometry, (p) => clampPoint({ x: p.x + mx, y: p.y + my })) };
}

/** Where a selected shape can be grabbed to reshape it. */
export type HandleId = 'from' | 'to' | 'nw' | 'ne' | 'sw' | 'se';

export interface Handle {
  id: HandleId;
  at: Point;
}

/** Lines and arrows: their two ends; boxes, ellipses and pen strokes: their corners; labels and pins only move. */
export function shapeHandles(shape: Shape): Handle[] {
  const g = shape.geometry;
  if (g.kind === 'line' || g.kind === 'arrow') return [{ id: 'from', at: g.from }, { id: 'to', at: g.to }];
  if (g.kind === 'rect' || g.kind === 'ellipse' || g.kind === 'pen') {
    const pts = geometryPoints(g);
    const l = Math.min(...pts.map((p) => p.x));
    const r = Math.max(...pts.map((p) => p.x));
    const t = Math.min(...pts.map((p) => p.y));
    const b = Math.max(...pts.map((p) => p.y));
    return [
      { id: 'nw', at: { x: l, y: t } },
      { id: 'ne', at: { x: r, y: t } },
      { id: 'sw', at: { x: l, y: b } },
      { id: 'se', at: { x: r, y: b } },
    ];
  }
  return [];
}

/**
 * The shape with one handle dragged to `to` (fractions, clamped onto the photo). A
 * corner moves and the opposite corner stays; a pen stroke is scaled within its box.
 */
export function resizeShape(shape: Shape, handle: HandleId, to: Point): Shape {
  const p = clampPoint(to);
  const g = shape.geometry;
  if (g.kind === 'line' || g.kind === 'arrow') {
    if (handle === 'from') return { ...shape, geometry: { ...g, from: p } };
    if (handle === 'to') return { ...shape, geometry: { ...g, to: p } };
    return shape;
  }
  if (g.kind === 'rect' || g.kind === 'ellipse' || g.kind === 'pen') {
    const handles = shapeHandles(shape);
    const opposite: Record<string, HandleId> = { nw: 'se', se: 'nw', ne: 'sw', sw: 'ne' };
    const fixed = handles.find((h) => h.id === opposite[handle])?.at;
    if (!fixed) return shape;
    if (g.kind !== 'pen') return { ...shape, geometry: { ...g, from: fixed, to: p } };
    const moving = handles.find((h) => h.id === handle)?.at;
    if (!moving) return shape;
    // Scale about the fixed corner; a collapsed side (a straight stroke) keeps its extent.
    const sx = Math.abs(moving.x - fixed.x) < 1e-9 ? 1 : (p.x - fixed.x) / (moving.x - fixed.x);
    const sy = Math.abs(moving.y - fixed.y) < 1e-9 ? 1 : (p.y - fixed.y) / (moving.y - fixed.y);
    return { ...shape, geometry: { ...g, points: g.points.map((q) => clampPoint({ x: fixed.x + (q.x - fixed.x) * sx, y: fixed.y + (q.y - fixed.y) * sy })) } };
  }
  return shape;
}

/** A freshly drawn two-point shape smaller than this (fractions) was a click, not a drag. */
export const MIN_DRAG = 0.004;

/** Whether a two-point shape is too small to keep (a stray click with the line tool). */
export function isDegenerate(g: Geometry): boolean {
  if (g.kind === 'pen') return g.points.length < 2;
  if (g.kind === 'text' || g.kind === 'pin') return false;
  const dx = Math.abs(g.to.x - g.from.x);
  const dy = Math.abs(g.to.y - g.from.y);
  if (g.kind === 'rect' || g.kind === 'ellipse') return dx < MIN_DRAG || dy < MIN_DRAG;
  return Math.hypot(dx, dy) < MIN_DRAG;
}
