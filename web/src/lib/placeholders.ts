/** A run of legal copy: plain text, or an unfilled "[placeholder]" still to be written. */
export type TextPart = { kind: 'text'; text: string } | { kind: 'placeholder'; text: string };

const PLACEHOLDER = /\[[^\][]+\]/g;

/**
 * Splits copy into text and "[bracketed]" placeholders. The legal pages hold placeholder
 * dates and contacts (SPEC §1) and show them marked, so nobody mistakes them for real values.
 */
export function splitPlaceholders(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'placeholder', text: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** Lower-case, hyphenated id for a heading ("3. Your Choices" → "3-your-choices"). */
export function slugify(heading: string): string {
  return heading
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
