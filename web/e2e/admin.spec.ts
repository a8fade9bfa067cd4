import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { OUTBOX_DIR, shoot, toast } from './helpers';
import { makeWorld, signIn } from './world';

/** Waits for an invitation mail to the address in the server's outbox folder. */
async function findInvite(address: string): Promise<string> {
  if (!OUTBOX_DIR) throw new Error('SITECAST_E2E_OUTBOX is not set');
  for (let i = 0; i < 50; i += 1) {
    const files = await readdir(OUTBOX_DIR).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith('.eml'))) {
      const text = await readFile(path.join(OUTBOX_DIR, file), 'utf8');
      if (text.toLowerCase().includes(address)) return text;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No invitation for ${address} in ${OUTBOX_DIR}`);
}

test('admin creates a homeowner (invited by mail) and a project, edits and deletes them', async ({ page }) => {
  // A mailed invitation, three dialogs' round trips and five screenshots at two widths.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 1, milestones: false, comments: false });
  const email = `river.stone.${world.tag}@example.com`;
  // The world's tag keeps the name this test's own among every test's homeowners.
  const last = `Stone${world.tag}`;
  const person = `River ${last}`;
  const title = `Stone Farmhouse ${world.tag}`;
  await signIn(page, world, 'admin');

  // Required fields first (SPEC §5).
  await page.getByRole('button', { name: 'New User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New User' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'Homeowner' })).toHaveAttribute('aria-selected', 'true');
  await dialog.getByRole('button', { name: 'Create Homeowner' }).click();
  await expect(toast(page, 'Please fill all required fields for the selected role.')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Builder' }).click();
  await expect(dialog.getByLabel('Company / Builder name')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Homeowner' }).click();

  await dialog.getByLabel('First name').fill('River');
  await dialog.getByLabel('Last name').fill(last);
  await dialog.getByLabel('Email').fill(email.toUpperCase());
  await dialog.getByLabel('Phone').fill('(555) 123-4567');
  await shoot(page, 'dialog-create-user');
  await dialog.getByRole('button', { name: 'Create Homeowner' }).click();
  await expect(toast(page, 'Homeowner created successfully. An invitation email has been sent.')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The table lists every test's homeowners, a page at a time: the search finds this one.
  await page.getByRole('tabpanel').getByRole('searchbox', { name: 'Search homeowners by name or email' }).fill(email);
  const row = page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: email });
  await expect(row).toContainText(person);
  if (OUTBOX_DIR) {
    const mail = await findInvite(email);
    expect(mail).toContain('/reset-password');
  }

  // A project for them.
  await page.getByRole('button', { name: 'New Project' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Project' });
  await form.getByRole('button', { name: 'Create Project' }).click();
  await expect(form.getByText('Please select a homeowner.')).toBeVisible();
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Address').fill('4 Quarry Road, Millbrook');
  await form.getByLabel('Description').fill('A timber-framed farmhouse with a wraparound porch.');
  // The picker lists the server's first page of every test's homeowners: a search finds this one.
  await form.getByLabel('Search by name or email').fill(email);
  await form.getByLabel('Homeowner').selectOption({ label: person });
  await form.getByLabel('Builder').selectOption({ label: world.company.name });
  await form.getByLabel('Status').selectOption('planning');
  await form.getByLabel('Progress', { exact: true }).fill('15');
  await shoot(page, 'dialog-create-project');
  await form.getByRole('button', { name: 'Create Project' }).click();
  await expect(toast(page, 'Project created successfully')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Project Progress' })).toHaveAttribute('aria-valuenow', '15');
  // No photos yet: it says when they usually come, with no filters over nothing.
  const media = page.getByRole('region', { name: 'Project Media' });
  await expect(media.getByText('No images available')).toBeVisible();
  await expect(media.getByText(/Photos usually arrive within 24–48 hours of a site visit/)).toBeVisible();
  await expect(media.getByRole('group', { name: 'Photo filters' })).toHaveCount(0);
  await expect(media.getByTestId('photo-summary')).toHaveCount(0);
  await shoot(page, 'project-no-photos');

  // Edit the homeowner from the dashboard.
  await page.goto('/dashboard');
  await page.getByRole('tabpanel').getByRole('searchbox', { name: 'Search homeowners by name or email' }).fill(email);
  const again = page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: email });
  await expect(again).toBeVisible({ timeout: 10_000 });
  await expect(again).toContainText(world.company.name);
  await again.getByRole('button', { name: `Edit ${person}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Homeowner Details' });
  await expect(edit.getByLabel('Email')).toBeDisabled();
  await edit.getByLabel('Last name').fill(`${last}worth`);
  await shoot(page, 'dialog-edit-user');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'User details updated successfully')).toBeVisible();
  await expect(again).toContainText(`${person}worth`);

  // Delete them (and their project).
  await again.getByRole('button', { name: `Delete ${person}worth` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('permanently delete');
  await expect(confirm).toContainText('and all associated projects');
  // It says what goes with them and, since something does, wants their name typed.
  await expect(confirm.getByTestId('deletion-impact')).toHaveText('1 project and 0 photos will be deleted with them.');
  const deleteButton = confirm.getByRole('button', { name: 'Delete' });
  await expect(deleteButton).toBeDisabled();
  await confirm.getByLabel(`Type “${person}worth” to confirm`).fill('River');
  await expect(deleteButton).toBeDisabled();
  await confirm.getByLabel(`Type “${person}worth” to confirm`).fill(`${person}worth`.toLowerCase());
  await shoot(page, 'dialog-delete-user');
  await deleteButton.click();
  await expect(toast(page, `Homeowner ${person}worth deleted successfully.`)).toBeVisible();
  await expect(again).toHaveCount(0);
  await page.goto(`/projects?q=${world.tag}`);
  await expect(page.getByTestId('project-card').filter({ hasText: world.projects[0]!.title })).toBeVisible();
  await expect(page.getByTestId('project-card').filter({ hasText: title })).toHaveCount(0);
});

test('profile settings: edit profile, password errors', async ({ page }) => {
  const world = await makeWorld({ projects: 0 });
  await signIn(page, world, 'owner');
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile-settings$/);
  const profile = page.getByRole('region', { name: 'My Profile' });
  await expect(profile).toContainText(world.users.owner.email);
  await expect(profile).toContainText('Builder');
  await shoot(page, 'profile');

  await profile.getByRole('button', { name: 'Edit Profile' }).click();
  await expect(profile.getByLabel('Email')).toBeDisabled();
  await expect(profile.getByLabel('Role')).toBeDisabled();
  await profile.getByLabel('Phone').fill('(555) 010-0202');
  await shoot(page, 'profile-edit');
  await profile.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Profile updated successfully!')).toBeVisible();
  await expect(profile).toContainText('(555) 010-0202');
  await expect(profile.getByRole('button', { name: 'Edit Profile' })).toBeVisible();

  const password = page.getByRole('region', { name: 'Change Password' });
  await password.getByLabel('Current password').fill(world.password);
  await password.getByLabel('New password', { exact: true }).fill('another-one');
  await password.getByLabel('Confirm new password').fill('another-two');
  await password.getByRole('button', { name: 'Update Password' }).click();
  await expect(password.getByText('New passwords do not match.')).toBeVisible();
  await password.getByLabel('New password', { exact: true }).fill('');
  await password.getByLabel('Confirm new password').fill('');
  await password.getByRole('button', { name: 'Update Password' }).click();
  await expect(password.getByText('New password cannot be empty.')).toBeVisible();
  // Checked by our server (one wrong guess; the login limiter allows five).
  await password.getByLabel('Current password').fill('not-my-password');
  await password.getByLabel('New password', { exact: true }).fill('another-one');
  await password.getByLabel('Confirm new password').fill('another-one');
  await password.getByRole('button', { name: 'Update Password' }).click();
  await expect(password.getByText('Current password is incorrect.')).toBeVisible();
  await shoot(page, 'profile-password-errors');
});
