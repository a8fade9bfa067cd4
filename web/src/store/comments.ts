import type { StateCreator } from 'zustand';
import type { Comment, UserSummary } from '../protocol/types';
import type { AppState } from './index';

/** One photo's thread, held while some screen shows it. */
export interface PhotoThread {
  byId: Record<string, Comment>;
  /**
   * Ids deleted on this connection: a list read before the deletion must not bring
   * them back.
   */
  deleted: Record<string, true>;
  /** Who may be @mentioned: the people who may see the photo's project. */
  people: UserSummary[];
  /** True once the list (list_comments reply) has arrived. */
  loaded: boolean;
}

export interface CommentsSlice {
  /** Threads of photos whose comments are on screen, by photo id. */
  threads: Record<string, PhotoThread>;
  /** A screen is about to list a photo's comments: from now on its events are kept. */
  threadOpened: (imageId: string) => void;
  threadClosed: (imageId: string) => void;
  /** The list arrived: merged with what events brought meanwhile. */
  threadListed: (imageId: string, comments: Comment[], people: UserSummary[]) => void;
  /** A comment arrived (event or reply); the later edit wins. */
  commentUpserted: (comment: Comment) => void;
  commentRemoved: (imageId: string, id: string) => void;
  /** A new connection or sign-out: threads are listed again. */
  threadsCleared: () => void;
}

const emptyThread = (): PhotoThread => ({ byId: {}, deleted: {}, people: [], loaded: false });

/** Comments carry no version; an edit always has a later `updatedAt` than what it replaced. */
function laterEdit(held: Comment | undefined, incoming: Comment): Comment {
  return held && held.updatedAt > incoming.updatedAt ? held : incoming;
}

export const createCommentsSlice: StateCreator<AppState, [], [], CommentsSlice> = (set) => {
  const patch = (imageId: string, change: (held: PhotoThread) => PhotoThread | null) =>
    set((state) => {
      const held = state.threads[imageId];
      if (!held) return state;
      const next = change(held);
      return next && next !== held ? { threads: { ...state.threads, [imageId]: next } } : state;
    });

  return {
    threads: {},
    threadOpened: (imageId) =>
      set((state) => (state.threads[imageId] ? state : { threads: { ...state.threads, [imageId]: emptyThread() } })),
    threadClosed: (imageId) =>
      set((state) => {
        if (!state.threads[imageId]) return state;
        const threads = { ...state.threads };
        delete threads[imageId];
        return { threads };
      }),
    threadListed: (imageId, comments, people) =>
      patch(imageId, (held) => {
        const byId = { ...held.byId };
        for (const comment of comments) {
          if (comment.imageId !== imageId || held.deleted[comment.id]) continue;
          byId[comment.id] = laterEdit(byId[comment.id], comment);
        }
        return { ...held, byId, people, loaded: true };
      }),
    commentUpserted: (comment) =>
      patch(comment.imageId, (held) => {
        if (held.deleted[comment.id]) return null;
        const next = laterEdit(held.byId[comment.id], comment);
        if (next === held.byId[comment.id]) return null;
        return { ...held, byId: { ...held.byId, [comment.id]: next } };
      }),
    commentRemoved: (imageId, id) =>
      patch(imageId, (held) => {
        const byId = { ...held.byId };
        delete byId[id];
        return { ...held, byId, deleted: { ...held.deleted, [id]: true } };
      }),
    threadsCleared: () => set({ threads: {} }),
  };
};

/** A thread's comments, oldest first (the order they were written). */
export function threadComments(thread: PhotoThread | undefined): Comment[] {
  if (!thread) return [];
  return Object.values(thread.byId).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}
