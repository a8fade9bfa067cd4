import type { StateCreator } from 'zustand';
import type { MilestonePlan } from '../protocol/types';
import { newerWins } from '../sync/versions';
import type { AppState } from './index';

export interface MilestonesSlice {
  /**
   * Each project's milestone plan, by project id. A plan is always sent whole (the
   * `subscribed` reply, every milestone request's reply, `milestones_changed`), so the
   * copy with the highest version is the whole truth and replaces the one held.
   */
  milestones: Record<string, MilestonePlan>;
  /** A plan arrived; kept unless a newer one is already held (an equal version is the same change). */
  milestonesReplaced: (plan: MilestonePlan) => void;
  /** The project is gone: its plan goes with it. */
  milestonesRemoved: (projectId: string) => void;
}

export const createMilestonesSlice: StateCreator<AppState, [], [], MilestonesSlice> = (set) => ({
  milestones: {},
  milestonesReplaced: (plan) =>
    set((state) => {
      const held = state.milestones[plan.projectId];
      const next = newerWins(held, plan);
      return next === held ? state : { milestones: { ...state.milestones, [plan.projectId]: next } };
    }),
  milestonesRemoved: (projectId) =>
    set((state) => {
      if (!state.milestones[projectId]) return state;
      const milestones = { ...state.milestones };
      delete milestones[projectId];
      return { milestones };
    }),
});
