import { expect, test, type Page } from '@playwright/test';
import { audit } from './axe';
import { SCREENSHOT_DIR, shoot, toast } from './helpers';
import { captionOf, fileInput, makePhoto, photoSection, tile, type FilePayload } from './photoHelpers';
import { makeWorld, signIn } from './world';

/**
 * Photos go up as soon as they are chosen (docs/FEATURES.md, "Photo upload"): their
 * bytes move while the builder writes captions and the visit's note, a reload brings
 * the selection back as it was left, and Publish only makes the photos visible, so it
 * is instant once the bytes are there. On a phone the selection is a compact grid and
 * Publish stays at the foot of the screen.
 */

/** A few site photos, each with its own colour and name. */
async function sitePhotos(page: Page, names: string[]): Promise<FilePayload[]> {
  const files: FilePayload[] = [];
  for (const [n, name] of names.entries()) files.push(await makePhoto(page, name, { hue: (20 + n * 37) % 360, label: captionOf(name) }));
  return files;
}

test('uploads survive a reload', async ({ browser }) => {
  // Three photos up before Publish, a reload, and the publishing.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  const id = world.projects[0]!.id;
  const stamp = world.tag;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, world, 'owner', `/projects/${id}`);
  let section = photoSection(page, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();

  const names = [`Ridge beam ${stamp}.jpg`, `Gable end ${stamp}.jpg`, `Porch footing ${stamp}.jpg`];
  await fileInput(section).setInputFiles(await sitePhotos(page, names));
  let panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (3)' })).toBeVisible();

  // The bytes go while the builder writes the first caption and the visit's note.
  const caption = `Ridge beam bolted to the posts ${stamp}`;
  const note = `Roof framed; sheathing goes on Monday ${stamp}`;
  await panel.getByLabel(`Caption for ${names[0]}`).fill(caption);
  await panel.getByLabel(/^Note for the homeowner/).fill(note);
  const sent = panel.getByTestId('selected-photo').getByText('Sent', { exact: true });
  await expect(sent).toHaveCount(3, { timeout: 30_000 });
  await expect(panel.getByTestId('upload-totals')).toContainText('All photos sent');
  // Sent is not published: nothing is in the gallery yet.
  await expect(tile(section, caption)).toHaveCount(0);

  // Nothing is left to send, so leaving asks nothing; the selection is kept on the device.
  await page.reload();
  section = photoSection(page, 'Project Photos');
  panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (3)' })).toBeVisible({ timeout: 15_000 });
  await expect(panel.getByTestId('selected-photo')).toHaveCount(3);
  await expect(panel.getByLabel(`Caption for ${names[0]}`)).toHaveValue(caption);
  await expect(panel.getByLabel(`Caption for ${names[1]}`)).toHaveValue(captionOf(names[1]!));
  await expect(panel.getByLabel(`Caption for ${names[2]}`)).toHaveValue(captionOf(names[2]!));
  await expect(panel.getByLabel(/^Note for the homeowner/)).toHaveValue(note);
  await expect(sent).toHaveCount(3);
  // The previews are drawn again from the files kept on the device.
  await expect
    .poll(() => panel.locator('img').evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length), { timeout: 10_000 })
    .toBe(3);
  await shoot(page, 'upload-selection-after-reload');

  // Publish sends no bytes: they are all on the server already.
  const patches: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().includes('/api/uploads/')) patches.push(request.url());
  });
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page, '3 photos uploaded successfully')).toBeVisible({ timeout: 30_000 });
  await expect(panel).toHaveCount(0);
  await expect(tile(section, caption)).toHaveCount(1, { timeout: 15_000 });
  for (const name of names.slice(1)) await expect(tile(section, captionOf(name))).toHaveCount(1);
  // The visit's note travels with its photos.
  await expect(tile(section, caption).getByTestId('photo-visit-note')).toContainText(note);
  expect(patches).toEqual([]);

  // Published and settled: nothing of the selection is kept, so a reload finds none.
  await page.reload();
  section = photoSection(page, 'Project Photos');
  await expect(tile(section, caption)).toHaveCount(1, { timeout: 15_000 });
  await expect(section.getByRole('region', { name: 'Selected Photos' })).toHaveCount(0);
  await expect(section.getByRole('region', { name: 'Unfinished uploads' })).toHaveCount(0);
  await context.close();
});

test('on a phone, twelve chosen photos are a compact grid and Publish stays in reach', async ({ browser }) => {
  // Twelve photos up, an audit at two widths, and the publishing.
  test.setTimeout(150_000);
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  const id = world.projects[0]!.id;
  const stamp = world.tag;
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, world, 'owner', `/projects/${id}`);
  const section = photoSection(page, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();

  const names = Array.from({ length: 12 }, (_, n) => `Site walk ${n + 1} ${stamp}.jpg`);
  await fileInput(section).setInputFiles(await sitePhotos(page, names));
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (12)' })).toBeVisible();
  const publish = panel.getByRole('button', { name: 'Publish' });
  await expect(publish).toBeInViewport();

  // Three thumbnails a row: twelve photos take four short rows, not a page each.
  const grid = panel.getByTestId('selected-grid');
  const gridBox = await grid.boundingBox();
  expect(gridBox?.height ?? Infinity).toBeLessThan(700);
  const thumbs = await panel.getByTestId('selected-photo').evaluateAll((els) => els.slice(0, 4).map((el) => Math.round(el.getBoundingClientRect().top)));
  expect(new Set(thumbs.slice(0, 3)).size).toBe(1);
  expect(thumbs[3]).toBeGreaterThan(thumbs[0]!);
  // The note comes before the photos.
  const noteBox = await panel.getByLabel(/^Note for the homeowner/).boundingBox();
  expect(noteBox?.y ?? Infinity).toBeLessThan(gridBox?.y ?? 0);

  // Publish is at the foot of the screen wherever the page is scrolled.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(publish).toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(publish).toBeInViewport();
  await grid.scrollIntoViewIfNeeded();
  await expect(publish).toBeInViewport();

  // A tap on a photo opens its caption and category.
  const caption = `Kitchen wall before plaster ${stamp}`;
  await panel.getByRole('button', { name: `Edit ${names[0]}` }).click();
  const dialog = page.getByRole('dialog', { name: names[0] });
  await dialog.getByLabel(`Caption for ${names[0]}`).fill(caption);
  await dialog.getByLabel(`Category for ${names[0]}`).selectOption('interior');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByTestId('selected-photo').first()).toContainText(caption);

  await expect(panel.getByTestId('selected-photo').getByText('Sent', { exact: true })).toHaveCount(12, { timeout: 60_000 });
  await expect(panel.getByTestId('publish-bar')).toContainText('12 photos');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/upload-phone-selection-390.png`, animations: 'disabled' });
  await audit(page, 'upload-phone-selection');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(publish).toBeInViewport();

  await publish.click();
  await expect(toast(page, '12 photos uploaded successfully')).toBeVisible({ timeout: 60_000 });
  await expect(panel).toHaveCount(0);
  await expect(tile(section, caption)).toHaveCount(1, { timeout: 15_000 });
  await context.close();
});
