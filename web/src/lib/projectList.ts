/**
 * What the projects page shows of a long list of projects (docs/FEATURES.md, "Big
 * projects"): an admin or a builder company can hold 30 to 1,000 projects, so the page
 * searches, filters by status and sorts them on the device, from the projects it already
 * holds, and draws them a page at a time. These pure rules are that choice; the URL keeps
 * it (`?q=&status=&sort=&view=`), so a reload or a shared link shows the same list.
 */

import type { Project, ProjectStatus } from '../protocol/types';
import { queryWords } from './searchText';

export type StatusFilter = ProjectStatus | 'all';
export type ProjectSort = 'updated' | 'name' | 'progress' | 'newest';
export type ProjectView = 'grid' | 'list';

export interface ProjectListQuery {
  /** The search as typed. */
  q: string;
  status: StatusFilter;
  sort: ProjectSort;
  view: ProjectView;
}

/** Each choice's default is left out of the URL, so a plain /projects is the default list. */
export const DEFAULT_PROJECT_QUERY: ProjectListQuery = { q: '', status: 'all', sort: 'updated', view: 'grid' };

/** The status filter's choices, in the order of a project's life. */
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', 'planning', 'in-progress', 'on-hold', 'completed'];

export const PROJECT_SORTS: readonly { value: ProjectSort; label: string }[] = [
  { value: 'updated', label: 'Recently updated' },
  { value: 'name', label: 'Name A–Z' },
  { value: 'progress', label: 'Progress, high to low' },
  { value: 'newest', label: 'Newest first' },
];

/** How many projects are drawn at first, and how many more each time the end is reached. */
export const PROJECT_PAGE = 60;

const isStatus = (v: string | null): v is ProjectStatus => v !== null && v !== 'all' && STATUS_FILTERS.includes(v as StatusFilter);
const isSort = (v: string | null): v is ProjectSort => PROJECT_SORTS.some((s) => s.value === v);
export const isProjectView = (v: unknown): v is ProjectView => v === 'grid' || v === 'list';

/**
 * The list's choices from the URL; an unknown value is the default. Without `view` in the
 * URL, the view this device last chose (`storedView`) applies.
 */
export function readProjectQuery(params: URLSearchParams, storedView: ProjectView | null = null): ProjectListQuery {
  const status = params.get('status');
  const sort = params.get('sort');
  const view = params.get('view');
  return {
    q: params.get('q') ?? '',
    status: isStatus(status) ? status : 'all',
    sort: isSort(sort) ? sort : 'updated',
    view: isProjectView(view) ? view : (storedView ?? 'grid'),
  };
}

/**
 * The URL's parameters with some of the choices changed: a default is removed rather
 * than written, and other parameters (the homeowner page's `builderId`) are kept.
 */
export function writeProjectQuery(prev: URLSearchParams, change: Partial<ProjectListQuery>): URLSearchParams {
  const next = new URLSearchParams(prev);
  for (const key of ['q', 'status', 'sort', 'view'] as const) {
    if (!(key in change)) continue;
    const value = change[key];
    if (value === undefined || value === DEFAULT_PROJECT_QUERY[key] || (key === 'q' && value.trim() === '')) next.delete(key);
    else next.set(key, value);
  }
  return next;
}

/** Lower case without accents: "Café" and "cafe" are the same word. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/**
 * The words a project is found by: its title, address, homeowner and builder company,
 * folded, each word preceded by a space so a query word is looked for at a word's start
 * ("map" finds "Maple", as the app's search does: docs/FEATURES.md, "Tags and search").
 */
export function projectSearchText(project: Project): string {
  const homeowner = [project.homeownerFirstName, project.homeownerLastName].filter(Boolean).join(' ');
  const fields = [project.title, project.address, project.homeownerName, homeowner, project.builderName ?? ''];
  const words = fold(fields.join(' ')).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  return ` ${words.join(' ')}`;
}

// Each keystroke searches every project again; a project the store has not replaced
// (it replaces a changed one whole) keeps the text folded the first time.
const folded = new WeakMap<Project, string>();

function searchTextOf(project: Project): string {
  let text = folded.get(project);
  if (text === undefined) {
    text = projectSearchText(project);
    folded.set(project, text);
  }
  return text;
}

/** The projects the search finds: each of the query's words must match. */
export function searchProjects(projects: readonly Project[], q: string): Project[] {
  const words = queryWords(q);
  if (words.length === 0) return [...projects];
  return projects.filter((p) => {
    const text = searchTextOf(p);
    return words.every((w) => text.includes(` ${w}`));
  });
}

export type StatusCounts = Record<StatusFilter, number>;

/** How many projects each status filter would show (of those the search found). */
export function statusCounts(projects: readonly Project[]): StatusCounts {
  const counts: StatusCounts = { all: projects.length, planning: 0, 'in-progress': 0, 'on-hold': 0, completed: 0 };
  for (const p of projects) {
    if (p.status in counts) counts[p.status] += 1;
  }
  return counts;
}

export function filterByStatus(projects: readonly Project[], status: StatusFilter): Project[] {
  return status === 'all' ? [...projects] : projects.filter((p) => p.status === status);
}

const byName = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true });
const recent = (a: Project, b: Project) => b.updatedAt - a.updatedAt;

const COMPARE: Record<ProjectSort, (a: Project, b: Project) => number> = {
  // The store's order (sortProjects): the project worked on last comes first.
  updated: recent,
  name: (a, b) => byName.compare(a.title, b.title) || recent(a, b),
  progress: (a, b) => b.progress - a.progress || recent(a, b),
  newest: (a, b) => b.createdAt - a.createdAt || recent(a, b),
};

/** A sorted copy; ties keep the order they came in. */
export function sortProjectList(projects: readonly Project[], sort: ProjectSort): Project[] {
  return [...projects].sort(COMPARE[sort]);
}

export interface ProjectListResult {
  /** What the search, the status filter and the sort leave, in order. */
  projects: Project[];
  /** Per status filter, of what the search found: the filter's choices show them. */
  counts: StatusCounts;
}

export function listProjects(projects: readonly Project[], query: Pick<ProjectListQuery, 'q' | 'status' | 'sort'>): ProjectListResult {
  const found = searchProjects(projects, query.q);
  return { projects: sortProjectList(filterByStatus(found, query.status), query.sort), counts: statusCounts(found) };
}

/**
 * How many of the list are drawn. `key` names the search, filter and sort it was counted
 * for: a new choice starts again from the first page, since the rows drawn before are
 * no longer the list's start.
 */
export interface Paging {
  key: string;
  shown: number;
}

export function shownFor(paging: Paging, key: string): number {
  return paging.key === key ? paging.shown : PROJECT_PAGE;
}

/** One page more of the list `key` names. */
export function showMore(paging: Paging, key: string): Paging {
  return { key, shown: shownFor(paging, key) + PROJECT_PAGE };
}

/** "1,000": counts are written as the rest of the app writes numbers (en-US). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
