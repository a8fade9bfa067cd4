import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { audit } from './axe';
import { SCREENSHOT_DIR, toast } from './helpers';
import { fileInput, makePhoto, photoSection, showAllDates, tile } from './photoHelpers';
import { makeWorld, person, signIn, type Person, type World } from './world';

/**
 * Push notifications. A browser's real push service (FCM for Chromium) is
 * out of reach here, so scripts/e2e.sh runs scripts/push_service.py on loopback and
 * the server accepts it (SITECAST_PUSH_SERVICES). The homeowner's browser subscribes
 * through the app's settings; the only stand-in is PushManager, whose subscription
 * comes from that service (GET /subscribe: an endpoint and fresh keys, as a browser's
 * push service hands out). The service checks each push's VAPID signature and
 * decrypts it (RFC 8291) with code independent of the server's; GET /received lists
 * what it decrypted. Each subscription has its own number, so a test reads only the
 * pushes to the subscriptions its own world's users made.
 */

const PUSH_URL = process.env.SITECAST_E2E_PUSH_URL;

interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

interface Received {
  subscription: number;
  payload: { title: string; body: string; url: string; tag: string };
  ttl: string | null;
  vapid: { aud: string; sub: string; exp: number };
}

function pushService(): string {
  if (!PUSH_URL) throw new Error('SITECAST_E2E_PUSH_URL is not set: run the browser tests through scripts/e2e.sh, which starts the loopback push service');
  return PUSH_URL;
}

/** The pushes the loopback service decrypted for subscription `n`. */
async function received(n: number): Promise<Received[]> {
  const all = (await (await fetch(`${pushService()}/received`)).json()) as Received[];
  return all.filter((push) => push.subscription === n);
}

/**
 * Stands in for the browser's push service: PushManager's subscribe and
 * getSubscription answer a subscription from the loopback service (kept in
 * localStorage, as a browser keeps one across reloads), and, while this build has no
 * service worker, `getRegistration()` answers a registration with that PushManager.
 * Once the app registers its own worker, the real registration is used.
 */
async function withLoopbackPush(context: BrowserContext): Promise<{ subscriptions: Subscription[] }> {
  const subscriptions: Subscription[] = [];
  await context.exposeFunction('__e2ePushSubscribe', async () => {
    const made = (await (await fetch(`${pushService()}/subscribe`)).json()) as Subscription;
    subscriptions.push(made);
    return made;
  });
  await context.addInitScript(() => {
    const KEY = 'e2e-push-subscription';
    interface Held {
      endpoint: string;
      keys: { p256dh: string; auth: string };
      applicationServerKey: number[];
    }
    const subscriptionOf = (held: Held) => ({
      endpoint: held.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(held.applicationServerKey).buffer },
      toJSON: () => ({ endpoint: held.endpoint, expirationTime: null, keys: held.keys }),
      unsubscribe: async () => {
        localStorage.removeItem(KEY);
        return true;
      },
    });
    const held = (): Held | null => JSON.parse(localStorage.getItem(KEY) ?? 'null') as Held | null;
    PushManager.prototype.getSubscription = async function () {
      const kept = held();
      return (kept ? subscriptionOf(kept) : null) as unknown as PushSubscription | null;
    };
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const kept = held();
      if (kept) return subscriptionOf(kept) as unknown as PushSubscription;
      const key = options?.applicationServerKey;
      if (!key || typeof key === 'string' || !options?.userVisibleOnly) throw new DOMException('userVisibleOnly and a key, please', 'NotSupportedError');
      const bytes = ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : new Uint8Array(key);
      const made = await (window as unknown as { __e2ePushSubscribe: () => Promise<Omit<Held, 'applicationServerKey'>> }).__e2ePushSubscribe();
      const fresh: Held = { ...made, applicationServerKey: Array.from(bytes) };
      localStorage.setItem(KEY, JSON.stringify(fresh));
      return subscriptionOf(fresh) as unknown as PushSubscription;
    };
    const container = ServiceWorkerContainer.prototype;
    const getRegistration = container.getRegistration;
    const standIn = { active: {}, pushManager: Object.create(PushManager.prototype) as PushManager } as unknown as ServiceWorkerRegistration;
    container.getRegistration = async function (this: ServiceWorkerContainer, clientURL?: string) {
      return (await getRegistration.call(this, clientURL)) ?? standIn;
    };
  });
  return { subscriptions };
}


/** The builder publishes one photo through the uploader: a site visit of one, which notifies the homeowner. */
async function publishPhoto(page: Page, name: string, hue: number): Promise<void> {
  const section = photoSection(page, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  await fileInput(section).setInputFiles([await makePhoto(page, name, { hue })]);
  await section.getByRole('region', { name: 'Selected Photos' }).getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page, '1 photo uploaded successfully').last()).toBeVisible({ timeout: 30_000 });
}

/**
 * Signs in through the form, as on a new device, then opens `path`: a session opened so
 * records the browser, which names the device's row ("Chromium on Linux").
 */
async function signInOnDevice(page: Page, world: World, who: Person, path: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(person(world, who).email);
  await page.getByLabel('Password', { exact: true }).fill(world.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(path);
}

function notificationsSection(page: Page): Locator {
  return page.getByRole('region', { name: 'Notifications', exact: true });
}

/** The homeowner's notification centre lists one with this title (it arrives live). */
async function expectInBell(page: Page, title: string, count: number): Promise<void> {
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification').filter({ hasText: title })).toHaveCount(count, { timeout: 15_000 });
  await page.keyboard.press('Escape');
}

test('a new photo reaches the homeowner’s device as an encrypted push; Push off for new photos stops it', async ({ browser }) => {
  // Two uploads, each announced live and by push, an audit at two widths and three reloads.
  test.setTimeout(180_000);
  const world = await makeWorld({ photos: 0, comments: false, milestones: false });
  const { id, title } = world.projects[0]!;
  const stamp = world.tag;

  const homeownerContext = await browser.newContext();
  await homeownerContext.grantPermissions(['notifications']);
  const { subscriptions } = await withLoopbackPush(homeownerContext);
  const homeowner = await homeownerContext.newPage();
  await signInOnDevice(homeowner, world, 'homeowner', '/profile-settings#notifications');
  const section = notificationsSection(homeowner);
  const thisDevice = section.getByRole('button', { name: 'Turn on notifications on this device' });
  await expect(thisDevice).toBeVisible();
  await expect(section.getByTestId('push-device-row').filter({ hasText: 'This device' })).toHaveCount(0);
  // New photos are pushed: a new account's default.
  const pushNewPhotos = section.getByRole('checkbox', { name: 'New photos by push notification' });
  await expect(pushNewPhotos).toBeChecked();
  await homeowner.setViewportSize({ width: 390, height: 844 });
  await section.screenshot({ path: `${SCREENSHOT_DIR}/notifications-off-390.png`, animations: 'disabled' });
  await homeowner.setViewportSize({ width: 1280, height: 800 });

  // On: the browser subscribes with the server's key, the server stores it for this session.
  await thisDevice.click();
  await expect(toast(homeowner, 'Notifications are on for this device')).toBeVisible();
  expect(subscriptions).toHaveLength(1);
  const n = Number(/\/push\/(\d+)$/.exec(subscriptions[0]!.endpoint)?.[1]);
  const mine = section.getByTestId('push-device-row').filter({ hasText: 'This device' });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText(/Chrome|Chromium/);
  await expect(mine).toContainText('On since');
  await expect(section.getByRole('button', { name: 'Turn off' })).toBeVisible();
  // A reload finds it again: the server knows this browser by its subscription.
  await homeowner.reload();
  await expect(section.getByTestId('push-device-row').filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(pushNewPhotos).toBeChecked();

  await section.scrollIntoViewIfNeeded();
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await homeowner.setViewportSize({ width, height });
    await homeowner.mouse.move(0, 0);
    await section.screenshot({ path: `${SCREENSHOT_DIR}/notifications-settings-${width}.png`, animations: 'disabled' });
  }
  const findings = await new AxeBuilder({ page: homeowner }).include('#notifications').analyze();
  expect(findings.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
  await audit(homeowner, 'notifications-settings');

  // The builder publishes a photo; the homeowner's bell has it, and so does their device.
  const builderContext = await browser.newContext();
  const builder = await builderContext.newPage();
  await signIn(builder, world, 'owner', `/projects/${id}`);
  await publishPhoto(builder, `Sea wall footing ${stamp}.jpg`, 200);
  const newPhotos = `1 new photo in ${title}`;
  await expectInBell(homeowner, newPhotos, 1);
  await expect.poll(async () => (await received(n)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const [push] = await received(n);
  expect(push!.payload.title).toBe(newPhotos);
  expect(push!.payload.body).toBe(`Added by ${world.users.owner.name}`);
  expect(push!.payload.url).toBe(`/projects/${id}`);
  expect(push!.payload.tag).toBeTruthy();
  expect(Number(push!.ttl)).toBeGreaterThan(0);
  expect(push!.vapid.sub).toMatch(/^(mailto:|https:)/);

  // Push off for new photos (email stays as it was); it holds across a reload.
  const emailNewPhotos = section.getByRole('checkbox', { name: 'New photos by email' });
  const emailedBefore = await emailNewPhotos.isChecked();
  await pushNewPhotos.uncheck();
  await expect(toast(homeowner, 'Push preferences saved')).toBeVisible();
  await homeowner.reload();
  // Disabled until the preferences are read.
  await expect(pushNewPhotos).toBeEnabled();
  await expect(pushNewPhotos).not.toBeChecked();
  expect(await emailNewPhotos.isChecked()).toBe(emailedBefore);
  await expect(section.getByRole('checkbox', { name: 'Comments and @mentions by push notification' })).toBeChecked();

  // Another photo: the bell has it, the device does not. A comment on it afterwards is
  // pushed (comments stay on); the server sends its queue in order, so once the
  // comment's push is in, a push for the second photo would be too.
  await publishPhoto(builder, `Sea wall capping ${stamp}.jpg`, 30);
  await expectInBell(homeowner, newPhotos, 2);
  await builder.goto(`/projects/${id}`);
  const gallery = photoSection(builder, 'Project Photos');
  await showAllDates(gallery);
  const capping = tile(gallery, `Sea wall capping ${stamp}`);
  const photoId = await capping.getAttribute('data-photo-id');
  await capping.getByRole('button', { name: `View Sea wall capping ${stamp}` }).click();
  const thread = builder.getByTestId('lightbox').getByTestId('photo-comments');
  await thread.getByRole('textbox', { name: 'Add a comment…' }).fill(`Capping poured, curing under wet hessian ${stamp}`);
  await thread.getByRole('button', { name: 'Post comment' }).click();
  const commented = `${world.users.owner.name} commented on a photo in ${title}`;
  await expect.poll(async () => (await received(n)).filter((p) => p.payload.title === commented).length, { timeout: 30_000 }).toBe(1);
  const pushes = await received(n);
  expect(pushes.find((p) => p.payload.title === commented)?.payload.url).toBe(`/projects/${id}?photo=${photoId}`);
  expect(pushes.filter((p) => p.payload.title === newPhotos)).toHaveLength(1);

  // Back on, as the account was; then off for this device: the browser's subscription
  // ends and the server forgets it.
  await pushNewPhotos.check();
  await expect(toast(homeowner, 'Push preferences saved').last()).toBeVisible();
  await section.getByRole('button', { name: 'Turn off' }).click();
  await expect(toast(homeowner, 'Notifications are off for this device')).toBeVisible();
  await expect(section.getByTestId('push-device-row').filter({ hasText: 'This device' })).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Turn on notifications on this device' })).toBeVisible();
  expect(await homeowner.evaluate(() => localStorage.getItem('e2e-push-subscription'))).toBeNull();

  await builderContext.close();
  await homeownerContext.close();
});

test('another device’s notifications can be removed; signing out ends this browser’s subscription', async ({ browser }) => {
  // Two browsers, each signing in through the form and subscribing, and two reloads.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 0, comments: false, milestones: false });
  const contexts: BrowserContext[] = [];
  const open = async () => {
    const context = await browser.newContext();
    contexts.push(context);
    await context.grantPermissions(['notifications']);
    await withLoopbackPush(context);
    const page = await context.newPage();
    await signInOnDevice(page, world, 'owner', '/profile-settings#notifications');
    return page;
  };
  const phone = await open();
  const laptop = await open();
  for (const page of [phone, laptop]) {
    await notificationsSection(page).getByRole('button', { name: 'Turn on notifications on this device' }).click();
    await expect(toast(page, 'Notifications are on for this device')).toBeVisible();
  }
  await expect(notificationsSection(phone).getByTestId('push-device-row').filter({ hasText: 'This device' })).toHaveCount(1);

  // The laptop lists the phone as another device and removes it; the phone, reloaded,
  // finds its notifications off.
  await laptop.reload();
  const section = notificationsSection(laptop);
  const rows = section.getByTestId('push-device-row');
  await expect(rows.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(rows.filter({ hasNotText: 'This device' })).toHaveCount(1);
  await rows.filter({ hasNotText: 'This device' }).getByRole('button', { name: /^Remove / }).click();
  await expect(toast(laptop, 'Notifications are off for ')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.filter({ hasText: 'This device' })).toHaveCount(1);
  await phone.reload();
  await expect(notificationsSection(phone).getByRole('button', { name: 'Turn on notifications on this device' })).toBeVisible();

  // Signing out ends the laptop browser's subscription too.
  expect(await laptop.evaluate(() => localStorage.getItem('e2e-push-subscription'))).not.toBeNull();
  await laptop.getByRole('button', { name: 'Open user menu' }).click();
  await laptop.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(laptop).toHaveURL(/\/login\?logout=true$/);
  expect(await laptop.evaluate(() => localStorage.getItem('e2e-push-subscription'))).toBeNull();
  for (const context of contexts) await context.close();
});

test('a blocked permission says how to allow it again; a browser without push says so', async ({ browser }) => {
  const world = await makeWorld({ projects: 0, photos: 0, comments: false, milestones: false });
  const blocked = await browser.newContext();
  await blocked.addInitScript(() => {
    Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
    Notification.requestPermission = async () => 'denied';
  });
  const page = await blocked.newPage();
  await signIn(page, world, 'homeowner', '/profile-settings#notifications');
  const section = notificationsSection(page);
  await expect(section.getByText(/Notifications are blocked for Sitecast in this browser\. To allow them again/)).toBeVisible();
  await expect(section.getByRole('button', { name: 'Turn on notifications on this device' })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await section.screenshot({ path: `${SCREENSHOT_DIR}/notifications-blocked-390.png`, animations: 'disabled' });
  await blocked.close();

  const without = await browser.newContext();
  await without.addInitScript(() => {
    delete (window as unknown as { PushManager?: unknown }).PushManager;
  });
  const old = await without.newPage();
  await signIn(old, world, 'homeowner', '/profile-settings#notifications');
  await expect(notificationsSection(old).getByText("Notifications need this app's offline support, which this browser does not have.")).toBeVisible();
  // The preferences still work: email does not need the browser's push.
  await expect(notificationsSection(old).getByRole('checkbox', { name: 'Status changes by email' })).toBeEnabled();
  await without.close();
});
