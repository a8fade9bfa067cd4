import { useCallback, useEffect } from 'react';
// See LiveSocket.tsx: the lib file exports the hook by name.
import { useWebSocket } from 'react-use-websocket/dist/lib/use-websocket';
import { ReadyState } from 'react-use-websocket';
import { guestSocketUrl, isDeadLink, openGuestLink } from '../api/guest';
import { decodeServerMsg, encodeClientMsg } from '../protocol/codec';
import { useGuestStore } from '../store/guest';
import { guestCommands, guestRequests } from './guestCommands';
import { applyGuestServerMsg } from './guestView';
import { reconnectDelay, RESTART_CLOSE_CODE, SESSION_GONE_CLOSE_CODE } from './reconnect';

/** The code the last guest socket closed with, for the next reconnect's delay. */
let lastCloseCode: number | undefined;

function handleFrame(data: unknown): void {
  // Frames arriving mean the link works: a reply queued behind them is not late.
  guestRequests.heard();
  const apply = (bytes: ArrayBuffer) => {
    try {
      const msg = decodeServerMsg(bytes);
      applyGuestServerMsg(msg, useGuestStore.getState(), guestRequests);
      // The hello carries the newest page; the older ones follow in the background.
      if (msg.type === 'guest_hello' && msg.nextPhotos) void guestCommands.loadPhotos();
    } catch (err) {
      console.warn('Dropped an undecodable frame', err);
    }
  };
  if (data instanceof ArrayBuffer) apply(data);
  else if (data instanceof Blob) void data.arrayBuffer().then(apply);
}

/** Whether the guest socket should open again: not once the link is dead or the protocol differs. */
export function guestShouldReconnect(code: number, phase: string): boolean {
  return code !== SESSION_GONE_CLOSE_CODE && phase !== 'inactive' && phase !== 'outdated';
}

/**
 * The guest's live connection (`/ws/guest`, authorised by the cookie the link's open
 * set). Renders nothing: frames go to the guest store through getState(). Reconnects
 * with the signed-in socket's backoff; a close with 4401 (link revoked or expired) or
 * a reopen the server refuses ends the visit.
 */
export function GuestSocket({ token }: { token: string }) {
  const onClose = useCallback(
    (event: CloseEvent) => {
      lastCloseCode = event.code;
      guestRequests.failAll({ code: 'disconnected', message: 'Connection to the server was lost.' });
      const store = useGuestStore.getState();
      if (store.phase === 'inactive' || store.phase === 'outdated') return;
      if (event.code === SESSION_GONE_CLOSE_CODE) {
        store.guestEnded();
        return;
      }
      store.guestConnectionChanged('reconnecting');
      if (event.code === RESTART_CLOSE_CODE) return;
      // A refused upgrade (the link revoked while we were away) reaches the browser only
      // as 1006: open the link again, which renews the cookie or says it is dead.
      openGuestLink(token).catch((err: unknown) => {
        if (isDeadLink(err)) useGuestStore.getState().guestEnded();
      });
    },
    [token],
  );

  const { sendMessage, readyState } = useWebSocket(guestSocketUrl(), {
    onOpen: (event) => {
      // Binary frames must arrive as ArrayBuffer for msgpackr (STYLE §7).
      (event.target as WebSocket).binaryType = 'arraybuffer';
    },
    onMessage: (event) => handleFrame(event.data),
    onClose,
    shouldReconnect: (event) => guestShouldReconnect(event.code, useGuestStore.getState().phase),
    retryOnError: true,
    reconnectAttempts: 10_000,
    reconnectInterval: (attempt) => reconnectDelay(attempt, lastCloseCode),
  });

  useEffect(() => {
    if (readyState === ReadyState.OPEN) {
      guestRequests.attach((msg) => sendMessage(encodeClientMsg(msg), false));
      return () => guestRequests.attach(null);
    }
    if (readyState === ReadyState.CONNECTING && useGuestStore.getState().connection !== 'reconnecting') {
      useGuestStore.getState().guestConnectionChanged('connecting');
    }
    return undefined;
  }, [readyState, sendMessage]);

  useEffect(
    () => () => {
      guestRequests.attach(null);
      guestRequests.failAll({ code: 'disconnected', message: 'Connection to the server was lost.' });
    },
    [],
  );

  return null;
}
