import { expect, test } from '@playwright/test';
import { loginAs, openProjectCard, shoot } from './helpers';
import { photoSection } from './photoHelpers';

test('a month without photos says how many the project has and shows them all in one tap', async ({ page }) => {
  await loginAs(page, 'homeowner');
  await page.goto('/projects');
  await openProjectCard(page, 'Maple Street Residence');
  const section = photoSection(page, 'Project Photos');
  await expect(section.getByTestId('photo-tile').first()).toBeVisible();

  // Last year's current month: the demo photos are all from the last two months.
  const lastYear = String(new Date().getFullYear() - 1);
  await section.getByLabel('Year').selectOption(lastYear);
  const empty = section.getByRole('status').filter({ hasText: 'No photos found' });
  await expect(empty).toContainText(/This project has \d+ photos from other dates\./);
  await expect(section.getByTestId('photo-tile')).toHaveCount(0);
  await shoot(page, 'gallery-empty-month');

  await empty.getByRole('button', { name: 'Show all' }).click();
  await expect(section.getByLabel('Year')).toHaveValue('all');
  await expect(section.getByLabel('Month')).toHaveValue('all');
  const held = Number((await section.getByTestId('photo-summary').textContent())?.match(/of (\d+)/)?.[1]);
  expect(held).toBeGreaterThan(0);
  await expect(section.getByTestId('photo-tile')).toHaveCount(held);
});

test('tiles show caption and date without hover on a phone, on hover on a desktop', async ({ page }) => {
  await loginAs(page, 'homeowner');
  await page.goto('/projects');
  await openProjectCard(page, 'Maple Street Residence');
  const section = photoSection(page, 'Project Photos');
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
