import { expect, test, type Page } from '@playwright/test';
import { withCaptureTime } from './exif';
import { invitationPath, OUTBOX_DIR, openProjectCard, shoot, toast } from './helpers';
import { captionOf, fileInput, makePhoto, photoSection, tile } from './photoHelpers';
import { addSession, browserAs, makeWorld, signIn } from './world';

// Spec details: capture dates, builders' project edits, ended sessions, password
// rules, one name model.


const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const shortWithYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

test('a photo taken last month is filed under last month and shows both dates', async ({ page }) => {
  const world = await makeWorld({ photos: 0, comments: false, milestones: false });
  const stamp = world.tag;
  const now = new Date();
  // The 15th of last month, mid-morning on the camera's clock.
  const taken = new Date(now.getFullYear(), now.getMonth() - 1, 15, 10, 30);

  await signIn(page, world, 'owner', `/projects/${world.projects[0]!.id}`);
  const section = photoSection(page, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  const name = `Footings poured ${stamp}.jpg`;
  const photo = await makePhoto(page, name, { hue: 190, label: 'Footings poured' });
  await fileInput(section).setInputFiles([{ ...photo, buffer: withCaptureTime(photo.buffer, taken) }]);
  await section.getByRole('region', { name: 'Selected Photos' }).getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page, '1 photo uploaded successfully')).toBeVisible({ timeout: 30_000 });

  // Uploaded today, but taken last month: this month's default filter does not show it…
  const caption = captionOf(name);
  await expect(section.getByLabel('Month')).toHaveValue(String(now.getMonth()));
  await expect(tile(section, caption)).toHaveCount(0);
  // …last month's does, dated by the capture.
  await section.getByLabel('Year').selectOption(String(taken.getFullYear()));
  await section.getByLabel('Month').selectOption(String(taken.getMonth()));
  const filed = tile(section, caption);
  await expect(filed).toHaveCount(1);
  const tileDate = taken.getFullYear() === now.getFullYear() ? short.format(taken) : shortWithYear.format(taken);
  await expect(filed.getByTestId('photo-date')).toHaveText(tileDate);

  // The lightbox says which date is which.
  await filed.getByRole('button', { name: `View ${caption}` }).click();
  const box = page.getByRole('dialog');
  const uploaded = taken.getFullYear() === now.getFullYear() ? short.format(now) : shortWithYear.format(now);
  await expect(box.getByTestId('lightbox-date')).toHaveText(`Taken ${shortWithYear.format(taken)} · uploaded ${uploaded}`);
  await shoot(page, 'lightbox-capture-date', { viewport: true });
});

test('the builder edits the project’s title and address; status and progress stay with admins', async ({ browser }) => {
  const world = await makeWorld({ photos: 0, comments: false, milestones: false });
  const stamp = world.tag;
  const { id, title } = world.projects[0]!;
  const { context: homeownerContext, page: homeowner } = await browserAs(browser, world, 'homeowner', `/projects/${id}`);
  await expect(homeowner.getByRole('heading', { level: 1, name: title })).toBeVisible();
  // Homeowners follow; they edit nothing.
  await expect(homeowner.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);

  const { context: builderContext, page: builder } = await browserAs(browser, world, 'owner', `/projects/${id}`);
  // The builder's status card: the spec's screen wording and the Access Restricted alert.
  const statusCard = builder.getByRole('region', { name: 'Update Project Status' });
  await expect(statusCard.getByText('Only administrators can update project status and progress')).toBeVisible();
  const alert = statusCard.getByRole('note', { name: 'Access Restricted' });
  await expect(alert).toContainText('Access Restricted');
  await expect(alert).toContainText('This action is restricted to administrators only.');
  await expect(statusCard.getByLabel('Status')).toHaveCount(0);
  await expect(builder.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);

  await builder.getByRole('button', { name: 'Edit', exact: true }).click();
  const form = builder.getByRole('dialog', { name: 'Edit Project' });
  await expect(form.getByTestId('status-admin-only')).toHaveText('Only administrators can update project status and progress');
  // Status, progress and the people are shown, not offered.
  await expect(form.getByRole('combobox')).toHaveCount(0);
  await expect(form.getByRole('slider')).toHaveCount(0);
  const newTitle = `Willow Court Townhouse ${stamp}`;
  await form.getByLabel('Title').fill(newTitle);
  await form.getByLabel('Address').fill('14 Willow Court, Millbrook');
  await shoot(builder, 'builder-edit-project');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(builder, 'Project updated successfully')).toBeVisible();
  await expect(builder.getByRole('heading', { level: 1, name: newTitle })).toBeVisible();
  await shoot(builder, 'builder-project-status-restricted');

  // The homeowner's open page follows without a reload.
  await expect(homeowner.getByRole('heading', { level: 1, name: newTitle })).toBeVisible();
  await expect(homeowner.getByTestId('project-header')).toContainText('14 Willow Court, Millbrook');

  await homeownerContext.close();
  await builderContext.close();
});

async function revokeThisSession(page: Page): Promise<void> {
  // The server ends the session under the open page, as a logout on another device
  // or a password change elsewhere does; the page itself was not asked.
  const status = await page.evaluate(() => fetch('/api/auth/logout', { method: 'POST' }).then((r) => r.status));
  expect(status).toBeLessThan(300);
}

test('an ended session says so, goes to /login and comes back to the same page', async ({ page }) => {
  const world = await makeWorld({ photos: 0, comments: false, milestones: false });
  const { id, title } = world.projects[0]!;
  await signIn(page, world, 'owner', `/projects/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  await revokeThisSession(page);
  await expect(toast(page, 'Your session has expired. Please log in again.')).toBeVisible();
  // About 1.5 s later: the login page, which remembers the project.
  await expect(page).toHaveURL(new RegExp(`/login\\?expired=true&next=%2Fprojects%2F${id}$`));
  await expect(page.getByTestId('login-notice')).toHaveText('Your session has expired. Please log in again.');
  await shoot(page, 'login-session-expired');

  await page.getByLabel('Email').fill(world.users.owner.email);
  await page.getByLabel('Password', { exact: true }).fill(world.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
});

test('weak-password reasons appear as the user types, the same the server gives', async ({ page }) => {
  await page.goto('/signup');
  const password = page.getByLabel('Password', { exact: true });
  const rules = page.getByRole('list', { name: 'Password requirements' });
  await expect(rules).toHaveCount(0);
  const rule = (label: string) => rules.getByRole('listitem').filter({ hasText: label });

  await password.pressSequentially('1234');
  await expect(rule('At least 8 characters')).toHaveAttribute('data-met', 'false');
  await expect(rule('Not only numbers')).toHaveAttribute('data-met', 'false');
  await expect(rule('Not one character repeated')).toHaveAttribute('data-met', 'true');
  await expect(rule('Not a common password')).toHaveAttribute('data-met', 'true');
  await password.pressSequentially('5678');
  await expect(rule('At least 8 characters')).toHaveAttribute('data-met', 'true');
  await expect(rule('Not a common password')).toHaveAttribute('data-met', 'false');
  await shoot(page, 'signup-password-rules');

  await password.fill('Summit-2026');
  for (const label of ['At least 8 characters', 'Not only numbers', 'Not one character repeated', 'Not a common password']) {
    await expect(rule(label)).toHaveAttribute('data-met', 'true');
  }
  // On submit the field names its first unmet reason.
  await password.fill('password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Password is too common. Choose one that is harder to guess.')).toBeVisible();
});

test('one name model: the admin’s edit of an admin shows, a builder edits their company name as typed', async ({ browser, page }) => {
  // Two accounts made through the admin's dialogs, an invitation mail followed, a
  // password set, a sign-in through the form and a profile edit, one after the other.
  test.setTimeout(120_000);
  const world = await makeWorld({ projects: 0, homeowners: 0, photos: 0, comments: false, milestones: false });
  const stamp = world.tag;
  await signIn(page, world, 'admin');

  // A second admin, then their name edited in "Edit Builder/Admin Details".
  await page.getByRole('button', { name: 'New User' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create New User' });
  await dialog.getByRole('tab', { name: 'Admin' }).click();
  await dialog.getByLabel('First name').fill('Dana');
  await dialog.getByLabel('Last name').fill(`Okafor${stamp}`);
  await dialog.getByLabel('Email').fill(`dana.${stamp}@example.com`);
  await dialog.getByLabel('Phone').fill('(555) 201-3344');
  await dialog.getByRole('button', { name: 'Create Admin' }).click();
  await expect(toast(page, 'Admin created successfully. An invitation email has been sent.')).toBeVisible();
  await page.getByRole('tab', { name: /Admins/ }).click();
  // Every test's admins are in this table: the search keeps this one's.
  await page.getByRole('tabpanel').getByRole('searchbox', { name: 'Search administrators by name or email' }).fill(`dana.${stamp}@example.com`);
  const row = page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: `dana.${stamp}@example.com` });
  await expect(row).toContainText(`Dana Okafor${stamp}`);
  await row.getByRole('button', { name: `Edit Dana Okafor${stamp}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Builder/Admin Details' });
  await expect(edit.getByLabel('First name')).toHaveValue('Dana');
  await edit.getByLabel('First name').fill('Danielle');
  await shoot(page, 'dialog-edit-admin');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'User details updated successfully')).toBeVisible();
  await expect(row).toContainText(`Danielle Okafor${stamp}`);

  // A builder, invited; the invitation's page shows the password rules as they type.
  const email = `acc.${stamp}@example.com`;
  await page.getByRole('button', { name: 'New User' }).click();
  dialog = page.getByRole('dialog', { name: 'Create New User' });
  await dialog.getByRole('tab', { name: 'Builder' }).click();
  await dialog.getByLabel('Company / Builder name').fill(`Acc builders ${stamp}`);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone').fill('(555) 201-9900');
  await dialog.getByRole('button', { name: 'Create Builder' }).click();
  await expect(toast(page, 'Builder created successfully. An invitation email has been sent.')).toBeVisible();

  const context = await browser.newContext();
  const builder = await context.newPage();
  if (!OUTBOX_DIR) throw new Error('SITECAST_E2E_OUTBOX is not set');
  await builder.goto(await invitationPath(OUTBOX_DIR, email));
  const newPassword = builder.getByLabel('New password', { exact: true });
  await newPassword.pressSequentially('11111');
  const rules = builder.getByRole('list', { name: 'Password requirements' });
  await expect(rules.getByRole('listitem').filter({ hasText: 'At least 6 characters' })).toHaveAttribute('data-met', 'false');
  await expect(rules.getByRole('listitem').filter({ hasText: 'Not one character repeated' })).toHaveAttribute('data-met', 'false');
  await shoot(builder, 'invite-password-rules');
  await newPassword.fill('framing-crew-7');
  await builder.getByLabel('Confirm new password').fill('framing-crew-7');
  await builder.getByRole('button', { name: 'Set Password' }).click();
  await expect(builder.getByText('Password Updated Successfully')).toBeVisible();
  await builder.goto('/login');
  await builder.getByLabel('Email').fill(email);
  await builder.getByLabel('Password', { exact: true }).fill('framing-crew-7');
  await builder.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(builder).toHaveURL(/\/dashboard$/);

  // Profile & Settings: only email and role are read-only; the company name is theirs to edit.
  await builder.goto('/profile-settings');
  const profile = builder.getByRole('region', { name: 'My Profile' });
  await profile.getByRole('button', { name: 'Edit Profile' }).click();
  const company = profile.getByLabel('Company / Builder name');
  await expect(company).toBeEnabled();
  await expect(profile.getByLabel('Email')).toBeDisabled();
  await expect(profile.getByLabel('Role')).toBeDisabled();
  await company.fill(`ACC builders ${stamp}`);
  await profile.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(builder, 'Profile updated successfully!')).toBeVisible();
  // Shown as typed, not re-capitalised word by word.
  await expect(profile.getByTestId('profile-name')).toHaveText(`ACC builders ${stamp}`);
  await builder.locator('header').getByRole('button', { name: /Open user menu/ }).click();
  await expect(builder.getByRole('menu')).toContainText(`ACC builders ${stamp}`);
  await builder.keyboard.press('Escape');
  await shoot(builder, 'profile-builder-name');
  // …and the admin's table follows live.
  await page.getByRole('tab', { name: /Builders/ }).click();
  await page.getByRole('tabpanel').getByRole('searchbox', { name: 'Search builders by name or email' }).fill(email);
  await expect(page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: email })).toContainText(`ACC builders ${stamp}`);
  await context.close();
});

test('project pages show a back button instead of the logo on small screens', async ({ page }) => {
  const world = await makeWorld({ photos: 0, comments: false, milestones: false });
  await signIn(page, world, 'homeowner', '/projects');
  await openProjectCard(page, world.projects[0]!.title);
  const header = page.locator('header').first();
  await expect(header.getByRole('link', { name: 'Sitecast' })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Back' })).toBeHidden();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(header.getByRole('link', { name: 'Sitecast' })).toBeHidden();
  await header.getByRole('button', { name: 'Back' }).click();
  // Back to the list as it was left, its search (openProjectCard's) kept in the address.
  await expect(page).toHaveURL(/\/projects(\?q=[^/]*)?$/);
  // The list itself has the logo.
  await expect(header.getByRole('link', { name: 'Sitecast' })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Back' })).toHaveCount(0);
});

test('when the live data cannot load, the dashboard and Projects page say so in the spec’s words', async ({ page }) => {
  const world = await makeWorld({ projects: 0, homeowners: 0, photos: 0, comments: false, milestones: false });
  // Every socket is closed as it opens: the first snapshot never arrives.
  await page.routeWebSocket('**/ws', (ws) => ws.close({ code: 1011, reason: 'test: server unavailable' }));
  await addSession(page.context(), world, 'admin');
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('load-failed')).toContainText('Failed to load data. Please try again later.', { timeout: 15_000 });
  await shoot(page, 'dashboard-load-failed');
  await page.goto('/projects');
  await expect(page.getByTestId('load-failed')).toContainText('Failed to load projects', { timeout: 15_000 });
});

test('an admin picks the project thumbnail from the lightbox, and the homeowner’s project card shows it', async ({ browser, page }) => {
  const world = await makeWorld({ photos: 0, comments: false, milestones: false });
  const stamp = world.tag;
  const { id } = world.projects[0]!;

  // The builder publishes two photos; the newer one becomes the thumbnail by default.
  const { context: builderContext, page: builder } = await browserAs(browser, world, 'owner', `/projects/${id}`);
  const section = photoSection(builder, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  const names = [`Slab edge ${stamp}.jpg`, `Sill plate ${stamp}.jpg`] as const;
  const files = [await makePhoto(builder, names[0], { hue: 20, label: 'Slab edge' }), await makePhoto(builder, names[1], { hue: 210, label: 'Sill plate' })];
  await fileInput(section).setInputFiles(files);
  await section.getByRole('region', { name: 'Selected Photos' }).getByRole('button', { name: 'Publish' }).click();
  await expect(toast(builder, '2 photos uploaded successfully')).toBeVisible({ timeout: 60_000 });
  // Builders see no thumbnail pick in their lightbox.
  await tile(section, captionOf(names[0])).getByRole('button', { name: `View ${captionOf(names[0])}` }).click();
  await expect(builder.getByTestId('lightbox')).toBeVisible();
  await expect(builder.getByTestId('thumbnail-pick')).toHaveCount(0);
  await builderContext.close();

  await signIn(page, world, 'admin', `/projects/${id}`);
  const media = photoSection(page, 'Project Media');
  const photos = media.getByTestId('photo-tile');
  await expect(photos).toHaveCount(2, { timeout: 15_000 });
  // Pick the photo that is not the thumbnail now.
  const lightbox = page.getByTestId('lightbox');
  let picked = '';
  for (const name of names) {
    await tile(media, captionOf(name)).getByRole('button', { name: `View ${captionOf(name)}` }).click();
    await expect(lightbox).toBeVisible();
    const pick = lightbox.getByTestId('thumbnail-pick');
    if ((await pick.getAttribute('aria-pressed')) === 'false') {
      picked = (await lightbox.locator('img[aria-hidden="true"]').first().getAttribute('src')) ?? '';
      // The project follows the newest photo until an admin picks one.
      await expect(pick).toHaveAccessibleName('Set as project thumbnail');
      await pick.click();
      await expect(toast(page, 'Project thumbnail updated')).toBeVisible();
      await expect(pick).toHaveAttribute('aria-pressed', 'true');
      await expect(pick).toHaveAccessibleName('Project thumbnail');
      await shoot(page, 'lightbox-thumbnail-pick', { viewport: true });
      break;
    }
    await lightbox.getByRole('button', { name: 'Close' }).click();
  }
  expect(picked).toContain('/thumb');

  // The homeowner's project list shows the picked photo.
  const { context: homeContext, page: home } = await browserAs(browser, world, 'homeowner', '/projects');
  await expect(home.locator(`img[src="${picked}"]`)).toHaveCount(1);
  await homeContext.close();
});
