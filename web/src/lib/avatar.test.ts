import { describe, expect, it } from 'vitest';
import { AVATAR_COLORS, avatarColor, avatarColorIndex, initials } from './avatar';

describe('initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Jane Doe')).toBe('JD');
    expect(initials('mary ann smith')).toBe('MA');
  });
  it('takes the first two letters of a single word', () => {
    expect(initials('homeowner')).toBe('HO');
    expect(initials('J')).toBe('J');
  });
  it('is ?? with no name', () => {
    expect(initials('')).toBe('??');
    expect(initials('   ')).toBe('??');
    expect(initials(null)).toBe('??');
    expect(initials(undefined)).toBe('??');
  });
});

describe('avatarColor', () => {
  it('picks by sum of char codes mod 8', () => {
    // "AB" = 65 + 66 = 131; 131 % 8 = 3
    expect(avatarColorIndex('AB')).toBe(3);
    expect(avatarColor('AB')).toBe(AVATAR_COLORS[3]);
    expect(avatarColorIndex('')).toBe(0);
    expect(avatarColorIndex(null)).toBe(0);
  });
  it('has 8 colour pairs and is stable', () => {
    expect(AVATAR_COLORS).toHaveLength(8);
    expect(avatarColor('Jane Doe')).toBe(avatarColor('Jane Doe'));
  });
});
