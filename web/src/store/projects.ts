import type { StateCreator } from 'zustand';
import type { Project, UserSummary } from '../protocol/types';
import { isNewer, newerWins } from '../sync/versions';
import type { AppState } from './index';

export interface ProjectsSlice {
  /** Projects this user may see, by id, mirrored from the server. */
  projects: Record<string, Project>;
  /**
   * Versions of projects deleted (or gone from view) since the last snapshot, so an
   * update that was overtaken by the deletion cannot bring the project back.
   */
  projectTombstones: Record<string, number>;
  /** True once a snapshot has arrived on the current connection. */
  projectsLoaded: boolean;
  /** Who is looking at a project right now (subscribe reply, `viewers` events). */
  viewers: Record<string, UserSummary[]>;
  /** On every Hello (reconnects included) the snapshot replaces the mirror. */
  projectsReplaced: (projects: Project[]) => void;
  /** An event or reply carried a project; a version older than the one held is ignored. */
  projectUpserted: (project: Project) => void;
  /** The project was deleted or left this user's view, as of `version`. */
  projectRemoved: (id: string, version: number) => void;
  viewersChanged: (projectId: string, viewers: UserSummary[]) => void;
  projectsCleared: () => void;
}

export const createProjectsSlice: StateCreator<AppState, [], [], ProjectsSlice> = (set) => ({
  projects: {},
  projectTombstones: {},
  projectsLoaded: false,
  viewers: {},
  projectsReplaced: (projects) =>
    set({
      projects: Object.fromEntries(projects.map((p) => [p.id, p])),
      projectTombstones: {},
      projectsLoaded: true,
      // Subscriptions belong to a connection; the page subscribes again and gets a fresh list.
      viewers: {},
    }),
  projectUpserted: (project) =>
    set((state) => {
      const held = state.projects[project.id];
      const next = newerWins(held, project, state.projectTombstones[project.id]);
      return next === held || !next ? state : { projects: { ...state.projects, [project.id]: next } };
    }),
  projectRemoved: (id, version) =>
    set((state) => {
      if (!isNewer(state.projects[id], { version })) return state;
      const projects = { ...state.projects };
      delete projects[id];
      const viewers = { ...state.viewers };
      delete viewers[id];
      return { projects, viewers, projectTombstones: { ...state.projectTombstones, [id]: version } };
    }),
  viewersChanged: (projectId, viewers) => set((state) => ({ viewers: { ...state.viewers, [projectId]: viewers } })),
  projectsCleared: () => set({ projects: {}, projectTombstones: {}, projectsLoaded: false, viewers: {} }),
});

/** Sorted by updatedAt descending (SPEC §2 Projects page). */
export function sortProjects(projects: Record<string, Project> | Project[]): Project[] {
  return (Array.isArray(projects) ? [...projects] : Object.values(projects)).sort((a, b) => b.updatedAt - a.updatedAt);
}
