import type { StateCreator } from 'zustand';
import type { Notification } from '../protocol/types';
import type { AppState } from './index';

export interface NotificationsSlice {
  /** The pages of this user's notifications read so far, by id. */
  notifications: Record<string, Notification>;
  /** Unread count, all pages, as the server last counted it. */
  unreadNotifications: number;
  /** Whether older notifications remain to be paged in. */
  notificationsHaveMore: boolean;
  notificationsLoaded: boolean;
  /** A page arrived (`first`: the newest page, which replaces what is held). */
  notificationsListed: (page: Notification[], unread: number, hasMore: boolean, first: boolean) => void;
  notificationAdded: (notification: Notification, unread: number) => void;
  /** Some (`ids`) or all notifications were read, here or on another tab or device. */
  notificationsRead: (ids: string[], all: boolean, unread: number, at?: number) => void;
  notificationsCleared: () => void;
}

export const createNotificationsSlice: StateCreator<AppState, [], [], NotificationsSlice> = (set) => ({
  notifications: {},
  unreadNotifications: 0,
  notificationsHaveMore: false,
  notificationsLoaded: false,
  notificationsListed: (page, unread, hasMore, first) =>
    set((state) => {
      const notifications = first ? {} : { ...state.notifications };
      for (const n of page) notifications[n.id] = n;
      return {
        notifications,
        unreadNotifications: unread,
        notificationsHaveMore: first ? hasMore : hasMore && state.notificationsHaveMore,
        notificationsLoaded: true,
      };
    }),
  notificationAdded: (notification, unread) =>
    set((state) => ({
      notifications: { ...state.notifications, [notification.id]: notification },
      unreadNotifications: unread,
    })),
  notificationsRead: (ids, all, unread, at = Date.now()) =>
    set((state) => {
      const notifications = { ...state.notifications };
      const targets = all ? Object.keys(notifications) : ids;
      for (const id of targets) {
        const n = notifications[id];
        if (n && n.readAt === null) notifications[id] = { ...n, readAt: at };
      }
      return { notifications, unreadNotifications: unread };
    }),
  notificationsCleared: () =>
    set({ notifications: {}, unreadNotifications: 0, notificationsHaveMore: false, notificationsLoaded: false }),
});

/** Held notifications, newest first. */
export function newestNotifications(held: Record<string, Notification>): Notification[] {
  return Object.values(held).sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
}
