import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { withCaptureTime } from './exif';
import { heicFromJpeg, heifWithRotation } from './heif';
import { shoot, toast } from './helpers';
import { fileInput, photoSection, showAllDates, tile } from './photoHelpers';
import { makeWorld, signIn } from './world';

/**
 * iPhone photos: a builder publishes a HEIC through the browser's uploader
 * and the homeowner watching the project sees it arrive live, upright, dated by its
 * capture. The file is made as an iPhone makes one: landscape pixels as the sensor saw
 * them, an `irot` box turning them upright (EXIF orientation 6 says the same), the
 * capture time in EXIF. A damaged HEIC is refused with its reason and the page goes on.
 */

/** A `w`×`h` JPEG, the left half red and the right half blue, lightly textured (JPEG then has something to keep). */
async function halves(page: Page, w: number, h: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    ({ w, h }) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const g = canvas.getContext('2d');
      if (!g) throw new Error('no 2d context');
      for (let x = 0; x < w; x += 10) {
        for (let y = 0; y < h; y += 10) {
          const t = ((x / 10 + y / 10) % 4) * 6;
          g.fillStyle = x < w / 2 ? `rgb(${210 + t}, 30, 30)` : `rgb(30, 30, ${210 + t})`;
          g.fillRect(x, y, 10, 10);
        }
      }
      return canvas.toDataURL('image/jpeg', 0.9).split(',')[1] ?? '';
    },
    { w, h },
  );
  return Buffer.from(base64, 'base64');
}

const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const shortWithYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

test('an iPhone HEIC published in the browser arrives live, upright and dated; a damaged one is refused with its reason', async ({ browser }) => {
  // Two browsers, a HEIC and a damaged one decoded on the server, the original
  // downloaded and compared, and two screenshots: most of a minute on two cores.
  test.setTimeout(150_000);
  // One photo of the world's own: a project without photos shows no date filters, and
  // both pages must show every date before a photo taken last month arrives.
  const world = await makeWorld({ photos: 1, milestones: false, comments: false });
  const id = world.projects[0]!.id;
  const stamp = Date.now();
  const now = new Date();
  // Mid-morning on the 14th of last month, on the phone's clock.
  const taken = new Date(now.getFullYear(), now.getMonth() - 1, 14, 9, 30);

  const homeowner = await (await browser.newContext()).newPage();
  await signIn(homeowner, world, 'homeowner', `/projects/${id}`);
  const watching = photoSection(homeowner, 'Project Photos');
  await showAllDates(watching);

  const builder = await (await browser.newContext()).newPage();
  await signIn(builder, world, 'owner', `/projects/${id}`);
  const section = photoSection(builder, 'Project Photos');
  await showAllDates(section);

  // 600×400 as the sensor saw it, held upright: irot turns it a quarter clockwise (3 × 90° anticlockwise).
  const jpeg = withCaptureTime(await halves(builder, 600, 400), taken, { orientation: 6 });
  const heic = heifWithRotation(heicFromJpeg(jpeg), 3);
  const name = `IMG_${stamp}.HEIC`;
  const caption = `IMG_${stamp}`;
  // Desktop browsers outside Apple's know no type for .heic: the file comes with none.
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  await fileInput(section).setInputFiles([{ name, mimeType: '', buffer: heic }]);
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (1)' })).toBeVisible();
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(builder, '1 photo uploaded successfully')).toBeVisible({ timeout: 30_000 });

  // The homeowner's open page gets it live, dated by its capture.
  const arrived = tile(watching, caption);
  await expect(arrived).toHaveCount(1, { timeout: 15_000 });
  const tileDate = taken.getFullYear() === now.getFullYear() ? short.format(taken) : shortWithYear.format(taken);
  await expect(arrived.getByTestId('photo-date')).toHaveText(tileDate);
  await arrived.getByRole('button', { name: /full size$/ }).click();
  const box = homeowner.getByTestId('lightbox');
  const uploaded = now.getFullYear() === taken.getFullYear() ? short.format(now) : shortWithYear.format(now);
  await expect(box.getByTestId('lightbox-date')).toHaveText(`Taken ${shortWithYear.format(taken)} · uploaded ${uploaded}`);

  // Upright: portrait, the red half (the sensor's left) at the top, the blue at the bottom.
  const shown = box.getByRole('img', { name: caption });
  await expect.poll(() => shown.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const seen = await shown.evaluate((el) => {
    const img = el as HTMLImageElement;
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const g = canvas.getContext('2d');
    if (!g) throw new Error('no 2d context');
    g.drawImage(img, 0, 0);
    const at = (x: number, y: number) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3));
    return { width: img.naturalWidth, height: img.naturalHeight, top: at(img.naturalWidth / 2, img.naturalHeight / 4), bottom: at(img.naturalWidth / 2, (img.naturalHeight * 3) / 4) };
  });
  expect({ width: seen.width, height: seen.height }).toEqual({ width: 400, height: 600 });
  const [topRed, , topBlue] = seen.top as [number, number, number];
  const [bottomRed, , bottomBlue] = seen.bottom as [number, number, number];
  expect(topRed, `top is red: ${seen.top.join(',')}`).toBeGreaterThan(170);
  expect(topBlue, `top is red: ${seen.top.join(',')}`).toBeLessThan(90);
  expect(bottomBlue, `bottom is blue: ${seen.bottom.join(',')}`).toBeGreaterThan(170);
  expect(bottomRed, `bottom is blue: ${seen.bottom.join(',')}`).toBeLessThan(90);
  await shoot(homeowner, 'heic-lightbox', { viewport: true });

  // The original downloads as the iPhone's file, byte for byte.
  const [download] = await Promise.all([homeowner.waitForEvent('download'), box.getByRole('link', { name: 'Download', exact: true }).first().click()]);
  expect(download.suggestedFilename()).toBe(name);
  expect((await readFile(await download.path())).equals(heic)).toBe(true);
  await homeowner.keyboard.press('Escape');

  // A HEIC cut short (a copy that stopped early): the server refuses it with its reason,
  // the uploader says so, and the page goes on taking photos.
  const cut = { name: `IMG_${stamp}_cut.HEIC`, mimeType: 'image/heic', buffer: heic.subarray(0, heic.length - 300) };
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  await fileInput(section).setInputFiles([cut]);
  await panel.getByRole('button', { name: 'Publish' }).click();
  const refused = toast(builder, 'Failed to upload photos. Please try again.').filter({ hasText: cut.name });
  await expect(refused).toBeVisible({ timeout: 30_000 });
  await expect(refused).toContainText(/Damaged: named like an image but not a valid HEIC file|Could not be read as an image|Incomplete/);
  await shoot(builder, 'heic-refused', { toasts: true, viewport: true });
  // Publishing sets the builder's filters back to this month.
  await showAllDates(section);
  await expect(tile(section, caption)).toHaveCount(1);
  await expect(tile(section, `IMG_${stamp}_cut`)).toHaveCount(0);
  await expect(tile(watching, caption)).toHaveCount(1);
  await expect(tile(watching, `IMG_${stamp}_cut`)).toHaveCount(0);
  // The uploader takes the next photo.
  await expect(section.getByRole('button', { name: 'Browse Files' })).toBeEnabled();

  await builder.context().close();
  await homeowner.context().close();
});
