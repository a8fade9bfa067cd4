import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export type Theme = 'light' | 'dark' | 'system';
export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

const THEME_KEY = 'theme';

function readTheme(): Theme {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_KEY);
    if (stored === 'light' || stored === 'dark' || stored === 'system') return stored;
  } catch {
    // Storage can be blocked (private mode); fall through to the default.
  }
  return 'light'; // SPEC §4: default theme is light.
}

export interface UiSlice {
  theme: Theme;
  connection: ConnectionStatus;
  /**
   * Counts Hellos: each one starts a fresh server view, so per-connection state (project
   * subscriptions) is set up again whenever it changes.
   */
  liveEpoch: number;
  setTheme: (theme: Theme) => void;
  connectionChanged: (status: ConnectionStatus) => void;
  liveSynced: () => void;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  theme: readTheme(),
  connection: 'idle',
  liveEpoch: 0,
  setTheme: (theme) => {
    try {
      globalThis.localStorage?.setItem(THEME_KEY, theme);
    } catch {
      // Not persisted; the choice still applies to this tab.
    }
    set({ theme });
  },
  connectionChanged: (connection) => set({ connection }),
  liveSynced: () => set((state) => ({ liveEpoch: state.liveEpoch + 1, connection: 'open' })),
});
