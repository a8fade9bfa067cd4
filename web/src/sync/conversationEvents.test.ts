import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type Event, type Hello, type ServerMsg } from '../protocol/types';
import { createAppStore, newestNotifications, threadComments } from '../store';
import { comment, notification, photo, profile } from '../testing/fixtures';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';

function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const feed = (msg: ServerMsg) => applyServerMsg(msg, store.getState(), tracker);
  const event = (e: Event) => feed({ type: 'event', event: e });
  const h: Hello = { protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: profile({ id: 'b1', role: 'builder' }), snapshot: { projects: [], projectCount: 0, nextProjects: null, users: [], online: [], companies: [] } };
  feed({ type: 'hello', ...h });
  store.getState().photosOpened('p1');
  store.getState().photosListed('p1', [photo({ id: 'i1' }), photo({ id: 'i2' })], []);
  return { store, event };
}

describe('comments', () => {
  it('an added comment counts on its tile and joins an open thread, merged with a late list', () => {
    const { store, event } = setup();
    store.getState().threadOpened('i1');
    event({ type: 'comment_added', comment: comment({ id: 'c2', createdAt: 200, updatedAt: 200 }), commentCount: 2 });
    expect(store.getState().photos.p1.byId.i1.commentCount).toBe(2);
    expect(store.getState().photos.p1.byId.i2.commentCount).toBe(0);
    // The list was read before c2 was written.
    store.getState().threadListed('i1', [comment({ id: 'c1' })], []);
    expect(threadComments(store.getState().threads.i1).map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('edits replace older text only; deletions stay deleted against a late list', () => {
    const { store, event } = setup();
    store.getState().threadOpened('i1');
    store.getState().threadListed('i1', [comment({ id: 'c1' })], []);
    event({ type: 'comment_updated', comment: comment({ id: 'c1', body: 'Edited', updatedAt: 300 }) });
    store.getState().commentUpserted(comment({ id: 'c1', body: 'Older copy', updatedAt: 100 }));
    expect(store.getState().threads.i1.byId.c1.body).toBe('Edited');
    event({ type: 'comment_deleted', id: 'c1', imageId: 'i1', projectId: 'p1', commentCount: 0 });
    store.getState().threadListed('i1', [comment({ id: 'c1' })], []);
    expect(threadComments(store.getState().threads.i1)).toEqual([]);
    expect(store.getState().photos.p1.byId.i1.commentCount).toBe(0);
  });

  it('events for threads not on screen only move the count', () => {
    const { store, event } = setup();
    event({ type: 'comment_added', comment: comment({ id: 'c9', imageId: 'i2' }), commentCount: 1 });
    expect(store.getState().threads.i2).toBeUndefined();
    expect(store.getState().photos.p1.byId.i2.commentCount).toBe(1);
  });
});

describe('notifications', () => {
  it('a new one counts at once; reading on another tab syncs here', () => {
    const { store, event } = setup();
    store.getState().notificationsListed([notification({ id: 'n1' })], 1, false, true);
    event({ type: 'notification_added', notification: notification({ id: 'n2', createdAt: 200 }), unread: 2 });
    expect(store.getState().unreadNotifications).toBe(2);
    expect(newestNotifications(store.getState().notifications).map((n) => n.id)).toEqual(['n2', 'n1']);
    event({ type: 'notifications_read', ids: ['n2'], all: false, unread: 1 });
    expect(store.getState().notifications.n2.readAt).not.toBeNull();
    expect(store.getState().notifications.n1.readAt).toBeNull();
    event({ type: 'notifications_read', ids: [], all: true, unread: 0 });
    expect(Object.values(store.getState().notifications).every((n) => n.readAt !== null)).toBe(true);
    expect(store.getState().unreadNotifications).toBe(0);
  });

  it('older pages add to what is held; the newest page replaces it', () => {
    const { store } = setup();
    store.getState().notificationsListed([notification({ id: 'n3', createdAt: 300 })], 3, true, true);
    store.getState().notificationsListed([notification({ id: 'n1', createdAt: 100 })], 3, false, false);
    expect(Object.keys(store.getState().notifications).sort()).toEqual(['n1', 'n3']);
    expect(store.getState().notificationsHaveMore).toBe(false);
    store.getState().notificationsListed([notification({ id: 'n4', createdAt: 400 })], 1, true, true);
    expect(Object.keys(store.getState().notifications)).toEqual(['n4']);
  });

  it('signing out forgets them', () => {
    const { store } = setup();
    store.getState().notificationsListed([notification({})], 1, false, true);
    store.getState().signedOut('logout');
    expect(store.getState().notifications).toEqual({});
    expect(store.getState().unreadNotifications).toBe(0);
  });
});
