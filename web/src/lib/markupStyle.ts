import type { MarkupColor, Point, StrokeWidth } from '../protocol/types';

/**
 * How markup looks (docs/FEATURES.md, "Markup on photos"). The server flattens markup
 * onto downloads with these same numbers, so a shape on screen and in a downloaded JPEG
 * coincide: change one side only together with the other. Every size is in the photo's
 * own pixels (the overlay's viewBox is the photo's width × height) and scales with S =
 * min(W, H).
 */

export const MARKUP_COLORS: readonly MarkupColor[] = ['red', 'orange', 'yellow', 'green', 'blue', 'white', 'black'];
export const STROKE_WIDTHS: readonly StrokeWidth[] = ['thin', 'medium', 'thick'];

export const COLOR_HEX: Record<MarkupColor, string> = {
  red: '#E53935',
  orange: '#FB8C00',
  yellow: '#FDD835',
  green: '#43A047',
  blue: '#1E88E5',
  white: '#FFFFFF',
  black: '#212121',
};

export const COLOR_LABELS: Record<MarkupColor, string> = {
  red: 'Red',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
  blue: 'Blue',
  white: 'White',
  black: 'Black',
};

export const WIDTH_LABELS: Record<StrokeWidth, string> = { thin: 'Thin', medium: 'Medium', thick: 'Thick' };

/** The font the server embeds (web/public/fonts/DejaVuSans-Bold.ttf, declared in index.css). */
export const MARKUP_FONT = 'DejaVu Sans';
export const MARKUP_FONT_WEIGHT = 700;

/** S: the scale every size is a fraction of, so a shape looks the same on any photo shape. */
export const markupScale = (width: number, height: number) => Math.min(width, height);

const STROKE_FRACTION: Record<StrokeWidth, number> = { thin: 0.004, medium: 0.008, thick: 0.014 };
const TEXT_FRACTION: Record<StrokeWidth, number> = { thin: 0.03, medium: 0.045, thick: 0.065 };
const PIN_FRACTION: Record<StrokeWidth, number> = { thin: 0.016, medium: 0.022, thick: 0.03 };

/** w: the stroke of lines, arrows, boxes, ellipses and pen strokes. */
export const strokeWidth = (width: StrokeWidth, s: number) => STROKE_FRACTION[width] * s;
/** f: a text label's font size. */
export const fontSize = (width: StrokeWidth, s: number) => TEXT_FRACTION[width] * s;
/** r: a pin's radius. */
export const pinRadius = (width: StrokeWidth, s: number) => PIN_FRACTION[width] * s;

/** Every shape sits on a halo so it reads on sky and on concrete alike: dark, or light under black. */
export const haloColor = (color: MarkupColor) => (color === 'black' ? 'rgba(255,255,255,0.6)' : 'rgba(0,0,0,0.5)');
/** A stroked shape's halo is this many times its own width. */
export const HALO_STROKE = 1.8;
/** The arrow head's halo: its triangle stroked this many times w. */
export const HEAD_HALO_STROKE = 0.8;
/** Text's halo: the glyphs stroked this many times f. */
export const TEXT_HALO_STROKE = 0.16;

/** Arrow head: length along the arrow and half its base, in w. */
export const HEAD_LENGTH = 4.5;
export const HEAD_HALF_BASE = 2.25;

export interface ArrowParts {
  /** The shaft, from `from` to the head's base; null when the arrow is no longer than its head. */
  shaft: [Point, Point] | null;
  /** Tip, then the base's two corners. */
  head: [Point, Point, Point];
}

/** An arrow in pixels: its head's tip at `to`, the shaft ending at the head's base. */
export function arrowParts(from: Point, to: Point, w: number): ArrowParts {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  const h = HEAD_LENGTH * w;
  // A zero-length arrow still points somewhere: to the right.
  const ux = length > 0 ? dx / length : 1;
  const uy = length > 0 ? dy / length : 0;
  const base = { x: to.x - ux * h, y: to.y - uy * h };
  const half = HEAD_HALF_BASE * w;
  return {
    shaft: length > h ? [from, base] : null,
    head: [to, { x: base.x - uy * half, y: base.y + ux * half }, { x: base.x + uy * half, y: base.y - ux * half }],
  };
}

/** Text labels: one line per "\n", each line's baseline this far below the point. */
export const textBaseline = (atY: number, f: number, line: number) => atY + f * (0.93 + 1.2 * line);
export const textLines = (text: string) => text.split('\n');

/** A pin's border: white, or dark around a white pin. */
export const pinBorder = (color: MarkupColor) => (color === 'white' ? '#212121' : '#FFFFFF');
/** A pin's number: white, or dark on the light pins (yellow, white). */
export const pinDigitColor = (color: MarkupColor) => (color === 'yellow' || color === 'white' ? '#212121' : '#FFFFFF');
export const PIN_BORDER = 0.18;
export const PIN_DIGIT_SIZE = 1.1;
export const PIN_DIGIT_BASELINE = 0.4;
