import { expect, test } from '@playwright/test';
import { shoot } from './helpers';

test('unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/this/path/does-not-exist');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  await shoot(page, '404');
});
