import { create } from 'zustand';
import { createCommentsSlice, type CommentsSlice } from './comments';
import { createCompaniesSlice, type CompaniesSlice } from './companies';
import { createMarkupSlice, type MarkupSlice } from './markup';
import { createMilestonesSlice, type MilestonesSlice } from './milestones';
import { createNotificationsSlice, type NotificationsSlice } from './notifications';
import { createPhotosSlice, type PhotosSlice } from './photos';
import { createProjectsSlice, type ProjectsSlice } from './projects';
import { createReportsSlice, type ReportsSlice } from './reports';
import { createSearchSlice, type SearchSlice } from './search';
import { createSelectionSlice, type SelectionSlice } from './selection';
import { createSessionSlice, type SessionSlice } from './session';
import { createTimelineSlice, type TimelineSlice } from './timeline';
import { createUiSlice, type UiSlice } from './ui';
import { createUsersSlice, type UsersSlice } from './users';

export type AppState = SessionSlice &
  ProjectsSlice &
  PhotosSlice &
  MilestonesSlice &
  TimelineSlice &
  ReportsSlice &
  CommentsSlice &
  MarkupSlice &
  NotificationsSlice &
  UsersSlice &
  CompaniesSlice &
  SearchSlice &
  SelectionSlice &
  UiSlice;

/** Builds the one app store; tests build their own to start from a clean slate. */
export const createAppStore = () =>
  create<AppState>()((...a) => ({
    ...createSessionSlice(...a),
    ...createProjectsSlice(...a),
    ...createPhotosSlice(...a),
    ...createMilestonesSlice(...a),
    ...createTimelineSlice(...a),
    ...createReportsSlice(...a),
    ...createCommentsSlice(...a),
    ...createMarkupSlice(...a),
    ...createNotificationsSlice(...a),
    ...createUsersSlice(...a),
    ...createCompaniesSlice(...a),
    ...createSearchSlice(...a),
    ...createSelectionSlice(...a),
    ...createUiSlice(...a),
  }));

export const useAppStore = createAppStore();

export { sortProjects } from './projects';
export { sortCompanies } from './companies';
export type { Theme, ConnectionStatus } from './ui';
export type { SessionStatus } from './session';
export type { ListedReach, PhotoPaging, PhotoWindowLoad, ProjectPhotos } from './photos';
export type { ProjectTimeline } from './timeline';
export type { ProjectReports } from './reports';
export type { PhotoThread } from './comments';
export type { HeldMarkup } from './markup';
export { threadComments } from './comments';
export { newestNotifications } from './notifications';
