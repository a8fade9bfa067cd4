import { expect, test } from '@playwright/test';
import { loginAs, openProjectCard, shoot, toast } from './helpers';

test('admin journey: dashboard tables, search, projects list, project page', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, 'admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Alex' })).toBeVisible();
  for (const label of ['Total Projects', 'In Progress', 'Completed', 'On Hold']) {
    await expect(page.getByTestId('summary-card').filter({ hasText: label })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'New User' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Project' })).toBeVisible();

  // Homeowners tab: Builder column, search on name or email, exact empty text.
  const homeowners = page.getByRole('tabpanel');
  await expect(homeowners.getByRole('columnheader', { name: 'Builder' })).toBeAttached();
  await expect(homeowners.getByTestId('user-row').filter({ hasText: 'Jamie Carter' })).toBeVisible();
  const search = homeowners.getByPlaceholder('Search by name or email...');
  await search.fill('PRIYA.SHAH@');
  await expect(homeowners.getByTestId('user-row')).toHaveCount(1);
  await expect(homeowners.getByTestId('user-row')).toContainText('Priya Shah');
  await search.fill('no such person');
  await expect(homeowners.getByText('No homeowners found matching your search.')).toBeVisible();
  await search.fill('');

  await page.getByRole('tab', { name: /Builders/ }).click();
  await expect(page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: 'Summit Homes' })).toBeVisible();
  await expect(page.getByRole('tabpanel').getByRole('link', { name: /View All Projects/ }).first()).toHaveAttribute(
    'href',
    /^\/builder\/[^/]+\/projects$/,
  );

  await page.getByRole('tab', { name: /Admins/ }).click();
  const ownRow = page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: '(you)' });
  await expect(ownRow.getByRole('button', { name: /^Delete / })).toBeDisabled();
  await page.getByRole('tabpanel').getByPlaceholder('Search by name or email...').fill('zzz');
  await expect(page.getByText('No administrators found matching your search.')).toBeVisible();
  await shoot(page, 'dashboard-admin-admins');

  // A homeowner's projects.
  await page.getByRole('tab', { name: /Homeowners/ }).click();
  await page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: 'Jamie Carter' }).getByRole('link', { name: /View Projects/ }).click();
  await expect(page).toHaveURL(/\/homeowner\/[^/]+\/projects$/);
  await expect(page.getByRole('heading', { level: 1, name: "Jamie's Projects" })).toBeVisible();
  await expect(page.getByText('Viewing projects for Jamie Carter')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add New Project' })).toBeVisible();
  await shoot(page, 'projects-homeowner-scope');

  await page.goto('/projects');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByText('Viewing all projects')).toBeVisible();
  await expect(page.getByTestId('project-card')).not.toHaveCount(0);
  await shoot(page, 'projects-admin');

  await openProjectCard(page, 'Lakeview Cottage');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Project Progress' })).toBeVisible();
  await expect(page.getByText(/^Last updated /).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Project Details' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Update Project Status' })).toBeVisible();
  // Exact names: the photo tiles have their own "Edit details of …" and "Delete …" buttons.
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
  await shoot(page, 'project-admin');

  // Unchanged status and progress: the info toast, no request needed.
  await page.getByRole('button', { name: 'Update Status' }).click();
  await expect(toast(page, 'No changes to update')).toBeVisible();

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('heading', { name: 'Are you absolutely sure?' })).toBeVisible();
  await expect(confirm).toContainText('This action cannot be undone.');
  await shoot(page, 'project-delete-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
});

test('builder journey: overview, homeowners, all projects, project page', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, 'builder');
  await expect(page.getByRole('heading', { level: 1, name: 'Summit Homes' })).toBeVisible();
  await expect(page.getByText("Here's your project overview")).toBeVisible();
  await expect(page.getByTestId('summary-card')).toHaveCount(4);
  // Their homeowners, without a Builder column or delete.
  await expect(page.getByTestId('user-row').filter({ hasText: 'Jamie Carter' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Builder' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New Project' })).toHaveCount(0);

  await page.getByRole('link', { name: 'View All Projects' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByText('Click on a project to view more details')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add New Project' })).toHaveCount(0);
  // The duplex has no builder, so it is not theirs.
  await expect(page.getByTestId('project-card').filter({ hasText: 'Oak Lane Duplex' })).toHaveCount(0);
  await shoot(page, 'projects-builder');

  await openProjectCard(page, 'Hillcrest Family Home');
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  // SPEC §6: status and progress are for admins; the builder's card says so instead of offering them.
  const status = page.getByRole('region', { name: 'Update Project Status' });
  await expect(status.getByRole('note', { name: 'Access Restricted' })).toBeVisible();
  await expect(status.getByLabel('Status')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await shoot(page, 'project-builder');
});

test('homeowner journey: welcome, own projects only, project page, no admin pages', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, 'homeowner');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Jamie!' })).toBeVisible();
  await expect(page.getByText('You have 3 active projects. Click on any to see details.')).toBeVisible();
  await expect(page.getByTestId('project-card')).toHaveCount(3);

  await openProjectCard(page, 'Maple Street Residence');
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Project Progress' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Update Project Status' })).toHaveCount(0);
  await shoot(page, 'project-homeowner');

  // Wrong role → /dashboard (SPEC §2).
  await page.goto('/homeowner/someone/projects');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a missing project says so and goes to /projects', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, 'admin');
  await page.goto('/projects/00000000-0000-4000-8000-000000000000');
  await expect(toast(page, 'Project not found')).toBeVisible();
  await expect(page).toHaveURL(/\/projects$/);
});

test('unauthenticated project pages go to /login, which returns to them', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/projects');
  await expect(page).toHaveURL(/\/login\?next=%2Fprojects$/);
  await page.goto('/profile-settings');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile-settings$/);
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await expect(page).toHaveURL(/\/profile-settings$/);
});
