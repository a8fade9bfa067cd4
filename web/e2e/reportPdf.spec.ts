import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { toast } from './helpers';
import { captionOf, makePhoto, photoSection, showAllDates, tile, uploadOverTus } from './photoHelpers';
import { makeWorld, signIn } from './world';

// Progress reports as PDF (docs/FEATURES.md, "Progress reports"): a builder makes a
// report for a date range with markup on; the downloaded file is a real PDF (pdfinfo,
// pdftotext: title, address, every chosen caption and date, the page count the app
// promised) and its pages, rendered with pdftoppm, show the photos with the markup drawn
// on them (a pixel count with a tolerance).

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day as the report writes it, "Nov 25, 2026" (server/src/media/report/words.rs: en-US, UTC). */
function reportDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** pdftotext's text of the file (or of one page), on one line and with ligatures undone. */
function pdfText(file: string, page?: number): string {
  const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  return execFileSync('pdftotext', [...range, file, '-'], { encoding: 'utf8' }).normalize('NFKC').replace(/\s+/g, ' ');
}

function stage(lightbox: Locator): Locator {
  return lightbox.getByTestId('photo-stage');
}

/** A mouse drag across the photo, from one point to another given as fractions of it. */
async function drag(page: Page, lightbox: Locator, from: [number, number], to: [number, number]): Promise<void> {
  const box = await stage(lightbox).boundingBox();
  if (!box) throw new Error('no photo stage');
  await page.mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0] * box.width, box.y + to[1] * box.height, { steps: 12 });
  await page.mouse.up();
}

/** Strongly red pixels in a PNG, counted in the browser (no PNG decoder among the dependencies). */
async function redPixels(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('the page image did not load'));
      img.src = `data:image/png;base64,${b64}`;
    });
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const g = canvas.getContext('2d');
    if (!g) throw new Error('no 2d context');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, canvas.width, canvas.height).data;
    let red = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 180 && d[i + 1] < 80 && d[i + 2] < 80) red++;
    return red;
  }, png.toString('base64'));
}

test('a report of one day with markup on is a PDF holding every photo of the day, its captions and dates, and the markup drawn', async ({ browser }, testInfo) => {
  // Three uploads, markup drawn, a PDF made and each of its pages rendered: longer than
  // the default on a loaded two-core machine.
  test.setTimeout(180_000);
  // No photos of the world's: the test uploads today's own, and the world's are older.
  const world = await makeWorld({ photos: 0, comments: false });
  const project = world.projects[0]!;
  const id = project.id;
  // The server dates photos and reads the period's days in UTC; so does this page.
  const context = await browser.newContext({ timezoneId: 'UTC' });
  const page = await context.newPage();
  await signIn(page, world, 'owner', `/projects/${id}`);
  const address = (await page.getByRole('region', { name: 'Project Details' }).locator('div:has(> dt:text-is("Address")) > dd').innerText()).trim();
  expect(address).toBe(project.address);

  // Three photos of today (no EXIF date: a photo's day is its upload's), in blues and
  // greens so that nothing in them reads as the markup's red.
  const today = new Date().toISOString().slice(0, 10);
  const printed = reportDay(today);
  const names = ['Range marked sill.jpg', 'Range plain joists.jpg', 'Range plain sheathing.jpg'];
  const captions = names.map(captionOf);
  const [marked, ...plain] = captions;
  for (const [n, name] of names.entries()) {
    await uploadOverTus(page, id, await makePhoto(page, name, { hue: [205, 140, 180][n], label: captionOf(name) }));
  }
  const gallery = photoSection(page, 'Project Photos');
  await showAllDates(gallery);
  for (const caption of captions) await expect(tile(gallery, caption)).toHaveCount(1, { timeout: 15_000 });

  // Markup on one of them, through the lightbox's editor: a thick red arrow and box.
  await tile(gallery, marked).getByRole('button', { name: `View ${marked}` }).first().click();
  const lightbox = page.getByTestId('lightbox');
  await expect(lightbox).toBeVisible();
  await expect(stage(lightbox).locator('img[data-state="loaded"]')).toBeVisible();
  await lightbox.getByRole('button', { name: 'Draw', exact: true }).click();
  const toolbar = lightbox.getByRole('toolbar', { name: 'Markup tools' });
  await expect(toolbar).toBeVisible();
  await expect(toolbar.getByRole('button', { name: 'Red', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await toolbar.getByRole('button', { name: 'Thick', exact: true }).click();
  await expect(toolbar.getByRole('button', { name: 'Arrow', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await drag(page, lightbox, [0.15, 0.2], [0.55, 0.5]);
  await toolbar.getByRole('button', { name: 'Rectangle', exact: true }).click();
  await drag(page, lightbox, [0.6, 0.15], [0.9, 0.5]);
  // Saved: nothing waiting, nothing in flight, no complaint.
  await expect(lightbox.getByTestId('markup-surface')).toHaveAttribute('data-pending', 'false', { timeout: 10_000 });
  await expect(lightbox.getByTestId('markup-message')).toHaveCount(0);
  await toolbar.getByRole('button', { name: 'Done', exact: true }).click();
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(2);
  await lightbox.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(lightbox).toHaveCount(0);

  // A new report of today only: every photo, one to a page, markup drawn.
  await page.getByRole('tab', { name: 'Reports' }).click();
  const reports = page.getByRole('region', { name: 'Reports', exact: true });
  await expect(reports.getByTestId('report-list').or(reports.getByTestId('reports-empty'))).toBeVisible({ timeout: 15_000 });
  await reports.getByRole('button', { name: 'New report' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New report' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('From', { exact: true }).fill(today);
  await dialog.getByLabel('To', { exact: true }).fill(today);
  await expect(dialog.getByLabel('From', { exact: true })).toHaveValue(today);
  await expect(dialog.getByLabel('To', { exact: true })).toHaveValue(today);
  await expect(dialog.getByRole('radio', { name: /^All photos/ })).toBeChecked();
  await dialog.getByRole('group', { name: 'Photos per page' }).getByText('1', { exact: true }).click();
  await expect(dialog.getByRole('radio', { name: '1', exact: true })).toBeChecked();
  const markup = dialog.getByRole('switch', { name: 'Draw markup on photos' });
  await markup.check();
  await expect(markup).toBeChecked();

  // The preview of these choices (its running header names the day): N photos, M pages.
  const preview = dialog.getByTestId('report-preview');
  await expect(preview.getByTestId('report-page-header').first()).toContainText(`Progress report · ${printed} – ${printed}`, { timeout: 15_000 });
  await expect(preview).toHaveAttribute('aria-busy', 'false');
  const heading = preview.getByTestId('report-preview-heading');
  await expect(heading).toHaveText(/^\d+ photos? · \d+ pages?$/);
  const [, shownPhotos, shownPages] = /^(\d+) photos? · (\d+) page/.exec(await heading.innerText()) ?? [];
  // Every photo of today, which are the three just uploaded: the project is this test's own.
  expect(Number(shownPhotos)).toBe(captions.length);
  // The cover, then at least a page per photo.
  expect(Number(shownPages)).toBeGreaterThan(Number(shownPhotos));

  await dialog.getByRole('button', { name: 'Make report' }).click();
  await expect(toast(page, 'Report is being made')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const first = reports.getByTestId('report').first();
  const reportId = (await first.getAttribute('data-report-id')) ?? '';
  expect(reportId).not.toBe('');
  const row = reports.locator(`[data-testid="report"][data-report-id="${reportId}"]`);
  await expect(row.getByTestId('report-title')).toHaveText(printed);
  await expect(row.getByTestId('report-summary')).toHaveText('All photos · 1 per page · markup on');
  await expect(row).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  const status = row.getByTestId('report-status');
  await expect(status).toHaveText(/^Ready · \d+ pages? · [\d.]+ (B|KB|MB)$/);
  const pages = Number(/Ready · (\d+) page/.exec(await status.innerText())?.[1]);
  expect(pages).toBe(Number(shownPages));

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'Download PDF' }).click()]);
  const file = testInfo.outputPath('report.pdf');
  await download.saveAs(file);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);

  // pdfinfo: a PDF, of the pages promised, titled for the project.
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  expect(info).toMatch(/^PDF version:/m);
  expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBe(pages);
  expect(info).toMatch(new RegExp(`^Title:\\s+${project.title} — Progress report$`, 'm'));

  // pdftotext: the project, its address, the period, every caption and its date.
  const text = pdfText(file);
  expect(text).toContain(project.title);
  expect(text).toContain(address);
  expect(text).toContain(`${printed} – ${printed}`);
  for (const caption of captions) expect(text).toContain(caption);
  expect(text).toContain(`Page ${pages} of ${pages}`);

  // Each of our photos on a page of its own, under its date; the marked one says so.
  const pageTexts = Array.from({ length: pages }, (_, i) => pdfText(file, i + 1));
  const pageOf = (caption: string) => {
    const found = pageTexts.flatMap((t, i) => (t.includes(caption) ? [i + 1] : []));
    expect(found, `the pages with "${caption}"`).toHaveLength(1);
    return found[0];
  };
  const markedPage = pageOf(marked);
  const plainPages = plain.map(pageOf);
  expect(new Set([markedPage, ...plainPages]).size).toBe(captions.length);
  expect(pageTexts[markedPage - 1]).toContain(`${printed} · marked up`);
  for (const n of plainPages) {
    expect(pageTexts[n - 1]).toContain(printed);
    expect(pageTexts[n - 1]).not.toContain('marked up');
  }

  // pdftoppm: the marked photo's page shows the red arrow and box; a plain one has no red.
  const out = testInfo.outputPath('pages');
  mkdirSync(out, { recursive: true });
  execFileSync('pdftoppm', ['-r', '40', '-png', file, join(out, 'page')]);
  const rendered = readdirSync(out).filter((f) => f.endsWith('.png'));
  expect(rendered).toHaveLength(pages);
  // page-1.png, or page-01.png when there are ten or more.
  const png = (n: number) => readFileSync(join(out, rendered.find((f) => Number(/-(\d+)\.png$/.exec(f)?.[1]) === n) ?? `missing page ${n}`));
  const redMarked = await redPixels(page, png(markedPage));
  const redPlain = await Promise.all(plainPages.map((n) => redPixels(page, png(n))));
  testInfo.annotations.push({ type: 'red pixels', description: `marked page ${markedPage}: ${redMarked}; plain pages ${plainPages.join(', ')}: ${redPlain.join(', ')}` });
  console.log(`red pixels: marked page ${markedPage}: ${redMarked}; plain pages ${plainPages.join(', ')}: ${redPlain.join(', ')}`);
  for (const count of redPlain) {
    expect(count, 'a plain photo page has (almost) no red').toBeLessThanOrEqual(5);
    expect(redMarked, 'the marked photo page shows the red markup').toBeGreaterThan(count + 50);
  }

  // Tidy: the report goes.
  await row.getByRole('button', { name: /^Delete report/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete report' }).click();
  await expect(toast(page, 'Report deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
  await context.close();
});
