import { describe, expect, it } from 'vitest';
import { longDateLabel, tileDateLabel } from './photoDates';

describe('tile date label', () => {
  const now = new Date(2026, 10, 21);
  it('omits the year for the current year', () => {
    expect(tileDateLabel(new Date(2026, 10, 19, 9).getTime(), now)).toBe('Nov 19');
    expect(tileDateLabel(new Date(2026, 0, 1, 0, 5).getTime(), now)).toBe('Jan 1');
  });
  it('shows the year for other years', () => {
    expect(tileDateLabel(new Date(2025, 11, 31, 23).getTime(), now)).toBe('Dec 31, 2025');
    expect(tileDateLabel(new Date(2027, 1, 3).getTime(), now)).toBe('Feb 3, 2027');
  });
});

describe('lightbox date label', () => {
  it('spells the month out, with the year', () => {
    expect(longDateLabel(new Date(2026, 10, 19).getTime())).toBe('November 19, 2026');
  });
});
