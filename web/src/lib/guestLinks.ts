import type { CreateGuestLink, GuestAccess, GuestLink, GuestPhotos } from '../protocol/types';
import { displayName } from './names';
import { possessive } from './people';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The expiry choices the server accepts (`expiresInDays`: 1, 7 or 30; absent: never). */
export type GuestLinkExpiry = '1' | '7' | '30' | 'never';

export const EXPIRY_OPTIONS: { value: GuestLinkExpiry; label: string }[] = [
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: 'never', label: 'Never' },
];

export interface GuestLinkForm {
  projectId: string;
  photos: GuestPhotos;
  expiry: GuestLinkExpiry;
  downloads: boolean;
}

/** What the Share dialog starts with: a week, every photo, looking only. */
export const DEFAULT_LINK_FORM: Omit<GuestLinkForm, 'projectId'> = { photos: 'all', expiry: '7', downloads: false };

/** The create request: "Never" leaves `expiresInDays` out (an absent field, not undefined on the wire). */
export function createGuestLinkRequest(form: GuestLinkForm): CreateGuestLink {
  const base: CreateGuestLink = { projectId: form.projectId, photos: form.photos, downloads: form.downloads };
  return form.expiry === 'never' ? base : { ...base, expiresInDays: Number(form.expiry) };
}

export type GuestLinkState = 'active' | 'expired' | 'revoked';

/** Revoked wins over expired: the owner turned it off, whatever the clock says. */
export function guestLinkState(link: Pick<GuestLink, 'revokedAt' | 'expiresAt'>, now: number): GuestLinkState {
  if (link.revokedAt !== null) return 'revoked';
  if (link.expiresAt !== null && link.expiresAt <= now) return 'expired';
  return 'active';
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * How long until `expiresAt`, in the largest unit that reads naturally: "in 7 days"
 * (rounded, so a link made a moment ago for a week says 7, not 6), "in 5 hours",
 * "in 12 minutes", "in less than a minute".
 */
export function expiresIn(expiresAt: number, now: number): string {
  const left = expiresAt - now;
  if (left < MINUTE_MS) return 'in less than a minute';
  if (left < HOUR_MS) return `in ${plural(Math.round(left / MINUTE_MS), 'minute')}`;
  const hours = Math.round(left / HOUR_MS);
  if (left < DAY_MS && hours < 24) return `in ${plural(hours, 'hour')}`;
  return `in ${plural(Math.max(1, Math.round(left / DAY_MS)), 'day')}`;
}

/** The status line of a link in "Your links": "Active · expires in 6 days", "Active · never expires", "Expired", "Revoked". */
export function guestLinkStatusLabel(link: Pick<GuestLink, 'revokedAt' | 'expiresAt'>, now: number): string {
  const state = guestLinkState(link, now);
  if (state === 'revoked') return 'Revoked';
  if (state === 'expired') return 'Expired';
  return link.expiresAt === null ? 'Active · never expires' : `Active · expires ${expiresIn(link.expiresAt, now)}`;
}

/**
 * Which photos a link shows. "Favorites only" means the favorites of whoever made the
 * link, so the list says whose: "Your favorites", or the maker's name for an admin
 * looking at someone else's link.
 */
export function guestLinkPhotosLabel(link: Pick<GuestLink, 'photos' | 'createdBy'>, myId: string | null | undefined): string {
  if (link.photos === 'all') return 'All photos';
  if (!link.createdBy || link.createdBy.id === myId) return 'Your favorites';
  const name = displayName(link.createdBy);
  return name ? `${possessive(name)} favorites` : 'Favorites only';
}

export function guestLinkDownloadsLabel(downloads: boolean): string {
  return downloads ? 'Downloads allowed' : 'No downloads';
}

/** Active links first, then the rest; newest first within each. */
export function sortGuestLinks(links: readonly GuestLink[], now: number): GuestLink[] {
  const rank = (l: GuestLink) => (guestLinkState(l, now) === 'active' ? 0 : 1);
  return [...links].sort((a, b) => rank(a) - rank(b) || b.createdAt - a.createdAt || a.id.localeCompare(b.id));
}

/** The guest page's header line: "Shared by Jamie Carter · view only". */
export function sharedByLabel(access: Pick<GuestAccess, 'sharedBy'>): string {
  const who = access.sharedBy?.trim();
  return who ? `Shared by ${who} · view only` : 'Shared with you · view only';
}
