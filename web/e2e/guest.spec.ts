import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR, shoot, toast } from './helpers';
import { captionOf, fileInput, makePhoto, photoSection, tile } from './photoHelpers';
import { createGuestLink } from './guestHelpers';
import { makeWorld, signIn } from './world';

const INACTIVE = 'This link is no longer active';

test('a guest link opens in a fresh browser, follows the project live, and stops the moment it is revoked', async ({ browser }) => {
  // Three browsers, an upload through the page and six screenshots at two widths:
  // longer than the default on a loaded two-core machine.
  test.setTimeout(180_000);
  // Four photos, so the guest's gallery is a gallery.
  const world = await makeWorld({ photos: 4 });
  const project = world.projects[0]!;
  const id = project.id;
  const sharer = world.users[project.homeowner];
  const homeownerContext = await browser.newContext();
  const homeowner = await homeownerContext.newPage();
  await signIn(homeowner, world, project.homeowner, `/projects/${id}`);

  await homeowner.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(homeowner.getByRole('dialog', { name: 'Share this project' }).getByRole('form', { name: 'New link' })).toBeVisible();
  await shoot(homeowner, 'share-dialog', { viewport: true });
  await homeowner.keyboard.press('Escape');

  // The homeowner shares: all photos, a week, no downloads.
  const { path, row } = await createGuestLink(homeowner, { photos: 'All photos', expires: '7 days', downloads: false });
  const dialog = homeowner.getByRole('dialog', { name: 'Share this project' });
  await expect(dialog.getByText("Copy it now: this link won't be shown again.")).toBeVisible();
  await expect(row.getByTestId('guest-link-status')).toHaveText('Active · expires in 7 days');
  await expect(row).toContainText('All photos · No downloads');
  await expect(row).toContainText('Never opened');
  await shoot(homeowner, 'share-dialog-created', { viewport: true });
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A fresh browser with no cookies opens it: the project, read only.
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  await guest.goto(path);
  await expect(guest.getByRole('heading', { level: 1, name: project.title })).toBeVisible({ timeout: 15_000 });
  await expect(guest.getByText(`Shared by ${sharer.name} · view only`).first()).toBeVisible();
  await expect(guest.getByText(project.address)).toBeVisible();
  await expect(guest.getByRole('progressbar', { name: 'Project Progress' })).toBeVisible();
  await expect(guest.getByRole('region', { name: 'Milestones' })).toBeVisible();
  await expect(guest.getByRole('region', { name: 'Timeline' })).toBeVisible();
  const photos = guest.getByRole('region', { name: 'Photos', exact: true });
  await expect(photos.getByTestId('photo-tile').first()).toBeVisible();
  expect(await photos.getByTestId('photo-tile').count()).toBeGreaterThanOrEqual(4);
  // Nothing but the project: no favourites, comments, editing, downloads, or app links.
  await expect(guest.getByRole('button', { name: /^Favorite/ })).toHaveCount(0);
  await expect(guest.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
  await expect(guest.getByRole('link', { name: /Download/ })).toHaveCount(0);
  await expect(guest.locator('a[href^="/projects"], a[href^="/dashboard"], a[href^="/profile"]')).toHaveCount(0);
  await expect(guest.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await guest.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await shoot(guest, 'guest-page');

  // The lightbox for a guest: no favourite, no comments, no download on this link.
  await photos.getByTestId('photo-tile').first().getByRole('button', { name: /^View / }).click();
  const lightbox = guest.getByTestId('lightbox');
  await expect(lightbox).toBeVisible();
  await expect(lightbox.getByRole('button', { name: 'Favorite' })).toHaveCount(0);
  await expect(lightbox.getByRole('link', { name: 'Download', exact: true })).toHaveCount(0);
  await expect(lightbox.getByTestId('photo-comments')).toHaveCount(0);
  await shoot(guest, 'guest-lightbox', { viewport: true });
  await guest.keyboard.press('Escape');
  await expect(lightbox).toHaveCount(0);

  // The homeowner's list now says it was opened.
  await homeowner.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(row).toContainText('Last opened', { timeout: 15_000 });
  await homeowner.keyboard.press('Escape');

  // The builder uploads a photo: the guest's open page shows it, and its timeline
  // entry, without a reload.
  const batches = guest.getByRole('region', { name: 'Timeline' }).locator('[data-testid="timeline-entry"][data-kind="photos_added"]');
  await expect(guest.getByTestId('timeline-feed').or(guest.getByTestId('timeline-empty'))).toBeVisible();
  const batchesBefore = await batches.count();
  const builderContext = await browser.newContext();
  const builder = await builderContext.newPage();
  await signIn(builder, world, 'owner', `/projects/${id}`);
  const section = photoSection(builder, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  const name = 'Porch roof framed.jpg';
  await fileInput(section).setInputFiles([await makePhoto(builder, name, { hue: 160, label: 'Porch roof framed' })]);
  await section.getByRole('region', { name: 'Selected Photos' }).getByRole('button', { name: 'Publish' }).click();
  await expect(toast(builder, '1 photo uploaded successfully')).toBeVisible({ timeout: 30_000 });
  await expect(tile(photos, captionOf(name))).toHaveCount(1, { timeout: 15_000 });
  await expect.poll(() => batches.count(), { timeout: 15_000 }).toBeGreaterThan(batchesBefore);
  await expect(batches.first()).toContainText('new photo');
  expect(await guest.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await builderContext.close();

  // The homeowner revokes; the guest's open page says so at once.
  await homeowner.getByRole('button', { name: 'Share', exact: true }).click();
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row.getByText('Revoke this link?')).toBeVisible();
  await shoot(homeowner, 'share-dialog-revoke', { viewport: true });
  await row.getByRole('button', { name: 'Revoke link' }).click();
  await expect(toast(homeowner, 'Link revoked')).toBeVisible();
  await expect(row.getByTestId('guest-link-status')).toHaveText('Revoked');
  await expect(row.getByRole('button', { name: 'Revoke' })).toHaveCount(0);

  await expect(guest.getByRole('heading', { level: 1, name: INACTIVE })).toBeVisible({ timeout: 15_000 });
  expect(await guest.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await expect(guest.getByText(project.title)).toHaveCount(0);
  await expect(guest.getByRole('link', { name: 'Go to Sitecast home' })).toBeVisible();
  // And a reload shows the same, not the project.
  await guest.reload();
  await expect(guest.getByRole('heading', { level: 1, name: INACTIVE })).toBeVisible();
  await shoot(guest, 'guest-inactive');

  await guestContext.close();
  await homeownerContext.close();
});

test('a link with downloads offers them; guests compare photos; links that never worked show the inactive page', async ({ browser }) => {
  // Three browsers, a zip of the photos and the compare view: longer than the default
  // on a loaded two-core machine.
  test.setTimeout(120_000);
  // Photos enough to compare two of them.
  const world = await makeWorld({ photos: 3, comments: false });
  const project = world.projects[0]!;
  const homeownerContext = await browser.newContext();
  const homeowner = await homeownerContext.newPage();
  await signIn(homeowner, world, project.homeowner, `/projects/${project.id}`);
  const { path, row } = await createGuestLink(homeowner, { photos: 'All photos', expires: 'Never', downloads: true });
  await expect(row.getByTestId('guest-link-status')).toHaveText('Active · never expires');
  await expect(row).toContainText('All photos · Downloads allowed');
  await homeownerContext.close();

  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  await guest.goto(path);
  await expect(guest.getByRole('heading', { level: 1, name: project.title })).toBeVisible({ timeout: 15_000 });
  await expect(guest.getByTestId('guest-link-expiry')).toHaveText('This link does not expire.');
  const photos = guest.getByRole('region', { name: 'Photos', exact: true });
  const zip = photos.getByRole('link', { name: 'Download all' });
  await expect(zip).toHaveAttribute('href', /\/media\/projects\/[^/]+\/photos\.zip$/);
  // The guest's cookie carries the zip: it downloads.
  const response = await guest.request.get((await zip.getAttribute('href')) ?? '');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('zip');

  const first = photos.getByTestId('photo-tile').first();
  await first.getByRole('button', { name: /^View / }).click();
  const lightbox = guest.getByTestId('lightbox');
  await expect(lightbox.getByRole('link', { name: 'Download', exact: true })).toBeVisible();

  // Compare from the lightbox: the photo shown is one of the two.
  await lightbox.getByRole('button', { name: 'Compare' }).click();
  const picker = guest.getByRole('dialog', { name: 'Compare photos' });
  await expect(picker.getByTestId('compare-picker').getByRole('button', { pressed: true })).toHaveCount(1);
  await picker.getByTestId('compare-picker').getByRole('button', { pressed: false }).last().click();
  await picker.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(guest).toHaveURL(new RegExp(`${path}/compare\\?a=[^&]+&b=[^&]+$`));
  const view = guest.getByTestId('compare-view');
  await expect(view).toBeVisible();
  await expect(view.getByRole('slider', { name: /Divider/ })).toHaveAttribute('aria-valuenow', '50');
  await shoot(guest, 'guest-compare', { viewport: true });
  // Close returns to the guest page, lightbox and all.
  await view.getByRole('button', { name: 'Close compare view' }).click();
  await expect(guest).toHaveURL(new RegExp(`${path}\\?photo=`));
  await expect(lightbox).toBeVisible();
  await guestContext.close();

  // A link that never existed: the same clear page, never a blank one.
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto('/guest/this-is-not-a-real-link-token-at-all');
  await expect(stranger.getByRole('heading', { level: 1, name: INACTIVE })).toBeVisible({ timeout: 15_000 });
  await expect(stranger.getByText('Ask them to send you a new link.')).toBeVisible();
  await stranger.screenshot({ path: `${SCREENSHOT_DIR}/guest-unknown-link-1280.png` });
  await stranger.context().close();
});
