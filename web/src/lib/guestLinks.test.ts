import { describe, expect, it } from 'vitest';
import type { GuestLink } from '../protocol/types';
import {
  createGuestLinkRequest,
  expiresIn,
  guestLinkDownloadsLabel,
  guestLinkPhotosLabel,
  guestLinkState,
  guestLinkStatusLabel,
  sharedByLabel,
  sortGuestLinks,
} from './guestLinks';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 24, 12);

const link = (over: Partial<GuestLink>): GuestLink => ({
  id: 'l1',
  projectId: 'p1',
  photos: 'all',
  downloads: false,
  expiresAt: NOW + 7 * DAY,
  createdAt: NOW,
  createdBy: { id: 'h1', email: 'jamie@example.com', name: 'Jamie Carter', role: 'homeowner', createdAt: 0, company: null },
  revokedAt: null,
  lastOpenedAt: null,
  reportId: null,
  ...over,
});

describe('guestLinkState and its label', () => {
  it('an open link says how long it has left', () => {
    expect(guestLinkState(link({}), NOW)).toBe('active');
    expect(guestLinkStatusLabel(link({}), NOW)).toBe('Active · expires in 7 days');
    expect(guestLinkStatusLabel(link({ expiresAt: NOW + 6 * DAY - 2 * HOUR }), NOW)).toBe('Active · expires in 6 days');
    expect(guestLinkStatusLabel(link({ expiresAt: NOW + DAY }), NOW)).toBe('Active · expires in 1 day');
  });

  it('a link without expiry never expires', () => {
    expect(guestLinkStatusLabel(link({ expiresAt: null }), NOW + 1000 * DAY)).toBe('Active · never expires');
  });

  it('expires exactly at its time', () => {
    expect(guestLinkState(link({ expiresAt: NOW }), NOW)).toBe('expired');
    expect(guestLinkStatusLabel(link({ expiresAt: NOW - DAY }), NOW)).toBe('Expired');
    expect(guestLinkState(link({ expiresAt: NOW + 1 }), NOW)).toBe('active');
  });

  it('revoked wins over expired', () => {
    expect(guestLinkStatusLabel(link({ revokedAt: NOW - HOUR }), NOW)).toBe('Revoked');
    expect(guestLinkStatusLabel(link({ revokedAt: NOW - HOUR, expiresAt: NOW - DAY }), NOW)).toBe('Revoked');
  });
});

describe('expiresIn', () => {
  it('uses hours and minutes on the last day', () => {
    expect(expiresIn(NOW + 5 * HOUR, NOW)).toBe('in 5 hours');
    expect(expiresIn(NOW + HOUR, NOW)).toBe('in 1 hour');
    expect(expiresIn(NOW + 23.8 * HOUR, NOW)).toBe('in 1 day');
    expect(expiresIn(NOW + 12 * 60_000, NOW)).toBe('in 12 minutes');
    expect(expiresIn(NOW + 60_000, NOW)).toBe('in 1 minute');
    expect(expiresIn(NOW + 20_000, NOW)).toBe('in less than a minute');
  });

  it('rounds days, so a link just made for 30 days says 30', () => {
    expect(expiresIn(NOW + 30 * DAY - 5000, NOW)).toBe('in 30 days');
    expect(expiresIn(NOW + 36 * HOUR, NOW)).toBe('in 2 days');
  });
});

describe('guestLinkPhotosLabel', () => {
  it('says whose favorites a favorites link shows', () => {
    expect(guestLinkPhotosLabel(link({}), 'h1')).toBe('All photos');
    expect(guestLinkPhotosLabel(link({ photos: 'favourites' }), 'h1')).toBe('Your favorites');
    expect(guestLinkPhotosLabel(link({ photos: 'favourites' }), 'a1')).toBe("Jamie Carter's favorites");
    const summit = { id: 'b1', email: 'b@example.com', name: 'Summit Homes', role: 'builder' as const, createdAt: 0, company: 'Summit Homes' };
    expect(guestLinkPhotosLabel(link({ photos: 'favourites', createdBy: summit }), 'a1')).toBe("Summit Homes' favorites");
  });

  it('names downloads plainly', () => {
    expect(guestLinkDownloadsLabel(true)).toBe('Downloads allowed');
    expect(guestLinkDownloadsLabel(false)).toBe('No downloads');
  });
});

describe('createGuestLinkRequest', () => {
  it('sends the chosen days, and no field at all for Never', () => {
    expect(createGuestLinkRequest({ projectId: 'p1', photos: 'favourites', expiry: '30', downloads: true })).toEqual({
      projectId: 'p1',
      photos: 'favourites',
      downloads: true,
      expiresInDays: 30,
    });
    const never = createGuestLinkRequest({ projectId: 'p1', photos: 'all', expiry: 'never', downloads: false });
    expect(never).toEqual({ projectId: 'p1', photos: 'all', downloads: false });
    expect('expiresInDays' in never).toBe(false);
  });
});

describe('sortGuestLinks', () => {
  it('lists active links first, newest first within each group', () => {
    const links = [
      link({ id: 'old-active', createdAt: NOW - 3 * DAY }),
      link({ id: 'revoked', createdAt: NOW - HOUR, revokedAt: NOW }),
      link({ id: 'new-active', createdAt: NOW - HOUR }),
      link({ id: 'expired', createdAt: NOW - 2 * DAY, expiresAt: NOW - DAY }),
    ];
    expect(sortGuestLinks(links, NOW).map((l) => l.id)).toEqual(['new-active', 'old-active', 'revoked', 'expired']);
  });
});

describe('sharedByLabel', () => {
  it('names who shared, or says it was shared', () => {
    expect(sharedByLabel({ sharedBy: 'Jamie Carter' })).toBe('Shared by Jamie Carter · view only');
    expect(sharedByLabel({ sharedBy: null })).toBe('Shared with you · view only');
  });
});
