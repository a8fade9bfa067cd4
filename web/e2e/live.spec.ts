import { expect, test } from '@playwright/test';
import { loginAs, openProjectCard, shoot, toast } from './helpers';

test('an admin status change shows on the homeowner’s open page without reload', async ({ browser }) => {
  test.setTimeout(90_000);
  const homeownerContext = await browser.newContext();
  const adminContext = await browser.newContext();
  const homeowner = await homeownerContext.newPage();
  const admin = await adminContext.newPage();

  await loginAs(homeowner, 'homeowner');
  const id = await openProjectCard(homeowner, 'Cedar Ridge Garage & Studio');
  // Navigations in this page after this point would reload; the test checks there are none.
  await homeowner.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await loginAs(admin, 'admin');
  await admin.goto(`/projects/${id}`);
  await expect(admin.getByRole('heading', { level: 1, name: 'Cedar Ridge Garage & Studio' })).toBeVisible();

  // Presence: each sees the other as a viewer of the project.
  await expect(homeowner.getByTestId('project-viewers')).toBeVisible();
  await expect(homeowner.getByRole('list', { name: /Also viewing: Alex Morgan/ })).toBeVisible();
  await expect(admin.getByRole('list', { name: /Also viewing: Jamie Carter/ })).toBeVisible();

  // Targets that differ from the current values, so a rerun on the same server still changes something.
  const card = admin.getByRole('region', { name: 'Update Project Status' });
  const current = await card.getByLabel('Status').inputValue();
  const [status, label] = current === 'on-hold' ? ['completed', 'Completed'] : ['on-hold', 'On Hold'];
  const progress = (await card.getByLabel('Progress', { exact: true }).inputValue()) === '55' ? '60' : '55';
  await card.getByLabel('Status').selectOption(status);
  await card.getByLabel('Progress', { exact: true }).fill(progress);
  await card.getByRole('button', { name: 'Update Status' }).click();
  await expect(toast(admin, 'Project status updated successfully')).toBeVisible();

  const header = homeowner.getByTestId('project-header');
  await expect(header.getByText(label, { exact: true }).first()).toBeVisible();
  await expect(homeowner.getByRole('progressbar', { name: 'Project Progress' })).toHaveAttribute('aria-valuenow', progress);
  expect(await homeowner.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await shoot(homeowner, 'project-homeowner-live');

  // Leaving the page ends the admin's presence there.
  await admin.goto('/dashboard');
  await expect(homeowner.getByTestId('project-viewers')).toHaveCount(0);

  await homeownerContext.close();
  await adminContext.close();
});

test("a homeowner opening another homeowner's project is sent to the dashboard", async ({ browser }) => {
  test.setTimeout(90_000);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await loginAs(admin, 'admin');
  await admin.goto('/projects');
  const id = await openProjectCard(admin, 'Hillcrest Family Home');
  await adminContext.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, 'homeowner');
  await page.goto(`/projects/${id}`);
  await expect(toast(page, "You don't have access to this project")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await shoot(page, 'project-no-access', { toasts: true });
  await context.close();
});
