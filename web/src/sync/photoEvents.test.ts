import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type Event, type Hello, type ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { photo, profile } from '../testing/fixtures';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';

const jamie = profile({ id: 'h1', firstName: 'Jamie', lastName: 'Carter' });

function hello(): ServerMsg {
  const h: Hello = { protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: jamie, snapshot: { projects: [], projectCount: 0, nextProjects: null, users: [], online: [], companies: [] } };
  return { type: 'hello', ...h };
}

/** A store with project p1 open (the page subscribed), fed frames the way the socket does. */
function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const feed = (msg: ServerMsg) => applyServerMsg(msg, store.getState(), tracker);
  const event = (e: Event) => feed({ type: 'event', event: e });
  feed(hello());
  store.getState().photosOpened('p1');
  const held = () => store.getState().photos.p1;
  const ids = () => Object.keys(held()?.byId ?? {}).sort();
  return { store, feed, event, held, ids };
}

describe('photos: lists merge with events', () => {
  it('a photo_added that overtakes the subscribe reply survives the (older) list', () => {
    const { store, event, held, ids } = setup();
    event({ type: 'photo_added', photo: photo({ id: 'new', createdAt: 30 }) });
    expect(held().loaded).toBe(false);
    // The list was read before the new photo was stored.
    store.getState().photosListed('p1', [photo({ id: 'a', createdAt: 10 }), photo({ id: 'b', createdAt: 20 })], ['a']);
    expect(ids()).toEqual(['a', 'b', 'new']);
    expect(held().loaded).toBe(true);
    expect(held().favourites).toEqual({ a: true });
  });

  it('a late list cannot bring back a photo deleted meanwhile (tombstone)', () => {
    const { store, event, ids } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a' }), photo({ id: 'b' })], []);
    event({ type: 'photo_deleted', id: 'a', projectId: 'p1' });
    expect(ids()).toEqual(['b']);
    store.getState().photosListed('p1', [photo({ id: 'a' }), photo({ id: 'b' })], ['a']);
    expect(ids()).toEqual(['b']);
    expect(store.getState().photos.p1.favourites).toEqual({});
    // Nor can an update that was already on its way.
    event({ type: 'photo_updated', photo: photo({ id: 'a', version: 5, caption: 'late' }) });
    expect(ids()).toEqual(['b']);
  });

  it('deleting before the list arrives keeps the photo out of that list', () => {
    const { store, event, ids } = setup();
    event({ type: 'photo_deleted', id: 'a', projectId: 'p1' });
    store.getState().photosListed('p1', [photo({ id: 'a' }), photo({ id: 'b' })], []);
    expect(ids()).toEqual(['b']);
  });

  it('the higher version wins whichever arrives first; equal versions take the newcomer', () => {
    const { store, event, held } = setup();
    event({ type: 'photo_updated', photo: photo({ id: 'a', version: 3, caption: 'Framing inspection passed' }) });
    store.getState().photosListed('p1', [photo({ id: 'a', version: 2, caption: 'Framing' })], []);
    expect(held().byId.a.caption).toBe('Framing inspection passed');
    event({ type: 'photo_updated', photo: photo({ id: 'a', version: 1, caption: 'stale' }) });
    expect(held().byId.a.caption).toBe('Framing inspection passed');
    event({ type: 'photo_updated', photo: photo({ id: 'a', version: 3, category: 'structural', caption: 'Framing inspection passed' }) });
    expect(held().byId.a.category).toBe('structural');
    store.getState().photosListed('p1', [photo({ id: 'a', version: 4, caption: 'Passed' })], []);
    expect(held().byId.a).toMatchObject({ caption: 'Passed', version: 4 });
  });

  it('an upload result and its photo_added event are one photo', () => {
    const { store, event, ids } = setup();
    store.getState().photosListed('p1', [], []);
    const uploaded = photo({ id: 'u1', createdAt: 50 });
    store.getState().photoUpserted(uploaded);
    event({ type: 'photo_added', photo: uploaded });
    expect(ids()).toEqual(['u1']);
  });

  it('ignores photos of projects that are not open, and lists for another project', () => {
    const { store, event, ids } = setup();
    event({ type: 'photo_added', photo: photo({ id: 'x', projectId: 'p2' }) });
    store.getState().photosListed('p2', [photo({ id: 'y', projectId: 'p2' })], []);
    expect(store.getState().photos.p2).toBeUndefined();
    store.getState().photosListed('p1', [photo({ id: 'z', projectId: 'p2' })], []);
    expect(ids()).toEqual([]);
  });

  it('closing the page drops the photos; reopening starts empty', () => {
    const { store, event } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a' })], ['a']);
    store.getState().photosClosed('p1');
    expect(store.getState().photos.p1).toBeUndefined();
    event({ type: 'photo_added', photo: photo({ id: 'b' }) });
    expect(store.getState().photos.p1).toBeUndefined();
    store.getState().photosOpened('p1');
    expect(store.getState().photos.p1).toMatchObject({ byId: {}, loaded: false });
  });
});

describe('photos: favourites', () => {
  it('favourite_changed sets and clears a favourite', () => {
    const { store, event, held } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a' }), photo({ id: 'b' })], []);
    event({ type: 'favourite_changed', projectId: 'p1', imageId: 'a', favourite: true });
    expect(held().favourites).toEqual({ a: true });
    event({ type: 'favourite_changed', projectId: 'p1', imageId: 'a', favourite: true });
    expect(held().favourites).toEqual({ a: true });
    event({ type: 'favourite_changed', projectId: 'p1', imageId: 'a', favourite: false });
    expect(held().favourites).toEqual({});
  });

  it('a list answered before a favourite change cannot undo it', () => {
    const { store, event, held } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a' }), photo({ id: 'b' })], ['b']);
    event({ type: 'favourite_changed', projectId: 'p1', imageId: 'a', favourite: true });
    event({ type: 'favourite_changed', projectId: 'p1', imageId: 'b', favourite: false });
    // A refresh whose list was read before both changes.
    store.getState().photosListed('p1', [photo({ id: 'a' }), photo({ id: 'b' })], ['b']);
    expect(held().favourites).toEqual({ a: true });
  });

  it('an optimistic toggle and its revert go through the same action', () => {
    const { store, held } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a' })], []);
    store.getState().favouriteChanged('p1', 'a', true);
    expect(held().favourites).toEqual({ a: true });
    store.getState().favouriteChanged('p1', 'a', false);
    expect(held().favourites).toEqual({});
  });

  it('a deleted photo is no longer a favourite', () => {
    const { store, event, held } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a' })], ['a']);
    event({ type: 'photo_deleted', id: 'a', projectId: 'p1' });
    expect(held().favourites).toEqual({});
  });
});

describe('photos: connection lifecycle', () => {
  it('a new Hello (reconnect) clears every photo, tombstone and favourite', () => {
    const { store, feed, event } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a' })], ['a']);
    event({ type: 'photo_deleted', id: 'b', projectId: 'p1' });
    const epoch = store.getState().liveEpoch;
    feed(hello());
    expect(store.getState().photos).toEqual({});
    // The page subscribes again (the epoch moved) and gets a fresh list, in which a
    // photo deleted and restored elsewhere is not held back by an old tombstone.
    expect(store.getState().liveEpoch).toBe(epoch + 1);
    store.getState().photosOpened('p1');
    store.getState().photosListed('p1', [photo({ id: 'b' })], []);
    expect(Object.keys(store.getState().photos.p1.byId)).toEqual(['b']);
  });

  it('signing out clears the photos', () => {
    const { store } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a' })], []);
    store.getState().signedOut('logout');
    expect(store.getState().photos).toEqual({});
  });
});

describe('tags and search', () => {
  it('photo events carry tags and locations; the newer copy wins', () => {
    const { store, event, held } = setup();
    store.getState().photosListed('p1', [photo({ id: 'a', tags: [] })], []);
    event({ type: 'photo_updated', photo: photo({ id: 'a', version: 3, tags: ['Kitchen', 'Electrical'], location: { lat: 1, lon: 2 } }) });
    expect(held().byId.a.tags).toEqual(['Kitchen', 'Electrical']);
    expect(held().byId.a.location).toEqual({ lat: 1, lon: 2 });
    event({ type: 'photo_updated', photo: photo({ id: 'a', version: 2, tags: ['Kitchen'] }) });
    expect(held().byId.a.tags).toEqual(['Kitchen', 'Electrical']);
  });

  it('search_changed counts a change for the open search', () => {
    const { store, event } = setup();
    expect(store.getState().searchChanges).toBe(0);
    event({ type: 'search_changed', projectId: 'p1' });
    event({ type: 'search_changed', projectId: 'p2' });
    expect(store.getState().searchChanges).toBe(2);
    expect(store.getState().searchChangedIn).toBe('p2');
  });
});
