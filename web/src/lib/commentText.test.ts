import { describe, expect, it } from 'vitest';
import { commentParts, insertMention, mentionMatches, mentionQuery } from './commentText';

const people = [
  { id: 'b', name: 'Summit Homes' },
  { id: 'h', name: 'Jamie Carter' },
  { id: 'a', name: 'Alex Morgan' },
  { id: 'a2', name: 'Alex' },
];

describe('commentParts', () => {
  it('keeps plain text as one part', () => {
    expect(commentParts('Is this crack a problem?', people)).toEqual([{ kind: 'text', text: 'Is this crack a problem?' }]);
  });

  it('makes links clickable without their trailing punctuation', () => {
    expect(commentParts('See https://example.com/a?b=1. Or www.sitecast.test!', [])).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: '. Or ' },
      { kind: 'link', text: 'www.sitecast.test', href: 'https://www.sitecast.test' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('does not make other schemes links', () => {
    expect(commentParts('javascript:alert(1)', []).every((p) => p.kind === 'text')).toBe(true);
  });

  it('finds mentions of the project people, longest name first', () => {
    expect(commentParts('@Alex Morgan and @summit homes, see this', people)).toEqual([
      { kind: 'mention', text: '@Alex Morgan', userId: 'a' },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', text: '@summit homes', userId: 'b' },
      { kind: 'text', text: ', see this' },
    ]);
  });

  it('leaves unknown names and e-mail addresses alone', () => {
    expect(commentParts('@Nobody mail me at jamie@Summit Homes', people)).toEqual([
      { kind: 'text', text: '@Nobody mail me at jamie@Summit Homes' },
    ]);
    expect(commentParts('@Alexander', people)).toEqual([{ kind: 'text', text: '@Alexander' }]);
  });
});

describe('mentions while typing', () => {
  it('finds the query at the caret', () => {
    expect(mentionQuery('Hi @Sum', 7)).toEqual({ start: 3, query: 'Sum' });
    expect(mentionQuery('mail@x', 6)).toBeNull();
    expect(mentionQuery('no mention', 10)).toBeNull();
    expect(mentionQuery('@a\nb', 4)).toBeNull();
  });

  it('matches names by their start or a word start', () => {
    expect(mentionMatches(people, 'car').map((p) => p.id)).toEqual(['h']);
    expect(mentionMatches(people, 'al').map((p) => p.id)).toEqual(['a', 'a2']);
    expect(mentionMatches(people, '')).toHaveLength(4);
  });

  it('inserts the chosen name', () => {
    expect(insertMention('Hi @Sum there', 3, 7, 'Summit Homes')).toEqual({ value: 'Hi @Summit Homes  there', caret: 17 });
  });
});
