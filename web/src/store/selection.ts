import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export interface SelectionSlice {
  /**
   * The photos chosen in a project's gallery ("Select"), by project id, in the
   * order they were chosen; a project is absent while its gallery is not choosing. Kept
   * here rather than in the gallery so the project's other screens can use the choice:
   * a progress report of the selected photos.
   */
  gallerySelections: Record<string, string[]>;
  /** The gallery starts choosing (`[]`), changes its choice, or stops (`null`). */
  gallerySelectionChanged: (projectId: string, ids: string[] | null) => void;
}

export const createSelectionSlice: StateCreator<AppState, [], [], SelectionSlice> = (set) => ({
  gallerySelections: {},
  gallerySelectionChanged: (projectId, ids) =>
    set((state) => {
      if (ids === null) {
        if (!state.gallerySelections[projectId]) return state;
        const gallerySelections = { ...state.gallerySelections };
        delete gallerySelections[projectId];
        return { gallerySelections };
      }
      return { gallerySelections: { ...state.gallerySelections, [projectId]: ids } };
    }),
});
