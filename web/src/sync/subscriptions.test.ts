import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { photo, profile, project } from '../testing/fixtures';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';
import { loadPhotoPages, PHOTO_PAGE_RETRY_MS } from './commands';
import { createSubscriptions } from './subscriptions';


function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const sent: ClientMsg[] = [];
  tracker.attach((msg) => sent.push(msg));
  const me = profile({ id: 'h1' });
  applyServerMsg(
    { type: 'hello', protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: me, snapshot: { projects: [project({})], projectCount: 1, nextProjects: null, users: [], online: [], companies: [] } },
    store.getState(),
    tracker,
  );
  const { openProject } = createSubscriptions(tracker, store.getState);
  const types = () => sent.map((m) => m.request.type);
  const answerSubscribe = (msg: ClientMsg) =>
    tracker.reply(msg.id, {
      type: 'subscribed',
      project: project({ progress: 60, version: 4 }),
      viewers: [{ id: 'a1', email: 'a@x', name: 'Alex', role: 'admin', createdAt: 0, company: null }],
      photos: [photo({ id: 'i1' })],
      favourites: ['i1'],
      milestones: { projectId: 'p1', milestones: [], version: 4 },
      nextPhotos: null,
      photoCount: 1,
    });
  return { store, tracker, sent, types, openProject, answerSubscribe };
}

describe('project subscriptions', () => {
  it('the subscribe reply fills the project, its viewers, photos and favourites', async () => {
    const { store, sent, openProject, answerSubscribe } = setup();
    const sub = openProject('p1');
    expect(sent[0].request).toEqual({ type: 'subscribe', id: 'p1' });
    answerSubscribe(sent[0]);
    await sub.ready;
    const s = store.getState();
    expect(s.projects.p1.progress).toBe(60);
    expect(s.viewers.p1.map((v) => v.id)).toEqual(['a1']);
    expect(Object.keys(s.photos.p1.byId)).toEqual(['i1']);
    expect(s.photos.p1.favourites).toEqual({ i1: true });
  });

  it('closing unsubscribes and drops the photos', async () => {
    const { store, sent, types, openProject, answerSubscribe } = setup();
    const sub = openProject('p1');
    answerSubscribe(sent[0]);
    await sub.ready;
    sub.close();
    sub.close();
    expect(types()).toEqual(['subscribe', 'unsubscribe']);
    expect(store.getState().photos.p1).toBeUndefined();
  });

  it('a page closed before its reply unsubscribes once the reply comes', async () => {
    const { sent, types, openProject, answerSubscribe } = setup();
    const sub = openProject('p1');
    sub.close();
    expect(types()).toEqual(['subscribe']);
    answerSubscribe(sent[0]);
    await sub.ready;
    expect(types()).toEqual(['subscribe', 'unsubscribe']);
  });

  it('a second page on the same project keeps the subscription when the first goes (StrictMode)', async () => {
    const { store, sent, types, openProject, answerSubscribe } = setup();
    const first = openProject('p1');
    first.close();
    const second = openProject('p1');
    answerSubscribe(sent[0]);
    answerSubscribe(sent[1]);
    await Promise.all([first.ready, second.ready]);
    expect(types()).toEqual(['subscribe', 'subscribe']);
    expect(store.getState().photos.p1.loaded).toBe(true);
    second.close();
    expect(types()).toEqual(['subscribe', 'subscribe', 'unsubscribe']);
  });

  it("rejects with the server's error", async () => {
    const { tracker, sent, openProject } = setup();
    const sub = openProject('nope');
    tracker.fail(sent[0].id, { code: 'not_found', message: 'Project not found' });
    await expect(sub.ready).rejects.toMatchObject({ code: 'not_found', fromServer: true });
  });
});

describe('a big project opens on its first page and reads the rest in the background', () => {
  afterEach(() => vi.useRealTimers());

  /** Lets the awaited replies run their continuations. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  function openBig() {
    const t = setup();
    const sub = t.openProject('p1');
    t.tracker.reply(t.sent[0].id, {
      type: 'subscribed',
      project: project({ version: 4 }),
      viewers: [],
      photos: [photo({ id: 'n1' }), photo({ id: 'n2' })],
      favourites: [],
      milestones: { projectId: 'p1', milestones: [], version: 4 },
      nextPhotos: 'c1',
      photoCount: 5,
    });
    const last = () => t.sent[t.sent.length - 1];
    return { ...t, sub, last };
  }

  it('follows the cursors to the oldest photo, merging each page and its favourites', async () => {
    const { store, tracker, sub, last } = openBig();
    await sub.ready;
    expect(store.getState().photos.p1.paging).toMatchObject({ total: 5, next: 'c1', loading: true, failed: false });
    expect(last().request).toEqual({ type: 'list_photos', projectId: 'p1', after: 'c1' });
    tracker.reply(last().id, { type: 'photos', projectId: 'p1', photos: [photo({ id: 'o1' }), photo({ id: 'o2' })], favourites: ['o2'], next: 'c2' });
    await settle();
    expect(last().request).toEqual({ type: 'list_photos', projectId: 'p1', after: 'c2' });
    tracker.reply(last().id, { type: 'photos', projectId: 'p1', photos: [photo({ id: 'o3' })], favourites: [], next: null });
    await settle();
    const held = store.getState().photos.p1;
    expect(Object.keys(held.byId).sort()).toEqual(['n1', 'n2', 'o1', 'o2', 'o3']);
    expect(held.favourites).toEqual({ o2: true });
    expect(held.paging).toMatchObject({ next: null, loading: false, failed: false });
  });

  it('tries a lost page again, then says it failed and Retry goes on from there', async () => {
    vi.useFakeTimers();
    const { store, tracker, sub, sent, last } = openBig();
    await sub.ready;
    const tries = () => sent.filter((m) => m.request.type === 'list_photos').length;
    for (const wait of PHOTO_PAGE_RETRY_MS) {
      tracker.failAll({ code: 'disconnected', message: 'gone' });
      await vi.advanceTimersByTimeAsync(wait);
    }
    expect(tries()).toBe(PHOTO_PAGE_RETRY_MS.length + 1);
    tracker.failAll({ code: 'timeout', message: 'slow' });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().photos.p1.paging).toMatchObject({ next: 'c1', loading: false, failed: true });

    const resumed = loadPhotoPages(tracker, store.getState, 'p1', store.getState().photos.p1.paging.next);
    expect(last().request).toEqual({ type: 'list_photos', projectId: 'p1', after: 'c1' });
    tracker.reply(last().id, { type: 'photos', projectId: 'p1', photos: [photo({ id: 'o1' })], favourites: [], next: null });
    await resumed;
    expect(store.getState().photos.p1.paging).toMatchObject({ next: null, loading: false, failed: false });
  });

  it('a refusal is final, and closing the project stops the reading', async () => {
    const { store, tracker, sub, last } = openBig();
    await sub.ready;
    tracker.fail(last().id, { code: 'forbidden', message: 'You do not have access to this project' });
    await settle();
    expect(store.getState().photos.p1.paging).toMatchObject({ loading: false, failed: true });

    const again = openBig();
    await again.sub.ready;
    const pages = () => again.sent.filter((m) => m.request.type === 'list_photos').length;
    again.sub.close();
    again.tracker.reply(again.last().id, { type: 'photos', projectId: 'p1', photos: [photo({ id: 'o1' })], favourites: [], next: 'c2' });
    await settle();
    expect(pages()).toBe(1);
    expect(again.store.getState().photos.p1).toBeUndefined();
  });

  it('a read left from a project closed and opened again does not pass for the new one', async () => {
    const { store, tracker, sub, sent, openProject, last } = openBig();
    await sub.ready;
    const leftover = last();
    sub.close();
    const reopened = openProject('p1');
    tracker.reply(last().id, {
      type: 'subscribed',
      project: project({ version: 4 }),
      viewers: [],
      photos: [photo({ id: 'n1' })],
      favourites: [],
      milestones: { projectId: 'p1', milestones: [], version: 4 },
      nextPhotos: 'c9',
      photoCount: 5,
    });
    await reopened.ready;
    tracker.reply(leftover.id, { type: 'photos', projectId: 'p1', photos: [photo({ id: 'o1' })], favourites: [], next: 'c2' });
    await settle();
    // The old read's page is not merged (its stretch would claim photos the new read has
    // not brought) and it asks for nothing more; the new read goes on from its own cursor.
    expect(store.getState().photos.p1.byId.o1).toBeUndefined();
    expect(sent.filter((m) => m.request.type === 'list_photos').map((m) => m.request)).toEqual([
      { type: 'list_photos', projectId: 'p1', after: 'c1' },
      { type: 'list_photos', projectId: 'p1', after: 'c9' },
    ]);
  });
});
