import { expect, test, type Page } from '@playwright/test';
import { shoot, shownName } from './helpers';
import { makeWorld, signIn, type World } from './world';

// Rough edges, tried as a demanding customer would (docs/DESIGN.md, "Quality bars"):
// phones and small words. The admin's tables list every test's people: each test
// searches them for its own world's tag.

/** The admin's People tab of this role, searched for the world's tag so it lists just the world's people. */
async function worldPeople(page: Page, world: World, tab: 'Homeowners' | 'Builders', label: string): Promise<void> {
  await page.getByRole('tablist', { name: 'User type' }).getByRole('tab', { name: new RegExp(tab) }).click();
  await page.getByRole('tabpanel').getByRole('searchbox', { name: label }).fill(world.tag);
}

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
  const world = await makeWorld({ projects: 0 });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(world.users.homeowner.email);
  await form.getByLabel('Password', { exact: true }).fill(world.password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  const bottom = page.locator('[data-sonner-toaster][data-y-position="bottom"]');
  await expect(bottom.getByText('Login Successful')).toBeVisible();
  await expect(page.locator('[data-sonner-toaster][data-y-position="top"]').getByText('Login Successful')).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('admin on a phone: people as cards with every detail and labelled actions', async ({ page }) => {
  // Three homeowners, so sorting them has something to order.
  const world = await makeWorld({ homeowners: 3, photos: 0, comments: false });
  const homeowner = world.users.homeowner;
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, world, 'admin');
  await worldPeople(page, world, 'Homeowners', 'Search homeowners by name or email');
  await expect(page.getByRole('tabpanel').getByTestId('user-row')).toHaveCount(3);
  const card = page.getByRole('tabpanel').getByTestId('user-row').filter({ hasText: shownName(homeowner) });
  await expect(card).toContainText(homeowner.email);
  await expect(card).toContainText('(555) 010-0100');
  await expect(card).toContainText(world.users.owner.name);
  for (const label of ['View Projects', 'Edit', 'Delete']) {
    await expect(card.getByRole(label === 'View Projects' ? 'link' : 'button', { name: new RegExp(`^${label}`) })).toContainText(label);
  }
  await page.getByLabel('Sort by').first().selectOption('email:descending');
  // The server sorts: the cards are read once its page has come.
  await expect(page.getByRole('tabpanel').locator('[aria-busy="true"]')).toHaveCount(0);
  // Each card's first detail is its email.
  const emails = await page.getByRole('tabpanel').getByTestId('user-row').evaluateAll((rows) => rows.map((r) => r.querySelector('dd')?.textContent?.trim() ?? ''));
  const theirs = ['homeowner', 'homeowner2', 'homeowner3'] as const;
  expect([...emails].sort()).toEqual(theirs.map((key) => world.users[key].email).sort());
  expect(emails).toEqual([...emails].sort((a, b) => b.localeCompare(a, 'en', { sensitivity: 'base' })));
  await shoot(page, 'admin-people-cards');
});

test('admin on a desktop sorts a table by a column', async ({ page }) => {
  const world = await makeWorld({ homeowners: 3, photos: 0, comments: false });
  await signIn(page, world, 'admin');
  await worldPeople(page, world, 'Homeowners', 'Search homeowners by name or email');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByTestId('user-row')).toHaveCount(3);
  const header = panel.getByRole('columnheader', { name: 'Email' });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  // The server sorts: the rows are read once its page has come (the table is busy till then).
  const settled = () => expect(panel.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  await settled();
  const emails = () => panel.getByTestId('user-row').locator('td:nth-child(2)').allTextContents();
  const up = await emails();
  expect(up).toEqual([...up].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await settled();
  expect(await emails()).toEqual([...up].reverse());
  await expect(panel.getByRole('columnheader', { name: 'Name' })).not.toHaveAttribute('aria-sort', /./);
});

test('the homeowner picker in Create New Project searches', async ({ page }) => {
  // Two homeowners of the world's: the server's search picks one of them out.
  const world = await makeWorld({ homeowners: 2, photos: 0, comments: false });
  const homeowner = world.users.homeowner;
  await signIn(page, world, 'admin');
  await page.getByRole('button', { name: 'New Project' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Project' });
  const picker = form.getByLabel('Homeowner', { exact: true });
  // In capitals: the search ignores letter case.
  await form.getByLabel('Search by name or email').fill(homeowner.name.toUpperCase());
  // One match: chosen, and the list holds just it.
  await expect(picker.locator('option:checked')).toHaveText(shownName(homeowner));
  await expect(picker.locator('option:not([disabled])')).toHaveCount(1);
  await expect(form.getByText('1 match')).toBeVisible();
  await shoot(page, 'dialog-create-project-search');
  await form.getByLabel('Search by name or email').fill('');
  // Cleared, the server's first page of homeowners comes back.
  await expect.poll(() => picker.locator('option:not([disabled])').count()).toBeGreaterThan(1);
  await form.getByRole('button', { name: 'Cancel' }).click();
});

test("a builder's company name ending in s takes an apostrophe only", async ({ page }) => {
  const world = await makeWorld({ photos: 0, comments: false });
  // The world's names end in its tag: the admin renames its builder to end in an s.
  const name = `Owner ${world.tag} Builders`;
  await signIn(page, world, 'admin');
  await worldPeople(page, world, 'Builders', 'Search builders by name or email');
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('button', { name: `Edit ${world.users.owner.name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Builder/Admin Details' });
  await edit.getByLabel('Company / Builder name').fill(name);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toHaveCount(0);
  await panel.getByRole('link', { name: `View All Projects of ${name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${name}' Projects` })).toBeVisible();
});
