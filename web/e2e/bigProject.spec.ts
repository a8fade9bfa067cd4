import { expect, test, type Page } from '@playwright/test';
import { shoot } from './helpers';
import { photoSection, showAllDates, tileById } from './photoHelpers';
import { makeWorld, signIn } from './world';

/**
 * A year of site visits (docs/FEATURES.md, "Big projects"): the project opens on its
 * first page of photos, the older pages arrive in the background in small replies, and
 * the gallery, favourites and lightbox work across all of them.
 */
test('a year of photos opens on its first page, reads the rest in small replies, and works across pages', async ({ page }) => {
  test.setTimeout(120_000);
  const photos = 1_200;
  const world = await makeWorld({ photos: 0, yearOfPhotos: photos, milestones: false, comments: false });
  const project = world.projects[0]!;
  const frames: number[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (frame) => frames.push(frame.payload.length)));

  await signIn(page, world, 'homeowner', `/projects/${project.id}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  await expect(section.getByTestId('photo-tile').first()).toBeVisible();
  // Every page read: the progress line goes and the summary counts them all.
  await expect(section.getByTestId('photo-paging')).toHaveCount(0, { timeout: 60_000 });
  await expect(section.getByTestId('photo-summary')).toHaveText(`Showing ${photos} of ${photos}`);
  // No reply is big, however many photos: the subscribe reply and each page stay
  // under the server's bound (56 KiB of photos, plus the envelope: under 64 KiB).
  expect(Math.max(...frames)).toBeLessThan(64 * 1024);
  expect(frames.filter((size) => size > 20 * 1024).length).toBeGreaterThanOrEqual(Math.floor((photos - 60) / 100));
  await shoot(page, 'big-project-all-years');

  // The lightbox steps from the newest photo back to the oldest (wrapping), which came
  // on the last page.
  // A homeowner's tap favourites; the corner button opens the lightbox.
  await section.getByTestId('photo-tile').first().getByRole('button', { name: /full size$/ }).click();
  const dialog = page.getByRole('dialog');
  const position = dialog.getByTestId('lightbox-position');
  await expect(position).toHaveText(`1 / ${photos}`);
  await dialog.getByRole('button', { name: 'Previous photo' }).first().click();
  await expect(position).toHaveText(`${photos} / ${photos}`);
  const oldest = project.photos[0]!;
  await expect(dialog).toContainText(oldest.caption);
  // Favourite it there; Favorites then shows just that one.
  await dialog.getByRole('button', { name: 'Favorite' }).click();
  await page.keyboard.press('Escape');
  await section.getByRole('button', { name: /Favorites/ }).click();
  await expect(section.getByTestId('photo-tile')).toHaveCount(1);
  await expect(section.getByTestId('photo-tile').first()).toContainText(oldest.caption);
});

/** A phone on a weak cell signal: 390 px wide, Chromium's throttling at 1.6 Mbit/s down and 150 ms, a 4× slower CPU. */
async function onAPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 90_000 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

test('a phone on a slow link sees the first photos at once and the older ones arrive without a stall', async ({ page }) => {
  test.setTimeout(180_000);
  const photos = 800;
  const world = await makeWorld({ photos: 0, yearOfPhotos: photos, milestones: false, comments: false });
  const project = world.projects[0]!;
  await onAPhone(page);
  await signIn(page, world, 'homeowner', `/projects/${project.id}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  await expect(section.getByTestId('photo-tile').first()).toBeVisible({ timeout: 30_000 });
  await expect(section.getByTestId('photo-paging')).toHaveCount(0, { timeout: 120_000 });
  await expect(section.getByText(/could not be loaded/)).toHaveCount(0);
  await shoot(page, 'big-project-phone');
});

test('on a phone on a slow link, a month a year back shows at once, favourites and steps past its first page', async ({ page }) => {
  test.setTimeout(180_000);
  const photos = 1_500;
  const world = await makeWorld({ photos: 0, yearOfPhotos: photos, milestones: false, comments: false });
  const project = world.projects[0]!;
  // The world's visits are spread over the 365 days before yesterday, so the whole
  // calendar month (UTC, as the gallery dates captured photos) of 330 days ago is among
  // them: at least four visits of 25, at least 100 photos, near the oldest and far past
  // the first page. The world gives photos without dates; this needs none.
  const aYearBack = new Date(Date.now() - 330 * 86_400_000);
  const year = aYearBack.getUTCFullYear();
  const month = aYearBack.getUTCMonth();
  const short = aYearBack.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const sent: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(Buffer.from(frame.payload).toString('latin1'))));
  await onAPhone(page);
  await signIn(page, world, 'homeowner', `/projects/${project.id}`);
  const section = photoSection(page, 'Project Photos');

  // Straight away, while the older pages have hardly begun: that year and month.
  await section.getByLabel('Year').selectOption(String(year));
  await section.getByLabel('Month').selectOption(String(month));
  const chosen = Date.now();
  // "No photos" must never show for a month that has photos on the server.
  await page.evaluate(() => {
    const seen = window as unknown as { sawNoPhotos: boolean };
    const look = () => (seen.sawNoPhotos ||= document.body.textContent?.includes('No photos found') ?? false);
    look();
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const tiles = section.getByTestId('photo-tile');
  await expect(tiles.first()).toBeVisible({ timeout: 10_000 });
  const shownMs = Date.now() - chosen;
  // For the record (not asserted: it depends on the machine): whether the background read
  // was still going when the month showed.
  const stillPaging = (await section.getByTestId('photo-paging').count()) > 0;
  test.info().annotations.push({ type: 'month a year back', description: `${shownMs} ms, older pages still loading: ${stillPaging}` });
  await expect(tiles.first().getByTestId('photo-date')).toHaveText(new RegExp(`^${short} \\d{1,2}(, ${year})?$`));
  // It was read directly (`before`), not waited for behind the background read.
  expect(sent.some((frame) => frame.includes('list_photos') && frame.includes('before'))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { sawNoPhotos: boolean }).sawNoPhotos)).toBe(false);

  // A homeowner's tap favourites it.
  const first = tileById(section, (await tiles.first().getAttribute('data-photo-id'))!);
  await first.getByRole('button', { name: /^Favorite / }).click();
  await expect(first.getByRole('button', { name: /^Favorite / })).toHaveAttribute('aria-pressed', 'true');
  // Pages are still on their way: the count says "at least".
  await expect(section.getByTestId('favourite-count')).toHaveText(/^1\+?$/);

  // The lightbox opens on it, maybe before the month's later pages are here: they join
  // its end as they arrive, so Next goes on past the first page (at most 60 photos).
  await first.getByRole('button', { name: /full size$/ }).click();
  const dialog = page.getByRole('dialog');
  const position = dialog.getByTestId('lightbox-position');
  await expect(position).toHaveText(/^1 \/ \d+$/);
  await expect(section.getByTestId('photo-window-loading')).toHaveCount(0, { timeout: 60_000 });
  await expect(position).toHaveText(/^1 \/ \d{3}$/);
  const total = (await position.textContent())!.split(' / ')[1];
  const next = dialog.getByRole('button', { name: 'Next photo' }).first();
  for (let i = 2; i <= 61; i++) {
    await next.click();
    if (i % 20 === 0 || i === 61) await expect(position).toHaveText(`${i} / ${total}`);
  }
  await expect(dialog.getByTestId('lightbox-date')).toHaveText(new RegExp(`^Taken ${short} \\d{1,2}, ${year}`));
  await shoot(page, 'big-project-year-back');
  await page.keyboard.press('Escape');
  // Past 120 photos the gallery draws only the rows near the screen (closing scrolled to
  // the 61st), so the favourite is checked by its count.
  await expect(section.getByTestId('favourite-count')).toHaveText(/^1\+?$/);
});

/**
 * An admin of many projects and people (docs/FEATURES.md, "Big projects"): the hello
 * carries the first projects, the rest arrive in the background; the homeowners' table
 * is searched and paged by the server, so a person past its first page is one search away.
 */
test('an admin finds a homeowner past the first page and every project once the rest have arrived', async ({ page }) => {
  test.setTimeout(120_000);
  const world = await makeWorld({ projects: 30, homeowners: 60, photos: 0, milestones: false, comments: false });
  const frames: number[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (frame) => frames.push(frame.payload.length)));
  await signIn(page, world, 'admin');

  // The table's first page is 50 rows of everyone's homeowners; the 60th of this world
  // is found by the server's search, by part of their name.
  const table = page.getByRole('tabpanel');
  await expect(table.getByTestId('user-row').first()).toBeVisible();
  expect(await table.getByTestId('user-row').count()).toBeLessThanOrEqual(50);
  const sixtieth = (world.users as Record<string, { email: string }>).homeowner60!;
  await table.getByRole('searchbox', { name: 'Search homeowners by name or email' }).fill(`Home60 ${world.tag}`);
  await expect(table.getByTestId('user-row')).toHaveCount(1);
  await expect(table.getByTestId('user-row')).toContainText(sixtieth.email);
  await shoot(page, 'admin-people-search');

  // Every one of this world's projects, the first page's and the ones read after it.
  await page.goto(`/projects?view=list&q=${world.tag}`);
  await expect(page.getByTestId('project-paging')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('project-row')).toHaveCount(30);
  // The hello and every page stay small, however many projects there are.
  expect(Math.max(...frames)).toBeLessThan(64 * 1024);
});
