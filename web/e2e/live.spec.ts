import { expect, test } from '@playwright/test';
import { shoot, toast } from './helpers';
import { makeWorld, signIn } from './world';

test('an admin status change shows on the homeowner’s open page without reload', async ({ browser }) => {
  const world = await makeWorld({ photos: 1, comments: false });
  const { id, title } = world.projects[0]!;
  const homeownerContext = await browser.newContext();
  const adminContext = await browser.newContext();
  const homeowner = await homeownerContext.newPage();
  const admin = await adminContext.newPage();

  await signIn(homeowner, world, 'homeowner', `/projects/${id}`);
  await expect(homeowner.getByRole('heading', { level: 1, name: title })).toBeVisible();
  // Navigations in this page after this point would reload; the test checks there are none.
  await homeowner.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await signIn(admin, world, 'admin', `/projects/${id}`);
  await expect(admin.getByRole('heading', { level: 1, name: title })).toBeVisible();

  // Presence: each sees the other as a viewer of the project.
  await expect(homeowner.getByTestId('project-viewers')).toBeVisible();
  await expect(homeowner.getByRole('list', { name: `Also viewing: ${world.users.admin.name}` })).toBeVisible();
  await expect(admin.getByRole('list', { name: `Also viewing: ${world.users.homeowner.name}` })).toBeVisible();

  // The world's project is in progress at 40 %: both targets are changes.
  const card = admin.getByRole('region', { name: 'Update Project Status' });
  await expect(card.getByLabel('Status')).toHaveValue('in-progress');
  await expect(card.getByLabel('Progress', { exact: true })).toHaveValue('40');
  const [status, label, progress] = ['on-hold', 'On Hold', '55'];
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

test("a homeowner opening another homeowner's project is sent to the dashboard", async ({ page }) => {
  // Two homeowners of one company: the second project is the second homeowner's.
  const world = await makeWorld({ projects: 2, homeowners: 2, photos: 1, comments: false });
  const theirs = world.projects[1]!;
  expect(theirs.homeowner).toBe('homeowner2');

  await signIn(page, world, 'homeowner');
  await page.goto(`/projects/${theirs.id}`);
  await expect(toast(page, "You don't have access to this project")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await shoot(page, 'project-no-access', { toasts: true });
});
