import { expect, test, type Browser, type Page } from '@playwright/test';
import { audit } from './axe';
import { invitationPath, OUTBOX_DIR, shoot, shownName, toast } from './helpers';
import { browserAs, makeWorld, signIn } from './world';

// Builder companies (docs/FEATURES.md, "Builder companies"). Each test has its own
// world: a company with its owner, a manager, and crew on the first project only, so
// role and crew changes here touch nobody another test reads.

const REMOVED = 'You were removed from your company, so you were signed out.';

/** Waits for the invitation mail to `address` in the server's outbox and answers its link's path. */
async function inviteLink(address: string): Promise<string> {
  if (!OUTBOX_DIR) throw new Error('SITECAST_E2E_OUTBOX is not set');
  return invitationPath(OUTBOX_DIR, address);
}

/** Signs in with an email and password in a page of its own, and waits for the dashboard. */
async function signInWithPassword(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 10_000 });
  return page;
}

/** Follows the invitation mailed to `email`: sets a password, then signs in. */
async function acceptInvitation(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(await inviteLink(email));
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByText('Password Updated Successfully')).toBeVisible();
  await page.context().close();
  return signInWithPassword(browser, email, password);
}

async function openCompanyFromMenu(page: Page): Promise<void> {
  await page.locator('header').getByRole('button', { name: /Open user menu/ }).click();
  await page.getByRole('menuitem', { name: 'Company' }).click();
  await expect(page).toHaveURL(/\/company$/);
}

test('admin makes a company, its people join by invitation, and deleting it says what goes', async ({ page, browser }) => {
  // Two invitations through the mail outbox (each setting a password, then signing in
  // with it), three signed-in browsers, two axe audits and three screenshots at two
  // widths: well over the default on a loaded two-core machine.
  test.setTimeout(240_000);
  const world = await makeWorld({ projects: 0 });
  const name = `Cobalt Builders ${world.tag}`;
  const rosa = { name: `Rosa Vega ${world.tag}`, email: `rosa.${world.tag}@example.com`, password: 'cobalt-owner-7' };
  const theo = { name: `Theo Park ${world.tag}`, email: `theo.${world.tag}@example.com`, password: 'cobalt-crew-7' };
  const manager = world.users.manager;

  await signIn(page, world, 'admin');
  await page.getByRole('tablist', { name: 'User type' }).getByRole('tab', { name: /Companies/ }).click();
  const search = page.getByRole('searchbox', { name: /Search companies/ });
  // Every test's company is listed here: the search finds this world's.
  await search.fill(world.company.name);
  const keystone = page.getByTestId('company-card').filter({ hasText: world.company.name });
  await expect(keystone.getByTestId('member-row')).toHaveCount(3);
  await expect(keystone.getByTestId('member-row').filter({ hasText: manager.name })).toContainText('Manager');
  await audit(page, 'companies-admin');

  // A new company: its name is required.
  await page.getByRole('button', { name: 'New company' }).click();
  const create = page.getByRole('dialog', { name: 'New company' });
  await create.getByRole('button', { name: 'Create company' }).click();
  await expect(create.getByText('Name is required')).toBeVisible();
  await create.getByLabel('Company name').fill(name);
  await create.getByRole('button', { name: 'Create company' }).click();
  await expect(toast(page, 'Company created successfully')).toBeVisible();
  // The search shows the new company at once.
  const card = page.getByTestId('company-card').filter({ hasText: name });
  await expect(search).toHaveValue(name);
  await expect(page.getByTestId('company-card')).toHaveCount(1);
  await expect(card.getByTestId('company-counts')).toHaveText('0 members · 0 projects');
  await expect(card.getByTestId('no-members')).toBeVisible();

  // Its owner, invited by mail; someone of another company cannot be.
  await card.getByRole('button', { name: `Invite a member to ${name}` }).click();
  const invite = page.getByRole('dialog', { name: 'Invite member' });
  await invite.getByLabel('Name').fill(rosa.name);
  await invite.getByLabel('Email').fill(manager.email);
  // A company without an owner invites one first.
  await expect(invite.getByRole('radio', { name: /^Owner/ })).toBeChecked();
  // Seeing every project is a crew member's setting only.
  await expect(invite.getByLabel('Sees all projects')).toHaveCount(0);
  await invite.getByRole('radio', { name: /^Crew/ }).check();
  await expect(invite.getByLabel('Sees all projects')).not.toBeChecked();
  await invite.getByRole('radio', { name: /^Owner/ }).check();
  // The creation toast fades out first: axe measures the dialog, not a toast mid-fade.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await audit(page, 'company-invite', { fullPage: false });
  await shoot(page, 'company-invite', { viewport: true });
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  // Whose account it is (another company's, a homeowner's) is not the inviter's to learn.
  await expect(invite.getByText("This email belongs to an account that can't join this company.")).toBeVisible();
  await invite.getByLabel('Email').fill(rosa.email);
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(toast(page, `Invitation sent to ${rosa.email}`)).toBeVisible();
  const rosaRow = card.getByTestId('member-row').filter({ hasText: rosa.name });
  await expect(rosaRow).toContainText('Owner');
  await expect(rosaRow.getByTestId('member-status')).toHaveText('Invited');
  // The company's only owner stays one.
  await expect(rosaRow.getByRole('button', { name: `Remove ${rosa.name}` })).toHaveCount(0);

  // Rosa sets her password from the mail and finds her company in the user menu.
  const owner = await acceptInvitation(browser, rosa.email, rosa.password);
  await openCompanyFromMenu(owner);
  await expect(owner.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(owner.getByText(/^You own this company/)).toBeVisible();

  // She invites Theo as crew, who joins the same way.
  await owner.getByRole('button', { name: 'Invite member' }).click();
  const ownerInvite = owner.getByRole('dialog', { name: 'Invite member' });
  await ownerInvite.getByLabel('Name').fill(theo.name);
  await ownerInvite.getByLabel('Email').fill(theo.email);
  await expect(ownerInvite.getByRole('radio', { name: /^Crew/ })).toBeChecked();
  await ownerInvite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(toast(owner, `Invitation sent to ${theo.email}`)).toBeVisible();
  const crewMember = await acceptInvitation(browser, theo.email, theo.password);
  await expect(crewMember.getByRole('heading', { level: 1, name: theo.name })).toBeVisible();

  // A project of the company, made by the admin with the company as its builder.
  await page.getByRole('button', { name: 'New Project' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Project' });
  await form.getByLabel('Title').fill(`Cobalt Yard ${world.tag}`);
  await form.getByLabel('Address').fill('12 Slate Lane, Millbrook');
  await form.getByLabel('Search by name or email').fill(world.users.homeowner.email);
  await form.getByLabel('Homeowner').selectOption({ label: shownName(world.users.homeowner) });
  await form.getByLabel('Builder').selectOption({ label: name });
  await form.getByRole('button', { name: 'Create Project' }).click();
  await expect(toast(page, 'Project created successfully')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: `Cobalt Yard ${world.tag}` })).toBeVisible();

  // Theo is crew: the project is not his until he is put on its crew, and then it
  // arrives on his open page.
  await crewMember.goto('/projects');
  await expect(crewMember.getByText('No project to show yet')).toBeVisible();
  const crewCard = page.getByRole('region', { name: 'Crew' });
  await expect(crewCard).toContainText('No crew on this project yet');
  await crewCard.getByRole('button', { name: 'Manage crew' }).click();
  const crewDialog = page.getByRole('dialog', { name: 'Crew' });
  await crewDialog.getByRole('checkbox', { name: new RegExp(theo.name) }).check();
  await crewDialog.getByRole('button', { name: 'Save crew' }).click();
  await expect(toast(page, 'Crew updated')).toBeVisible();
  await expect(crewCard.getByTestId('project-crew')).toContainText(theo.name);
  await expect(crewMember.getByTestId('project-card').filter({ hasText: `Cobalt Yard ${world.tag}` })).toBeVisible();

  // Rosa takes Theo out of the company: he is signed out at once, and told why.
  const theoRow = owner.getByTestId('member-row').filter({ hasText: theo.name });
  await theoRow.getByRole('button', { name: `Remove ${theo.name}` }).click();
  const remove = owner.getByRole('alertdialog');
  await expect(remove).toContainText('is signed out everywhere at once');
  await remove.getByRole('button', { name: 'Remove member' }).click();
  await expect(toast(owner, `${theo.name} was removed from ${name}`)).toBeVisible();
  await expect(theoRow).toHaveCount(0);
  await expect(crewMember).toHaveURL(/\/login\?removed=true$/);
  await expect(crewMember.getByTestId('login-notice')).toHaveText(REMOVED);
  await shoot(crewMember, 'login-removed-from-company');

  // Deleting the company says what goes with it, and asks for its name.
  await page.goto('/dashboard');
  await page.getByRole('tablist', { name: 'User type' }).getByRole('tab', { name: /Companies/ }).click();
  await search.fill(name);
  await expect(card.getByTestId('company-counts')).toHaveText('1 member · 1 project');
  await card.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByTestId('deletion-impact')).toHaveText(
    `Deleting ${name} also deletes its 1 project with its 0 photos and 1 member login. This cannot be undone.`,
  );
  await expect(confirm.getByRole('button', { name: 'Delete company' })).toBeDisabled();
  await audit(page, 'company-delete', { fullPage: false });
  await shoot(page, 'company-delete', { viewport: true });
  await confirm.getByLabel(`Type “${name}” to confirm`).fill(name.toLowerCase());
  await confirm.getByRole('button', { name: 'Delete company' }).click();
  await expect(toast(page, `${name} deleted successfully.`)).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(page.getByText('No companies found matching your search.')).toBeVisible();
  // Rosa's login went with it.
  await expect(owner).toHaveURL(/\/login\?expired=true/);
  await owner.context().close();
  await crewMember.context().close();
});

test("an owner changes a crew member's role and puts them on and off a project's crew, live on their page", async ({ page, browser }) => {
  // Two signed-in browsers, two axe audits and screenshots at two widths each: longer
  // than the default on a loaded two-core machine.
  test.setTimeout(120_000);
  const world = await makeWorld({ projects: 2, photos: 1, milestones: false, comments: false });
  const [onCrew] = world.projects;
  const crewName = world.users.crew.name;
  const ownerName = world.users.owner.name;
  const { context: crewContext, page: crewPage } = await browserAs(browser, world, 'crew', '/projects');
  const crewCards = crewPage.getByTestId('project-card');
  await expect(crewCards).toHaveCount(1);

  await signIn(page, world, 'owner');
  await openCompanyFromMenu(page);
  await expect(page.getByRole('heading', { level: 1, name: world.company.name })).toBeVisible();
  const crewRow = page.getByTestId('member-row').filter({ hasText: crewName });
  await expect(crewRow).toContainText('Crew');
  await audit(page, 'company-owner');
  await shoot(page, 'company-owner');

  // A manager sees every project of the company: the crew member's open page follows.
  await crewRow.getByRole('button', { name: `Change role of ${crewName}` }).click();
  let role = page.getByRole('dialog', { name: `Role of ${crewName}` });
  await role.getByRole('radio', { name: /^Manager/ }).check();
  await role.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, `${crewName} is now a manager`)).toBeVisible();
  await expect(crewRow).toContainText('Manager');
  await expect(crewCards).toHaveCount(world.projects.length);

  // Back to crew: only the projects they are on again.
  await crewRow.getByRole('button', { name: `Change role of ${crewName}` }).click();
  role = page.getByRole('dialog', { name: `Role of ${crewName}` });
  await role.getByRole('radio', { name: /^Crew/ }).check();
  await expect(role.getByLabel('Sees all projects')).not.toBeChecked();
  await role.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, `${crewName} is now crew`)).toBeVisible();
  await expect(crewRow).toContainText('Crew');
  await expect(crewCards).toHaveCount(1);
  await expect(crewCards).toContainText(onCrew.title);

  // The owner, the company's only one, cannot be made anything else.
  await page.getByRole('button', { name: `Change role of ${ownerName}` }).click();
  role = page.getByRole('dialog', { name: `Role of ${ownerName}` });
  await expect(role.getByRole('radio', { name: /^Manager/ })).toBeDisabled();
  await expect(role).toContainText('A company needs an owner: make another member its owner first.');
  await role.getByRole('button', { name: 'Cancel' }).click();

  // Off the project's crew: it leaves the crew member's page; back on, it returns.
  await page.goto(`/projects/${onCrew.id}`);
  // A fresh page load: the app starts and subscribes before the project shows.
  await expect(page.getByRole('heading', { level: 1, name: onCrew.title })).toBeVisible({ timeout: 15_000 });
  const crewCard = page.getByRole('region', { name: 'Crew' });
  await expect(crewCard.getByTestId('project-crew')).toContainText(crewName);
  await crewCard.getByRole('button', { name: 'Manage crew' }).click();
  let crew = page.getByRole('dialog', { name: 'Crew' });
  await expect(crew.getByRole('checkbox', { name: crewName })).toBeChecked();
  await audit(page, 'project-crew-dialog', { fullPage: false });
  await shoot(page, 'project-crew-dialog', { viewport: true });
  await crew.getByRole('checkbox', { name: crewName }).uncheck();
  await crew.getByRole('button', { name: 'Save crew' }).click();
  await expect(toast(page, 'Crew updated')).toBeVisible();
  await expect(crewCard).toContainText('No crew on this project yet');
  await expect(crewCards).toHaveCount(0);

  await crewCard.getByRole('button', { name: 'Manage crew' }).click();
  crew = page.getByRole('dialog', { name: 'Crew' });
  await crew.getByRole('checkbox', { name: crewName }).check();
  await crew.getByRole('button', { name: 'Save crew' }).click();
  // (The first save's toast may still show: the card says it instead.)
  await expect(crew).toHaveCount(0);
  await expect(crewCard.getByTestId('project-crew')).toContainText(crewName);
  await expect(crewCards).toHaveCount(1);
  await expect(crewCards).toContainText(onCrew.title);
  await crewContext.close();
});

test('crew see only the projects they are on, and no sharing, detail editing or milestone editing', async ({ page }) => {
  // Two axe audits and two screenshots, each at two widths.
  test.setTimeout(90_000);
  const world = await makeWorld({ projects: 2 });
  const [onCrew] = world.projects;
  await signIn(page, world, 'crew');
  // Crew leave homeowners' details to the company's leads.
  await expect(page.getByTestId('user-row').filter({ hasText: shownName(world.users.homeowner) })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);

  await page.getByRole('link', { name: 'View All Projects' }).click();
  const cards = page.getByTestId('project-card');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(onCrew.title);
  await cards.click();
  await expect(page.getByRole('heading', { level: 1, name: onCrew.title })).toBeVisible();
  const header = page.getByTestId('project-header');
  await expect(header.getByRole('button', { name: 'Share' })).toHaveCount(0);
  await expect(header.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  // They document the build: uploads are theirs.
  await expect(page.getByRole('button', { name: 'Upload Photos' })).toBeVisible();
  // Picking the crew is not.
  await expect(page.getByRole('region', { name: 'Crew' })).toHaveCount(0);
  await audit(page, 'project-as-crew');
  await shoot(page, 'project-as-crew');

  await page.getByRole('tab', { name: 'Milestones' }).click();
  const milestones = page.getByRole('region', { name: 'Milestones' });
  await expect(milestones).toContainText('The steps of the build, and where it stands');
  await expect(milestones.getByRole('button', { name: 'Add milestone' })).toHaveCount(0);

  // Their company's people, to look at only.
  await openCompanyFromMenu(page);
  await expect(page.getByText('You are crew: you work on the projects you are put on.')).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Invite member' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Change role/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await audit(page, 'company-crew');
  await shoot(page, 'company-crew');
});

test('a manager invites crew only; homeowners have no company page', async ({ page, browser }) => {
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  const { context, page: manager } = await browserAs(browser, world, 'manager');
  await openCompanyFromMenu(manager);
  await manager.getByRole('button', { name: 'Invite member' }).click();
  const invite = manager.getByRole('dialog', { name: 'Invite member' });
  await expect(invite.getByRole('radio')).toHaveCount(0);
  await expect(invite).toContainText('They join as crew');
  // Crew who see every project are the owner's call.
  await expect(invite.getByLabel('Sees all projects')).toHaveCount(0);
  await invite.getByRole('button', { name: 'Cancel' }).click();
  await expect(manager.getByRole('button', { name: 'Rename' })).toHaveCount(0);
  await expect(manager.getByRole('button', { name: /^Change role/ })).toHaveCount(0);
  await context.close();

  await signIn(page, world, 'homeowner');
  await page.locator('header').getByRole('button', { name: /Open user menu/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Company' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/company');
  await expect(page).toHaveURL(/\/dashboard$/);
});
