import type { StateCreator } from 'zustand';
import type { Project } from '../protocol/types';
import type { AppState } from './index';

export interface ProjectsSlice {
  /** Projects this user may see, by id, mirrored from the server. */
  projects: Record<string, Project>;
  /** True once a snapshot has arrived on the current connection. */
  projectsLoaded: boolean;
  /** On (re)connect the snapshot replaces the mirror (DESIGN §2). */
  snapshotReceived: (projects: Project[]) => void;
  /** An event carried a project; an older version than the one held is ignored. */
  projectUpserted: (project: Project) => void;
  projectRemoved: (id: string) => void;
  projectsCleared: () => void;
}

export const createProjectsSlice: StateCreator<AppState, [], [], ProjectsSlice> = (set) => ({
  projects: {},
  projectsLoaded: false,
  snapshotReceived: (projects) =>
    set({ projects: Object.fromEntries(projects.map((p) => [p.id, p])), projectsLoaded: true }),
  projectUpserted: (project) =>
    set((state) => {
      const held = state.projects[project.id];
      if (held && held.version > project.version) return state;
      return { projects: { ...state.projects, [project.id]: project } };
    }),
  projectRemoved: (id) =>
    set((state) => {
      if (!(id in state.projects)) return state;
      const rest = { ...state.projects };
      delete rest[id];
      return { projects: rest };
    }),
  projectsCleared: () => set({ projects: {}, projectsLoaded: false }),
});

/** Sorted by updatedAt descending (SPEC §2 Projects page). */
export function sortProjects(projects: Record<string, Project>): Project[] {
  return Object.values(projects).sort((a, b) => b.updatedAt - a.updatedAt);
}
