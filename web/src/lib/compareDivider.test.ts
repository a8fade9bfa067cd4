import { describe, expect, it } from 'vitest';
import {
  beforeClipPath,
  clampDivider,
  dividerFromKey,
  dividerFromPointer,
  dividerValueNow,
  dividerValueText,
  DIVIDER_START,
  fitContain,
} from './compareDivider';

describe('clampDivider', () => {
  it('keeps positions inside 0–100', () => {
    expect(clampDivider(42.5)).toBe(42.5);
    expect(clampDivider(-3)).toBe(0);
    expect(clampDivider(140)).toBe(100);
  });

  it('starts in the middle for anything unreadable', () => {
    expect(clampDivider(Number.NaN)).toBe(DIVIDER_START);
    expect(clampDivider(Number.POSITIVE_INFINITY)).toBe(DIVIDER_START);
  });
});

describe('dividerFromPointer', () => {
  const rect = { left: 100, width: 400 };

  it('is the pointer’s share of the width from the left edge', () => {
    expect(dividerFromPointer(100, rect)).toBe(0);
    expect(dividerFromPointer(300, rect)).toBe(50);
    expect(dividerFromPointer(400, rect)).toBe(75);
    expect(dividerFromPointer(500, rect)).toBe(100);
  });

  it('stops at the edges when the pointer is dragged past them', () => {
    expect(dividerFromPointer(20, rect)).toBe(0);
    expect(dividerFromPointer(900, rect)).toBe(100);
  });

  it('keeps the middle while the area has no width', () => {
    expect(dividerFromPointer(250, { left: 0, width: 0 })).toBe(DIVIDER_START);
  });
});

describe('dividerFromKey', () => {
  it('steps one percent with the arrows, right and up moving right', () => {
    expect(dividerFromKey(50, 'ArrowRight')).toBe(51);
    expect(dividerFromKey(50, 'ArrowUp')).toBe(51);
    expect(dividerFromKey(50, 'ArrowLeft')).toBe(49);
    expect(dividerFromKey(50, 'ArrowDown')).toBe(49);
  });

  it('steps ten with Shift or Page Up/Down', () => {
    expect(dividerFromKey(50, 'ArrowRight', true)).toBe(60);
    expect(dividerFromKey(50, 'ArrowLeft', true)).toBe(40);
    expect(dividerFromKey(50, 'PageUp')).toBe(60);
    expect(dividerFromKey(50, 'PageDown')).toBe(40);
  });

  it('goes to the edges with Home and End and never past them', () => {
    expect(dividerFromKey(37, 'Home')).toBe(0);
    expect(dividerFromKey(37, 'End')).toBe(100);
    expect(dividerFromKey(99.5, 'ArrowRight')).toBe(100);
    expect(dividerFromKey(4, 'PageDown')).toBe(0);
  });

  it('leaves other keys alone', () => {
    expect(dividerFromKey(50, 'Tab')).toBeNull();
    expect(dividerFromKey(50, 'Escape')).toBeNull();
    expect(dividerFromKey(50, 'a')).toBeNull();
  });
});

describe('what the view renders', () => {
  it('clips the before photo at the divider', () => {
    expect(beforeClipPath(50)).toBe('inset(0 50% 0 0)');
    expect(beforeClipPath(100)).toBe('inset(0 0% 0 0)');
    expect(beforeClipPath(0)).toBe('inset(0 100% 0 0)');
    expect(beforeClipPath(-20)).toBe('inset(0 100% 0 0)');
  });

  it('announces whole percents and says which side is which', () => {
    expect(dividerValueNow(33.4)).toBe(33);
    expect(dividerValueNow(33.6)).toBe(34);
    expect(dividerValueText(30)).toBe('30% before, 70% after');
    expect(dividerValueText(100)).toBe('All before');
    expect(dividerValueText(0)).toBe('All after');
  });
});

describe('fitContain', () => {
  it('fits a landscape photo to the width of a tall screen', () => {
    expect(fitContain(390, 600, 4 / 3)).toEqual({ width: 390, height: 293 });
  });

  it('fits it to the height of a wide screen', () => {
    expect(fitContain(1280, 600, 4 / 3)).toEqual({ width: 800, height: 600 });
  });

  it('fills the box when the photo’s shape is unknown, and nothing before layout', () => {
    expect(fitContain(300, 200, 0)).toEqual({ width: 300, height: 200 });
    expect(fitContain(0, 200, 1.5)).toEqual({ width: 0, height: 0 });
  });
});
