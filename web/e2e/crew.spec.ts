import { expect, test, type Browser, type Page } from '@playwright/test';
import { audit } from './axe';
import { findMail, invitationPath, openProjectCard, shoot, toast } from './helpers';
import { captionOf, fileInput, makePhoto, photoSection, tile } from './photoHelpers';
import { makeWorld, signIn } from './world';

// A company's crew, end to end (docs/FEATURES.md, "Builder companies"): a company owner
// invites a crew member, who accepts from the mail in the outbox, signs in, sees only the
// project they are put on and uploads a photo that the homeowner's open page shows live
// with their name and company; the owner removes them, and their open tab on the other
// instance is signed out at once.

/** The two instances on one Postgres database that scripts/e2e.sh starts when TEST_DATABASE_URL is set. */
const PAIR_A = process.env.SITECAST_E2E_PAIR_A;
const PAIR_B = process.env.SITECAST_E2E_PAIR_B;
const PAIR_OUTBOX = process.env.SITECAST_E2E_PAIR_OUTBOX;

async function pageOn(browser: Browser, baseURL: string): Promise<Page> {
  return (await browser.newContext({ baseURL })).newPage();
}

test('a crew member invited by the owner works on their project only and is signed out everywhere when removed', async ({ browser }) => {
  // Two instances, three browsers, an invitation through the mail outbox and an upload
  // that crosses from one instance to the other.
  test.setTimeout(180_000);
  const ready = Boolean(PAIR_A && PAIR_B && PAIR_OUTBOX);
  test.skip(!ready && !process.env.CI, 'No instance pair: run scripts/e2e.sh with TEST_DATABASE_URL set');
  if (!PAIR_A || !PAIR_B || !PAIR_OUTBOX) {
    throw new Error('SITECAST_E2E_PAIR_A/B/OUTBOX are not set: CI must run the two-instance test (scripts/e2e.sh starts the pair when TEST_DATABASE_URL is set)');
  }
  // The world lives in the pair's one database, so its sessions hold on both instances.
  // Two projects, so that seeing only the one they are put on means something.
  const world = await makeWorld({ projects: 2, photos: 1 }, PAIR_A);
  const project = world.projects[0]!;
  const company = world.company.name;
  const crew = { name: `Nico Nguyen ${world.tag}`, email: `nico.${world.tag}@example.com`, password: `crew-pass-${world.tag}` };

  // The owner, on A, invites Nico as crew from the company page.
  const owner = await pageOn(browser, PAIR_A);
  await signIn(owner, world, 'owner', '/company', PAIR_A);
  await expect(owner.getByRole('heading', { level: 1, name: company })).toBeVisible();
  await owner.getByRole('button', { name: 'Invite member' }).click();
  const invite = owner.getByRole('dialog');
  await invite.getByLabel('Name').fill(crew.name);
  await invite.getByLabel('Email').fill(crew.email);
  await invite.getByRole('radio', { name: /^Crew/ }).check();
  const sent = Date.now();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite).toHaveCount(0);
  const members = owner.getByRole('list', { name: `Members of ${company}` });
  await expect(members.getByRole('listitem').filter({ hasText: crew.name })).toBeVisible();

  // Nico accepts from the mail (the pair shares one outbox, as one relay would), on B.
  const mail = await findMail(PAIR_OUTBOX, crew.email, "You're invited to Sitecast", sent);
  expect(mail.replace(/=\r?\n/g, '')).toContain(`join ${company} as crew`);
  const member = await pageOn(browser, PAIR_B);
  await member.goto(await invitationPath(PAIR_OUTBOX, crew.email, sent));
  await member.getByLabel('New password', { exact: true }).fill(crew.password);
  await member.getByLabel('Confirm new password').fill(crew.password);
  await member.getByRole('button', { name: 'Set Password' }).click();
  await expect(member).toHaveURL(/\/login/, { timeout: 15_000 });

  // The owner puts Nico on the first project's crew, on A.
  const projectId = project.id;
  await owner.goto(`/projects/${projectId}`);
  await expect(owner.getByRole('heading', { level: 1, name: project.title })).toBeVisible();
  await owner.getByRole('button', { name: 'Manage crew' }).click();
  const crewDialog = owner.getByRole('dialog');
  await crewDialog.getByRole('checkbox', { name: new RegExp(crew.name) }).check();
  await crewDialog.getByRole('button', { name: 'Save crew' }).click();
  await expect(crewDialog).toHaveCount(0);
  await expect(owner.getByTestId('project-crew')).toContainText(crew.name);

  // Nico signs in on B and sees that one project only.
  await member.getByLabel('Email').fill(crew.email);
  await member.getByLabel('Password', { exact: true }).fill(crew.password);
  await member.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(member).toHaveURL(/\/dashboard$/);
  await expect(member.getByTestId('project-card')).toHaveCount(1);
  await expect(member.getByTestId('project-card')).toContainText(project.title);
  await shoot(member, 'crew-dashboard');

  // The homeowner, on A, has the project open.
  const homeowner = await pageOn(browser, PAIR_A);
  await homeowner.setViewportSize({ width: 1280, height: 800 });
  await signIn(homeowner, world, 'homeowner', `/projects/${projectId}`, PAIR_A);
  const watching = photoSection(homeowner, 'Project Photos');
  await expect(watching).toBeVisible();

  // Nico uploads a photo on B; it reaches the homeowner's page on A live, by name and company.
  await member.setViewportSize({ width: 1280, height: 800 });
  await openProjectCard(member, project.title);
  await expect(member.getByRole('button', { name: /^Share/ })).toHaveCount(0);
  const section = photoSection(member, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  const photo = await makePhoto(member, `Crew slab check ${world.tag}.jpg`, { hue: 40, label: 'Slab check' });
  await fileInput(section).setInputFiles([photo]);
  await section.getByRole('region', { name: 'Selected Photos' }).getByRole('button', { name: 'Publish' }).click();
  await expect(toast(member, '1 photo uploaded successfully')).toBeVisible({ timeout: 30_000 });
  const arrived = tile(watching, captionOf(photo.name));
  await expect(arrived).toHaveCount(1, { timeout: 15_000 });
  await expect(arrived.getByTestId('photo-byline')).toHaveText(`by ${crew.name} · ${company}`);
  await arrived.hover();
  await shoot(homeowner, 'crew-photo-on-homeowner-page');
  await audit(homeowner, 'homeowner page with a crew photo');

  // The owner removes Nico on A: Nico's open tab on B is signed out at once.
  await owner.goto('/company');
  await members.getByRole('button', { name: `Remove ${crew.name}` }).click();
  const confirm = owner.getByRole('alertdialog');
  const removedAt = Date.now();
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  // Signed out at once: the page is gone and says why (then, as for every ended
  // session, it moves to the sign-in page a moment later).
  await expect(member.getByText('You were removed from your company, so you were signed out.').first()).toBeVisible({ timeout: 5_000 });
  const tookMs = Date.now() - removedAt;
  console.log(`crew member's tab on the other instance signed out ${tookMs} ms after the removal was confirmed`);
  await expect(member.getByTestId('project-card')).toHaveCount(0);
  await expect(member).toHaveURL(/\/login\?removed=true/, { timeout: 10_000 });
  await shoot(member, 'crew-removed-signed-out');
  await expect(members.getByRole('listitem').filter({ hasText: crew.name })).toHaveCount(0);
});
