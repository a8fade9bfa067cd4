import type { Shape } from '../protocol/types';

/**
 * Undo and redo for the markup editor: whole shape lists, one per finished gesture or
 * edit (a drag is one step, not one per pointer move). Redo is dropped by a new change,
 * and the history starts again when someone else's version is adopted, so undo never
 * takes back another person's work.
 */
export interface MarkupHistory {
  past: Shape[][];
  present: Shape[];
  future: Shape[][];
}

/** Steps kept; older ones fall off (a long session keeps memory bounded). */
export const HISTORY_LIMIT = 100;

export const historyStart = (shapes: Shape[]): MarkupHistory => ({ past: [], present: shapes, future: [] });

/** A finished change; a change to the same list is no step. */
export function historyPush(h: MarkupHistory, next: Shape[]): MarkupHistory {
  if (next === h.present) return h;
  const past = [...h.past, h.present];
  if (past.length > HISTORY_LIMIT) past.splice(0, past.length - HISTORY_LIMIT);
  return { past, present: next, future: [] };
}

export const canUndo = (h: MarkupHistory) => h.past.length > 0;
export const canRedo = (h: MarkupHistory) => h.future.length > 0;

export function historyUndo(h: MarkupHistory): MarkupHistory {
  if (!canUndo(h)) return h;
  const previous = h.past[h.past.length - 1];
  return { past: h.past.slice(0, -1), present: previous, future: [h.present, ...h.future] };
}

export function historyRedo(h: MarkupHistory): MarkupHistory {
  if (!canRedo(h)) return h;
  const [next, ...rest] = h.future;
  return { past: [...h.past, h.present], present: next, future: rest };
}

/** The keyboard's undo and redo: Ctrl/Cmd-Z, Ctrl/Cmd-Shift-Z and Ctrl-Y. */
export function historyKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey?: boolean }): 'undo' | 'redo' | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && e.ctrlKey && !e.shiftKey) return 'redo';
  return null;
}
