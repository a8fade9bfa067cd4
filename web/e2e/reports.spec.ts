import { execFileSync } from 'node:child_process';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { SCREENSHOT_DIR, shoot, toast } from './helpers';
import { photoSection, showAllDates, tileById } from './photoHelpers';
import { makeWorld, signIn, type Person, type World } from './world';

// Progress reports (docs/FEATURES.md, "Progress reports"). The builder makes a PDF of
// the project; the homeowner's open page sees it arrive and finish; the PDF is a real
// one with the project in it. Each test has a world of its own, so the only reports on
// its project are its own.

/** `who` of the world in a browser of their own, at the project's page (or one of its tabs). */
async function signedIn(browser: Browser, world: World, who: Person, path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, world, who, path);
  return page;
}

/** A report's row in the Reports tab, by its id. */
function reportRow(page: Page, id: string) {
  return page.locator(`[data-testid="report"][data-report-id="${id}"]`);
}

/** The text of a PDF as pdftotext reads it, on one line (a wrapped address reads as one) and with ligatures undone. */
function pdfText(file: string): string {
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).normalize('NFKC').replace(/\s+/g, ' ');
}

test('the builder makes a report of all time, the homeowner sees it made live, and the PDF holds the project and its newest photo', async ({ browser }, testInfo) => {
  // A PDF made and awaited in two browsers, then downloaded and read, with four
  // screenshots at two widths: longer than the default on a loaded two-core machine.
  test.setTimeout(180_000);
  const world = await makeWorld({ photos: 3 });
  const project = world.projects[0]!;
  const id = project.id;
  const builder = await signedIn(browser, world, 'owner', `/projects/${id}`);
  // The address as the project page shows it.
  const address = (await builder.getByRole('region', { name: 'Project Details' }).locator('div:has(> dt:text-is("Address")) > dd').innerText()).trim();
  expect(address).toBe(project.address);

  // The newest photo of the project (the world's are oldest first).
  const { id: newestId, caption: newest } = project.photos.at(-1)!;
  const gallery = photoSection(builder, 'Project Photos');
  await showAllDates(gallery);
  await expect(tileById(gallery, newestId)).toHaveCount(1, { timeout: 15_000 });

  // The homeowner watches the Reports tab: what the builder makes arrives without a reload.
  const homeowner = await signedIn(browser, world, project.homeowner, `/projects/${id}?tab=reports`);
  await expect(homeowner.getByRole('tab', { name: 'Reports' })).toHaveAttribute('aria-selected', 'true');
  const homeReports = homeowner.getByRole('region', { name: 'Reports', exact: true });
  await expect(homeReports.getByTestId('report-list').or(homeReports.getByTestId('reports-empty'))).toBeVisible({ timeout: 15_000 });
  await homeowner.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  // The builder opens the Reports tab and a new report.
  await builder.getByRole('tab', { name: 'Reports' }).click();
  await expect(builder).toHaveURL(/[?&]tab=reports/);
  const reports = builder.getByRole('region', { name: 'Reports', exact: true });
  await expect(reports.getByTestId('report-list').or(reports.getByTestId('reports-empty'))).toBeVisible({ timeout: 15_000 });
  await reports.getByRole('button', { name: 'New report' }).first().click();
  const dialog = builder.getByRole('dialog', { name: 'New report' });
  await expect(dialog).toBeVisible();

  // All time, every photo, two to a page, markup drawn.
  await dialog.getByRole('button', { name: 'All time', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'All time', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(dialog.getByLabel('From', { exact: true })).toHaveValue('');
  await expect(dialog.getByLabel('To', { exact: true })).toHaveValue('');
  await expect(dialog.getByRole('radio', { name: /^All photos/ })).toBeChecked();
  await dialog.getByRole('group', { name: 'Photos per page' }).getByText('2', { exact: true }).click();
  await expect(dialog.getByRole('radio', { name: '2', exact: true })).toBeChecked();
  const markup = dialog.getByRole('switch', { name: 'Draw markup on photos' });
  await markup.check();
  await expect(markup).toBeChecked();

  // The preview: the cover names the project; the header counts photos and pages.
  const preview = dialog.getByTestId('report-preview');
  await expect(preview.getByTestId('report-preview-heading')).toHaveText(/^\d+ photos? · \d+ pages?$/, { timeout: 15_000 });
  await expect(preview).toHaveAttribute('aria-busy', 'false');
  await expect(preview.getByTestId('report-preview-title')).toHaveText(project.title);
  await expect(preview.getByTestId('report-page').first()).toBeVisible();
  expect(await preview.getByTestId('report-preview-photo').count()).toBeGreaterThan(0);
  await shoot(builder, 'reports-dialog', { viewport: true });
  // On a phone the preview sits under the choices.
  await builder.setViewportSize({ width: 390, height: 844 });
  await preview.scrollIntoViewIfNeeded();
  await builder.screenshot({ path: `${SCREENSHOT_DIR}/reports-dialog-preview-390.png`, animations: 'disabled' });
  await builder.setViewportSize({ width: 1280, height: 800 });

  await dialog.getByRole('button', { name: 'Make report' }).click();
  await expect(toast(builder, 'Report is being made')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(builder.getByRole('tab', { name: 'Reports' })).toHaveAttribute('aria-selected', 'true');

  // The new report is the list's only one, with its progress, until it is ready.
  const first = reports.getByTestId('report').first();
  await expect(first).toBeVisible();
  const reportId = (await first.getAttribute('data-report-id')) ?? '';
  expect(reportId).not.toBe('');
  const row = reportRow(builder, reportId);
  await expect(row.getByTestId('report-title')).toHaveText('All time');
  await expect(row.getByTestId('report-summary')).toHaveText('All photos · 2 per page · markup on');
  await expect(row).toContainText('Made by you');
  await expect(row.getByRole('progressbar').or(row.getByRole('link', { name: 'Download PDF' }))).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  const status = row.getByTestId('report-status');
  await expect(status).toHaveText(/^Ready · \d+ pages? · [\d.]+ (B|KB|MB)$/);
  const pages = Number(/Ready · (\d+) page/.exec(await status.innerText())?.[1]);

  // The homeowner's open page has it too, made and finished, without a reload.
  const homeRow = reportRow(homeowner, reportId);
  await expect(homeRow).toBeVisible({ timeout: 15_000 });
  await expect(homeRow).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(homeRow).toContainText(`Made by ${world.users.owner.name}`);
  await expect(homeRow.getByRole('link', { name: 'Download PDF' })).toBeVisible();
  await expect(homeRow.getByRole('button', { name: /^Delete report/ })).toHaveCount(0);
  expect(await homeowner.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await shoot(builder, 'reports-list');

  // The PDF, downloaded through the link.
  const [download] = await Promise.all([builder.waitForEvent('download'), row.getByRole('link', { name: 'Download PDF' }).click()]);
  const file = testInfo.outputPath('report.pdf');
  await download.saveAs(file);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  expect(info).toMatch(/^PDF version:/m);
  expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBe(pages);
  const text = pdfText(file);
  expect(text).toContain(project.title);
  expect(text).toContain(address);
  expect(text).toContain(newest);

  // "Open" shows it in the browser; the homeowner may read it too.
  const open = row.getByRole('link', { name: 'Open' });
  await expect(open).toHaveAttribute('href', `/api/reports/${reportId}/pdf?inline=1`);
  const inline = await builder.request.get(`/api/reports/${reportId}/pdf?inline=1`);
  expect(inline.status()).toBe(200);
  expect(inline.headers()['content-type']).toContain('application/pdf');
  expect(inline.headers()['content-disposition'] ?? 'inline').not.toContain('attachment');
  const homeCopy = await homeowner.request.get(`/api/reports/${reportId}/pdf`);
  expect(homeCopy.status()).toBe(200);
  expect((await homeCopy.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The homeowner's own report is of their favourites: the other choices are not offered.
  await homeReports.getByRole('button', { name: 'New report' }).first().click();
  const homeDialog = homeowner.getByRole('dialog', { name: 'New report' });
  await expect(homeDialog.getByRole('radio', { name: /^Favorites/ })).toBeChecked();
  await expect(homeDialog.getByRole('radio', { name: /^All photos/ })).toBeDisabled();
  await expect(homeDialog.getByRole('radio', { name: /^Selected photos/ })).toBeDisabled();
  await expect(homeDialog.getByText('As the homeowner, your reports show your favorites.')).toBeVisible();
  await shoot(homeowner, 'reports-dialog-homeowner', { viewport: true });
  await homeowner.keyboard.press('Escape');
  await expect(homeDialog).toHaveCount(0);

  // Its maker deletes it; it leaves the homeowner's list at once.
  await row.getByRole('button', { name: /^Delete report/ }).click();
  const confirm = builder.getByRole('alertdialog');
  await expect(confirm).toContainText('All time');
  await confirm.getByRole('button', { name: 'Delete report' }).click();
  await expect(toast(builder, 'Report deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(homeRow).toHaveCount(0, { timeout: 15_000 });

  await homeowner.context().close();
  await builder.context().close();
});

test('photos selected in the gallery make a report of just them', async ({ browser }) => {
  // Three photos: two chosen, one left out.
  const world = await makeWorld({ photos: 3, comments: false });
  const project = world.projects[0]!;
  const chosen = project.photos.slice(1);
  const builder = await signedIn(browser, world, 'owner', `/projects/${project.id}`);

  const section = photoSection(builder, 'Project Photos');
  await showAllDates(section);
  for (const photo of project.photos) await expect(tileById(section, photo.id)).toBeVisible({ timeout: 15_000 });
  await section.getByRole('button', { name: 'Select', exact: true }).click();
  for (const photo of chosen) await section.getByRole('button', { name: `Select ${photo.caption}`, exact: true }).click();
  const bar = section.getByRole('toolbar', { name: 'Selected photos' });
  await expect(bar.getByTestId('selected-count')).toHaveText('2 selected');
  await bar.getByRole('button', { name: 'Report', exact: true }).click();

  const dialog = builder.getByRole('dialog', { name: 'New report' });
  await expect(dialog.getByRole('radio', { name: /^Selected photos/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /^Selected photos/ })).toHaveAccessibleName(/The 2 photos selected in the gallery\./);
  await expect(dialog.getByTestId('report-preview-heading')).toHaveText(/^2 photos · \d+ pages?$/, { timeout: 15_000 });

  // Without a selection the choice says where to make one.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await bar.getByRole('button', { name: 'Done' }).click();
  await builder.getByRole('tab', { name: 'Reports' }).click();
  await builder.getByRole('region', { name: 'Reports', exact: true }).getByRole('button', { name: 'New report' }).first().click();
  await expect(dialog.getByRole('radio', { name: /^Selected photos/ })).toBeDisabled();
  await expect(dialog.getByText('Select photos in the gallery first.')).toBeVisible();
  await builder.context().close();
});
