import { describe, expect, it } from 'vitest';
import { hasMatch, highlightParts, matchRanges, queryWords, snippet } from './searchText';

const marked = (text: string, query: string) =>
  highlightParts(text, queryWords(query))
    .map((p) => (p.match ? `[${p.text}]` : p.text))
    .join('');

describe('query words', () => {
  it('splits on anything but letters and digits, folds case and accents, longest first', () => {
    expect(queryWords('  Kitch  élec, kitch ')).toEqual(['kitch', 'elec']);
    expect(queryWords('A  kitchen')).toEqual(['kitchen', 'a']);
    expect(queryWords('   ')).toEqual([]);
  });
});

describe('highlighting', () => {
  it('marks the start of words a query word begins', () => {
    expect(marked('Kitchen cabinets', 'kitch')).toBe('[Kitch]en cabinets');
    expect(marked('Back of the kitchen', 'KITCH')).toBe('Back of the [kitch]en');
  });

  it('does not mark a match inside a word', () => {
    expect(marked('Stockitchen', 'kitch')).toBe('Stockitchen');
    expect(hasMatch('Stockitchen', queryWords('kitch'))).toBe(false);
  });

  it('ignores accents on either side and keeps the original text', () => {
    expect(marked('Café counter', 'cafe')).toBe('[Café] counter');
    expect(marked('Cafe counter', 'café')).toBe('[Cafe] counter');
    expect(marked('Crème brûlée tiles', 'brul')).toBe('Crème [brûl]ée tiles');
  });

  it('marks every word of the query, wherever it is', () => {
    expect(marked('Electrical rough-in, kitchen', 'kitchen elec rough')).toBe('[Elec]trical [rough]-in, [kitchen]');
  });

  it('prefers the longest word where two start alike', () => {
    expect(marked('Kitchen', 'kit kitchen')).toBe('[Kitchen]');
  });

  it('marks words after punctuation and digits at a word start', () => {
    expect(marked('Panel #2b (garage)', '2b gar')).toBe('Panel #[2b] ([gar]age)');
  });

  it('leaves the text whole when nothing matches or there is no query', () => {
    expect(highlightParts('Kitchen', [])).toEqual([{ text: 'Kitchen', match: false }]);
    expect(highlightParts('', ['a'])).toEqual([{ text: '', match: false }]);
    expect(matchRanges('Roof', queryWords('wall'))).toEqual([]);
  });

  it('keeps offsets right around characters that fold to more or fewer', () => {
    // "İ" lower-cases to two code units; the match after it must still line up.
    expect(marked('İzmir tile', 'tile')).toBe('İzmir [tile]');
    expect(marked('Ölfeld', 'olf')).toBe('[Ölf]eld');
  });
});

describe('snippets', () => {
  const long =
    'We walked the whole house with the inspector this morning. Most of it passed without notes. ' +
    'The one thing left is the junction box above the kitchen island, which needs a cover plate before drywall goes up next week. ' +
    'Everything else is on schedule.';

  it('keeps a short text whole, on one line', () => {
    expect(snippet('Looks good\nthanks', queryWords('good'))).toBe('Looks good thanks');
  });

  it('cuts a long text around the first match, at word boundaries', () => {
    const s = snippet(long, queryWords('junction'), 80);
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s).toContain('junction box');
    expect(s.length).toBeLessThanOrEqual(82);
    expect(s.slice(1, 2)).not.toBe(' ');
  });

  it('starts at the beginning when the match is early or missing', () => {
    expect(snippet(long, queryWords('walked'), 60).startsWith('We walked')).toBe(true);
    expect(snippet(long, queryWords('nothing-here'), 60).startsWith('We walked')).toBe(true);
  });

  it('reaches a match at the very end', () => {
    expect(snippet(long, queryWords('schedule'), 60)).toMatch(/schedule\.$/);
  });
});
