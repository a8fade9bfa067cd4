import { describe, expect, it } from 'vitest';
import { guestShouldReconnect } from './GuestSocket';
import { SESSION_GONE_CLOSE_CODE } from './reconnect';

describe('guestShouldReconnect', () => {
  it('comes back after a dropped connection or a server restart', () => {
    expect(guestShouldReconnect(1006, 'live')).toBe(true);
    expect(guestShouldReconnect(1012, 'live')).toBe(true);
    expect(guestShouldReconnect(1006, 'connecting')).toBe(true);
  });

  it('not once the link is revoked or expired, nor for another protocol version', () => {
    expect(guestShouldReconnect(SESSION_GONE_CLOSE_CODE, 'live')).toBe(false);
    expect(guestShouldReconnect(1006, 'inactive')).toBe(false);
    expect(guestShouldReconnect(1006, 'outdated')).toBe(false);
  });
});
