import { describe, expect, it } from 'vitest';
import { slugify, splitPlaceholders } from './placeholders';

describe('splitPlaceholders', () => {
  it('returns plain text unchanged', () => {
    expect(splitPlaceholders('No blanks here.')).toEqual([{ kind: 'text', text: 'No blanks here.' }]);
  });
  it('marks bracketed placeholders between text', () => {
    expect(splitPlaceholders('Last updated: [date]. Write to [contact email] or [address]')).toEqual([
      { kind: 'text', text: 'Last updated: ' },
      { kind: 'placeholder', text: '[date]' },
      { kind: 'text', text: '. Write to ' },
      { kind: 'placeholder', text: '[contact email]' },
      { kind: 'text', text: ' or ' },
      { kind: 'placeholder', text: '[address]' },
    ]);
  });
  it('handles a placeholder alone and leaves unbalanced brackets as text', () => {
    expect(splitPlaceholders('[date]')).toEqual([{ kind: 'placeholder', text: '[date]' }]);
    expect(splitPlaceholders('a [b c')).toEqual([{ kind: 'text', text: 'a [b c' }]);
    expect(splitPlaceholders('')).toEqual([]);
  });
});

describe('slugify', () => {
  it('makes anchor ids from headings', () => {
    expect(slugify('3. Your Choices & Rights')).toBe('3-your-choices-rights');
    expect(slugify('  Cookies we use  ')).toBe('cookies-we-use');
    expect(slugify('Café policy')).toBe('cafe-policy');
  });
});
