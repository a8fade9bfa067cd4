import { expect, test } from '@playwright/test';
import { shoot } from './helpers';
import { photoSection, showAllDates } from './photoHelpers';
import { makeWorld, signIn } from './world';

test('a month without photos says how many the project has and shows them all in one tap', async ({ page }) => {
  const world = await makeWorld({ photos: 3, milestones: false, comments: false });
  const project = world.projects[0]!;
  await signIn(page, world, 'homeowner', `/projects/${project.id}`);
  const section = photoSection(page, 'Project Photos');
  // The photos have loaded (which of them the default month shows depends on today's date).
  await expect(section.getByText(`${project.photos.length} photos`, { exact: true })).toBeVisible();

  // Last year's current month: the world's photos are from the last few days.
  const lastYear = String(new Date().getFullYear() - 1);
  await section.getByLabel('Year').selectOption(lastYear);
  const empty = section.getByRole('status').filter({ hasText: 'No photos found' });
  await expect(empty).toContainText(/This project has \d+ photos from other dates\./);
  await expect(empty).toContainText(`This project has ${project.photos.length} photos from other dates.`);
  await expect(section.getByTestId('photo-tile')).toHaveCount(0);
  await shoot(page, 'gallery-empty-month');

  await empty.getByRole('button', { name: 'Show all' }).click();
  await expect(section.getByLabel('Year')).toHaveValue('all');
  await expect(section.getByLabel('Month')).toHaveValue('all');
  const held = Number((await section.getByTestId('photo-summary').textContent())?.match(/of (\d+)/)?.[1]);
  expect(held).toBeGreaterThan(0);
  expect(held).toBe(project.photos.length);
  await expect(section.getByTestId('photo-tile')).toHaveCount(held);
});

test('tiles show caption and date without hover on a phone, on hover on a desktop', async ({ page }) => {
  const world = await makeWorld({ photos: 3, milestones: false, comments: false });
  const project = world.projects[0]!;
  await signIn(page, world, 'homeowner', `/projects/${project.id}`);
  const section = photoSection(page, 'Project Photos');
  // Every date: early in a month the world's photos (a few days old) fall in the last one.
  await showAllDates(section);
  await expect(section.getByTestId('photo-tile')).toHaveCount(project.photos.length);
  const first = section.getByTestId('photo-tile').first();
  await expect(first).toBeVisible();
  await page.mouse.move(0, 0);

  // Desktop: hidden until hovered (SPEC §2 "the date on hover").
  await expect(first.getByTestId('photo-caption')).toHaveCSS('opacity', '0');
  await first.hover();
  await expect(first.getByTestId('photo-caption')).toHaveCSS('opacity', '1');

  // Phone: always there, touch has no hover.
  await page.mouse.move(0, 0);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const tile of await section.getByTestId('photo-tile').all()) {
    await expect(tile.getByTestId('photo-caption')).toHaveCSS('opacity', '1');
    await expect(tile.getByTestId('photo-date')).not.toBeEmpty();
  }
  await shoot(page, 'gallery-phone-captions');
});
