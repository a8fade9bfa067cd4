import { expect, test, type Page, type Route } from '@playwright/test';
import { toast } from './helpers';
import { fileInput, photoSection, tile, type FilePayload } from './photoHelpers';
import { makeWorld, signIn, type World } from './world';

/**
 * Resumable uploads in the browser (tus-js-client against the server's tus endpoint):
 * the network drops while three chosen photos go up ahead of Publish and comes back;
 * the page is reloaded in the middle of a published upload. Either way the homeowner
 * watching sees each photo once. The builder's uplink is throttled so "the middle" lasts
 * long enough to act in. (A reload before Publish: uploadReload.spec.ts.)
 */

const SHOTS = '/work/shots/issue-19';

/** A JPEG of about 1.5 MB: a site-like picture under fine noise, which JPEG cannot shrink. */
async function bigPhoto(page: Page, name: string, hue: number): Promise<FilePayload> {
  const base64 = await page.evaluate(
    ({ hue, label }) => {
      const w = 2000;
      const h = 1500;
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const g = canvas.getContext('2d');
      if (!g) throw new Error('no 2d context');
      g.fillStyle = `hsl(${hue}, 60%, 60%)`;
      g.fillRect(0, 0, w, h);
      const noise = g.getImageData(0, 0, w, h);
      let seed = hue * 7919 + 1;
      for (let i = 0; i < noise.data.length; i += 4) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const n = (seed >> 16) & 63;
        noise.data[i] = (noise.data[i] ?? 0) - 32 + n;
        noise.data[i + 1] = (noise.data[i + 1] ?? 0) - 32 + ((n * 5) & 63);
        noise.data[i + 2] = (noise.data[i + 2] ?? 0) - 32 + ((n * 3) & 63);
      }
      g.putImageData(noise, 0, 0);
      g.fillStyle = 'rgba(15, 23, 42, 0.8)';
      g.fillRect(0, h - 140, w, 140);
      g.fillStyle = '#fff';
      g.font = '600 64px sans-serif';
      g.fillText(label, 48, h - 50);
      return canvas.toDataURL('image/jpeg', 0.92).split(',')[1] ?? '';
    },
    { hue, label: name },
  );
  return { name, mimeType: 'image/jpeg', buffer: Buffer.from(base64, 'base64') };
}

/** Limits the page's upload speed (Chromium's network emulation), in bytes per second. */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return cdp;
}

/** The world's homeowner, watching its project's photos; answers the project's id and the section. */
async function watch(page: Page, world: World) {
  const id = world.projects[0]!.id;
  await signIn(page, world, 'homeowner', `/projects/${id}`);
  const section = photoSection(page, 'Project Photos');
  await expect(section).toBeVisible();
  return { id, section };
}

/** Every gallery tile's caption, to count duplicates. */
async function captions(page: Page): Promise<string[]> {
  return photoSection(page, 'Project Photos')
    .getByTestId('photo-tile')
    .evaluateAll((els) => els.map((el) => el.querySelector('p')?.textContent ?? ''));
}

test('the network drops in the middle of a three-photo upload and the homeowner sees each photo once', async ({ browser }) => {
  // Three photos of 1.5 MB each, and the uploader's back-off while the network is gone
  // (1, 2, 4, 8 s…) can add half a minute before it tries again.
  test.setTimeout(180_000);
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  const homeowner = await (await browser.newContext()).newPage();
  const builder = await (await browser.newContext()).newPage();
  const stamp = Date.now();
  const { id, section: watching } = await watch(homeowner, world);

  await signIn(builder, world, 'owner', `/projects/${id}`);
  const section = photoSection(builder, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  const names = [`Deck joists ${stamp}.jpg`, `Window flashing ${stamp}.jpg`, `Roof sheathing ${stamp}.jpg`];
  const files = [await bigPhoto(builder, names[0]!, 30), await bigPhoto(builder, names[1]!, 140), await bigPhoto(builder, names[2]!, 250)];
  const total = files.reduce((n, f) => n + f.buffer.length, 0);
  expect(total).toBeGreaterThan(3_000_000);

  // The bytes go as soon as the photos are chosen (held for Publish). The first file goes
  // through; the others' requests are held, then the network goes while they are in
  // flight (they fail as a dropped connection does).
  let patches = 0;
  let holding = true;
  const held: Route[] = [];
  await builder.route('**/api/uploads/*', async (route) => {
    if (holding && route.request().method() === 'PATCH' && patches++ >= 1) {
      held.push(route);
      return;
    }
    await route.continue();
  });
  await fileInput(section).setInputFiles(files);
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (3)' })).toBeVisible();
  // Per photo: a caption and a category, and a note for the visit, while the bytes go.
  await panel.getByLabel(`Caption for ${names[0]}`).fill(`Deck joists at 400 centres ${stamp}`);
  await panel.getByLabel(`Category for ${names[0]}`).selectOption('structural');
  await panel.getByLabel(/^Note for the homeowner/).fill('Deck framed; windows arrive Tuesday');
  await expect(panel.getByText('Sent', { exact: true })).toHaveCount(1, { timeout: 30_000 });
  await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
  await builder.context().setOffline(true);
  holding = false;
  for (const route of held.splice(0)) await route.abort('internetdisconnected');
  await expect(panel.getByText('Connection lost, retrying…').first()).toBeVisible({ timeout: 30_000 });
  await shoot2(builder, 'upload-queue-offline');
  // The outage lasts a moment, as a real one does, so the uploader's retries meet it.
  await builder.waitForTimeout(1500);
  await builder.context().setOffline(false);

  // Every byte arrives from where it stopped; nothing is a photo before Publish.
  await expect(panel.getByText('Sent', { exact: true })).toHaveCount(3, { timeout: 90_000 });
  await expect(tile(watching, `Deck joists at 400 centres ${stamp}`)).toHaveCount(0);
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(builder, '3 photos uploaded successfully')).toBeVisible({ timeout: 30_000 });
  // The homeowner's page got each photo pushed, once.
  await expect(tile(watching, `Deck joists at 400 centres ${stamp}`)).toHaveCount(1, { timeout: 15_000 });
  for (const name of names.slice(1)) await expect(tile(watching, name.replace(/\.jpg$/, ''))).toHaveCount(1, { timeout: 15_000 });
  const seen = (await captions(homeowner)).filter((c) => c.includes(String(stamp)));
  expect(seen.sort()).toEqual([`Deck joists at 400 centres ${stamp}`, `Roof sheathing ${stamp}`, `Window flashing ${stamp}`]);
  // The visit's note travels with its photos: on the tile and in the lightbox.
  const joists = tile(watching, `Deck joists at 400 centres ${stamp}`);
  await expect(joists.getByTestId('photo-visit-note')).toContainText('Deck framed; windows arrive Tuesday');
  await joists.getByRole('button', { name: /full size$/ }).click();
  await expect(homeowner.getByTestId('lightbox-visit-note')).toHaveText('Site visit note: “Deck framed; windows arrive Tuesday”');
  await builder.context().close();
  await homeowner.context().close();
});

test('a reload in the middle of a published upload offers to resume, and resuming finishes it', async ({ browser }) => {
  // Three photos of 1.5 MB each through an uplink throttled to 150 KB/s: half a minute of sending alone.
  test.setTimeout(180_000);
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  const homeowner = await (await browser.newContext()).newPage();
  const builder = await (await browser.newContext()).newPage();
  const stamp = Date.now();
  const { id } = await watch(homeowner, world);

  await signIn(builder, world, 'owner', `/projects/${id}`);
  let section = photoSection(builder, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  const names = [`Stair stringers ${stamp}.jpg`, `Bathroom tanking ${stamp}.jpg`, `Soffit vents ${stamp}.jpg`];
  const files = [await bigPhoto(builder, names[0]!, 60), await bigPhoto(builder, names[1]!, 190), await bigPhoto(builder, names[2]!, 330)];
  await throttleUploads(builder, 150 * 1024);
  await fileInput(section).setInputFiles(files);
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  // Published at once, long before the bytes are there: those go on and become photos on arrival.
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(panel.getByRole('button', { name: 'Publishing...' })).toBeVisible();
  // Once published, each file on its way may be cancelled on its own.
  await expect(panel.getByRole('button', { name: /^Cancel / })).toHaveCount(3, { timeout: 15_000 });
  await expect
    .poll(async () => Number(await panel.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')), { timeout: 30_000 })
    .toBeGreaterThan(5);

  // Leaving with bytes unsent asks first; the person leaves anyway.
  const asked = new Promise<string>((resolve) => builder.once('dialog', (d) => {
    resolve(d.type());
    void d.accept();
  }));
  await builder.reload();
  expect(await asked).toBe('beforeunload');

  // The page finds the unfinished files on the device and offers them back.
  section = photoSection(builder, 'Project Photos');
  const unfinished = section.getByRole('region', { name: 'Unfinished uploads' });
  await expect(unfinished.getByRole('heading', { name: /^Unfinished uploads \(\d\)$/ })).toBeVisible({ timeout: 15_000 });
  await expect(unfinished.getByText('Paused').first()).toBeVisible();
  await shoot2(builder, 'upload-unfinished-after-reload');
  await unfinished.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(builder.locator('[data-sonner-toast]').filter({ hasText: /photos? uploaded successfully/ })).toBeVisible({ timeout: 90_000 });
  await expect(unfinished).toHaveCount(0);

  const watching = photoSection(homeowner, 'Project Photos');
  for (const name of names) await expect(tile(watching, name.replace(/\.jpg$/, ''))).toHaveCount(1, { timeout: 15_000 });
  const seen = (await captions(homeowner)).filter((c) => c.includes(String(stamp)));
  expect(seen).toHaveLength(3);
  await builder.context().close();
  await homeowner.context().close();
});

/** A viewport screenshot at phone and desktop widths into the screenshots folder (`SHOTS`). */
async function shoot2(page: Page, name: string) {
  const original = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
