/**
 * Keeps the offline copy (docs/FEATURES.md, "On the phone") in step with the store: while
 * the app is live, what the user sees is saved on the device (a second after it settles);
 * when the socket cannot connect, the saved copy is shown until the next Hello replaces
 * it; when the session ends, the copy, the cached photos and who was signed in are
 * forgotten.
 */
import { useAppStore, type AppState } from '../store';
import { forgetCachedPhotos } from './serviceWorker';
import { applySavedProject, applySavedView, viewOf } from './viewCopy';
import { viewStorage } from './viewStorage';

/** Saves wait this long after the last change, so a burst of events is one write. */
const SAVE_AFTER_MS = 1000;

/** The store holds the server's live view, not a kept copy. */
const live = (s: AppState) => s.sessionStatus === 'authenticated' && s.connection === 'open' && s.projectsLoaded && !s.showingSavedCopy;

const viewChanged = (s: AppState, prev: AppState) =>
  s.user !== prev.user || s.projects !== prev.projects || s.users !== prev.users || s.companies !== prev.companies || s.photos !== prev.photos || s.milestones !== prev.milestones;

let started = false;

export function startOfflineMirror(store = useAppStore): void {
  if (started) return;
  started = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts sign-outs: a save begun before one must not write after it. */
  let session = 0;

  const save = async () => {
    const state = store.getState();
    if (!live(state) || !state.user) return;
    const mine = session;
    const previous = await viewStorage.view(state.user.id);
    const now = store.getState();
    const view = viewOf(now, previous, Date.now());
    if (view && mine === session && live(now) && now.user?.id === view.userId) await viewStorage.put(view);
  };

  store.subscribe((state, prev) => {
    if (state.sessionStatus === 'anonymous' && prev.sessionStatus !== 'anonymous') {
      session += 1;
      clearTimeout(timer);
      void viewStorage.forget();
      void forgetCachedPhotos();
      return;
    }
    if (state.sessionStatus === 'authenticated' && state.user && state.user !== prev.user) void viewStorage.rememberUser(state.user);
    // The first connection failed: what this device saw last, until the server answers.
    if (state.connection === 'reconnecting' && prev.connection !== 'reconnecting' && !state.projectsLoaded && state.user) {
      void showSavedView(state.user.id, store);
    }
    if (live(state) && viewChanged(state, prev)) {
      clearTimeout(timer);
      timer = setTimeout(() => void save(), SAVE_AFTER_MS);
    }
  });
}

/** The socket still cannot connect for this user: the copy may go in. */
const stillOffline = (s: AppState, userId: string) => s.user?.id === userId && s.connection === 'reconnecting';

async function showSavedView(userId: string, store = useAppStore): Promise<void> {
  const view = await viewStorage.view(userId);
  const state = store.getState();
  if (view && stillOffline(state, userId) && !state.projectsLoaded) applySavedView(view, state);
}

/**
 * While the socket is down, the kept copy of one project, if the device has it and the
 * store does not hold the project's photos already. Resolves whether it was shown.
 */
export async function showSavedProject(projectId: string, store = useAppStore): Promise<boolean> {
  const userId = store.getState().user?.id;
  if (!userId) return false;
  const view = await viewStorage.view(userId);
  const saved = view?.recent.find((p) => p.project.id === projectId);
  const state = store.getState();
  if (!saved || !stillOffline(state, userId)) return false;
  if (state.photos[projectId]?.loaded) return true;
  applySavedProject(saved, state);
  return true;
}
