/**
 * How the search's results show what matched (docs/FEATURES.md, "Tags and search"). The
 * server matches each query word against the start of a word, case- and
 * accent-insensitively ("kitch" finds "Kitchen", "cafe" finds "Café"); these pure rules
 * mark the same word starts in the text it sends back, and cut a long comment down to the
 * part that matched.
 */

import { MAX_LENGTH } from './limits';

/** One piece of a text: marked when it is the start of a word that a query word matched. */
export interface TextPart {
  text: string;
  match: boolean;
}

/** Lower case without accents, one character in for one character out where possible. */
function fold(ch: string): string {
  return ch.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The query's words, folded, longest first (so "kitchen kit" marks all of "Kitchen"). */
export function queryWords(query: string): string[] {
  const words = query
    .slice(0, MAX_LENGTH.searchQuery)
    .split(/[^\p{L}\p{N}]+/u)
    .map((w) => [...w].map(fold).join(''))
    .filter((w) => w.length > 0);
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/**
 * The text's characters folded one by one, with where each folded character came from
 * (a folded character may be longer or shorter than its source, e.g. "ß" or "ﬁ").
 */
function foldedWithSource(text: string): { folded: string; source: number[] } {
  let folded = '';
  const source: number[] = [];
  let i = 0;
  for (const ch of text) {
    const f = fold(ch);
    for (let k = 0; k < f.length; k++) source.push(i);
    folded += f;
    i += ch.length;
  }
  source.push(i);
  return { folded, source };
}

/** [start, end) ranges of `text` (UTF-16 offsets) where a query word matches a word's start. */
export function matchRanges(text: string, words: readonly string[]): [number, number][] {
  if (words.length === 0 || text.length === 0) return [];
  const { folded, source } = foldedWithSource(text);
  const ranges: [number, number][] = [];
  let at = 0;
  while (at < folded.length) {
    const startsWord = WORD_CHAR.test(folded[at]) && (at === 0 || !WORD_CHAR.test(folded[at - 1]));
    const word = startsWord ? words.find((w) => folded.startsWith(w, at)) : undefined;
    if (word) {
      ranges.push([source[at], source[at + word.length]]);
      at += word.length;
    } else {
      at += 1;
    }
  }
  return ranges;
}

/** The text cut into marked and unmarked parts, in order; joined they are the text. */
export function highlightParts(text: string, words: readonly string[]): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const [start, end] of matchRanges(text, words)) {
    if (start > last) parts.push({ text: text.slice(last, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    last = end;
  }
  if (last < text.length || parts.length === 0) parts.push({ text: text.slice(last), match: false });
  return parts;
}

/** Whether any query word matches a word's start in the text. */
export function hasMatch(text: string, words: readonly string[]): boolean {
  return matchRanges(text, words).length > 0;
}

/**
 * About `length` characters of a (long) text around its first match, cut at word
 * boundaries and marked with "…" where cut; the start of the text when nothing matched.
 * Line breaks become spaces: a snippet is one line.
 */
export function snippet(text: string, words: readonly string[], length = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const first = matchRanges(flat, words)[0]?.[0] ?? 0;
  // A little context before the match, the rest after it.
  let start = Math.max(0, first - Math.floor(length / 3));
  let end = Math.min(flat.length, start + length);
  start = Math.max(0, end - length);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space !== -1 && space < first) start = space + 1;
  }
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > first && space > start) end = space;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
