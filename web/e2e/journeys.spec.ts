import { expect, test } from '@playwright/test';
import { openProjectCard, shoot, shownName, toast } from './helpers';
import { makeWorld, signIn, type WorldUser } from './world';

/** The first name the app greets someone by. */
const firstName = (user: WorldUser) => user.name.split(' ')[0]!;

test('admin journey: dashboard tables, search, projects list, project page', async ({ page }) => {
  // Every table of the dashboard, three pages and four screenshots at two widths.
  test.setTimeout(90_000);
  const world = await makeWorld({ projects: 2, homeowners: 2, photos: 3 });
  const homeowner = world.users.homeowner;
  await signIn(page, world, 'admin');
  await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${firstName(world.users.admin)}` })).toBeVisible();
  for (const label of ['Total Projects', 'In Progress', 'Completed', 'On Hold']) {
    await expect(page.getByTestId('summary-card').filter({ hasText: label })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'New User' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Project' })).toBeVisible();

  // Homeowners tab: Builder column, search on name or email, exact empty text. The
  // tables list every test's people, a page at a time: the world's tag finds its own.
  const homeowners = page.getByRole('tabpanel');
  await expect(homeowners.getByRole('columnheader', { name: 'Builder' })).toBeAttached();
  const search = homeowners.getByPlaceholder('Search by name or email...');
  await search.fill(world.tag);
  await expect(homeowners.getByTestId('user-row')).toHaveCount(2);
  await expect(homeowners.getByTestId('user-row').filter({ hasText: shownName(homeowner) })).toBeVisible();
  await search.fill(homeowner.email.slice(0, homeowner.email.indexOf('@') + 1).toUpperCase());
  await expect(homeowners.getByTestId('user-row')).toHaveCount(1);
  await expect(homeowners.getByTestId('user-row')).toContainText(shownName(homeowner));
  await search.fill('no such person');
  await expect(homeowners.getByText('No homeowners found matching your search.')).toBeVisible();
  await search.fill('');

  await page.getByRole('tab', { name: /Builders/ }).click();
  await page.getByRole('tabpanel').getByPlaceholder('Search by name or email...').fill(world.tag);
  await expect(page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: world.users.owner.name })).toBeVisible();
  await expect(page.getByRole('tabpanel').getByRole('link', { name: /View All Projects/ }).first()).toHaveAttribute(
    'href',
    /^\/builder\/[^/]+\/projects$/,
  );

  await page.getByRole('tab', { name: /Admins/ }).click();
  const admins = page.getByRole('tabpanel').getByPlaceholder('Search by name or email...');
  await admins.fill(world.users.admin.email);
  const ownRow = page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: '(you)' });
  await expect(ownRow.getByRole('button', { name: /^Delete / })).toBeDisabled();
  await admins.fill('zzz');
  await expect(page.getByText('No administrators found matching your search.')).toBeVisible();
  await shoot(page, 'dashboard-admin-admins');

  // A homeowner's projects.
  await page.getByRole('tab', { name: /Homeowners/ }).click();
  await page.getByRole('tabpanel').getByPlaceholder('Search by name or email...').fill(homeowner.email);
  await page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: shownName(homeowner) }).getByRole('link', { name: /View Projects/ }).click();
  await expect(page).toHaveURL(/\/homeowner\/[^/]+\/projects$/);
  await expect(page.getByRole('heading', { level: 1, name: `${firstName(homeowner)}'s Projects` })).toBeVisible();
  await expect(page.getByText(`Viewing projects for ${shownName(homeowner)}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add New Project' })).toBeVisible();
  await shoot(page, 'projects-homeowner-scope');

  await page.goto('/projects');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByText('Viewing all projects')).toBeVisible();
  await expect(page.getByTestId('project-card')).not.toHaveCount(0);
  await shoot(page, 'projects-admin');

  // Every test's projects are listed: the world's title is its own.
  await openProjectCard(page, world.projects[1]!.title);
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
  // Another company's project: not theirs, so not listed.
  const world = await makeWorld({ projects: 2, strangerProject: true });
  await signIn(page, world, 'owner');
  await expect(page.getByRole('heading', { level: 1, name: world.users.owner.name })).toBeVisible();
  await expect(page.getByText("Here's your project overview")).toBeVisible();
  await expect(page.getByTestId('summary-card')).toHaveCount(4);
  // Their homeowners, without a Builder column or delete.
  await expect(page.getByTestId('user-row').filter({ hasText: shownName(world.users.homeowner) })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Builder' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New Project' })).toHaveCount(0);

  await page.getByRole('link', { name: 'View All Projects' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByText('Click on a project to view more details')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add New Project' })).toHaveCount(0);
  await expect(page.getByTestId('project-card')).toHaveCount(world.projects.length);
  await expect(page.getByTestId('project-card').filter({ hasText: world.strangerProject!.title })).toHaveCount(0);
  await shoot(page, 'projects-builder');

  await openProjectCard(page, world.projects[1]!.title);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  // SPEC §6: status and progress are for admins; the builder's card says so instead of offering them.
  const status = page.getByRole('region', { name: 'Update Project Status' });
  await expect(status.getByRole('note', { name: 'Access Restricted' })).toBeVisible();
  await expect(status.getByLabel('Status')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await shoot(page, 'project-builder');
});

test('homeowner journey: welcome, own projects only, project page, no admin pages', async ({ page }) => {
  // Three projects of one homeowner, beside another company's that is not theirs.
  const world = await makeWorld({ projects: 3, photos: 2, strangerProject: true });
  await signIn(page, world, 'homeowner');
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${firstName(world.users.homeowner)}!` })).toBeVisible();
  await expect(page.getByText('You have 3 active projects. Click on any to see details.')).toBeVisible();
  await expect(page.getByTestId('project-card')).toHaveCount(3);

  await openProjectCard(page, world.projects[0]!.title);
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
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  await signIn(page, world, 'admin');
  await page.goto('/projects/00000000-0000-4000-8000-000000000000');
  await expect(toast(page, 'Project not found')).toBeVisible();
  await expect(page).toHaveURL(/\/projects$/);
});

test('unauthenticated project pages go to /login, which returns to them', async ({ page }) => {
  const world = await makeWorld({ projects: 0 });
  await page.goto('/projects');
  await expect(page).toHaveURL(/\/login\?next=%2Fprojects$/);
  await page.goto('/profile-settings');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile-settings$/);
  await page.getByLabel('Email').fill(world.users.admin.email);
  await page.getByLabel('Password', { exact: true }).fill(world.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/profile-settings$/);
});
