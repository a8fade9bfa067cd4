import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg, type ProjectImage } from '../protocol/types';
import { dateWindow } from '../lib/photoCoverage';
import { newestFirst, visiblePhotos } from '../lib/photoFilters';
import { createAppStore } from '../store';
import { photo, profile, project } from '../testing/fixtures';
import { PHOTO_PAGE_RETRY_MS } from './commands';
import { FIRST_WINDOW_PAGE, abandonPhotoWindow, holdsWindow, loadPhotoWindow, resumePhotoWindow, WINDOW_PAGE, windowStatus } from './photoWindows';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';
import { createSubscriptions } from './subscriptions';

const HOUR = 3_600_000;
/** A photo captured at noon UTC on that day (dated on the camera's clock, as the filter reads it). */
const on = (id: string, year: number, month: number, day: number, over: Partial<ProjectImage> = {}) =>
  photo({ id, takenAt: Date.UTC(year, month, day, 12), createdAt: Date.UTC(year, month, day, 12) + HOUR, ...over });

const MARCH = { year: 2025, month: 2 } as const;
const march = dateWindow(MARCH)!;

/** Lets the awaited replies run their continuations. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A project of many photos opened on its first page (this month's newest, 2026), the
 * background read waiting for its first older page.
 */
async function openBig(firstPage: ProjectImage[] = [on('n1', 2026, 5, 20), on('n2', 2026, 5, 10)]) {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const sent: ClientMsg[] = [];
  tracker.attach((msg) => sent.push(msg));
  applyServerMsg(
    { type: 'hello', protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: profile({ id: 'h1' }), snapshot: { projects: [project({})], projectCount: 1, nextProjects: null, users: [], online: [], companies: [] } },
    store.getState(),
    tracker,
  );
  const sub = createSubscriptions(tracker, store.getState).openProject('p1');
  tracker.reply(sent[0].id, {
    type: 'subscribed',
    project: project({ version: 4 }),
    viewers: [],
    photos: firstPage,
    favourites: [],
    milestones: { projectId: 'p1', milestones: [], version: 4 },
    nextPhotos: 'c1',
    photoCount: 5_000,
  });
  await sub.ready;
  const photoRequests = () => sent.filter((m) => m.request.type === 'list_photos');
  /** The newest request the window read sent (a `before` or a `limit` of a window page). */
  const windowRequest = () => [...photoRequests()].reverse().find((m) => 'limit' in m.request);
  const background = () => [...photoRequests()].reverse().find((m) => !('limit' in m.request));
  const held = () => store.getState().photos.p1;
  const shown = (filter = MARCH) => visiblePhotos(Object.values(held().byId), filter, false, held().favourites).map((p) => p.id);
  return { store, tracker, sent, sub, photoRequests, windowRequest, background, held, shown };
}

describe('a date window the background read has not reached is read directly', () => {
  afterEach(() => vi.useRealTimers());

  it('a window the pages held so far cover is not read', async () => {
    const { held, photoRequests } = await openBig();
    // The first page reaches back to June 10th 2026: June 15th to the end of June is held.
    const lateJune = { start: Date.UTC(2026, 5, 15), end: Date.UTC(2026, 6, 1) };
    expect(holdsWindow(held(), lateJune)).toBe(true);
    expect(windowStatus(held(), { ...lateJune, key: 'x', label: 'x' })).toBe('held');
    // March 2025 is not, and neither is the whole of June (its first days may hold more).
    expect(holdsWindow(held(), march)).toBe(false);
    expect(holdsWindow(held(), dateWindow({ year: 2026, month: 5 })!)).toBe(false);
    expect(windowStatus(held(), march)).toBe('loading');
    expect(photoRequests()).toHaveLength(1); // only the background read's page
  });

  it('reads from the window’s end until a photo older than it, merging in the gallery’s order', async () => {
    const { store, tracker, held, shown, windowRequest, background, photoRequests } = await openBig();
    const reading = loadPhotoWindow(tracker, store.getState, 'p1', march);
    expect(windowRequest()?.request).toEqual({ type: 'list_photos', projectId: 'p1', before: march.end, limit: FIRST_WINDOW_PAGE });
    expect(held().window).toMatchObject({ key: march.key, failed: false });

    tracker.reply(windowRequest()!.id, {
      type: 'photos',
      projectId: 'p1',
      photos: [on('m31', 2025, 2, 31), on('m20', 2025, 2, 20)],
      favourites: ['m20'],
      next: 'w1',
    });
    await settle();
    // What arrived shows at once, newest first; the rest of the month is still coming.
    expect(shown()).toEqual(['m31', 'm20']);
    expect(held().favourites).toEqual({ m20: true });
    expect(windowStatus(held(), march)).toBe('loading');
    expect(windowRequest()?.request).toEqual({ type: 'list_photos', projectId: 'p1', after: 'w1', limit: WINDOW_PAGE });

    tracker.reply(windowRequest()!.id, {
      type: 'photos',
      projectId: 'p1',
      photos: [on('m02', 2025, 2, 2), on('f27', 2025, 1, 27)],
      favourites: [],
      next: 'w2',
    });
    await reading;
    // A photo of February came: March is held, and the read ends there.
    expect(shown()).toEqual(['m31', 'm20', 'm02']);
    expect(held().window).toBeNull();
    expect(windowStatus(held(), march)).toBe('held');
    expect(photoRequests().filter((m) => 'limit' in m.request)).toHaveLength(2);

    // The background read goes on from its own cursor, untouched, and merges on top.
    expect(background()?.request).toEqual({ type: 'list_photos', projectId: 'p1', after: 'c1' });
    tracker.reply(background()!.id, { type: 'photos', projectId: 'p1', photos: [on('o1', 2026, 4, 1)], favourites: [], next: 'c2' });
    await settle();
    expect(background()?.request).toEqual({ type: 'list_photos', projectId: 'p1', after: 'c2' });
    expect(held().paging).toMatchObject({ next: 'c2', loading: true });
    // When it reaches March, the same photos merge harmlessly: once each, in order.
    tracker.reply(background()!.id, {
      type: 'photos',
      projectId: 'p1',
      photos: [on('m31', 2025, 2, 31), on('m20', 2025, 2, 20), on('m02', 2025, 2, 2), on('f27', 2025, 1, 27)],
      favourites: ['m20'],
      next: null,
    });
    await settle();
    expect(newestFirst(Object.values(held().byId)).map((p) => p.id)).toEqual(['n1', 'n2', 'o1', 'm31', 'm20', 'm02', 'f27']);
    expect(held().favourites).toEqual({ m20: true });
    expect(held().covered).toEqual([{ oldest: -Infinity, newest: Infinity }]);
  });

  it('merges as a background page does: deleted meanwhile stays gone, a newer version and a later favourite win', async () => {
    const { store, tracker, held, shown, windowRequest } = await openBig();
    void loadPhotoWindow(tracker, store.getState, 'p1', march);
    // Meanwhile, live events: a March photo deleted, another edited, a third favourited.
    store.getState().photoRemoved('p1', 'gone');
    store.getState().photoUpserted(on('edited', 2025, 2, 15, { caption: 'New caption', version: 3 }));
    store.getState().favouriteChanged('p1', 'liked', true);
    tracker.reply(windowRequest()!.id, {
      type: 'photos',
      projectId: 'p1',
      photos: [on('gone', 2025, 2, 20), on('edited', 2025, 2, 15, { caption: 'Old caption', version: 2 }), on('liked', 2025, 2, 10), on('old', 2025, 1, 1)],
      favourites: [],
      next: 'w1',
    });
    await settle();
    expect(shown()).toEqual(['edited', 'liked']);
    expect(held().byId.edited.caption).toBe('New caption');
    expect(held().favourites).toEqual({ liked: true });
    expect(held().window).toBeNull();
  });

  it('reads a month under way from below the photos of it already held', async () => {
    const { store, tracker, windowRequest } = await openBig();
    const june = dateWindow({ year: 2026, month: 5 })!;
    void loadPhotoWindow(tracker, store.getState, 'p1', june);
    // The first page held June 10th (noon) to now: the read starts just above it.
    expect(windowRequest()?.request).toMatchObject({ before: Date.UTC(2026, 5, 10, 12) + 1 });
  });

  it('ends when the filter moves on or the project closes, ignoring what is still on its way', async () => {
    const { store, tracker, held, windowRequest, photoRequests, sub } = await openBig();
    void loadPhotoWindow(tracker, store.getState, 'p1', march);
    const first = windowRequest()!;
    abandonPhotoWindow(store.getState, 'p1', march.key);
    expect(held().window).toBeNull();
    tracker.reply(first.id, { type: 'photos', projectId: 'p1', photos: [on('m20', 2025, 2, 20)], favourites: [], next: 'w1' });
    await settle();
    expect(held().byId.m20).toBeUndefined();
    expect(photoRequests().filter((m) => 'limit' in m.request)).toHaveLength(1);

    // Another month chosen while one is read: the first one's answer is ignored.
    const april = dateWindow({ year: 2025, month: 3 })!;
    void loadPhotoWindow(tracker, store.getState, 'p1', march);
    const marchPage = windowRequest()!;
    void loadPhotoWindow(tracker, store.getState, 'p1', april);
    tracker.reply(marchPage.id, { type: 'photos', projectId: 'p1', photos: [on('m20', 2025, 2, 20)], favourites: [], next: 'w1' });
    await settle();
    expect(held().byId.m20).toBeUndefined();
    expect(held().window).toMatchObject({ key: april.key });

    sub.close();
    tracker.reply(windowRequest()!.id, { type: 'photos', projectId: 'p1', photos: [on('a20', 2025, 3, 20)], favourites: [], next: 'w1' });
    await settle();
    expect(store.getState().photos.p1).toBeUndefined();
    expect(photoRequests().filter((m) => 'limit' in m.request)).toHaveLength(3);
  });

  it('stops once the background read brought the window first', async () => {
    const { store, tracker, held, windowRequest, background, photoRequests } = await openBig();
    const reading = loadPhotoWindow(tracker, store.getState, 'p1', march);
    tracker.reply(background()!.id, {
      type: 'photos',
      projectId: 'p1',
      photos: [on('m20', 2025, 2, 20), on('f27', 2025, 1, 27)],
      favourites: [],
      next: 'c2',
    });
    await settle();
    expect(windowStatus(held(), march)).toBe('held');
    tracker.reply(windowRequest()!.id, { type: 'photos', projectId: 'p1', photos: [on('m31', 2025, 2, 31)], favourites: [], next: 'w1' });
    await reading;
    expect(held().window).toBeNull();
    expect(photoRequests().filter((m) => 'limit' in m.request)).toHaveLength(1);
  });

  it('tries a lost page again, then says it failed, and Retry goes on from there', async () => {
    vi.useFakeTimers();
    const { store, tracker, held, windowRequest, photoRequests } = await openBig();
    void loadPhotoWindow(tracker, store.getState, 'p1', march);
    tracker.reply(windowRequest()!.id, { type: 'photos', projectId: 'p1', photos: [on('m31', 2025, 2, 31)], favourites: [], next: 'w1' });
    await vi.advanceTimersByTimeAsync(0);
    const windowPages = () => photoRequests().filter((m) => 'limit' in m.request).length;
    expect(windowPages()).toBe(2);
    for (const wait of PHOTO_PAGE_RETRY_MS) {
      tracker.fail(windowRequest()!.id, { code: 'timeout', message: 'slow' });
      await vi.advanceTimersByTimeAsync(wait);
    }
    expect(windowPages()).toBe(2 + PHOTO_PAGE_RETRY_MS.length);
    tracker.fail(windowRequest()!.id, { code: 'timeout', message: 'slow' });
    await vi.advanceTimersByTimeAsync(0);
    expect(windowStatus(held(), march)).toBe('failed');
    expect(held().window).toMatchObject({ next: 'w1', failed: true });

    const retrying = resumePhotoWindow(tracker, store.getState, 'p1', march);
    expect(windowStatus(held(), march)).toBe('loading');
    expect(windowRequest()?.request).toEqual({ type: 'list_photos', projectId: 'p1', after: 'w1', limit: WINDOW_PAGE });
    tracker.reply(windowRequest()!.id, { type: 'photos', projectId: 'p1', photos: [on('m01', 2025, 2, 1)], favourites: [], next: null });
    await retrying;
    expect(windowStatus(held(), march)).toBe('held');
    // The window read reached the oldest photo: everything below March's end is held.
    expect(held().covered[0]).toEqual({ oldest: -Infinity, newest: march.end });
  });

  it('a refusal is final', async () => {
    const { store, tracker, held, windowRequest } = await openBig();
    const reading = loadPhotoWindow(tracker, store.getState, 'p1', march);
    tracker.fail(windowRequest()!.id, { code: 'forbidden', message: 'You do not have access to this project' });
    await reading;
    expect(windowStatus(held(), march)).toBe('failed');
  });

  it('a project whose pages were all read, or a saved copy, needs no window', async () => {
    const store = createAppStore();
    store.getState().photosOpened('p1');
    store.getState().photosListed('p1', [on('n1', 2026, 5, 20)], []);
    expect(windowStatus(store.getState().photos.p1, march)).toBe('held');
  });
});
