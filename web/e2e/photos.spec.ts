import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR, shoot, toast } from './helpers';
import { captionOf, fileInput, makePhoto, photoSection, showAllDates, textFile, tile, uploadOverTus } from './photoHelpers';
import { makeWorld, signIn } from './world';

const NOT_IMAGES = 'Some files were skipped because they are not images';

test('a builder’s upload appears on the homeowner’s open page without reload', async ({ browser }) => {
  // Two signed-in browsers, an upload pushed live, an edit, and three full-page
  // screenshots at two widths: about half a minute on a two-core machine.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  const id = world.projects[0]!.id;
  const homeownerContext = await browser.newContext();
  const builderContext = await browser.newContext();
  const homeowner = await homeownerContext.newPage();
  const builder = await builderContext.newPage();
  const stamp = Date.now();
  const names = [`Garage slab formwork ${stamp}.jpg`, `Studio stair opening ${stamp}.png`];

  await signIn(homeowner, world, 'homeowner', `/projects/${id}`);
  const watching = photoSection(homeowner, 'Project Photos');
  await expect(watching).toBeVisible();
  await homeowner.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await signIn(builder, world, 'owner', `/projects/${id}`);
  const section = photoSection(builder, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Project Photos' })).toBeVisible();
  await expect(section.getByText('Supported formats: JPEG, PNG, GIF, WebP')).toBeVisible();
  const files = [
    await makePhoto(builder, names[0], { hue: 200, label: 'Garage slab formwork' }),
    await makePhoto(builder, names[1], { mimeType: 'image/png', hue: 28, label: 'Studio stair opening' }),
  ];
  await fileInput(section).setInputFiles(files);
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (2)' })).toBeVisible();
  await expect(panel.getByTestId('selected-photo')).toHaveCount(2);
  await shoot(builder, 'photo-upload-panel');

  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(builder, '2 photos uploaded successfully')).toBeVisible({ timeout: 30_000 });
  // The builder's own gallery shows them (newest first, default filters), once each.
  for (const name of names) await expect(tile(section, captionOf(name))).toHaveCount(1);

  // The homeowner's page got them pushed: no reload, no refresh.
  for (const name of names) await expect(tile(watching, captionOf(name))).toHaveCount(1, { timeout: 15_000 });
  expect(await homeowner.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await expect(watching.getByRole('button', { name: /^Edit details of / })).toHaveCount(0);

  // Builders edit captions but cannot delete (SPEC §6).
  await expect(section.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  const first = tile(section, captionOf(names[0]));
  await first.hover();
  await first.getByRole('button', { name: /^Edit details of / }).click();
  const edit = builder.getByRole('dialog', { name: 'Edit photo details' });
  const newCaption = `Garage slab ready for pour ${stamp}`;
  await edit.getByLabel('Caption').fill(newCaption);
  await edit.getByLabel('Category').selectOption('structural');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toHaveCount(0);
  await expect(tile(section, newCaption)).toHaveCount(1);
  // …and the edit reaches the homeowner live too.
  await expect(tile(watching, newCaption)).toHaveCount(1);

  // On hover: caption, date (no year this year) and the edit and favourite buttons.
  const edited = tile(section, newCaption);
  await edited.hover();
  await expect(edited.getByTestId('photo-date')).toBeVisible();
  await edited.screenshot({ path: `${SCREENSHOT_DIR}/photo-tile-hover-1280.png` });
  await shoot(builder, 'project-builder-photos');
  await shoot(homeowner, 'project-homeowner-photos');

  await homeownerContext.close();
  await builderContext.close();
});

test('a homeowner favourites a photo: the badge counts it and it persists', async ({ page }) => {
  const world = await makeWorld({ photos: 3, milestones: false, comments: false });
  const project = world.projects[0]!;
  const id = project.id;
  await signIn(page, world, 'homeowner', `/projects/${id}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  await expect(section.getByTestId('photo-tile')).toHaveCount(project.photos.length);

  const badge = section.getByRole('button', { name: /^Favorites/ }).getByTestId('favourite-count');
  // Clicking a photo toggles its favourite (SPEC §2); this world's homeowner has none yet.
  const caption = project.photos[1]!.caption;
  const heart = section.getByRole('button', { name: `Favorite ${caption}`, exact: true });
  await expect(heart).toBeVisible();
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await expect(badge).toHaveText('0');
  const before = 0;
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await expect(badge).toHaveText(String(before + 1));
  await expect(toast(page, `"${caption}" added to favorites`)).toBeVisible();

  // Favorites mode shows it, whatever the dates.
  await section.getByRole('button', { name: /^Favorites/ }).click();
  await expect(section.getByLabel('Year')).toBeDisabled();
  await expect(heart).toBeVisible();
  await expect(section.getByTestId('photo-tile')).toHaveCount(before + 1);
  const zip = await page.request.get(`/media/projects/${id}/photos.zip?favourites=true`);
  expect(zip.status()).toBe(200);
  expect(zip.headers()['content-type']).toContain('zip');
  await shoot(page, 'project-homeowner-favorites');

  // Saved on the server: still a favourite after a reload.
  await page.reload();
  // A whole page load: as long as signing in may take.
  await expect(badge).toHaveText(String(before + 1), { timeout: 15_000 });
  await showAllDates(section);
  await expect(heart).toHaveAttribute('aria-pressed', 'true');

  // A second click takes it back out, on the server too.
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await expect(badge).toHaveText(String(before));
  await expect(toast(page, `"${caption}" removed from favorites`)).toBeVisible();
});

test('lightbox: n / total, previous and next wrap around, keys, swipe, Escape', async ({ browser }) => {
  const world = await makeWorld({ photos: 4, milestones: false, comments: false });
  const project = world.projects[0]!;
  const context = await browser.newContext({ hasTouch: true });
  const page = await context.newPage();
  await signIn(page, world, 'homeowner', `/projects/${project.id}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  const tiles = section.getByTestId('photo-tile');
  await expect(tiles).toHaveCount(project.photos.length);
  const total = await tiles.count();
  expect(total).toBeGreaterThan(2);
  const captions = await tiles.evaluateAll((els) => els.map((el) => el.querySelector('p')?.textContent ?? ''));
  // Newest first.
  expect(captions).toEqual(project.photos.map((p) => p.caption).reverse());

  // Homeowners open a photo with its expand button (a click on the photo favourites it).
  await tiles.first().getByRole('button', { name: / full size$/ }).click();
  const box = page.getByRole('dialog');
  await expect(box).toBeVisible();
  const position = box.getByTestId('lightbox-position');
  await expect(position).toHaveText(`1 / ${total}`);
  await expect(box.getByTestId('lightbox-caption')).toHaveText(captions[0]);
  await expect(box.getByTestId('category-badge')).toBeVisible();
  await expect(box.getByRole('link', { name: 'Download', exact: true })).toHaveAttribute('href', /\/media\/images\/[^/]+\/original$/);

  await page.keyboard.press('ArrowRight');
  await expect(position).toHaveText(`2 / ${total}`);
  await expect(box.getByTestId('lightbox-caption')).toHaveText(captions[1]);
  await box.getByRole('button', { name: 'Previous photo' }).click();
  await box.getByRole('button', { name: 'Previous photo' }).click();
  await expect(position).toHaveText(`${total} / ${total}`);
  await page.keyboard.press('ArrowRight');
  await expect(position).toHaveText(`1 / ${total}`);
  await page.keyboard.press('ArrowLeft');
  await expect(position).toHaveText(`${total} / ${total}`);
  await box.getByRole('button', { name: 'Next photo' }).click();
  await expect(position).toHaveText(`1 / ${total}`);

  // A swipe to the left shows the next photo.
  await box.evaluate((el) => {
    const touch = (x: number) => new Touch({ identifier: 1, target: el, clientX: x, clientY: 300 });
    el.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [touch(300)], changedTouches: [touch(300)] }));
    el.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(120)] }));
  });
  await expect(position).toHaveText(`2 / ${total}`);
  await expect(box.getByTestId('lightbox-caption')).toHaveText(captions[1]);
  await expect(box.getByTestId('photo-stage').locator('img[data-state="loaded"]')).toBeVisible();
  await shoot(page, 'photo-lightbox', { viewport: true });

  await page.keyboard.press('Escape');
  await expect(box).toHaveCount(0);
  await context.close();
});

test('thumbnails load lazily and a photo that fails to load shows the placeholder', async ({ page }) => {
  const world = await makeWorld({ photos: 2, milestones: false, comments: false });
  // On the context, not the page: thumbnails are fetched by the service worker,
  // whose requests only the context's routes see.
  await page.context().route('**/media/images/*/thumb', (route) => route.fulfill({ status: 404, body: '' }));
  await signIn(page, world, 'owner', `/projects/${world.projects[0]!.id}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  const img = section.getByTestId('photo-tile').first().locator('img');
  await expect(img).toHaveAttribute('loading', 'lazy');
  await expect(img).toHaveAttribute('src', '/placeholder-image.jpg');
  await expect(img).toHaveAttribute('data-state', 'failed');
  // …and it fades in like any photo once the placeholder has loaded.
  await expect(img).toHaveCSS('opacity', '1');
  expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
});

test('non-images are skipped, in the drop zone and by the server', async ({ page }) => {
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  const stamp = Date.now();
  await signIn(page, world, 'owner', `/projects/${world.projects[0]!.id}`);
  const section = photoSection(page, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();

  // The drop zone keeps images only.
  const good = await makePhoto(page, `Porch posts ${stamp}.png`, { mimeType: 'image/png', hue: 160, label: 'Porch posts' });
  await fileInput(section).setInputFiles([textFile(`site-notes-${stamp}.txt`), good]);
  await expect(toast(page, NOT_IMAGES).filter({ hasText: `site-notes-${stamp}.txt` })).toBeVisible();
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (1)' })).toBeVisible();

  // A file that claims to be a JPEG but is not one gets past the browser; the server skips it.
  const fake = { name: `not-really-${stamp}.jpg`, mimeType: 'image/jpeg', buffer: Buffer.from('plain text, not a photo') };
  await fileInput(section).setInputFiles([fake]);
  await expect(panel.getByRole('heading', { name: 'Selected Photos (2)' })).toBeVisible();
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page, '1 photo uploaded successfully')).toBeVisible({ timeout: 30_000 });
  await expect(toast(page, NOT_IMAGES).filter({ hasText: fake.name })).toBeVisible();
  await expect(panel).toHaveCount(0);
  await expect(tile(section, captionOf(good.name))).toHaveCount(1);

  // Nothing but a non-image: nothing is stored (422), and the toast says why.
  const onlyFake = { ...fake, name: `still-not-a-photo-${stamp}.jpg` };
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  await fileInput(section).setInputFiles([onlyFake]);
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page, NOT_IMAGES).filter({ hasText: onlyFake.name })).toBeVisible({ timeout: 30_000 });
  await expect(panel).toHaveCount(0);
});

test('the admin uploads in Project Media, lands on Photos, downloads and deletes', async ({ page }) => {
  // Three uploads held and then released, a screenshot at two widths, the project's zip,
  // a delete and a reload.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 2, milestones: false, comments: false });
  const project = world.projects[0]!;
  const id = project.id;
  const [oldest, latest] = [project.photos[0]!.caption, project.photos[1]!.caption];
  const stamp = Date.now();
  await signIn(page, world, 'admin', `/projects/${id}`);
  const media = photoSection(page, 'Project Media');
  await expect(media.getByRole('tab', { name: 'Photos', exact: true })).toHaveAttribute('aria-selected', 'true');

  await media.getByRole('tab', { name: 'Upload Photos' }).click();
  const names = [`Unit A kitchen rough-in ${stamp}.jpg`, `Unit B party wall ${stamp}.jpg`, `Driveway base ${stamp}.png`];
  const files = [
    await makePhoto(page, names[0], { hue: 40, label: 'Unit A kitchen rough-in' }),
    await makePhoto(page, names[1], { hue: 260, label: 'Unit B party wall' }),
    await makePhoto(page, names[2], { mimeType: 'image/png', hue: 120, label: 'Driveway base' }),
  ];
  await fileInput(media).setInputFiles(files);
  const panel = media.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (3)' })).toBeVisible();
  // Per-file remove, then Discard, then choose again.
  await panel.getByRole('button', { name: `Remove ${names[2]}` }).click();
  await expect(panel.getByRole('heading', { name: 'Selected Photos (2)' })).toBeVisible();
  await panel.getByRole('button', { name: 'Discard' }).click();
  await expect(panel).toHaveCount(0);
  await fileInput(media).setInputFiles(files);
  await expect(panel.getByRole('heading', { name: 'Selected Photos (3)' })).toBeVisible();
  await shoot(page, 'photo-upload-admin');

  // The upload is held at the network layer until the per-file progress bars are seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/uploads**', async (route) => {
    await held;
    await route.continue();
  });
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(panel.getByRole('button', { name: 'Publishing...' })).toBeVisible();
  await expect(panel.getByRole('progressbar', { name: /^Uploading / })).toHaveCount(3);
  await expect(panel.getByRole('button', { name: `Remove ${names[0]}` })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Discard' })).toBeDisabled();
  release();
  await expect(toast(page, '3 photos uploaded successfully')).toBeVisible({ timeout: 30_000 });
  await page.unroute('**/api/uploads**');
  // SPEC §2: after an upload the card switches to Photos.
  await expect(media.getByRole('tab', { name: 'Photos', exact: true })).toHaveAttribute('aria-selected', 'true');
  for (const name of names) await expect(tile(media, captionOf(name))).toHaveCount(1);
  // Newest first: the new ones come before the photos from earlier site visits.
  await showAllDates(media);
  await expect(media.getByTestId('photo-tile')).toHaveCount(names.length + project.photos.length);
  const order = await media.getByTestId('photo-tile').evaluateAll((els) => els.map((el) => el.querySelector('p')?.textContent ?? ''));
  const newest = Math.max(...names.map((n) => order.indexOf(captionOf(n))));
  expect(newest).toBeGreaterThanOrEqual(0);
  expect(newest).toBeLessThan(order.indexOf(latest));
  expect(order.indexOf(latest)).toBeLessThan(order.indexOf(oldest));
  await media.getByRole('button', { name: 'Reset filters' }).click();

  const zip = await page.request.get(`/media/projects/${id}/photos.zip`);
  expect(zip.status()).toBe(200);
  expect(zip.headers()['content-type']).toContain('zip');
  await media.getByRole('button', { name: 'Download' }).click();
  await expect(page.getByRole('menuitem', { name: /Download all/ })).toHaveAttribute('href', `/media/projects/${id}/photos.zip`);
  await page.keyboard.press('Escape');
  await media.getByRole('button', { name: 'Download' }).blur();
  await shoot(page, 'project-admin-photos');

  // Manual refresh.
  await media.getByRole('button', { name: 'Refresh photos' }).click();
  await expect(toast(page, 'Images refreshed successfully')).toBeVisible();

  // Filters: an empty month says so in the admin's words.
  await media.getByLabel('Year').selectOption(String(new Date().getFullYear() - 2));
  await expect(media.getByText('No images match the selected filters')).toBeVisible();
  await media.getByRole('button', { name: 'Reset filters' }).click();
  await expect(media.getByRole('button', { name: 'Reset filters' })).toHaveCount(0);

  // Delete one (admins only), with the SPEC's question.
  const doomed = tile(media, captionOf(names[1]));
  await doomed.hover();
  await doomed.getByRole('button', { name: `Delete ${captionOf(names[1])}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete this image?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete Image' }).click();
  await expect(toast(page, 'Image deleted successfully')).toBeVisible();
  await expect(doomed).toHaveCount(0);
  await page.reload();
  // A whole page load: as long as signing in may take.
  await expect(tile(media, captionOf(names[0]))).toHaveCount(1, { timeout: 15_000 });
  await expect(tile(media, captionOf(names[1]))).toHaveCount(0);
});

test('after a dropped connection the page catches up on photos added and deleted meanwhile', async ({ browser }) => {
  // While the socket is down the page's reconnect back-off doubles (to 16 s by the time
  // it is back), and two uploads and a delete happen meanwhile.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  const id = world.projects[0]!.id;
  const stamp = Date.now();
  const homeownerContext = await browser.newContext();
  const adminContext = await browser.newContext();
  // A switch for the homeowner's connection: while "down", sockets are closed and new
  // ones go to a port nobody listens on, so the app keeps retrying as it would offline.
  await homeownerContext.addInitScript(() => {
    const w = window as unknown as { WebSocket: typeof WebSocket; __sockets: WebSocket[]; __down: boolean };
    const Native = w.WebSocket;
    w.__sockets = [];
    w.__down = false;
    w.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(w.__down ? 'ws://127.0.0.1:9/' : url, protocols);
        w.__sockets.push(this);
      }
    };
  });
  const homeowner = await homeownerContext.newPage();
  const admin = await adminContext.newPage();
  const connection = (down: boolean) =>
    homeowner.evaluate((d) => {
      const w = window as unknown as { __sockets: WebSocket[]; __down: boolean };
      w.__down = d;
      if (d) for (const socket of w.__sockets) socket.close();
    }, down);
  await signIn(admin, world, 'admin');
  await signIn(homeowner, world, 'homeowner', `/projects/${id}`);
  const watching = photoSection(homeowner, 'Project Photos');
  await expect(watching).toBeVisible();
  await homeowner.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  const upload = async (name: string, hue: number) => {
    const file = await makePhoto(admin, name, { hue, label: captionOf(name) });
    await uploadOverTus(admin, id, file);
  };
  const before = `Footing trench ${stamp}.jpg`;
  const during = `Anchor bolts set ${stamp}.jpg`;
  await upload(before, 15);
  await expect(tile(watching, captionOf(before))).toHaveCount(1);

  // The socket drops; meanwhile one photo is deleted and another added.
  await connection(true);
  await expect(homeowner.getByTestId('reconnecting')).toBeVisible({ timeout: 15_000 });
  await admin.goto(`/projects/${id}`);
  const media = photoSection(admin, 'Project Media');
  const doomed = tile(media, captionOf(before));
  await doomed.hover();
  await doomed.getByRole('button', { name: `Delete ${captionOf(before)}` }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete Image' }).click();
  await expect(toast(admin, 'Image deleted successfully')).toBeVisible();
  await upload(during, 290);

  // Back online: a new Hello, a fresh subscription, and the gallery is current.
  await connection(false);
  await expect(homeowner.getByTestId('reconnecting')).toHaveCount(0, { timeout: 30_000 });
  await expect(tile(watching, captionOf(during))).toHaveCount(1);
  await expect(tile(watching, captionOf(before))).toHaveCount(0);
  expect(await homeowner.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

  await homeownerContext.close();
  await adminContext.close();
});
