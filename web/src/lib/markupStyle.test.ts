import { describe, expect, it } from 'vitest';
import {
  arrowParts,
  COLOR_HEX,
  fontSize,
  haloColor,
  markupScale,
  pinBorder,
  pinDigitColor,
  pinRadius,
  strokeWidth,
  textBaseline,
  textLines,
} from './markupStyle';

// The server's flattened download uses these same numbers: a change here is a
// change to the server's renderer too.
describe('markup style numbers', () => {
  it('sizes scale with the shorter side of the photo', () => {
    const s = markupScale(1600, 1200);
    expect(s).toBe(1200);
    expect(strokeWidth('thin', s)).toBeCloseTo(4.8);
    expect(strokeWidth('medium', s)).toBeCloseTo(9.6);
    expect(strokeWidth('thick', s)).toBeCloseTo(16.8);
    expect(fontSize('thin', s)).toBeCloseTo(36);
    expect(fontSize('medium', s)).toBeCloseTo(54);
    expect(fontSize('thick', s)).toBeCloseTo(78);
    expect(pinRadius('thin', s)).toBeCloseTo(19.2);
    expect(pinRadius('medium', s)).toBeCloseTo(26.4);
    expect(pinRadius('thick', s)).toBeCloseTo(36);
    expect(markupScale(720, 960)).toBe(720);
  });

  it('has the palette and halo colours', () => {
    expect(COLOR_HEX).toEqual({
      red: '#E53935',
      orange: '#FB8C00',
      yellow: '#FDD835',
      green: '#43A047',
      blue: '#1E88E5',
      white: '#FFFFFF',
      black: '#212121',
    });
    expect(haloColor('red')).toBe('rgba(0,0,0,0.5)');
    expect(haloColor('white')).toBe('rgba(0,0,0,0.5)');
    expect(haloColor('black')).toBe('rgba(255,255,255,0.6)');
  });

  it('pins: white border (dark on white pins), dark digits on yellow and white', () => {
    expect(pinBorder('red')).toBe('#FFFFFF');
    expect(pinBorder('white')).toBe('#212121');
    expect(pinDigitColor('blue')).toBe('#FFFFFF');
    expect(pinDigitColor('yellow')).toBe('#212121');
    expect(pinDigitColor('white')).toBe('#212121');
  });

  it('an arrow head has its tip at `to`, 4.5 w long and 4.5 w wide at the base', () => {
    const { shaft, head } = arrowParts({ x: 0, y: 0 }, { x: 100, y: 0 }, 4);
    expect(head[0]).toEqual({ x: 100, y: 0 });
    expect(head[1].x).toBeCloseTo(82);
    expect(head[2].x).toBeCloseTo(82);
    expect(Math.abs(head[1].y - head[2].y)).toBeCloseTo(18);
    expect(shaft?.[1].x).toBeCloseTo(82);
    expect(shaft?.[0]).toEqual({ x: 0, y: 0 });
  });

  it('an arrow no longer than its head has no shaft', () => {
    expect(arrowParts({ x: 0, y: 0 }, { x: 10, y: 0 }, 4).shaft).toBeNull();
    // Pointing down: the base is above the tip.
    const { head } = arrowParts({ x: 50, y: 0 }, { x: 50, y: 100 }, 2);
    expect(head[1].y).toBeCloseTo(91);
    expect(head[2].y).toBeCloseTo(91);
  });

  it('text lines sit on baselines 1.2 f apart, the first 0.93 f below the point', () => {
    expect(textBaseline(100, 50, 0)).toBeCloseTo(146.5);
    expect(textBaseline(100, 50, 2)).toBeCloseTo(266.5);
    expect(textLines('Move\noutlet')).toEqual(['Move', 'outlet']);
  });
});
