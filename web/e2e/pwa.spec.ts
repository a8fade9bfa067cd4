import { appendFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { audit } from './axe';
import { shoot, toast } from './helpers';
import { fileInput, makePhoto, photoSection, showAllDates, tile } from './photoHelpers';
import { makeWorld, signIn, type World } from './world';

/**
 * The installable app that works offline: the manifest and service worker
 * make it installable; what the user saw opens offline (thumbnails included); photos
 * chosen offline wait on the device and go once it is online again, from the page, from
 * the service worker's Background Sync with the tab closed, or from the next visit.
 */

/** The service worker controls the page (it claims the page it first installs under). */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
}

/** Project ids of the offline copy kept on the device (IndexedDB), without creating the database. */
async function savedProjects(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'sitecast-offline')) return [];
    return new Promise<string[]>((resolve) => {
      const req = indexedDB.open('sitecast-offline');
      req.onerror = () => resolve([]);
      req.onsuccess = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains('views')) {
          db.close();
          resolve([]);
          return;
        }
        const all = db.transaction('views').objectStore('views').getAll();
        all.onsuccess = () => {
          db.close();
          resolve((all.result as { recent: { project: { id: string } }[] }[]).flatMap((v) => v.recent.map((p) => p.project.id)));
        };
        all.onerror = () => resolve([]);
      };
    });
  });
}

/** How many photo renditions the service worker keeps. */
async function cachedPhotos(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let n = 0;
    for (const name of ['sitecast-thumbnails', 'sitecast-display-photos']) {
      if (await caches.has(name)) n += (await (await caches.open(name)).keys()).length;
    }
    return n;
  });
}

/** Every loaded <img> of the scope drew real pixels (served from the cache when offline). */
async function imagesDrawn(images: ReturnType<Page['locator']>, count: number) {
  await expect(images.first()).toBeVisible();
  for (let i = 0; i < count; i += 1) {
    const img = images.nth(i);
    await expect(img).toHaveAttribute('src', /^\/media\/images\/[^/]+\/thumb$/);
    await expect.poll(() => img.evaluate((el) => ((el as HTMLImageElement).complete ? (el as HTMLImageElement).naturalWidth : 0))).toBeGreaterThan(0);
  }
}

test('the app is installable: manifest, icons and a service worker that controls the page', async ({ page, request }) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  const manifest = (await response.json()) as Record<string, unknown> & { icons: { src: string; sizes: string; type: string; purpose?: string }[] };
  expect(manifest).toMatchObject({
    name: 'Sitecast',
    short_name: 'Sitecast',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: '#f59e0b',
    background_color: '#f8fafc',
  });
  expect(typeof manifest.description).toBe('string');
  expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  for (const icon of [...manifest.icons.map((i) => i.src), '/icons/apple-touch-icon.png', '/icons/badge-96.png']) {
    const png = await request.get(icon);
    expect(png.status(), icon).toBe(200);
    expect(png.headers()['content-type'], icon).toBe('image/png');
  }

  await page.goto('/login');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/icons/apple-touch-icon.png');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#f59e0b');
  await controlled(page);
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);

  const cdp = await page.context().newCDPSession(page);
  const { url, errors } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string; critical: number }[] };
  expect(url).toMatch(/\/manifest\.webmanifest$/);
  expect(errors).toEqual([]);

  // Chromium's own verdict, as its install prompt uses it. Test contexts are incognito,
  // where nothing installs ("in-incognito"), so this asks a browser with a profile.
  const profile = await mkdtemp(path.join(tmpdir(), 'sitecast-profile-'));
  const installer = await chromium.launchPersistentContext(profile, { executablePath: process.env.SITECAST_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const tab = await installer.newPage();
    await tab.goto(new URL('/login', page.url()).href);
    await controlled(tab);
    const session = await installer.newCDPSession(tab);
    const { installabilityErrors } = (await session.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors).toEqual([]);
  } finally {
    await installer.close();
    await rm(profile, { recursive: true, force: true });
  }

  // The API is never answered from a cache: a signed-out check still asks the server.
  expect((await page.evaluate(() => fetch('/api/auth/me').then((r) => r.status)))).toBe(401);
});

test('offline, a reload opens the dashboard and the last project seen, thumbnails included; signing out forgets them', async ({ browser }) => {
  // Three screens audited and shot at two widths each, with offline reloads between.
  test.setTimeout(180_000);
  // Two projects of one homeowner: the first is opened (and kept), the second never is.
  const world = await makeWorld({ projects: 2, photos: 2 });
  const kept = world.projects[0]!;
  const other = world.projects[1]!;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, world, 'homeowner');
  await controlled(page);
  // Pictures load through the service worker from here on, and are kept.
  await page.reload();
  await expect(page.getByTestId('project-card').filter({ hasText: kept.title })).toBeVisible();
  await page.goto(`/projects/${kept.id}`);
  const id = kept.id;
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  const thumbs = section.getByTestId('photo-tile').locator('img');
  await imagesDrawn(thumbs, 2);
  await expect.poll(() => savedProjects(page), { timeout: 15_000 }).toContain(id);
  expect(await cachedPhotos(page)).toBeGreaterThan(1);

  await context.setOffline(true);
  await page.reload();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveText(/Offline — showing what you saw last/);
  await expect(page.getByRole('heading', { level: 1, name: kept.title })).toBeVisible({ timeout: 15_000 });
  await showAllDates(section);
  await imagesDrawn(thumbs, 2);
  await shoot(page, 'offline-project');
  await audit(page, 'offline-project');

  // The dashboard, drawn from the kept copy, with the project cards' pictures.
  await page.goto('/dashboard');
  await expect(banner).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 });
  const cards = page.getByTestId('project-card');
  await expect(cards.filter({ hasText: kept.title })).toBeVisible();
  await imagesDrawn(cards.filter({ hasText: kept.title }).locator('img'), 1);
  await shoot(page, 'offline-dashboard');
  await audit(page, 'offline-dashboard');

  // A project this device did not keep says so, rather than loading forever.
  await cards.filter({ hasText: other.title }).click();
  await expect(page.getByTestId('project-not-saved')).toContainText('Not saved on this device');
  await shoot(page, 'offline-project-not-saved');
  await audit(page, 'offline-project-not-saved');
  await page.getByRole('link', { name: 'Back to the dashboard' }).click();
  await expect(cards.first()).toBeVisible();

  // Back online: the live view replaces the copy, and the banner goes.
  await context.setOffline(false);
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('project-card').first()).toBeVisible();

  // Signing out forgets the copy and the cached photos (they are private).
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login\?logout=true$/);
  await expect.poll(() => cachedPhotos(page)).toBe(0);
  await expect.poll(() => savedProjects(page)).toEqual([]);
  // And offline, the app no longer opens signed in.
  await context.setOffline(true);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login/);
  await context.close();
});

/** The company's owner on the project page, its uploader open. */
async function builderAt(context: BrowserContext, world: World, projectId: string) {
  const page = await context.newPage();
  await signIn(page, world, 'owner');
  await controlled(page);
  await page.goto(`/projects/${projectId}`);
  const section = photoSection(page, 'Project Photos');
  await expect(section).toBeVisible({ timeout: 15_000 });
  return { page, section };
}

/** The world's homeowner watching its first project live. */
async function watcher(browser: Browser, world: World) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { id, title } = world.projects[0]!;
  await signIn(page, world, 'homeowner', `/projects/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  return { context, page, id, section };
}

/** Chooses photos offline and publishes them; they wait, kept on the device. */
async function queueOffline(page: Page, section: ReturnType<typeof photoSection>, names: string[]) {
  const files = [];
  for (const [n, name] of names.entries()) files.push(await makePhoto(page, name, { hue: 40 + n * 90, label: name }));
  await page.context().setOffline(true);
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  await fileInput(section).setInputFiles(files);
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(panel.getByRole('listitem').getByText('Waiting for connection', { exact: true })).toHaveCount(names.length);
  await expect(panel.getByTestId('upload-totals')).toContainText('Waiting for connection');
  await expect(panel.getByRole('button', { name: 'Waiting for connection' })).toBeDisabled();
  return panel;
}

test('a photo chosen offline waits on the device, and goes up when the connection returns; the homeowner sees it live', async ({ browser }) => {
  // An audit at two widths, then up to a minute for the queue to resume once online.
  test.setTimeout(150_000);
  const world = await makeWorld({ photos: 1, comments: false });
  const stamp = world.tag;
  const watching = await watcher(browser, world);
  const builderContext = await browser.newContext();
  const { page, section } = await builderAt(builderContext, world, watching.id);

  const name = `Offline sill plate ${stamp}.jpg`;
  const panel = await queueOffline(page, section, [name]);
  // Not faded while it waits: the drop zone's text stays readable (axe), and so does the rest.
  await audit(page, 'upload-waiting-offline');
  await shoot(page, 'upload-waiting-offline');
  // The homeowner sees nothing yet: the photo is on the builder's phone.
  await expect(tile(watching.section, name.replace(/\.jpg$/, ''))).toHaveCount(0);

  await builderContext.setOffline(false);
  await expect(toast(page, '1 photo uploaded successfully')).toBeVisible({ timeout: 60_000 });
  await expect(panel).toHaveCount(0);
  await expect(tile(watching.section, name.replace(/\.jpg$/, ''))).toHaveCount(1, { timeout: 30_000 });
  await builderContext.close();
  await watching.context.close();
});

test('with the tab closed, the service worker sends a photo queued offline once the device is back online (Background Sync)', async ({ browser }) => {
  // Up to a minute for the service worker's sync to deliver the photo, after the queueing.
  test.setTimeout(150_000);
  const world = await makeWorld({ photos: 1, comments: false });
  const stamp = world.tag;
  const watching = await watcher(browser, world);
  const builderContext = await browser.newContext();
  const { page, section } = await builderAt(builderContext, world, watching.id);
  const name = `Background sync rafters ${stamp}.jpg`;
  await queueOffline(page, section, [name]);
  await page.close();
  await builderContext.setOffline(false);

  // The browser fires the sync itself once it sees the network; Chromium's DevTools
  // protocol fires it now, as a device coming back online would, with no Sitecast tab open.
  const host = await builderContext.newPage();
  await host.goto('/favicon.svg');
  const cdp = await builderContext.newCDPSession(host);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const ours = registrations.find((r) => !r.isDeleted && new URL(r.scopeURL).pathname === '/');
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registration;
  await cdp.send('ServiceWorker.dispatchSyncEvent', { origin: new URL(host.url()).origin, registrationId, tag: 'sitecast-uploads', lastChance: false });

  await expect(tile(watching.section, name.replace(/\.jpg$/, ''))).toHaveCount(1, { timeout: 60_000 });
  // Sent once, and no longer waiting on the device: the builder's next visit finds nothing to resume.
  const again = await builderContext.newPage();
  await again.goto(`/projects/${watching.id}`);
  await expect(photoSection(again, 'Project Photos')).toBeVisible();
  await expect(photoSection(again, 'Project Photos').getByRole('region', { name: 'Unfinished uploads' })).toHaveCount(0);
  await expect(tile(watching.section, name.replace(/\.jpg$/, ''))).toHaveCount(1);
  await builderContext.close();
  await watching.context.close();
});

test('without Background Sync, a photo queued offline goes by itself on the next visit, whichever page it opens on', async ({ browser }) => {
  // Up to a minute for the next visit to send the photo, after the queueing.
  test.setTimeout(150_000);
  const world = await makeWorld({ photos: 1, comments: false });
  const stamp = world.tag;
  const watching = await watcher(browser, world);
  // No service worker at all: as in a browser without one (or without Background Sync).
  const builderContext = await browser.newContext({ serviceWorkers: 'block' });
  const page = await builderContext.newPage();
  await signIn(page, world, 'owner', `/projects/${watching.id}`);
  const section = photoSection(page, 'Project Photos');
  // Loaded before going offline: without a service worker nothing of the app loads offline.
  await expect(section).toBeVisible({ timeout: 15_000 });
  const name = `Next visit soffit ${stamp}.jpg`;
  await queueOffline(page, section, [name]);
  // Leaving does not ask: nothing is lost, the photo waits on the device.
  await page.close();
  await builderContext.setOffline(false);

  // The next visit opens on the dashboard: the photo goes without its project being opened.
  const next = await builderContext.newPage();
  await next.goto('/dashboard');
  await expect(toast(next, '1 photo uploaded successfully')).toBeVisible({ timeout: 60_000 });
  await expect(tile(watching.section, name.replace(/\.jpg$/, ''))).toHaveCount(1, { timeout: 30_000 });
  await builderContext.close();
  await watching.context.close();
});

/**
 * A copy of the built app on its own little server, so a test can deploy a new version
 * of it (a changed sw.js) without every other test's browser finding that update too.
 * It answers the API as signed out.
 */
async function appCopy() {
  const root = await mkdtemp(path.join(tmpdir(), 'sitecast-app-'));
  await cp(fileURLToPath(new URL('../dist/', import.meta.url)), root, { recursive: true });
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.webmanifest': 'application/manifest+json',
    '.png': 'image/png',
    '.svg': 'image/svg+xml',
    '.jpg': 'image/jpeg',
    '.woff2': 'font/woff2',
  };
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname.startsWith('/api/')) {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end('{"code":"unauthorized","message":"Not signed in"}');
      return;
    }
    const file = path.join(root, path.normalize(pathname));
    readFile(file)
      .then((body) => {
        res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
        res.end(body);
      })
      // Every other path is the app's page, as the real server answers.
      .catch(() => readFile(path.join(root, 'index.html')).then((body) => {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-cache' });
        res.end(body);
      }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** A new version: the service worker's script is no longer byte for byte the same. */
    deploy: () => appendFile(path.join(root, 'sw.js'), `\n// next version ${Date.now()}\n`),
    close: async () => {
      server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

test('a new version waits until the person taps Reload', async ({ browser }) => {
  // Up to half a minute for the browser to find the new worker, then an audit and a reload.
  test.setTimeout(120_000);
  const app = await appCopy();
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${app.url}/login`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await controlled(page);

    await app.deploy();
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    const prompt = page.getByTestId('update-ready');
    await expect(prompt).toContainText('A new version of Sitecast is ready.', { timeout: 30_000 });
    await expect(prompt.getByRole('button', { name: 'Reload' })).toBeEnabled();
    // It waits: the page is still the old version's until the person chooses.
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => Boolean(r?.waiting)))).toBe(true);
    await shoot(page, 'update-ready', { toasts: true });
    await audit(page, 'update-ready');

    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('update-ready')).toHaveCount(0);
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => Boolean(r?.active && !r.waiting)))).toBe(true);
  } finally {
    await context.close();
    await app.close();
  }
});

test('the uploader takes HEIC photos, by type or by name when the browser gives none', async ({ page }) => {
  const world = await makeWorld({ photos: 0, comments: false, milestones: false });
  await signIn(page, world, 'owner', `/projects/${world.projects[0]!.id}`);
  const section = photoSection(page, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  await expect(fileInput(section)).toHaveAttribute('accept', /image\/heic,image\/heif,\.heic,\.heif/);
  await expect(section.getByText('Supported formats: JPEG, PNG, GIF, WebP, HEIC')).toBeVisible();
  const heic = Buffer.from('not really a HEIC, only its name and type are looked at here');
  await fileInput(section).setInputFiles([
    { name: 'IMG_0412.HEIC', mimeType: 'image/heic', buffer: heic },
    { name: 'IMG_0413.heif', mimeType: '', buffer: heic },
  ]);
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (2)' })).toBeVisible();
  // Chromium cannot draw HEIC: the preview names the format instead of a broken image.
  await expect(panel.getByTestId('preview-unavailable')).toHaveCount(2);
  await panel.getByRole('button', { name: 'Discard' }).click();
});
