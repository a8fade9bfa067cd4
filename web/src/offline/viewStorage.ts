/**
 * Where the offline copy lives (IndexedDB `sitecast-offline`): each user's view
 * (offline/viewCopy) and who was signed in last, which the app opens as when the
 * session cannot be checked for want of a network, and which the service worker reads
 * to send only that user's queued photos. All of it goes when the session ends.
 */
import type { Company, MilestonePlan, Profile, Project, ProjectImage } from '../protocol/types';
import { database, request } from '../lib/indexedDb';

export interface SavedProject {
  project: Project;
  photos: ProjectImage[];
  favourites: string[];
  milestones: MilestonePlan | null;
  savedAt: number;
}

/** One user's copy. Never another user's: it is read by the signed-in user's id. */
export interface SavedView {
  userId: string;
  user: Profile;
  savedAt: number;
  projects: Project[];
  users: Profile[];
  companies: Company[];
  /** Most recently seen first, at most viewCopy's SAVED_PROJECTS. */
  recent: SavedProject[];
}

const VIEWS = 'views';
const SESSION = 'session';
const SIGNED_IN = 'signed-in';

const open = database('sitecast-offline', 1, (db) => {
  db.createObjectStore(VIEWS, { keyPath: 'userId' });
  db.createObjectStore(SESSION, { keyPath: 'key' });
});

export const viewStorage = {
  /** The user signed in last on this device, until the session ends. */
  async signedInUser(): Promise<Profile | null> {
    const row = (await request(open, SESSION, 'readonly', (s) => s.get(SIGNED_IN))) as { user: Profile } | undefined;
    return row?.user ?? null;
  },
  async rememberUser(user: Profile): Promise<void> {
    await request(open, SESSION, 'readwrite', (s) => s.put({ key: SIGNED_IN, user }));
  },
  async view(userId: string): Promise<SavedView | null> {
    return ((await request(open, VIEWS, 'readonly', (s) => s.get(userId))) as SavedView | undefined) ?? null;
  },
  async put(view: SavedView): Promise<void> {
    await request(open, VIEWS, 'readwrite', (s) => s.put(view));
  },
  /** Everything kept: the session ended, and what it saw is private. */
  async forget(): Promise<void> {
    await Promise.all([request(open, VIEWS, 'readwrite', (s) => s.clear()), request(open, SESSION, 'readwrite', (s) => s.clear())]);
  },
};
