import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type Event, type GuestHello, type Hello, type Markup, type ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { createGuestStore } from '../store/guest';
import { markup } from '../testing/events';
import { photo, profile, project } from '../testing/fixtures';
import { applyGuestEvent } from './guestView';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';

const changed = (m: Markup): Event => ({ type: 'markup_changed', markup: m, actor: null });

function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const feed = (msg: ServerMsg) => applyServerMsg(msg, store.getState(), tracker);
  const hello: Hello = { protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: profile({ id: 'h1' }), snapshot: { projects: [], projectCount: 0, nextProjects: null, users: [], online: [], companies: [] } };
  feed({ type: 'hello', ...hello });
  store.getState().photosOpened('p1');
  store.getState().photosListed('p1', [photo({ id: 'i1' }), photo({ id: 'i2' })], []);
  const event = (e: Event) => feed({ type: 'event', event: e });
  const tile = (id = 'i1') => store.getState().photos.p1.byId[id];
  return { store, event, feed, tile };
}

describe('markup_changed in the signed-in app', () => {
  it('updates the tile badge count and the open lightbox copy', () => {
    const { store, event, tile } = setup();
    store.getState().markupOpened('i1');
    event(changed(markup(1, 2)));
    expect(tile().markupCount).toBe(2);
    expect(store.getState().markups.i1.doc?.version).toBe(1);
  });

  it('ignores a version not newer than the one held (count and document)', () => {
    const { store, event, tile } = setup();
    store.getState().markupOpened('i1');
    event(changed(markup(3, 3)));
    event(changed(markup(2, 1)));
    event(changed(markup(3, 5)));
    expect(tile().markupCount).toBe(3);
    expect(store.getState().markups.i1.doc?.shapes).toHaveLength(3);
    event(changed(markup(4, 0)));
    expect(tile().markupCount).toBe(0);
    expect(store.getState().markups.i1.doc?.version).toBe(4);
  });

  it('keeps no document for photos no screen shows, but still counts their shapes', () => {
    const { store, event, tile } = setup();
    event(changed(markup(1, 4, 'i2')));
    expect(store.getState().markups.i2).toBeUndefined();
    expect(tile('i2').markupCount).toBe(4);
  });

  it('a list read before the change cannot bring back the old count', () => {
    const { store, event, tile } = setup();
    event(changed(markup(2, 3)));
    store.getState().photosListed('p1', [photo({ id: 'i1', markupCount: 1 })], []);
    expect(tile().markupCount).toBe(3);
    store.getState().photoUpserted(photo({ id: 'i1', version: 5, caption: 'New', markupCount: 0 }));
    expect(tile().caption).toBe('New');
    expect(tile().markupCount).toBe(3);
  });

  it('a reply after a conflict replaces a newer-looking copy only when forced', () => {
    const { store } = setup();
    store.getState().markupOpened('i1');
    store.getState().markupReceived(markup(5, 1));
    store.getState().markupReceived(markup(4, 2));
    expect(store.getState().markups.i1.doc?.version).toBe(5);
    store.getState().markupReceived(markup(4, 2), true);
    expect(store.getState().markups.i1.doc?.version).toBe(4);
  });

  it('the last screen to close drops the copy; a new connection forgets the copies', () => {
    const { store, feed } = setup();
    const s = () => store.getState();
    s().markupOpened('i1');
    s().markupOpened('i1');
    s().markupReceived(markup(1, 1));
    s().markupClosed('i1');
    expect(s().markups.i1.doc?.version).toBe(1);
    const hello: Hello = { protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: profile({ id: 'h1' }), snapshot: { projects: [], projectCount: 0, nextProjects: null, users: [], online: [], companies: [] } };
    feed({ type: 'hello', ...hello });
    expect(s().markups.i1).toEqual({ watchers: 1, doc: null });
    s().markupClosed('i1');
    expect(s().markups.i1).toBeUndefined();
  });
});

describe('markup_changed on the guest page', () => {
  function guest() {
    const store = createGuestStore();
    store.getState().guestReset('t');
    const hello: GuestHello = {
      protocolVersion: PROTOCOL_VERSION,
      serverTime: 0,
      access: { projectId: 'p1', photos: 'all', downloads: false, expiresAt: null, sharedBy: 'Summit Homes' },
      project: project({}),
      milestones: null,
      photos: [photo({ id: 'i1' })],
    } as unknown as GuestHello;
    store.getState().guestHello(hello);
    return store;
  }

  it('holds the newest version and counts the tile; photos outside the link are ignored', () => {
    const store = guest();
    applyGuestEvent(changed(markup(2, 2)), store.getState());
    applyGuestEvent(changed(markup(1, 5)), store.getState());
    expect(store.getState().markups.i1.version).toBe(2);
    expect(store.getState().photos.i1.markupCount).toBe(2);
    applyGuestEvent(changed(markup(1, 1, 'secret')), store.getState());
    expect(store.getState().markups.secret).toBeUndefined();
  });
});
