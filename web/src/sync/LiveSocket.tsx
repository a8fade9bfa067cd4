import { useCallback, useEffect, useState } from 'react';
// The package's CommonJS index re-exports the hook as a getter-defined `default`, which
// Vite 8's bundler interop resolves to the module object; the lib file exports it by name.
import { useWebSocket } from 'react-use-websocket/dist/lib/use-websocket';
import { ReadyState } from 'react-use-websocket';
import { getMe } from '../api/auth';
import { ApiRequestError } from '../api/http';
import { decodeServerMsg, encodeClientMsg } from '../protocol/codec';
import { clientLog } from './clientLog';
import { useAppStore, type ConnectionStatus } from '../store';
import { whenIdle } from '../lib/lazyModule';
import { loadProjectPages } from './commands';
import { applyServerMsg } from './reducer';
import { requests } from './requests';
import { reconnectDelay, RESTART_CLOSE_CODE, SESSION_GONE_CLOSE_CODE } from './reconnect';

export { reconnectDelay, RESTART_CLOSE_CODE, SESSION_GONE_CLOSE_CODE } from './reconnect';

/** The code the last socket closed with, for the next reconnect's delay. */
let lastCloseCode: number | undefined;

export function socketUrl(location: Location = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}

/**
 * Whether to open the socket again after it closed: not once the session is gone (the
 * user signs in again), nor once the server speaks another protocol version (only a
 * reload helps, see `speaksOurProtocol`).
 */
export function shouldReconnect(event: Pick<CloseEvent, 'code'>, connection: ConnectionStatus): boolean {
  return event.code !== SESSION_GONE_CLOSE_CODE && connection !== 'outdated';
}

function handleFrame(data: unknown): void {
  requests.heard();
  const apply = (bytes: ArrayBuffer) => {
    try {
      const msg = decodeServerMsg(bytes);
      applyServerMsg(msg, useAppStore.getState(), requests);
      // The projects the hello did not carry are read in the background, once the
      // first screen has asked for what it shows.
      if (msg.type === 'hello' && msg.snapshot.nextProjects) {
        const next = msg.snapshot.nextProjects;
        whenIdle(() => void loadProjectPages(requests, useAppStore.getState, next), 1500);
      }
    } catch (err) {
      console.warn('Dropped an undecodable frame', err);
    }
  };
  if (data instanceof ArrayBuffer) apply(data);
  else if (data instanceof Blob) void data.arrayBuffer().then(apply);
}

/**
 * Keeps one live connection open while signed in. It renders nothing: frames go to the
 * store through getState(), never through React state. When the device comes back
 * online while the socket is between retries (up to 30 s apart after a long time
 * offline), a fresh connection starts at once (docs/FEATURES.md, "On the phone").
 */
export function LiveSocket() {
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const onOnline = () => {
      if (useAppStore.getState().connection === 'reconnecting') setAttempt((n) => n + 1);
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, []);
  return <LiveConnection key={attempt} />;
}

function LiveConnection() {
  const onClose = useCallback((event: CloseEvent) => {
    lastCloseCode = event.code;
    requests.failAll({ code: 'disconnected', message: 'Connection to the server was lost.' });
    const store = useAppStore.getState();
    if (store.connection === 'outdated') return;
    if (event.code === SESSION_GONE_CLOSE_CODE) {
      // The session was revoked (logout elsewhere, password or role change): protected
      // routes send the user to /login once the session is cleared.
      store.signedOut('revoked');
      store.connectionChanged('closed');
    } else if (event.code === RESTART_CLOSE_CODE) {
      // The server asked for it: the session is fine, reconnect at once.
      store.connectionChanged('reconnecting');
    } else {
      store.connectionChanged('reconnecting');
      // A refused upgrade (HTTP 401) reaches the browser only as code 1006, so ask the
      // HTTP API whether the session still exists instead of retrying forever.
      getMe().catch((err: unknown) => {
        if (err instanceof ApiRequestError && err.status === 401) useAppStore.getState().signedOut('revoked');
      });
    }
  }, []);

  // Another protocol version: close this socket and open no other until a reload.
  const outdated = useAppStore((s) => s.connection === 'outdated');
  const { sendMessage, readyState } = useWebSocket(
    socketUrl(),
    {
      onOpen: (event) => {
        // Binary frames must arrive as ArrayBuffer for msgpackr (STYLE §7).
        (event.target as WebSocket).binaryType = 'arraybuffer';
      },
      onMessage: (event) => handleFrame(event.data),
      onClose,
      shouldReconnect: (event) => shouldReconnect(event, useAppStore.getState().connection),
      retryOnError: true,
      reconnectAttempts: 10_000,
      reconnectInterval: (attempt) => reconnectDelay(attempt, lastCloseCode),
    },
    !outdated,
  );

  useEffect(() => {
    if (readyState === ReadyState.OPEN) {
      requests.attach((msg) => sendMessage(encodeClientMsg(msg), false));
      useAppStore.getState().connectionChanged('open');
      // What was logged while offline or signed out goes now.
      void clientLog.flush();
      return () => requests.attach(null);
    }
    if (readyState === ReadyState.CONNECTING) {
      const current = useAppStore.getState().connection;
      if (current !== 'reconnecting') useAppStore.getState().connectionChanged('connecting');
    }
    return undefined;
  }, [readyState, sendMessage]);

  // A request refused until a second factor is set up shows the enrolment screen
  // (docs/SECURITY.md, "Two-factor sign-in").
  useEffect(() => {
    requests.onEnrolRequired = () => useAppStore.getState().enrolmentRequired(true);
    return () => {
      requests.onEnrolRequired = null;
    };
  }, []);

  useEffect(
    () => () => {
      requests.attach(null);
      useAppStore.getState().connectionChanged('idle');
    },
    [],
  );

  return null;
}
