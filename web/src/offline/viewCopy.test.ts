import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store';
import { photo, profile, project } from '../testing/fixtures';
import { applySavedProject, applySavedView, SAVED_PHOTOS, SAVED_PROJECTS, viewOf } from './viewCopy';
import type { SavedView } from './viewStorage';

const me = profile({ id: 'u1', role: 'homeowner' });

/** A store live on the server's view: signed in, a snapshot of `projects`. */
function liveStore(projects = [project({ id: 'p1' }), project({ id: 'p2', title: 'Cedar Ridge' })]) {
  const store = createAppStore();
  store.getState().signedIn(me);
  store.getState().projectsReplaced(projects);
  store.getState().usersReplaced([profile({ id: 'b1', role: 'builder' })], ['b1']);
  store.getState().liveSynced();
  return store;
}

function openProject(store: ReturnType<typeof createAppStore>, projectId: string, photoIds: string[], favourites: string[] = []) {
  store.getState().photosOpened(projectId);
  store.getState().photosListed(projectId, photoIds.map((id) => photo({ id, projectId })), favourites);
}

describe('the copy kept for offline', () => {
  it('keeps the dashboard’s model and the open project’s photos', () => {
    const store = liveStore();
    openProject(store, 'p1', ['i1', 'i2'], ['i2']);
    const view = viewOf(store.getState(), null, 1000);
    expect(view).toMatchObject({ userId: 'u1', savedAt: 1000 });
    expect(view?.projects.map((p) => p.id).sort()).toEqual(['p1', 'p2']);
    expect(view?.users.map((u) => u.id)).toEqual(['b1']);
    expect(view?.recent).toHaveLength(1);
    expect(view?.recent[0]?.project.id).toBe('p1');
    expect(view?.recent[0]?.photos.map((p) => p.id).sort()).toEqual(['i1', 'i2']);
    expect(view?.recent[0]?.favourites).toEqual(['i2']);
  });

  it('keeps the newest photos of a big project, not a year of them', () => {
    const store = liveStore();
    store.getState().photosOpened('p1');
    const many = Array.from({ length: SAVED_PHOTOS + 40 }, (_, n) => photo({ id: `i${n}`, projectId: 'p1', createdAt: 1_000 + n, takenAt: null }));
    store.getState().photosListed('p1', many, []);
    const kept = viewOf(store.getState(), null, 1000)?.recent[0]?.photos ?? [];
    expect(kept).toHaveLength(SAVED_PHOTOS);
    expect(kept[0]?.id).toBe(`i${SAVED_PHOTOS + 39}`);
    expect(kept.some((p) => p.id === 'i0')).toBe(false);
  });

  it('keeps the last projects opened, newest first, at most ten', () => {
    const projects = Array.from({ length: SAVED_PROJECTS + 2 }, (_, n) => project({ id: `p${n}` }));
    const store = liveStore(projects);
    let view: SavedView | null = null;
    for (const p of projects) {
      openProject(store, p.id, [`${p.id}-photo`]);
      view = viewOf(store.getState(), view, 0);
      store.getState().photosClosed(p.id);
    }
    expect(view?.recent.map((p) => p.project.id)).toEqual(projects.slice(2).reverse().map((p) => p.id));
    // Opened again: to the front, once.
    openProject(store, 'p5', ['p5-photo', 'p5-new']);
    view = viewOf(store.getState(), view, 0);
    expect(view?.recent.map((p) => p.project.id).slice(0, 2)).toEqual(['p5', 'p11']);
    expect(view?.recent.filter((p) => p.project.id === 'p5')).toHaveLength(1);
    expect(view?.recent[0]?.photos).toHaveLength(2);
  });

  it('drops a project no longer in view, and never keeps another user’s projects', () => {
    const store = liveStore();
    openProject(store, 'p2', ['i1']);
    const before = viewOf(store.getState(), null, 0);
    store.getState().photosClosed('p2');
    store.getState().projectRemoved('p2', 99);
    expect(viewOf(store.getState(), before, 0)?.recent).toEqual([]);
    const someoneElse = { ...(before as SavedView), userId: 'u2' };
    store.getState().projectsReplaced([project({ id: 'p2' })]);
    expect(viewOf(store.getState(), someoneElse, 0)?.recent).toEqual([]);
  });

  it('keeps nothing signed out', () => {
    expect(viewOf(createAppStore().getState(), null, 0)).toBeNull();
  });

  it('goes back into a fresh store as the saved copy, until a Hello replaces it', () => {
    const live = liveStore();
    openProject(live, 'p1', ['i1', 'i2'], ['i1']);
    const view = viewOf(live.getState(), null, 0) as SavedView;

    const store = createAppStore();
    store.getState().signedIn(me);
    applySavedView(view, store.getState());
    expect(store.getState()).toMatchObject({ projectsLoaded: true, showingSavedCopy: true, online: {} });
    expect(Object.keys(store.getState().projects).sort()).toEqual(['p1', 'p2']);
    applySavedProject(view.recent[0]!, store.getState());
    expect(Object.keys(store.getState().photos.p1?.byId ?? {}).sort()).toEqual(['i1', 'i2']);
    expect(store.getState().photos.p1).toMatchObject({ loaded: true, favourites: { i1: true } });

    store.getState().liveSynced();
    expect(store.getState().showingSavedCopy).toBe(false);
  });

  it('a sign-out drops the saved-copy flag with the rest', () => {
    const store = createAppStore();
    store.getState().signedIn(me);
    store.getState().savedCopyShown();
    store.getState().signedOut('revoked');
    expect(store.getState().showingSavedCopy).toBe(false);
  });
});
