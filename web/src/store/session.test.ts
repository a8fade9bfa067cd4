import { describe, expect, it } from 'vitest';
import { profile } from '../testing/fixtures';
import { createAppStore } from './index';

describe('why a session ended', () => {
  it('a session ended by the server is revoked: the user is told it expired', () => {
    const store = createAppStore();
    store.getState().signedIn(profile({ id: 'u1' }));
    store.getState().signedOut('revoked');
    expect(store.getState()).toMatchObject({ sessionStatus: 'anonymous', signOutReason: 'revoked', user: null });
  });

  it('the server ending the session the user is logging out of stays a logout', () => {
    const store = createAppStore();
    store.getState().signedIn(profile({ id: 'u1' }));
    store.getState().loggingOut();
    expect(store.getState().sessionStatus).toBe('authenticated');
    // The socket's "session ended" arrives before the logout request returns.
    store.getState().signedOut('revoked');
    store.getState().signedOut('logout');
    expect(store.getState().signOutReason).toBe('logout');
    // Signing in again starts over.
    store.getState().signedIn(profile({ id: 'u1' }));
    store.getState().signedOut('revoked');
    expect(store.getState().signOutReason).toBe('revoked');
  });

  it('a removal from the company stays the reason when the socket then closes', () => {
    const store = createAppStore();
    store.getState().signedIn(profile({ id: 'u1', role: 'builder', companyId: 'c1', companyRole: 'crew' }));
    store.getState().signedOut('removed');
    // The socket closes with 4401 right after `session_ended`.
    store.getState().signedOut('revoked');
    expect(store.getState()).toMatchObject({ sessionStatus: 'anonymous', signOutReason: 'removed' });
    // Signed in again and signed out for another reason: that reason.
    store.getState().signedIn(profile({ id: 'u1' }));
    store.getState().signedOut('revoked');
    expect(store.getState().signOutReason).toBe('revoked');
  });

  it('signing out forgets the companies', () => {
    const store = createAppStore();
    store.getState().signedIn(profile({ id: 'u1', role: 'admin' }));
    store.getState().companiesReplaced([{ id: 'c1', name: 'Summit Homes', members: [], projectCount: 0, createdAt: 0, version: 1 }]);
    store.getState().signedOut('revoked');
    expect(store.getState()).toMatchObject({ companies: {}, companiesLoaded: false });
  });
});
