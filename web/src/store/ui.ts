import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export type Theme = 'light' | 'dark' | 'system';
/** `outdated`: the server speaks another protocol version; only a reload helps. */
export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'outdated';

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
  /**
   * What the pages show is the copy kept on this device, not the server's
   * live view: the socket could not connect. The next Hello replaces it.
   */
  showingSavedCopy: boolean;
  savedCopyShown: () => void;
  setTheme: (theme: Theme) => void;
  /** Ignored once `outdated`: that lasts until the page is reloaded. */
  connectionChanged: (status: ConnectionStatus) => void;
  liveSynced: () => void;
  /** The server's Hello carried another protocol version (see `speaksOurProtocol`). */
  protocolOutdated: () => void;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  theme: readTheme(),
  connection: 'idle',
  liveEpoch: 0,
  showingSavedCopy: false,
  savedCopyShown: () => set((state) => (state.showingSavedCopy ? state : { showingSavedCopy: true })),
  setTheme: (theme) => {
    try {
      globalThis.localStorage?.setItem(THEME_KEY, theme);
    } catch {
      // Not persisted; the choice still applies to this tab.
    }
    set({ theme });
  },
  connectionChanged: (connection) => set((state) => (state.connection === 'outdated' ? state : { connection })),
  liveSynced: () => set((state) => ({ liveEpoch: state.liveEpoch + 1, connection: 'open', showingSavedCopy: false })),
  protocolOutdated: () => set({ connection: 'outdated' }),
});
