import { expect, test } from '@playwright/test';
import { loginAs, shoot } from './helpers';

// Issue 21, "tried as a demanding customer would": phones and small words.

test('the public header folds About and Contact into a menu on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/contact');
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('link', { name: 'About', exact: true })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await shoot(page, 'public-menu-open');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/about$/);
  // Arriving closes it.
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  // Wider screens show the links and no menu button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' })).toBeVisible();
});

test('sign-up links to the Terms and Privacy pages', async ({ page }) => {
  await page.goto('/signup');
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
  await page.getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
});

test('the login toast sits at the bottom, clear of the header', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Homeowner', exact: true }).click();
  const bottom = page.locator('[data-sonner-toaster][data-y-position="bottom"]');
  await expect(bottom.getByText('Login Successful')).toBeVisible();
  await expect(page.locator('[data-sonner-toaster][data-y-position="top"]').getByText('Login Successful')).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('admin on a phone: people as cards with every detail and labelled actions', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, 'admin');
  const card = page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: 'Jamie Carter' });
  await expect(card).toContainText('homeowner@sitecast.demo');
  await expect(card).toContainText('(555) 010-0003');
  await expect(card).toContainText('Summit Homes');
  for (const label of ['View Projects', 'Edit', 'Delete']) {
    await expect(card.getByRole(label === 'View Projects' ? 'link' : 'button', { name: new RegExp(`^${label}`) })).toContainText(label);
  }
  await page.getByLabel('Sort by').first().selectOption('email:descending');
  const emails = await page.getByRole('tabpanel').getByTestId('user-row').evaluateAll((rows) =>
    rows.map((r) => r.textContent?.match(/[\w.+-]+@[\w.-]+/)?.[0] ?? ''),
  );
  expect(emails).toEqual([...emails].sort((a, b) => b.localeCompare(a, 'en', { sensitivity: 'base' })));
  await shoot(page, 'admin-people-cards');
});

test('admin on a desktop sorts a table by a column', async ({ page }) => {
  await loginAs(page, 'admin');
  const panel = page.getByRole('tabpanel');
  const header = panel.getByRole('columnheader', { name: 'Email' });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const emails = () => panel.getByTestId('user-row').locator('td:nth-child(2)').allTextContents();
  const up = await emails();
  expect(up).toEqual([...up].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  expect(await emails()).toEqual([...up].reverse());
  await expect(panel.getByRole('columnheader', { name: 'Name' })).not.toHaveAttribute('aria-sort', /./);
});

test('the homeowner picker in Create New Project searches', async ({ page }) => {
  await loginAs(page, 'admin');
  await page.getByRole('button', { name: 'New Project' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Project' });
  const picker = form.getByLabel('Homeowner', { exact: true });
  await form.getByLabel('Search by name or email').fill('PRIYA');
  // One match: chosen, and the list holds just it.
  await expect(picker.locator('option:checked')).toHaveText('Priya Shah');
  await expect(picker.locator('option:not([disabled])')).toHaveCount(1);
  await expect(form.getByText('1 match')).toBeVisible();
  await shoot(page, 'dialog-create-project-search');
  await form.getByLabel('Search by name or email').fill('');
  expect(await picker.locator('option:not([disabled])').count()).toBeGreaterThan(1);
  await form.getByRole('button', { name: 'Cancel' }).click();
});

test("a builder's company name ending in s takes an apostrophe only", async ({ page }) => {
  await loginAs(page, 'admin');
  await page.getByRole('tablist', { name: 'User type' }).getByRole('tab', { name: /Builders/ }).click();
  await page.getByRole('tabpanel').getByRole('link', { name: 'View All Projects of Summit Homes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: "Summit Homes' Projects" })).toBeVisible();
});
