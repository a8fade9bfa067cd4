import type { Role, TimelineEntry } from '../protocol/types';
import { ROLE_LABELS } from './people';
import { statusLabel } from './projectStatus';

/**
 * Who did it, as the timeline names them: "Alex (Builder)". The name is the one the
 * server stored with the entry (never an email: guests read this too); an entry
 * without one (a system change) has no actor.
 */
export function actorLabel(entry: Pick<TimelineEntry, 'actorName' | 'actorRole'>): string | null {
  const name = entry.actorName?.trim();
  if (!name) return null;
  return entry.actorRole ? `${name} (${roleLabel(entry.actorRole)})` : name;
}

function roleLabel(role: Role): string {
  return ROLE_LABELS[role] ?? role;
}

/**
 * The entry as one sentence, in parts so the view can set the actor apart:
 * `actor` (may be null) followed by `text`. For a photo batch the sentence has no
 * actor ("12 new photos from a site visit"); the view shows who under it.
 */
export interface TimelineSentence {
  actor: string | null;
  text: string;
}

export function timelineSentence(entry: TimelineEntry): TimelineSentence {
  const actor = actorLabel(entry);
  const d = entry.detail;
  switch (d.type) {
    case 'project_created':
      return actor ? { actor, text: 'created the project' } : { actor: null, text: 'The project was created' };
    case 'status_changed':
      return withActor(actor, `changed the status from ${statusLabel(d.from)} to ${statusLabel(d.to)}`, 'The status changed');
    case 'progress_changed':
      return withActor(actor, `changed the progress from ${d.from}% to ${d.to}%`, 'The progress changed');
    case 'milestone_completed':
      return actor ? { actor, text: `completed ${d.name}` } : { actor: null, text: `${d.name} was completed` };
    case 'milestone_reopened':
      return actor ? { actor, text: `reopened ${d.name}` } : { actor: null, text: `${d.name} was reopened` };
    case 'photos_added':
      return { actor: null, text: `${d.count} new ${d.count === 1 ? 'photo' : 'photos'} from a site visit` };
    case 'comment':
      return actor ? { actor, text: 'commented on a photo' } : { actor: null, text: 'A comment on a photo' };
    case 'marked_up':
      return actor ? { actor, text: 'marked up a photo' } : { actor: null, text: 'A photo was marked up' };
    default:
      // A kind of entry newer than this build: say something true rather than nothing.
      return { actor, text: actor ? 'updated the project' : 'The project was updated' };
  }
}

function withActor(actor: string | null, text: string, passive: string): TimelineSentence {
  // "The status changed from Planning to In Progress" when nobody is named.
  return actor ? { actor, text } : { actor: null, text: `${passive}${text.slice(text.indexOf(' from'))}` };
}

/** The whole sentence as plain text (titles, screen readers, tests). */
export function timelineText(entry: TimelineEntry): string {
  const { actor, text } = timelineSentence(entry);
  return actor ? `${actor} ${text}` : text;
}

export interface TimelineDay {
  /** Local calendar day, `YYYY-MM-DD`. */
  day: string;
  /** "Today", "Yesterday", "Monday, Nov 23", or "Nov 23, 2025" in another year. */
  label: string;
  entries: TimelineEntry[];
}

function dayKey(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const weekdayDate = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'short', day: 'numeric' });
const fullDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export function dayLabel(ms: number, now: number = Date.now()): string {
  const key = dayKey(ms);
  if (key === dayKey(now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(yesterday.getDate() - 1);
  if (key === dayKey(yesterday.getTime())) return 'Yesterday';
  return new Date(ms).getFullYear() === new Date(now).getFullYear() ? weekdayDate.format(ms) : fullDate.format(ms);
}

/** Entries (newest first) under their local day's heading, days newest first. */
export function groupByDay(entries: TimelineEntry[], now: number = Date.now()): TimelineDay[] {
  const days: TimelineDay[] = [];
  for (const entry of entries) {
    const key = dayKey(entry.createdAt);
    const last = days[days.length - 1];
    if (last && last.day === key) last.entries.push(entry);
    else days.push({ day: key, label: dayLabel(entry.createdAt, now), entries: [entry] });
  }
  return days;
}

/**
 * Newest first, as the feed shows them: by time, and for one millisecond by id
 * descending (the server's cursor order, so a merge never reorders a page).
 */
export function compareEntries(a: TimelineEntry, b: TimelineEntry): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * `held` and `incoming` as one list, newest first, each id once: pages that overlap
 * (an entry added live between two requests) or repeat never show an entry twice.
 * The incoming copy of an id wins (entries do not change, but a fresher copy is as good).
 */
export function mergeEntries(held: TimelineEntry[], incoming: TimelineEntry[], removed: Record<string, true> = {}): TimelineEntry[] {
  const byId = new Map<string, TimelineEntry>();
  for (const entry of held) byId.set(entry.id, entry);
  for (const entry of incoming) if (!removed[entry.id]) byId.set(entry.id, entry);
  return [...byId.values()].sort(compareEntries);
}
