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
  setTheme: (theme: Theme) => void;
  connectionChanged: (status: ConnectionStatus) => void;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  theme: readTheme(),
  connection: 'idle',
  setTheme: (theme) => {
    try {
      globalThis.localStorage?.setItem(THEME_KEY, theme);
    } catch {
      // Not persisted; the choice still applies to this tab.
    }
    set({ theme });
  },
  connectionChanged: (connection) => set({ connection }),
});
