// One live event of every type, about project p1 and its photo i1, for tests that walk them all.
import type { Event, Markup } from '../protocol/types';
import { comment, company, notification, photo, plan, profile, project, report, timelineEntry } from './fixtures';

/** The markup of photo i1 at `version`, with `shapeCount` pins. */
export const markup = (version: number, shapeCount: number, imageId = 'i1'): Markup => ({
  imageId,
  projectId: 'p1',
  version,
  shapes: Array.from({ length: shapeCount }, (_, i) => ({
    id: `s${i}`,
    color: 'red',
    width: 'medium',
    geometry: { kind: 'pin', at: { x: 0.5, y: 0.5 }, note: '' },
    authorId: 'b1',
  })),
  authors: [],
  updatedAt: version,
  updatedBy: null,
});

/**
 * Each event type once, keyed by its type: the mapped type makes an event type added to
 * the protocol fail to compile here until it has its example.
 */
export const oneEventOfEach = (): { [T in Event['type']]: Extract<Event, { type: T }> } => ({
  session_ended: { type: 'session_ended', reason: 'revoked' },
  project_created: { type: 'project_created', project: project({ progress: 99, version: 50 }) },
  project_updated: { type: 'project_updated', project: project({ progress: 60, version: 5 }), actor: null },
  project_deleted: { type: 'project_deleted', id: 'p1', version: 9 },
  user_created: { type: 'user_created', user: profile({ id: 'h3' }) },
  user_updated: { type: 'user_updated', user: profile({ id: 'h1', version: 2 }) },
  user_deleted: { type: 'user_deleted', id: 'h1', version: 3 },
  presence: { type: 'presence', userId: 'h1', online: true },
  viewers: { type: 'viewers', projectId: 'p1', viewers: [] },
  photo_added: { type: 'photo_added', photo: photo({ id: 'i3' }) },
  photo_updated: { type: 'photo_updated', photo: photo({ id: 'i1', caption: 'Roof on', version: 2 }) },
  photo_deleted: { type: 'photo_deleted', id: 'i2', projectId: 'p1' },
  favourite_changed: { type: 'favourite_changed', projectId: 'p1', imageId: 'i1', favourite: true },
  comment_added: { type: 'comment_added', comment: comment({}), commentCount: 1 },
  comment_updated: { type: 'comment_updated', comment: comment({ body: 'Edited' }) },
  notification_added: { type: 'notification_added', notification: notification({}), unread: 1 },
  notifications_read: { type: 'notifications_read', ids: ['n1'], all: false, unread: 0 },
  comment_deleted: { type: 'comment_deleted', id: 'c1', imageId: 'i1', projectId: 'p1', commentCount: 0 },
  markup_changed: { type: 'markup_changed', markup: markup(2, 2), actor: null },
  milestones_changed: { type: 'milestones_changed', plan: plan(['Foundation', 'Framing'], {}, 5) },
  timeline_added: { type: 'timeline_added', entry: timelineEntry({ id: 't9' }) },
  timeline_removed: { type: 'timeline_removed', projectId: 'p1', id: 't9' },
  search_changed: { type: 'search_changed', projectId: 'p1' },
  report_changed: { type: 'report_changed', report: report({}) },
  report_deleted: { type: 'report_deleted', id: 'r1', projectId: 'p1' },
  company_changed: { type: 'company_changed', company: company({ version: 2 }) },
  company_deleted: { type: 'company_deleted', id: 'c1', version: 2 },
});
