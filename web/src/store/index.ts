import { create } from 'zustand';
import { createCommentsSlice, type CommentsSlice } from './comments';
import { createMarkupSlice, type MarkupSlice } from './markup';
import { createMilestonesSlice, type MilestonesSlice } from './milestones';
import { createNotificationsSlice, type NotificationsSlice } from './notifications';
import { createPhotosSlice, type PhotosSlice } from './photos';
import { createProjectsSlice, type ProjectsSlice } from './projects';
import { createSearchSlice, type SearchSlice } from './search';
import { createSessionSlice, type SessionSlice } from './session';
import { createTimelineSlice, type TimelineSlice } from './timeline';
import { createUiSlice, type UiSlice } from './ui';
import { createUsersSlice, type UsersSlice } from './users';

export type AppState = SessionSlice &
  ProjectsSlice &
  PhotosSlice &
  MilestonesSlice &
  TimelineSlice &
  CommentsSlice &
  MarkupSlice &
  NotificationsSlice &
  UsersSlice &
  SearchSlice &
  UiSlice;

/** Builds the one app store; tests build their own to start from a clean slate. */
export const createAppStore = () =>
  create<AppState>()((...a) => ({
    ...createSessionSlice(...a),
    ...createProjectsSlice(...a),
    ...createPhotosSlice(...a),
    ...createMilestonesSlice(...a),
    ...createTimelineSlice(...a),
    ...createCommentsSlice(...a),
    ...createMarkupSlice(...a),
    ...createNotificationsSlice(...a),
    ...createUsersSlice(...a),
    ...createSearchSlice(...a),
    ...createUiSlice(...a),
  }));

export const useAppStore = createAppStore();

export { sortProjects } from './projects';
export type { Theme, ConnectionStatus } from './ui';
export type { SessionStatus } from './session';
export type { ProjectPhotos } from './photos';
export type { ProjectTimeline } from './timeline';
export type { PhotoThread } from './comments';
export type { HeldMarkup } from './markup';
export { threadComments } from './comments';
export { newestNotifications } from './notifications';
