/**
 * Newer version wins (DESIGN §2): every entity on the wire carries a `version` that
 * grows with each change, and events and replies may arrive in any order, so each
 * slice of the store keeps a copy only while nothing newer has been seen. Snapshots
 * (Hello) are the one exception: they replace the mirror whatever it holds.
 */
export interface Versioned {
  version: number;
}

/**
 * Whether `incoming` is at least as new as `current` (or nothing is held). An equal
 * version counts: a reply and the event of the same change carry the same copy.
 */
export function isNewer(current: Versioned | null | undefined, incoming: Versioned): boolean {
  return current == null || incoming.version >= current.version;
}

/**
 * The copy to hold once `incoming` arrives: the newer of the two, the incoming one on
 * a tie. `deletedAt` is the version at which the entity was deleted or left this
 * user's view since the last snapshot; a copy not newer than that was overtaken by the
 * deletion, and the result is `undefined` (nothing to hold) when nothing is held.
 */
export function newerWins<T extends Versioned>(current: T | null | undefined, incoming: T): T;
export function newerWins<T extends Versioned>(current: T | null | undefined, incoming: T, deletedAt: number | undefined): T | undefined;
export function newerWins<T extends Versioned>(current: T | null | undefined, incoming: T, deletedAt?: number): T | undefined {
  if (deletedAt !== undefined && incoming.version <= deletedAt) return current ?? undefined;
  return isNewer(current, incoming) ? incoming : (current ?? undefined);
}
