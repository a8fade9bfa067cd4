import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export interface SearchSlice {
  /**
   * Counts `search_changed` events: something searchable changed in a project
   * this user may see while their search was watched. The open search runs its query
   * again when it moves; the results themselves are not held here, they belong to the
   * one search box that asked.
   */
  searchChanges: number;
  /** The project of the latest change, for a search narrowed to one project. */
  searchChangedIn: string | null;
  searchChanged: (projectId: string) => void;
}

export const createSearchSlice: StateCreator<AppState, [], [], SearchSlice> = (set) => ({
  searchChanges: 0,
  searchChangedIn: null,
  searchChanged: (projectId) => set((state) => ({ searchChanges: state.searchChanges + 1, searchChangedIn: projectId })),
});
