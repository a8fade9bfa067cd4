/**
 * The copy of what the user saw, kept on the device so the app opens offline
 * (docs/FEATURES.md, "On the phone"): the dashboard's model (the projects, people and
 * companies of the last snapshot) and, for the last few projects opened, the project with
 * its photo list, favourites and milestone plan. Pure: what to keep from the store, and
 * how a kept copy goes back in.
 */
import { newestFirst } from '../lib/photoFilters';
import type { ProjectImage } from '../protocol/types';
import type { AppState } from '../store';
import type { SavedProject, SavedView } from './viewStorage';

/** Projects whose photo lists the device keeps: the last ones opened. */
export const SAVED_PROJECTS = 10;
/**
 * The newest photos kept of each (docs/FEATURES.md, "Big projects"): a year of 20,000
 * copied into IndexedDB a second after every change would hold the page's one thread
 * for seconds on a phone; offline, the newest months are what is looked at.
 */
export const SAVED_PHOTOS = 500;

const newest = (photos: ProjectImage[]) => (photos.length > SAVED_PHOTOS ? newestFirst(photos).slice(0, SAVED_PHOTOS) : photos);

export type ViewState = Pick<AppState, 'user' | 'projects' | 'users' | 'companies' | 'photos' | 'milestones'>;

/**
 * What to keep of `state`: the dashboard's model as it is now, and the projects open now
 * ahead of those kept before (`previous`); a project no longer in view (deleted, or
 * taken from this user) is not kept.
 */
export function viewOf(state: ViewState, previous: SavedView | null, now: number): SavedView | null {
  const { user } = state;
  if (!user) return null;
  const open: SavedProject[] = [];
  for (const [projectId, held] of Object.entries(state.photos)) {
    const project = state.projects[projectId];
    if (!held.loaded || !project) continue;
    open.push({
      project,
      photos: newest(Object.values(held.byId)),
      favourites: Object.keys(held.favourites),
      milestones: state.milestones[projectId] ?? null,
      savedAt: now,
    });
  }
  const opened = new Set(open.map((p) => p.project.id));
  const before = previous?.userId === user.id ? previous.recent : [];
  const recent = [...open, ...before.filter((p) => !opened.has(p.project.id))]
    .filter((p) => state.projects[p.project.id])
    .map((p) => (opened.has(p.project.id) ? p : { ...p, project: state.projects[p.project.id] ?? p.project }))
    .slice(0, SAVED_PROJECTS);
  return {
    userId: user.id,
    user,
    savedAt: now,
    projects: Object.values(state.projects),
    users: Object.values(state.users),
    companies: Object.values(state.companies),
    recent,
  };
}

/** The store actions a kept copy goes back in through. */
export type SavedViewActions = Pick<
  AppState,
  'projectsReplaced' | 'usersReplaced' | 'companiesReplaced' | 'savedCopyShown' | 'projectUpserted' | 'photosOpened' | 'photosListed' | 'milestonesReplaced'
>;

/**
 * Shows the kept dashboard model as a snapshot would, saying it is the saved copy; the
 * next Hello replaces all of it. Nobody is shown online: that was then.
 */
export function applySavedView(view: SavedView, actions: SavedViewActions): void {
  actions.projectsReplaced(view.projects);
  actions.usersReplaced(view.users, []);
  actions.companiesReplaced(view.companies);
  actions.savedCopyShown();
}

/** The kept copy of one project, as its subscription's reply would bring it. */
export function applySavedProject(saved: SavedProject, actions: SavedViewActions): void {
  actions.projectUpserted(saved.project);
  actions.photosOpened(saved.project.id);
  actions.photosListed(saved.project.id, saved.photos, saved.favourites);
  if (saved.milestones) actions.milestonesReplaced(saved.milestones);
  actions.savedCopyShown();
}
