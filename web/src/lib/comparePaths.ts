import type { ProjectImage } from '../protocol/types';
import { photoDate } from './photoDates';

/**
 * Before/after links: `?a=` is the photo shown as "before", `?b=` as "after". The pair
 * is the whole state of the view, so the address can be copied and shared as is.
 */
export function comparePath(base: string, a: string, b: string): string {
  const query = new URLSearchParams({ a, b });
  return `${base}/compare?${query.toString()}`;
}

/** The signed-in compare view of a project. */
export const projectCompareBase = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;
/** The guest's compare view, under the guest link itself. */
export const guestCompareBase = (token: string) => `/guest/${encodeURIComponent(token)}`;

/**
 * Two picked photos as before and after: the one taken (or uploaded) first is "before",
 * whichever order they were tapped in. Equal dates keep the tapped order.
 */
export function beforeAfter<T extends Pick<ProjectImage, 'takenAt' | 'createdAt'>>(first: T, second: T): [T, T] {
  return photoDate(second).ms < photoDate(first).ms ? [second, first] : [first, second];
}

export type ComparePair =
  | { state: 'ready'; before: ProjectImage; after: ProjectImage }
  /** No pair in the address yet, or the same photo twice: the view asks for two. */
  | { state: 'choose' }
  /** A photo in the address is not (or no longer) among the project's photos. */
  | { state: 'missing' };

/** Reads `?a=&b=` against the photos this viewer may see. */
export function resolveComparePair(photos: readonly ProjectImage[], a: string | null, b: string | null): ComparePair {
  if (!a || !b || a === b) return { state: 'choose' };
  const before = photos.find((p) => p.id === a);
  const after = photos.find((p) => p.id === b);
  if (!before || !after) return { state: 'missing' };
  return { state: 'ready', before, after };
}
