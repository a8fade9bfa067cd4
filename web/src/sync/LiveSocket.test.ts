import { afterEach, describe, expect, it, vi } from 'vitest';
import { RESTART_CLOSE_CODE, SESSION_GONE_CLOSE_CODE, reconnectDelay, shouldReconnect } from './LiveSocket';

describe('reconnecting', () => {
  it('reconnects after a dropped or refused connection', () => {
    expect(shouldReconnect({ code: 1006 }, 'open')).toBe(true);
    expect(shouldReconnect({ code: 1012 }, 'reconnecting')).toBe(true);
  });

  it('stops once the session is gone', () => {
    expect(shouldReconnect({ code: SESSION_GONE_CLOSE_CODE }, 'open')).toBe(false);
  });

  it('stops for good once the server speaks another protocol version', () => {
    expect(shouldReconnect({ code: 1006 }, 'outdated')).toBe(false);
    expect(shouldReconnect({ code: 1012 }, 'outdated')).toBe(false);
  });
});

describe('reconnect delay', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns at once, at a random moment in half a second, when the server asks (1012)', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(reconnectDelay(0, RESTART_CLOSE_CODE)).toBe(0);
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    expect(reconnectDelay(0, RESTART_CLOSE_CODE)).toBe(500);
  });

  it('backs off, doubling with jitter, after other closes and after a failed retry', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(reconnectDelay(0, 1006)).toBe(250);
    expect(reconnectDelay(1, RESTART_CLOSE_CODE)).toBe(500);
    expect(reconnectDelay(3, 1006)).toBe(2000);
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    expect(reconnectDelay(20, 1006)).toBe(29985);
  });
});
