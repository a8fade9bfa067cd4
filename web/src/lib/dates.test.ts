import { describe, expect, it } from 'vitest';
import { relativeTime } from './dates';

describe('relativeTime', () => {
  const now = new Date(2026, 10, 23, 12, 0, 0).getTime();
  it('counts up from just now to days', () => {
    expect(relativeTime(now - 10_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(now - 2 * 86_400_000, now)).toBe('2 d ago');
  });
  it('shows the date for older times, with the year when it differs', () => {
    expect(relativeTime(new Date(2026, 2, 4).getTime(), now)).toBe('Mar 4');
    expect(relativeTime(new Date(2025, 2, 4).getTime(), now)).toBe('Mar 4, 2025');
  });
  it('treats a clock a little ahead as just now', () => {
    expect(relativeTime(now + 5_000, now)).toBe('just now');
  });
});
