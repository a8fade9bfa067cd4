import { expect, test, type Page } from '@playwright/test';
import { audit, auditToast, holdToast } from './axe';
import { openProjectCard } from './helpers';
import { photoSection, showAllDates } from './photoHelpers';
import { createGuestLink } from './guestHelpers';
import { makeWorld, signIn, type World } from './world';

// Every screen and dialog, signed out and as each role, at 390 and 1280 px: no serious
// or critical axe-core finding and no skipped heading level. The audits are soft, so
// one run names every screen that fails, not just the first.

async function openLightbox(page: Page, section: ReturnType<typeof photoSection>, opener: RegExp) {
  await showAllDates(section);
  const button = section.getByRole('button', { name: opener }).first();
  await button.click();
  const lightbox = page.getByTestId('lightbox');
  await expect(lightbox).toBeVisible();
  return { lightbox, button };
}

test('public screens', async ({ page }) => {
  // Fourteen screens, each audited at two widths.
  test.setTimeout(180_000);
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 10_000 });
  await audit(page, 'landing');

  for (const [path, screen] of [
    ['/about', 'about'],
    ['/contact', 'contact'],
    ['/terms-of-service', 'terms'],
    ['/privacy-policy', 'privacy'],
    ['/cookie-policy', 'cookies'],
    ['/login', 'login'],
    ['/signup', 'signup'],
    ['/check-email', 'check-email'],
    ['/forgot-password', 'forgot-password'],
    ['/reset-password?token=not-a-real-token', 'reset-password'],
    ['/no-such-page', 'not-found'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await audit(page, screen);
  }

  // Sign-up as a builder, with the form's own error messages showing.
  await page.goto('/signup');
  await page.locator('label').filter({ has: page.getByRole('radio', { name: /Builder/ }) }).click();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await audit(page, 'signup-errors');

  // The phone header menu (About and Contact do not fit beside the logo at 390 px).
  await page.goto('/about');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' })).toBeVisible();
  await audit(page, 'public-menu', { fullPage: false });
});

/** The admin's People table, on its Homeowners tab, searched down to this world's. */
async function worldHomeowners(page: Page, world: World) {
  await page.getByRole('tablist', { name: 'User type' }).getByRole('tab', { name: /Homeowners/ }).click();
  // Every test's homeowners are in this table: the search keeps this world's.
  await page.getByRole('tabpanel').getByRole('searchbox', { name: 'Search homeowners by name or email' }).fill(world.tag);
  return page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: world.users.homeowner.name });
}

// The admin's screens in two tests, the dashboard with its dialogs and then the
// project screens, each with a world of its own so they run side by side.
test('admin screens and dialogs', async ({ page }) => {
  // Ten screens and dialogs, each audited at two widths.
  test.setTimeout(180_000);
  const world = await makeWorld();
  const homeowner = world.users.homeowner;
  await signIn(page, world, 'admin');
  await audit(page, 'admin-dashboard');
  const people = page.getByRole('tablist', { name: 'User type' });
  await people.getByRole('tab', { name: /Builders/ }).click();
  await audit(page, 'admin-dashboard-builders');
  await people.getByRole('tab', { name: /Admins/ }).click();
  await audit(page, 'admin-dashboard-admins');
  const row = await worldHomeowners(page, world);

  await page.getByRole('button', { name: /Open user menu/ }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await audit(page, 'user-menu', { fullPage: false });
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'New User' }).click();
  const create = page.getByRole('dialog', { name: 'Create New User' });
  for (const role of ['Homeowner', 'Builder', 'Admin']) {
    await create.getByRole('tab', { name: role }).click();
    await audit(page, `dialog-create-user-${role.toLowerCase()}`, { fullPage: false });
  }
  await create.getByRole('button', { name: 'Cancel' }).click();

  // Names show capitalised word by word (the tag may start with a letter).
  await row.getByRole('button', { name: new RegExp(`^Edit ${homeowner.name}`, 'i') }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Homeowner Details' });
  await expect(edit).toBeVisible();
  await audit(page, 'dialog-edit-user', { fullPage: false });
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('button', { name: new RegExp(`^Delete ${homeowner.name}`, 'i') }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toBeVisible();
  await audit(page, 'dialog-delete-user', { fullPage: false });
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'New Project' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Project' });
  await expect(form).toBeVisible();
  await audit(page, 'dialog-create-project', { fullPage: false });
  await form.getByRole('button', { name: 'Cancel' }).click();
});

test('admin project screens and dialogs', async ({ page }) => {
  // Ten screens and dialogs, each audited at two widths.
  test.setTimeout(180_000);
  const world = await makeWorld();
  const homeowner = world.users.homeowner;
  const project = world.projects[0]!;
  await signIn(page, world, 'admin');
  const row = await worldHomeowners(page, world);
  await row.getByRole('link', { name: /View Projects/ }).click();
  await expect(page).toHaveURL(`/homeowner/${homeowner.id}/projects`);
  await expect(page.getByTestId('project-card').filter({ hasText: project.title })).toBeVisible();
  await audit(page, 'homeowner-projects');

  await page.goto('/dashboard');
  await page.getByRole('tablist', { name: 'User type' }).getByRole('tab', { name: /Builders/ }).click();
  const builders = page.getByRole('tabpanel');
  await builders.getByRole('searchbox', { name: 'Search builders by name or email' }).fill(world.users.owner.email);
  await builders.getByTestId('user-row').filter({ hasText: world.users.owner.name }).getByRole('link', { name: /View All Projects/ }).click();
  await expect(page).toHaveURL(`/builder/${world.users.owner.id}/projects`);
  await expect(page.getByTestId('project-card').filter({ hasText: project.title })).toBeVisible();
  await audit(page, 'builder-projects');

  // An admin sees every test's projects: the search in the address narrows to this one.
  await page.goto(`/projects?q=${encodeURIComponent(project.title)}`);
  await expect(page.getByTestId('project-card').filter({ hasText: project.title })).toBeVisible();
  await audit(page, 'admin-projects');

  await page.goto(`/projects/${project.id}`);
  await expect(page.getByRole('heading', { level: 1, name: project.title })).toBeVisible();
  const media = photoSection(page, 'Project Media');
  await expect(media.getByTestId('photo-tile').first().or(media.getByRole('status')).first()).toBeVisible();
  await audit(page, 'admin-project');
  await showAllDates(media);
  await audit(page, 'admin-project-all-photos');
  await media.getByRole('tab', { name: 'Upload Photos' }).click();
  await audit(page, 'admin-project-upload');
  await media.getByRole('tab', { name: /Photos/ }).last().click();

  const { lightbox, button } = await openLightbox(page, media, /^View /);
  await audit(page, 'lightbox', { fullPage: false });
  await lightbox.getByRole('button', { name: 'Close' }).click();
  // Focus comes back to the tile that opened it, not the page.
  await expect(button).toBeFocused();

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const projectForm = page.getByRole('dialog');
  await expect(projectForm).toBeVisible();
  await audit(page, 'dialog-edit-project', { fullPage: false });
  await projectForm.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit(page, 'profile-settings');
  await page.getByRole('region', { name: 'My Profile' }).getByRole('button', { name: 'Edit Profile' }).click();
  await audit(page, 'profile-settings-edit');
});

test('builder screens', async ({ page }) => {
  // Nine screens and dialogs, each audited at two widths.
  test.setTimeout(180_000);
  const world = await makeWorld();
  const project = world.projects[0]!;
  await signIn(page, world, 'owner');
  await audit(page, 'builder-dashboard');
  await page.goto('/projects');
  await expect(page.getByTestId('project-card').first()).toBeVisible();
  await audit(page, 'builder-projects-list');
  await openProjectCard(page, project.title);
  const section = photoSection(page, 'Project Photos');
  await expect(section).toBeVisible();
  await audit(page, 'builder-project');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  await audit(page, 'builder-project-upload');

  // The project's story tabs, and the milestone editor with its dialogs.
  const tabs = page.getByRole('tablist', { name: 'Project sections' });
  await tabs.getByRole('tab', { name: 'Timeline' }).click();
  await expect(page.getByTestId('timeline-feed').or(page.getByTestId('timeline-empty'))).toBeVisible();
  await audit(page, 'builder-project-timeline');
  await tabs.getByRole('tab', { name: 'Milestones' }).click();
  const editor = page.getByTestId('milestone-editor');
  await expect(editor).toBeVisible();
  await audit(page, 'builder-project-milestones');
  const start = editor.getByRole('button', { name: 'Start from the standard residential plan' });
  if (await start.isVisible()) await start.click();
  const first = editor.getByTestId('milestone').first();
  await expect(first).toBeVisible();
  await first.getByRole('button', { name: /^(Complete|Reopen)$/ }).first().click();
  await audit(page, 'builder-milestone-complete-form');
  await first.getByRole('button', { name: /^Delete / }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await audit(page, 'dialog-delete-milestone', { fullPage: false });
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await tabs.getByRole('tab', { name: 'Photos' }).click();
  await section.getByTestId('group-by').selectOption('visit');
  await audit(page, 'builder-project-grouped');
  await section.getByTestId('group-by').selectOption('none');
});

test('homeowner screens', async ({ page }) => {
  // Eight screens, each audited at two widths.
  test.setTimeout(180_000);
  const world = await makeWorld();
  await signIn(page, world, 'homeowner');
  await audit(page, 'homeowner-dashboard');
  await page.goto('/projects');
  await expect(page.getByTestId('project-card').first()).toBeVisible();
  await audit(page, 'homeowner-projects-list');
  await openProjectCard(page, world.projects[0]!.title);
  const section = photoSection(page, 'Project Photos');
  await expect(section).toBeVisible();
  await audit(page, 'homeowner-project');
  await showAllDates(section);
  await audit(page, 'homeowner-project-all-photos');
  const tabs = page.getByRole('tablist', { name: 'Project sections' });
  await tabs.getByRole('tab', { name: 'Timeline' }).click();
  await expect(page.getByTestId('timeline-feed').or(page.getByTestId('timeline-empty'))).toBeVisible();
  await audit(page, 'homeowner-project-timeline');
  await tabs.getByRole('tab', { name: 'Milestones' }).click();
  await expect(page.getByTestId('milestone-list').or(page.getByTestId('milestones-empty'))).toBeVisible();
  await audit(page, 'homeowner-project-milestones');
  await tabs.getByRole('tab', { name: 'Photos' }).click();
  const { lightbox, button } = await openLightbox(page, section, /full size$/);
  await audit(page, 'homeowner-lightbox', { fullPage: false });
  await page.keyboard.press('Escape');
  await expect(lightbox).toHaveCount(0);
  await expect(button).toBeFocused();
  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit(page, 'homeowner-profile');
});

test('share dialog, guest page, inactive page and compare view', async ({ browser }) => {
  // Seven screens in three browsers, each audited at two widths.
  test.setTimeout(240_000);
  const world = await makeWorld();
  const project = world.projects[0]!;
  const homeownerContext = await browser.newContext();
  const page = await homeownerContext.newPage();
  await signIn(page, world, 'homeowner', `/projects/${project.id}`);

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this project' });
  await expect(dialog.getByRole('form', { name: 'New link' })).toBeVisible();
  await expect(dialog.getByRole('status').or(dialog.getByTestId('guest-link').first()).or(dialog.getByText('No links yet.', { exact: false })).first()).toBeVisible();
  await audit(page, 'dialog-share', { fullPage: false });
  await page.keyboard.press('Escape');
  const { path, row } = await createGuestLink(page, { photos: 'Favorites only', expires: '30 days', downloads: true });
  await expect(row).toBeVisible();
  await audit(page, 'dialog-share-created', { fullPage: false });
  await homeownerContext.close();

  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  await guest.goto(path);
  await expect(guest.getByRole('heading', { level: 1, name: project.title })).toBeVisible({ timeout: 15_000 });
  await expect(guest.getByTestId('timeline-feed').or(guest.getByTestId('timeline-empty')).or(guest.getByTestId('timeline-error')).first()).toBeVisible();
  await audit(guest, 'guest-page');

  // The signed-in compare view, both modes, and its picker.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await signIn(viewer, world, 'homeowner', `/projects/${project.id}`);
  await photoSection(viewer, 'Project Photos').getByRole('button', { name: 'Compare', exact: true }).click();
  const picker = viewer.getByRole('dialog', { name: 'Compare photos' });
  const grid = picker.getByTestId('compare-picker');
  await grid.getByRole('button').nth(0).click();
  await grid.getByRole('button').nth(1).click();
  await audit(viewer, 'compare-picker', { fullPage: false });
  await picker.getByRole('button', { name: 'Compare', exact: true }).click();
  const view = viewer.getByTestId('compare-view');
  await expect(view.getByRole('slider')).toBeVisible();
  await audit(viewer, 'compare-slider', { fullPage: false });
  await view.getByRole('button', { name: 'Side by side' }).click();
  await audit(viewer, 'compare-side-by-side', { fullPage: false });
  // Escape leaves the view.
  await viewer.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await viewerContext.close();

  const stranger = await guestContext.newPage();
  await stranger.goto('/guest/not-a-real-link-token');
  await expect(stranger.getByRole('heading', { level: 1, name: 'This link is no longer active' })).toBeVisible({ timeout: 15_000 });
  await audit(stranger, 'guest-inactive');
  await guestContext.close();
});

// Toasts are left out of the page audits (they come and go with timing). Here each kind
// is raised by what a person does, in each theme, and audited alone once it has settled.
for (const theme of ['light', 'dark'] as const) {
  test.describe(`toasts in the ${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      // The theme the user menu's setting stores, from the first page on.
      await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
    });

    /** The page, and the toasts, are in this test's theme. */
    async function inTheme(page: Page) {
      if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
      await expect(page.locator('[data-sonner-toaster]')).toHaveAttribute('data-sonner-theme', theme);
    }

    test('an error toast, with its description, is readable: a wrong password', async ({ page }) => {
      const world = await makeWorld({ projects: 0, photos: 0, comments: false, milestones: false });
      await page.goto('/login');
      await page.getByLabel('Email').fill(world.users.owner.email);
      await page.getByLabel('Password', { exact: true }).fill(`not-${world.password}`);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await holdToast(page, 'error', 'Login Failed');
      await inTheme(page);
      await auditToast(page, 'error', ['Login Failed', 'Invalid login credentials'], `toast-error-${theme}`);
    });

    test('an info toast is readable: the project form saved with nothing changed', async ({ page }) => {
      const world = await makeWorld({ photos: 0, comments: false, milestones: false });
      await signIn(page, world, 'owner', `/projects/${world.projects[0]!.id}`);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('dialog', { name: 'Edit Project' });
      await form.getByRole('button', { name: 'Save Changes' }).click();
      await holdToast(page, 'info', 'No changes to update');
      await form.getByRole('button', { name: 'Cancel' }).click();
      await expect(form).toHaveCount(0);
      await inTheme(page);
      await auditToast(page, 'info', ['No changes to update'], `toast-info-${theme}`);
    });

    test('a success toast, with its description, is readable: a guest link revoked', async ({ page }) => {
      const world = await makeWorld({ photos: 0, comments: false, milestones: false });
      await signIn(page, world, 'owner', `/projects/${world.projects[0]!.id}`);
      const { row } = await createGuestLink(page);
      await row.getByRole('button', { name: 'Revoke', exact: true }).click();
      await row.getByRole('group', { name: 'Revoke this link?' }).getByRole('button', { name: 'Revoke link' }).click();
      await holdToast(page, 'success', 'Link revoked');
      await page.getByRole('dialog', { name: 'Share this project' }).getByRole('button', { name: 'Close' }).click();
      await expect(page.getByRole('dialog', { name: 'Share this project' })).toHaveCount(0);
      await inTheme(page);
      await auditToast(page, 'success', ['Link revoked', 'Anyone using it has lost access.'], `toast-success-${theme}`);
    });

    test('a warning toast, with its description, is readable: a file that is not a photo dropped on the uploader', async ({ page }) => {
      const world = await makeWorld({ photos: 0, comments: false, milestones: false });
      await signIn(page, world, 'owner', `/projects/${world.projects[0]!.id}`);
      const section = photoSection(page, 'Project Photos');
      await section.getByRole('button', { name: 'Upload Photos' }).click();
      const notes = `site-notes-${world.tag}.txt`;
      const dataTransfer = await page.evaluateHandle((name) => {
        const files = new DataTransfer();
        files.items.add(new File(['Framing passed inspection.'], name, { type: 'text/plain' }));
        return files;
      }, notes);
      await section.getByTestId('upload-drop-zone').dispatchEvent('drop', { dataTransfer });
      const title = 'Some files were skipped because they are not images';
      await holdToast(page, 'warning', title);
      await inTheme(page);
      await auditToast(page, 'warning', [title, notes], `toast-warning-${theme}`);
    });
  });
}
