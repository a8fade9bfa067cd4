import type { SubscribePush } from '../protocol/types';

/**
 * This browser's Web Push subscription
 * (docs/FEATURES.md, "Comments, notifications and mail"). Pushes reach the app's service
 * worker (src/sw.ts shows them), so the subscription is made on its registration; this
 * module registers nothing. The server keeps a subscription for the session that made it
 * and sends what the account's Push preferences ask for.
 */

const PUSH_SERVICE_UNREACHABLE = "This browser's push service could not be reached. Check the connection and try again.";
const PUSH_NOT_ALLOWED = 'This browser did not allow notifications for Sitecast.';
const PUSH_FAILED = 'Notifications could not be turned on in this browser.';

/** Where the browser has no service workers, Push API or Notifications at all. */
export const PUSH_UNSUPPORTED = "Notifications need this app's offline support, which this browser does not have.";
/**
 * iPhones and iPads have Web Push only in a web app added to the Home Screen (iOS 16.4+);
 * Safari's tabs have no PushManager.
 */
export const PUSH_UNSUPPORTED_IOS = `${PUSH_UNSUPPORTED} On an iPhone or iPad, add Sitecast to your Home Screen (Share › Add to Home Screen) and turn notifications on from there.`;
/** The browser could, but this tab has no service worker (still starting, failed, or a development build). */
export const NO_SERVICE_WORKER = "Notifications need this app's offline support, which has not started in this tab. Reload the page and try again.";
export const SUBSCRIPTION_UNUSABLE = "This browser's push subscription is not valid. Try again, or try another browser.";

/** The setup failed for a reason the person is told as it is. */
export class PushSetupError extends Error {}

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

export function unsupportedMessage(userAgent: string): string {
  return /iPhone|iPad|iPod/.test(userAgent) ? PUSH_UNSUPPORTED_IOS : PUSH_UNSUPPORTED;
}

/** Whether this site may show notifications: 'default' until asked, 'denied' once blocked. */
export function notificationPermission(): NotificationPermission {
  return pushSupported() ? Notification.permission : 'default';
}

/** base64url (padded or not) to its bytes: the server's VAPID key as `applicationServerKey` takes it. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a subscription was made with `key`: one made with another server key cannot be sent to. */
export function madeWithKey(applicationServerKey: ArrayBuffer | null, key: Uint8Array): boolean {
  if (!applicationServerKey || applicationServerKey.byteLength !== key.length) return false;
  const held = new Uint8Array(applicationServerKey);
  return held.every((byte, i) => byte === key[i]);
}

/** What `subscribe_push` takes, from `PushSubscription.toJSON()` (its keys are base64url already); null when incomplete. */
export function subscriptionRequest(json: PushSubscriptionJSON): SubscribePush | null {
  const { endpoint, keys } = json;
  const p256dh = keys?.p256dh;
  const auth = keys?.auth;
  return endpoint && p256dh && auth ? { endpoint, p256dh, auth } : null;
}

/** The app's service worker registration, once it is active (subscribing needs an active worker); null without one. */
async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return null;
  // Still installing: `ready` answers once it is active.
  return registration.active ? registration : navigator.serviceWorker.ready;
}

/** This browser's subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Subscribes this browser with the server's key (keeping a subscription it already
 * made with that key) and answers what `subscribe_push` takes. Ask for permission first.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<SubscribePush> {
  const registration = await activeRegistration();
  if (!registration) throw new PushSetupError(NO_SERVICE_WORKER);
  const key = base64UrlToBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !madeWithKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const request = subscriptionRequest(subscription.toJSON());
  if (!request) throw new PushSetupError(SUBSCRIPTION_UNUSABLE);
  return request;
}

/**
 * Ends this browser's subscription, if any, and answers its endpoint (for
 * `unsubscribe_push`) even when the browser failed to end it. Best effort: a browser
 * that cannot answer has none to end.
 */
export async function unsubscribeThisBrowser(): Promise<string | null> {
  let subscription: PushSubscription | null = null;
  try {
    subscription = await currentSubscription();
    await subscription?.unsubscribe();
  } catch (err) {
    console.warn('Push subscription not ended', err);
  }
  return subscription?.endpoint ?? null;
}

/** What to tell the person when the browser's part of turning notifications on failed. */
export function pushFailure(error: unknown): string {
  if (error instanceof PushSetupError) return error.message;
  const name = error instanceof Error ? error.name : undefined;
  // Chromium answers AbortError when its push service cannot be registered with.
  if (name === 'AbortError') return PUSH_SERVICE_UNREACHABLE;
  if (name === 'NotAllowedError') return PUSH_NOT_ALLOWED;
  return PUSH_FAILED;
}
