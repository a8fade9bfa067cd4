/**
 * Photo tags (docs/FEATURES.md, "Tags and search"), as the server reads them: trimmed,
 * inner spaces collapsed, 1–40 characters, no commas (the upload metadata joins a batch's
 * tags with them), compared without regard to case (the spelling already in use wins), at
 * most `TAGS_PER_PHOTO` on a photo. The client applies the same rules so a chip shows
 * what will be stored and the combobox says why a tag cannot be added.
 */

import type { TagKind, TagUse } from '../protocol/types';
import { MAX_LENGTH, TAGS_PER_PHOTO } from './limits';

/** What the server stores for a typed tag: trimmed, runs of spaces made one. */
export function cleanTag(raw: string): string {
  return raw.trim().replace(/\s+/g, ' ');
}

/** Tags are one when they differ only in case. */
export function tagKey(tag: string): string {
  return cleanTag(tag).toLocaleLowerCase();
}

export function sameTag(a: string, b: string): boolean {
  return tagKey(a) === tagKey(b);
}

/** Why a typed tag cannot be used, or null when it can. */
export function tagProblem(raw: string): string | null {
  const tag = cleanTag(raw);
  if (tag.length === 0) return 'Type a tag first.';
  if (tag.includes(',')) return 'Tags cannot contain commas.';
  if ([...tag].length > MAX_LENGTH.tag) return `Tags can be at most ${MAX_LENGTH.tag} characters.`;
  return null;
}

/**
 * The spelling to store: an existing tag's (the project's tags, used ones first) when
 * it differs only in case, else the cleaned text.
 */
export function canonicalTag(raw: string, known: readonly { name: string }[]): string {
  const tag = cleanTag(raw);
  return known.find((k) => sameTag(k.name, tag))?.name ?? tag;
}

/** `tags` with `tag` added at the end, unless it (in any case) is there already. */
export function withTag(tags: readonly string[], tag: string): string[] {
  return tags.some((t) => sameTag(t, tag)) ? [...tags] : [...tags, tag];
}

export function withoutTag(tags: readonly string[], tag: string): string[] {
  return tags.filter((t) => !sameTag(t, tag));
}

/** Whether a photo carrying `tags` has room for one more. */
export function hasRoomForTag(tags: readonly string[]): boolean {
  return tags.length < TAGS_PER_PHOTO;
}

/**
 * What the "Add tag" combobox offers for the typed text: the project's tags (used
 * ones first, most photos first, then the suggestions, as `list_tags` orders them)
 * whose name or one of its words starts with the text, not already chosen; at most
 * `limit`. With nothing typed, the first `limit` of them.
 */
export function tagOptions(all: readonly TagUse[], typed: string, chosen: readonly string[], limit = 8): TagUse[] {
  const q = tagKey(typed);
  const taken = new Set(chosen.map(tagKey));
  const out: TagUse[] = [];
  for (const t of all) {
    if (taken.has(tagKey(t.name))) continue;
    const name = t.name.toLocaleLowerCase();
    if (q && !name.startsWith(q) && !name.split(/\s+/).some((w) => w.startsWith(q))) continue;
    out.push(t);
    if (out.length >= limit) break;
  }
  return out;
}

/** The kind of a tag the project knows of ('free' for one typed fresh). */
export function tagKind(name: string, all: readonly TagUse[]): TagKind {
  return all.find((t) => sameTag(t.name, name))?.kind ?? 'free';
}

/** The batch's tags as the tus upload metadata carries them: names joined with ",". */
export function tagsMetadata(tags: readonly string[]): string | undefined {
  const clean = tags.map(cleanTag).filter((t) => t.length > 0 && tagProblem(t) === null);
  return clean.length > 0 ? clean.join(',') : undefined;
}
