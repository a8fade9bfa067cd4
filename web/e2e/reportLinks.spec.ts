import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { audit } from './axe';
import { findMail, OUTBOX_DIR, shoot, toast } from './helpers';
import { photoSection, showAllDates, tileById } from './photoHelpers';
import { makeWorld, signIn, type Person, type World, type WorldPhoto } from './world';

// Sharing a report (docs/FEATURES.md, "Progress reports"): a ready report is shared by a
// view-only link (a guest link that shows that report and nothing else of the project)
// and mailed to the homeowner. Each test has a world of its own: its project's reports,
// links and photos are its own.

const INACTIVE = 'This link is no longer active';

/** The two instances on one Postgres database that scripts/e2e.sh starts when TEST_DATABASE_URL is set. */
const PAIR_A = process.env.SITECAST_E2E_PAIR_A;
const PAIR_B = process.env.SITECAST_E2E_PAIR_B;

/** `who` of the world in a browser of their own, at `path` on the world's server. */
async function signedIn(browser: Browser, world: World, who: Person, path: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: world.baseURL })).newPage();
  await signIn(page, world, who, path);
  return page;
}

function reportRow(page: Page, id: string): Locator {
  return page.locator(`[data-testid="report"][data-report-id="${id}"]`);
}

function pdfText(file: string): string {
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).normalize('NFKC').replace(/\s+/g, ' ');
}

/**
 * On the project page: selects these photos in the gallery, makes a report of just
 * them, and waits for it to be ready in the Reports tab. Answers its id and row.
 */
async function makeReportOf(page: Page, photos: WorldPhoto[]): Promise<{ id: string; row: Locator }> {
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  for (const photo of photos) await expect(tileById(section, photo.id)).toBeVisible({ timeout: 15_000 });
  await section.getByRole('button', { name: 'Select', exact: true }).click();
  for (const photo of photos) await section.getByRole('button', { name: `Select ${photo.caption}`, exact: true }).click();
  const bar = section.getByRole('toolbar', { name: 'Selected photos' });
  await expect(bar.getByTestId('selected-count')).toHaveText(`${photos.length} selected`);
  await bar.getByRole('button', { name: 'Report', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'New report' });
  await expect(dialog.getByRole('radio', { name: /^Selected photos/ })).toBeChecked();
  await expect(dialog.getByTestId('report-preview-heading')).toHaveText(new RegExp(`^${photos.length} photos? · \\d+ pages?$`), { timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Make report' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Reports' })).toHaveAttribute('aria-selected', 'true');

  // The project's only report, of the photos chosen.
  const reports = page.getByRole('region', { name: 'Reports', exact: true });
  const chosen = `${photos.length} chosen ${photos.length === 1 ? 'photo' : 'photos'}`;
  const first = reports.getByTestId('report').filter({ has: page.getByTestId('report-summary').getByText(new RegExp(`^${chosen} · `)) }).first();
  await expect(first).toBeVisible({ timeout: 15_000 });
  const id = (await first.getAttribute('data-report-id')) ?? '';
  expect(id).not.toBe('');
  const row = reportRow(page, id);
  await expect(row).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  return { id, row };
}

/** Share link on a ready report's row: creates a link (30 days unless told) and answers its URL and id. The dialog stays open. */
async function shareReport(page: Page, row: Locator, expires: '1 day' | '7 days' | '30 days' | 'Never' = '30 days'): Promise<{ url: string; linkId: string; dialog: Locator }> {
  await row.getByRole('button', { name: 'Share link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this report' });
  await expect(dialog).toBeVisible();
  const form = dialog.getByRole('form', { name: 'New link' });
  // A report link lasts a month unless chosen otherwise.
  await expect(form.getByRole('radio', { name: '30 days', exact: true })).toBeChecked();
  await form.getByText(expires, { exact: true }).click();
  await expect(form.getByRole('radio', { name: expires, exact: true })).toBeChecked();
  await form.getByRole('button', { name: 'Create link' }).click();
  const created = dialog.getByTestId('guest-link-created');
  await expect(created).toBeVisible();
  const url = await dialog.getByRole('textbox', { name: 'Link to share' }).inputValue();
  expect(url).toMatch(/^https?:\/\/[^/]+\/guest\/[A-Za-z0-9_-]{20,}$/);
  const linkId = (await created.getAttribute('data-link-id')) ?? '';
  expect(linkId).not.toBe('');
  return { url, linkId, dialog };
}

/** Every image on the page has loaded (scrolled to, as lazy images load when near). */
async function expectImagesLoaded(page: Page): Promise<number> {
  const images = page.locator('main img');
  const count = await images.count();
  for (let i = 0; i < count; i += 1) {
    const img = images.nth(i);
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { timeout: 15_000 }).toBeGreaterThan(0);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return count;
}


test('a builder shares a report by a link a stranger opens, reads and downloads, and mails it to the homeowner', async ({ browser }, testInfo) => {
  // A PDF made, downloaded and mailed, three browsers and two axe audits: longer than
  // the default on a loaded two-core machine.
  test.setTimeout(240_000);
  // Three photos: the report shows the two newest; the oldest stays outside it.
  const world = await makeWorld({ photos: 3, comments: false });
  const project = world.projects[0]!;
  const projectId = project.id;
  const homeowner = world.users[project.homeowner];
  const [outsidePhoto, ...reported] = project.photos;
  const outside = outsidePhoto!.id;
  const captions = reported.map((p) => p.caption);
  const inReport = reported.map((p) => p.id);
  const builder = await signedIn(browser, world, 'owner', `/projects/${projectId}`);

  const { id: reportId, row } = await makeReportOf(builder, reported);
  await expect(row.getByRole('button', { name: 'Share link' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Mail to homeowner' })).toBeVisible();

  // (1) Share: the link is shown once; the report's list has it.
  const { url, linkId, dialog } = await shareReport(builder, row);
  await expect(dialog.getByText("Copy it now: this link won't be shown again.")).toBeVisible();
  await expect(dialog.getByText(/This report and its PDF · expires in 30 days/)).toBeVisible();
  const linkInList = dialog.locator(`[data-testid="guest-link"][data-link-id="${linkId}"]`);
  await expect(linkInList.getByTestId('guest-link-status')).toHaveText('Active · expires in 30 days');
  await expect(linkInList).toContainText('Never opened');
  await builder.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(toast(builder, 'Link copied')).toBeVisible();
  expect(await builder.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await shoot(builder, 'report-share-dialog', { viewport: true });
  await audit(builder, 'report-share-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The project's Share dialog leaves report links to their reports, and says so.
  await builder.getByRole('button', { name: 'Share', exact: true }).click();
  const projectDialog = builder.getByRole('dialog', { name: 'Share this project' });
  await expect(projectDialog.getByTestId('guest-links-note')).toHaveText(/active report links? (is|are) listed with (its|their) reports? in the Reports tab\./, { timeout: 15_000 });
  await expect(projectDialog.locator(`[data-testid="guest-link"][data-link-id="${linkId}"]`)).toHaveCount(0);
  await projectDialog.getByRole('button', { name: 'Close' }).click();

  // (2) A stranger's browser opens it: the report, its photos and its PDF, nothing else.
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(new URL(url).pathname);
  await expect(guest.getByRole('heading', { level: 1, name: project.title })).toBeVisible({ timeout: 15_000 });
  await expect(guest.getByTestId('shared-report-period')).toHaveText(/^Progress report · /);
  await expect(guest.getByTestId('shared-report-facts')).toHaveText(new RegExp(`^Made by ${world.users.owner.name} · .+ · \\d+ pages? · [\\d.]+ (B|KB|MB)$`));
  await expect(guest.getByText(project.address).first()).toBeVisible();
  for (const caption of captions) await expect(guest.getByTestId('shared-report-photo').filter({ hasText: caption })).toHaveCount(1);
  await expect(guest.getByTestId('shared-report-photo')).toHaveCount(2);
  expect(await expectImagesLoaded(guest)).toBeGreaterThanOrEqual(2);
  await expect(guest.getByTestId('photo-tile')).toHaveCount(0);
  await expect(guest.getByRole('region', { name: 'Timeline' })).toHaveCount(0);
  await expect(guest.getByRole('combobox')).toHaveCount(0);
  await expect(guest).toHaveTitle(`${project.title} · Progress report · Sitecast`);
  await shoot(guest, 'report-link-page');
  await audit(guest, 'report-link-page');

  const download = guest.getByRole('link', { name: 'Download PDF', exact: true });
  await expect(download).toHaveAttribute('download', '');
  const [file] = await Promise.all([guest.waitForEvent('download'), download.click()]);
  const saved = testInfo.outputPath('shared-report.pdf');
  await file.saveAs(saved);
  expect((await readFile(saved)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(execFileSync('pdfinfo', [saved], { encoding: 'utf8' })).toMatch(/^Pages:\s+\d+/m);
  const text = pdfText(saved);
  expect(text).toContain(project.title);
  for (const caption of captions) expect(text).toContain(caption);

  // (3) The guest's cookie opens the report's photos and no others.
  const cover = /\/media\/images\/([^/]+)\//.exec((await guest.getByTestId('shared-report-cover').getAttribute('src')) ?? '')?.[1];
  expect(outside).not.toBe(cover);
  expect((await guest.request.get(`/media/images/${inReport[0]}/thumb`)).status()).toBe(200);
  for (const rendition of ['thumb', 'display']) {
    expect([401, 403, 404]).toContain((await guest.request.get(`/media/images/${outside}/${rendition}`)).status());
  }
  expect([401, 403, 404]).toContain(await guest.evaluate(async (id) => (await fetch(`/media/images/${id}/display`)).status, outside));

  // The builder's list says the link was opened.
  await row.getByRole('button', { name: 'Share link' }).click();
  await expect(linkInList).toContainText('Last opened', { timeout: 15_000 });
  await builder.keyboard.press('Escape');

  // (4) Mail it to the homeowner, after a confirmation that names them.
  const mailedSince = Date.now();
  await row.getByRole('button', { name: 'Mail to homeowner' }).click();
  const confirm = builder.getByRole('alertdialog', { name: `Mail this report to ${homeowner.name}?` });
  await expect(confirm).toBeVisible();
  await shoot(builder, 'report-mail-confirm', { viewport: true });
  await confirm.getByRole('button', { name: 'Mail report' }).click();
  await expect(toast(builder, `Report mailed to ${homeowner.name}`)).toBeVisible();
  await expect(confirm).toHaveCount(0);
  await expect(row.getByTestId('report-mailed')).toHaveText(`Mailed to ${homeowner.name} · just now`);
  await expect(row.getByRole('button', { name: 'Mail again' })).toBeVisible();
  await shoot(builder, 'report-row-shared');

  if (!OUTBOX_DIR) throw new Error('SITECAST_E2E_OUTBOX is not set');
  const mail = await findMail(OUTBOX_DIR, homeowner.email, `Progress report: ${project.title}`, mailedSince);
  expect(mail).toMatch(/Content-Type: application\/pdf/i);
  expect(mail).toMatch(/Content-Disposition: attachment/i);
  // The link to the report in the app (the text part is quoted-printable).
  expect(mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(`/projects/${projectId}?tab=reports`);

  // The homeowner may share the report but not mail it; their open list shows it mailed.
  const homePage = await signedIn(browser, world, project.homeowner, `/projects/${projectId}?tab=reports`);
  const homeRow = reportRow(homePage, reportId);
  await expect(homeRow).toHaveAttribute('data-status', 'ready', { timeout: 15_000 });
  await expect(homeRow.getByTestId('report-mailed')).toContainText(`Mailed to ${homeowner.name}`);
  await expect(homeRow.getByRole('button', { name: 'Share link' })).toBeVisible();
  await expect(homeRow.getByRole('button', { name: /^Mail/ })).toHaveCount(0);

  // Revoked: the guest's open page ends; a reload says the same.
  await guest.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await row.getByRole('button', { name: 'Share link' }).click();
  await linkInList.getByRole('button', { name: 'Revoke' }).click();
  await linkInList.getByRole('button', { name: 'Revoke link' }).click();
  await expect(linkInList.getByTestId('guest-link-status')).toHaveText('Revoked');
  await expect(guest.getByRole('heading', { level: 1, name: INACTIVE })).toBeVisible({ timeout: 15_000 });
  expect(await guest.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await guest.reload();
  await expect(guest.getByRole('heading', { level: 1, name: INACTIVE })).toBeVisible({ timeout: 15_000 });
  expect([401, 403, 404]).toContain((await guest.request.get(`/media/images/${inReport[0]}/thumb`)).status());

  await homePage.context().close();
  await guest.context().close();
  await builder.context().close();
});

test('a report link opened on one instance stops when the builder revokes it on the other', async ({ browser }) => {
  const ready = Boolean(PAIR_A && PAIR_B);
  test.skip(!ready && !process.env.CI, 'No instance pair: run scripts/e2e.sh with TEST_DATABASE_URL set');
  if (!ready || !PAIR_A || !PAIR_B) {
    throw new Error('SITECAST_E2E_PAIR_A and SITECAST_E2E_PAIR_B are not set: CI must run the two-instance test (scripts/e2e.sh starts the pair when TEST_DATABASE_URL is set)');
  }
  // A PDF made on one instance and read on the other: longer than the default on a
  // loaded two-core machine.
  test.setTimeout(120_000);

  // The world lives in the pair's database: A made it, B reads the same rows.
  const world = await makeWorld({ photos: 1, comments: false }, PAIR_A);
  const project = world.projects[0]!;
  const photo = project.photos[0]!;
  const builder = await signedIn(browser, world, 'owner', `/projects/${project.id}`);
  const { row } = await makeReportOf(builder, [photo]);
  const { url, linkId, dialog } = await shareReport(builder, row, '7 days');
  expect(new URL(url).origin).toBe(new URL(PAIR_A).origin);

  // The guest opens it on the other instance: the report, its photo and PDF (one photo store).
  const guest = await (await browser.newContext({ baseURL: PAIR_B })).newPage();
  await guest.goto(new URL(new URL(url).pathname, PAIR_B).toString());
  await expect(guest.getByRole('heading', { level: 1, name: project.title })).toBeVisible({ timeout: 15_000 });
  await expect(guest.getByTestId('shared-report-photo').filter({ hasText: photo.caption })).toHaveCount(1);
  await expectImagesLoaded(guest);
  const pdf = await guest.request.get((await guest.getByRole('link', { name: 'Download PDF', exact: true }).getAttribute('href')) ?? '');
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await guest.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  // Revoked on A: the page open on B says so within seconds, without a reload.
  const link = dialog.locator(`[data-testid="guest-link"][data-link-id="${linkId}"]`);
  await link.getByRole('button', { name: 'Revoke' }).click();
  await link.getByRole('button', { name: 'Revoke link' }).click();
  await expect(toast(builder, 'Link revoked')).toBeVisible();
  const revokedAt = Date.now();
  await expect(guest.getByRole('heading', { level: 1, name: INACTIVE })).toBeVisible({ timeout: 10_000 });
  test.info().annotations.push({ type: 'revocation reached the other instance after', description: `${Date.now() - revokedAt} ms` });
  expect(await guest.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await shoot(guest, 'report-link-inactive');

  await guest.context().close();
  await builder.context().close();
});
