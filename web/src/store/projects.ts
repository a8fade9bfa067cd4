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
  /**
   * The background read of the projects the hello did not carry (docs/FEATURES.md,
   * "Big projects"): `next` is where it goes on from (`null` once every project is
   * held), `total` how many the hello said there are (for "N of M" while it reads).
   */
  projectPaging: ProjectPaging;
  /**
   * Projects held from before a reconnect that the new read has not yet named: kept
   * meanwhile (an open project stays open), dropped if the read ends without them.
   */
  unconfirmedProjects: Record<string, true>;
  /** Who is looking at a project right now (subscribe reply, `viewers` events). */
  viewers: Record<string, UserSummary[]>;
  /** On every Hello (reconnects included) the snapshot replaces the mirror. */
  projectsReplaced: (projects: Project[], paging?: { next: string | null; total: number }) => void;
  /** A page of the background read: added without overriding anything newer held. */
  projectsPaged: (projects: Project[]) => void;
  projectPagingChanged: (change: Partial<ProjectPaging>) => void;
  /** An event or reply carried a project; a version older than the one held is ignored. */
  projectUpserted: (project: Project) => void;
  /** The project was deleted or left this user's view, as of `version`. */
  projectRemoved: (id: string, version: number) => void;
  viewersChanged: (projectId: string, viewers: UserSummary[]) => void;
  projectsCleared: () => void;
}

export interface ProjectPaging {
  /** Which read owns the paging (a newer hello starts a new one). */
  run: number;
  next: string | null;
  total: number;
  loading: boolean;
  failed: boolean;
}

const NO_PAGING: ProjectPaging = { run: 0, next: null, total: 0, loading: false, failed: false };

/** Whether a change to a project can move a row of a user table (its people, or whether it is held). */
function movesPeople(held: Project | undefined, next: Project): boolean {
  return !held || held.homeownerId !== next.homeownerId || held.builderId !== next.builderId || held.crew.join() !== next.crew.join();
}

export const createProjectsSlice: StateCreator<AppState, [], [], ProjectsSlice> = (set) => ({
  projects: {},
  projectTombstones: {},
  projectsLoaded: false,
  projectPaging: NO_PAGING,
  unconfirmedProjects: {},
  viewers: {},
  projectsReplaced: (projects, paging) =>
    set((state) => ({
      // A hello names every project only when it carries them all; otherwise what was
      // held waits for the background read to name it again (`unconfirmedProjects`).
      projects: paging?.next ? { ...state.projects, ...Object.fromEntries(projects.map((p) => [p.id, p])) } : Object.fromEntries(projects.map((p) => [p.id, p])),
      unconfirmedProjects: paging?.next ? Object.fromEntries(Object.keys(state.projects).filter((id) => !projects.some((p) => p.id === id)).map((id) => [id, true as const])) : {},
      projectTombstones: {},
      projectsLoaded: true,
      projectPaging: { ...NO_PAGING, run: state.projectPaging.run, next: paging?.next ?? null, total: paging?.total ?? projects.length, loading: Boolean(paging?.next) },
      // Subscriptions belong to a connection; the page subscribes again and gets a fresh list.
      viewers: {},
    })),
  projectsPaged: (page) =>
    set((state) => {
      const projects = { ...state.projects };
      const unconfirmedProjects = { ...state.unconfirmedProjects };
      for (const project of page) {
        const next = newerWins(projects[project.id], project, state.projectTombstones[project.id]);
        if (next) projects[project.id] = next;
        delete unconfirmedProjects[project.id];
      }
      return { projects, unconfirmedProjects };
    }),
  projectPagingChanged: (change) =>
    set((state) => {
      const projectPaging = { ...state.projectPaging, ...change };
      const finished = projectPaging.next === null && !projectPaging.failed;
      if (!finished || Object.keys(state.unconfirmedProjects).length === 0) return { projectPaging };
      // The read named every project there is: the ones it never named are gone.
      const projects = { ...state.projects };
      for (const id of Object.keys(state.unconfirmedProjects)) delete projects[id];
      return { projectPaging, projects, unconfirmedProjects: {}, directoryVersion: state.directoryVersion + 1 };
    }),
  projectUpserted: (project) =>
    set((state) => {
      const held = state.projects[project.id];
      const next = newerWins(held, project, state.projectTombstones[project.id]);
      if (next === held || !next) return state;
      const directoryVersion = movesPeople(held, next) ? state.directoryVersion + 1 : state.directoryVersion;
      const unconfirmedProjects = { ...state.unconfirmedProjects };
      delete unconfirmedProjects[project.id];
      return { projects: { ...state.projects, [project.id]: next }, directoryVersion, unconfirmedProjects };
    }),
  projectRemoved: (id, version) =>
    set((state) => {
      if (!isNewer(state.projects[id], { version })) return state;
      const projects = { ...state.projects };
      delete projects[id];
      const viewers = { ...state.viewers };
      delete viewers[id];
      return { projects, viewers, projectTombstones: { ...state.projectTombstones, [id]: version }, directoryVersion: state.directoryVersion + 1 };
    }),
  viewersChanged: (projectId, viewers) => set((state) => ({ viewers: { ...state.viewers, [projectId]: viewers } })),
  projectsCleared: () => set({ projects: {}, projectTombstones: {}, projectsLoaded: false, projectPaging: NO_PAGING, unconfirmedProjects: {}, viewers: {} }),
});

/** Sorted by updatedAt descending (SPEC §2 Projects page). */
export function sortProjects(projects: Record<string, Project> | Project[]): Project[] {
  return (Array.isArray(projects) ? [...projects] : Object.values(projects)).sort((a, b) => b.updatedAt - a.updatedAt);
}
