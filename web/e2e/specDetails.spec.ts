import { expect, test, type Browser, type Page } from '@playwright/test';
import { withCaptureTime } from './exif';
import { loginAs, openProjectCard, shoot, toast } from './helpers';
import { captionOf, fileInput, makePhoto, photoSection, tile } from './photoHelpers';

// Issue 21's spec details: capture dates, builders' project edits, ended sessions,
// password rules, one name model.

/** A fresh project of the demo homeowner and builder, made by the admin, so edits and uploads touch nothing other tests read. */
async function createProject(browser: Browser, title: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, 'admin');
  await page.goto('/projects');
  await page.getByRole('button', { name: 'New Project' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Project' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Address').fill('12 Orchard Lane, Millbrook');
  await form.getByLabel('Homeowner').selectOption({ label: 'Jamie Carter' });
  await form.getByLabel('Builder').selectOption({ label: 'Summit Homes' });
  await form.getByRole('button', { name: 'Create Project' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  await context.close();
  return id;
}

const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const shortWithYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

test('a photo taken last month is filed under last month and shows both dates', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const id = await createProject(browser, `Orchard Barn ${stamp}`);
  const now = new Date();
  // The 15th of last month, mid-morning on the camera's clock.
  const taken = new Date(now.getFullYear(), now.getMonth() - 1, 15, 10, 30);

  await loginAs(page, 'builder');
  await page.goto(`/projects/${id}`);
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
  test.setTimeout(120_000);
  const stamp = Date.now();
  const title = `Willow Court ${stamp}`;
  const id = await createProject(browser, title);
  const homeownerContext = await browser.newContext();
  const builderContext = await browser.newContext();
  const homeowner = await homeownerContext.newPage();
  const builder = await builderContext.newPage();

  await loginAs(homeowner, 'homeowner');
  await homeowner.goto(`/projects/${id}`);
  await expect(homeowner.getByRole('heading', { level: 1, name: title })).toBeVisible();
  // Homeowners follow; they edit nothing.
  await expect(homeowner.getByRole('button', { name: 'Edit' })).toHaveCount(0);

  await loginAs(builder, 'builder');
  await builder.goto(`/projects/${id}`);
  // The builder's status card: the spec's screen wording and the Access Restricted alert.
  const statusCard = builder.getByRole('region', { name: 'Update Project Status' });
  await expect(statusCard.getByText('Only administrators can update project status and progress')).toBeVisible();
  const alert = statusCard.getByRole('note', { name: 'Access Restricted' });
  await expect(alert).toContainText('Access Restricted');
  await expect(alert).toContainText('This action is restricted to administrators only.');
  await expect(statusCard.getByLabel('Status')).toHaveCount(0);
  await expect(builder.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  await builder.getByRole('button', { name: 'Edit' }).click();
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
  test.setTimeout(90_000);
  await loginAs(page, 'builder');
  await page.goto('/projects');
  const id = await openProjectCard(page, 'Lakeview Cottage');

  await revokeThisSession(page);
  await expect(toast(page, 'Your session has expired. Please log in again.')).toBeVisible();
  // About 1.5 s later: the login page, which remembers the project.
  await expect(page).toHaveURL(new RegExp(`/login\\?expired=true&next=%2Fprojects%2F${id}$`));
  await expect(page.getByTestId('login-notice')).toHaveText('Your session has expired. Please log in again.');
  await shoot(page, 'login-session-expired');

  await page.getByRole('button', { name: 'Builder', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Lakeview Cottage' })).toBeVisible();
});
