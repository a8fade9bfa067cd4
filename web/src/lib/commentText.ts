import { MAX_LENGTH } from './limits';

/**
 * A comment's plain text cut into what the thread shows: text, clickable links, and
 * @mentions of the project's people. Comments are stored as typed; nothing here is
 * HTML, so nothing a comment says can become markup.
 */
export type CommentPart =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'mention'; text: string; userId: string };

/** http(s) URLs and bare www. addresses; trailing punctuation stays text. */
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"]+/gi;
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** The longest comment the server takes (docs/LIMITS.md). */
export const COMMENT_MAX = MAX_LENGTH.comment;

function links(text: string): CommentPart[] {
  const parts: CommentPart[] = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    let url = match[0];
    const trailing = url.match(TRAILING)?.[0] ?? '';
    url = url.slice(0, url.length - trailing.length);
    const start = match.index ?? 0;
    if (start > at) parts.push({ kind: 'text', text: text.slice(at, start) });
    const href = url.toLowerCase().startsWith('www.') ? `https://${url}` : url;
    parts.push({ kind: 'link', text: url, href });
    at = start + url.length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}

/** A person who may be mentioned: their display name and id. */
export interface Mentionable {
  id: string;
  name: string;
}

/**
 * Splits `body` into parts. `@Name` is a mention when Name is one of `people`'s names
 * (longest first, so "@Alex Morgan" wins over "@Alex").
 */
export function commentParts(body: string, people: Mentionable[]): CommentPart[] {
  const names = [...people].filter((p) => p.name.trim()).sort((a, b) => b.name.length - a.name.length);
  const out: CommentPart[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push(...links(text));
    text = '';
  };
  let i = 0;
  while (i < body.length) {
    const before = i === 0 ? ' ' : body[i - 1];
    if (body[i] === '@' && /[\s([{]/.test(before)) {
      const rest = body.slice(i + 1);
      const who = names.find((p) => rest.toLowerCase().startsWith(p.name.toLowerCase()) && !/[\p{L}\p{N}]/u.test(rest[p.name.length] ?? ' '));
      if (who) {
        flush();
        out.push({ kind: 'mention', text: `@${rest.slice(0, who.name.length)}`, userId: who.id });
        i += 1 + who.name.length;
        continue;
      }
    }
    text += body[i];
    i += 1;
  }
  flush();
  return out;
}

/**
 * The mention being typed at the caret: the text after an `@` that starts a word,
 * up to the caret, or null when the caret is not in one.
 */
export function mentionQuery(value: string, caret: number): { start: number; query: string } | null {
  const upto = value.slice(0, caret);
  const at = upto.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/[\s([{]/.test(upto[at - 1])) return null;
  const query = upto.slice(at + 1);
  // Names have at most a few words; a line break ends the mention.
  if (query.includes('\n') || query.length > 40 || query.split(' ').length > 4) return null;
  return { start: at, query };
}

/** People whose name starts with (or has a word starting with) the query. */
export function mentionMatches(people: Mentionable[], query: string): Mentionable[] {
  const q = query.trim().toLowerCase();
  return people
    .filter((p) => {
      const name = p.name.toLowerCase();
      return q === '' || name.startsWith(q) || name.split(/\s+/).some((w) => w.startsWith(q));
    })
    .slice(0, 6);
}

/** The text with the mention at `start` (through the caret) replaced by `@Name `. */
export function insertMention(value: string, start: number, caret: number, name: string): { value: string; caret: number } {
  const inserted = `@${name} `;
  return { value: value.slice(0, start) + inserted + value.slice(caret), caret: start + inserted.length };
}
