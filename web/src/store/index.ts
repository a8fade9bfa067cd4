import { create } from 'zustand';
import { createProjectsSlice, type ProjectsSlice } from './projects';
import { createSessionSlice, type SessionSlice } from './session';
import { createUiSlice, type UiSlice } from './ui';

export type AppState = SessionSlice & ProjectsSlice & UiSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createSessionSlice(...a),
  ...createProjectsSlice(...a),
  ...createUiSlice(...a),
}));

export { sortProjects } from './projects';
export type { Theme, ConnectionStatus } from './ui';
export type { SessionStatus } from './session';
