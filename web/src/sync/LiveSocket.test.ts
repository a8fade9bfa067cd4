import { describe, expect, it } from 'vitest';
import { SESSION_GONE_CLOSE_CODE, shouldReconnect } from './LiveSocket';

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
