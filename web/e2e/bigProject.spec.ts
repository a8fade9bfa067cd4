import { expect, test } from '@playwright/test';
import { shoot } from './helpers';
import { photoSection, showAllDates } from './photoHelpers';
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

test('a phone on a slow link sees the first photos at once and the older ones arrive without a stall', async ({ page }) => {
  test.setTimeout(180_000);
  const photos = 800;
  const world = await makeWorld({ photos: 0, yearOfPhotos: photos, milestones: false, comments: false });
  const project = world.projects[0]!;
  await page.setViewportSize({ width: 390, height: 844 });
  const cdp = await page.context().newCDPSession(page);
  // Chromium's network throttling: a weak cell signal (1.6 Mbit/s down, 150 ms).
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 90_000 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await signIn(page, world, 'homeowner', `/projects/${project.id}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  await expect(section.getByTestId('photo-tile').first()).toBeVisible({ timeout: 30_000 });
  await expect(section.getByTestId('photo-paging')).toHaveCount(0, { timeout: 120_000 });
  await expect(section.getByText(/could not be loaded/)).toHaveCount(0);
  await shoot(page, 'big-project-phone');
});
