import type { StateCreator } from 'zustand';
import type { Profile } from '../protocol/types';
import { isNewer, newerWins } from '../sync/versions';
import type { AppState } from './index';

export interface UsersSlice {
  /**
   * Other users this user holds, by id (admins: the admins and builders, plus anyone an
   * event or reply brought; builders: their homeowners). Admins' user tables are paged
   * by the server rather than read from here.
   */
  users: Record<string, Profile>;
  /** Versions of users deleted since the last snapshot; older updates stay dead. */
  userTombstones: Record<string, number>;
  /** Ids of visible users who are online now. */
  online: Record<string, true>;
  usersLoaded: boolean;
  /**
   * Counts changes that can move a row of a user table (a person added, edited or gone,
   * a project added, moved or gone, a new connection): a table the server pages reads
   * its page again when it changes.
   */
  directoryVersion: number;
  /** On every Hello (reconnects included) the snapshot replaces the mirror. */
  usersReplaced: (users: Profile[], online: string[]) => void;
  /** An event or reply carried a user; a version older than the one held is ignored. */
  userUpserted: (user: Profile) => void;
  userRemoved: (id: string, version: number) => void;
  presenceChanged: (userId: string, online: boolean) => void;
  usersCleared: () => void;
}

export const createUsersSlice: StateCreator<AppState, [], [], UsersSlice> = (set) => ({
  users: {},
  userTombstones: {},
  online: {},
  usersLoaded: false,
  directoryVersion: 0,
  usersReplaced: (users, online) =>
    set((state) => ({
      users: Object.fromEntries(users.map((u) => [u.id, u])),
      userTombstones: {},
      online: Object.fromEntries(online.map((id) => [id, true as const])),
      usersLoaded: true,
      directoryVersion: state.directoryVersion + 1,
    })),
  userUpserted: (user) =>
    set((state) => {
      const held = state.users[user.id];
      const next = newerWins(held, user, state.userTombstones[user.id]);
      return next === held || !next ? state : { users: { ...state.users, [user.id]: next }, directoryVersion: state.directoryVersion + 1 };
    }),
  userRemoved: (id, version) =>
    set((state) => {
      if (!isNewer(state.users[id], { version })) return state;
      const users = { ...state.users };
      delete users[id];
      const online = { ...state.online };
      delete online[id];
      return { users, online, userTombstones: { ...state.userTombstones, [id]: version }, directoryVersion: state.directoryVersion + 1 };
    }),
  presenceChanged: (userId, isOnline) =>
    set((state) => {
      if (Boolean(state.online[userId]) === isOnline) return state;
      const online = { ...state.online };
      if (isOnline) online[userId] = true;
      else delete online[userId];
      return { online };
    }),
  usersCleared: () => set({ users: {}, userTombstones: {}, online: {}, usersLoaded: false }),
});
