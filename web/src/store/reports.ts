import type { StateCreator } from 'zustand';
import type { Report } from '../protocol/types';
import { mergeReports, upsertReport } from '../lib/reportRules';
import type { AppState } from './index';

/** One open project's progress reports on this connection. */
export interface ProjectReports {
  /** Newest first, each id once. */
  list: Report[];
  /** True once a `reports` reply has arrived. */
  loaded: boolean;
  /** A list request is on its way. */
  loading: boolean;
  /** The last list request failed with this message. */
  error: string | null;
  /** Ids deleted on this connection: a list read before the deletion must not bring them back. */
  deleted: Record<string, true>;
  /** Which request is the awaited one: a reply to an older one (before a reset) is dropped. */
  request: number;
}

export interface ReportsSlice {
  /**
   * Reports of the projects whose Reports tab has been opened, by project id. Like the
   * timeline, a project's reports are held only while its events reach this tab (the
   * page's subscription): `report_changed` and `report_deleted` for a project not held
   * are dropped, and the tab lists them afresh when it opens.
   */
  reports: Record<string, ProjectReports>;
  /** A list request starts; returns its number, to hand back with its reply. */
  reportsLoading: (projectId: string) => number;
  /** The list arrived: merged with what events brought while it was on its way. */
  reportsListed: (projectId: string, request: number, reports: Report[]) => void;
  reportsFailed: (projectId: string, request: number, message: string) => void;
  /** A report was made, moved on, finished or failed (event or reply): the copy further along wins. */
  reportUpserted: (report: Report) => void;
  reportRemoved: (projectId: string, id: string) => void;
  /** The page closed: later events will not reach this tab. */
  reportsClosed: (projectId: string) => void;
  /** A new connection (Hello): changes may have been missed meanwhile, so lists are read again. */
  reportsCleared: () => void;
}

export const emptyReports = (): ProjectReports => ({ list: [], loaded: false, loading: false, error: null, deleted: {}, request: 0 });

let requestCounter = 0;

export const createReportsSlice: StateCreator<AppState, [], [], ReportsSlice> = (set) => {
  /** Applies `change` to a held project's reports; projects not held are left alone. */
  const patch = (projectId: string, change: (held: ProjectReports) => ProjectReports | null) =>
    set((state) => {
      const held = state.reports[projectId];
      if (!held) return state;
      const next = change(held);
      return next && next !== held ? { reports: { ...state.reports, [projectId]: next } } : state;
    });

  return {
    reports: {},
    reportsLoading: (projectId) => {
      requestCounter += 1;
      const request = requestCounter;
      set((state) => ({
        reports: { ...state.reports, [projectId]: { ...(state.reports[projectId] ?? emptyReports()), loading: true, error: null, request } },
      }));
      return request;
    },
    reportsListed: (projectId, request, reports) =>
      patch(projectId, (held) => {
        if (held.request !== request) return null;
        const mine = reports.filter((r) => r.projectId === projectId);
        return { ...held, list: mergeReports(held.list, mine, held.deleted), loaded: true, loading: false, error: null };
      }),
    reportsFailed: (projectId, request, message) =>
      patch(projectId, (held) => (held.request !== request ? null : { ...held, loading: false, error: message })),
    reportUpserted: (report) =>
      patch(report.projectId, (held) => {
        if (held.deleted[report.id]) return null;
        const list = upsertReport(held.list, report);
        return list === held.list ? null : { ...held, list };
      }),
    reportRemoved: (projectId, id) =>
      patch(projectId, (held) => ({ ...held, list: held.list.filter((r) => r.id !== id), deleted: { ...held.deleted, [id]: true } })),
    reportsClosed: (projectId) =>
      set((state) => {
        if (!state.reports[projectId]) return state;
        const reports = { ...state.reports };
        delete reports[projectId];
        return { reports };
      }),
    reportsCleared: () => set({ reports: {} }),
  };
};
