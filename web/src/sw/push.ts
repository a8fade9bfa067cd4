/**
 * Web Push in the service worker (the server sends them). A push carries
 * `{ title, body, url, tag }`, `url` being an app path such as `/projects/ID?photo=ID`;
 * tapping the notification brings an open Sitecast window to that page, or opens one.
 */
import type { WorkerMessage } from '../offline/contract';

export interface PushMessage {
  title: string;
  body: string;
  /** An app path on this origin. */
  url: string;
  tag?: string;
}

export const NOTIFICATION_ICON = '/icons/icon-192.png';
/** Android's status bar shows this silhouette. */
export const NOTIFICATION_BADGE = '/icons/badge-96.png';
/** Where a push that names no usable page leads. */
const FALLBACK_PATH = '/dashboard';

/** `url` as a path of this app, or the dashboard: a push never sends anyone elsewhere. */
export function appPath(url: unknown, origin: string): string {
  if (typeof url !== 'string' || url === '') return FALLBACK_PATH;
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? target.pathname + target.search + target.hash : FALLBACK_PATH;
  } catch {
    return FALLBACK_PATH;
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The push's payload (parsed JSON, or its text), made safe to show. */
export function readPush(payload: unknown, origin: string): PushMessage {
  if (typeof payload === 'string') return { title: 'Sitecast', body: payload, url: FALLBACK_PATH };
  const data = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const tag = text(data.tag);
  return { title: text(data.title) || 'Sitecast', body: text(data.body), url: appPath(data.url, origin), ...(tag ? { tag } : {}) };
}

/** `renotify` is in the Notifications standard but not in TypeScript's library. */
type Options = NotificationOptions & { renotify?: boolean };

export function notificationOptions(message: PushMessage): Options {
  return {
    body: message.body,
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_BADGE,
    data: { url: message.url },
    // A newer push with the same tag (more photos of the same visit) replaces the old
    // notification, and still alerts.
    ...(message.tag ? { tag: message.tag, renotify: true } : {}),
  };
}

export interface WindowLike {
  url: string;
  focused: boolean;
  visibilityState: DocumentVisibilityState;
}

/** The window a tapped notification uses: the focused one, else a visible one, else any of this app's. */
export function windowToUse<W extends WindowLike>(windows: readonly W[], origin: string): W | undefined {
  const ours = windows.filter((w) => new URL(w.url).origin === origin);
  return ours.find((w) => w.focused) ?? ours.find((w) => w.visibilityState === 'visible') ?? ours[0];
}

function payloadOf(event: PushEvent): unknown {
  if (!event.data) return {};
  try {
    return event.data.json() as unknown;
  } catch {
    return event.data.text();
  }
}

export function installPushHandlers(sw: ServiceWorkerGlobalScope): void {
  const origin = sw.location.origin;

  sw.addEventListener('push', (event) => {
    const message = readPush(payloadOf(event), origin);
    event.waitUntil(sw.registration.showNotification(message.title, notificationOptions(message)));
  });

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const url = appPath((event.notification.data as { url?: unknown } | null)?.url, origin);
    event.waitUntil(
      (async () => {
        const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const open = windowToUse(windows, origin);
        if (!open) {
          await sw.clients.openWindow(url);
          return;
        }
        const focused = await open.focus().catch(() => open);
        // The page routes itself (offline/NotificationRouting): no reload, the socket stays.
        const navigate: WorkerMessage = { type: 'sitecast:navigate', url };
        focused.postMessage(navigate);
      })(),
    );
  });
}
