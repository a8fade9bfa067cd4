import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { audit } from './axe';
import { createGuestLink } from './guestHelpers';
import { captionOf, makePhoto, photoSection, showAllDates, tile, uploadOverTus } from './photoHelpers';
import { makeWorld, signIn, type Person, type World } from './world';

/** Where this spec's screenshots go, to be looked at. */
const SHOTS = '/tmp/markup-shots';
mkdirSync(SHOTS, { recursive: true });

/**
 * A world of one project. Each test marks up photos it uploads itself; the one photo the
 * world brings is there because a project without photos shows no date filters to set.
 */
const markupWorld = () => makeWorld({ photos: 1, milestones: false, comments: false });

interface Fraction {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Signs in as `who`, opens the world's project, shows every date; answers the project id. */
async function openProject(page: Page, world: World, who: Person): Promise<string> {
  const id = world.projects[0]!.id;
  await signIn(page, world, who, `/projects/${id}`);
  await showAllDates(photoSection(page, 'Project Photos'));
  return id;
}

async function newPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
  return context.newPage();
}

/** Uploads a fresh photo as the page's user, so each test marks up its own. */
async function uploadFresh(page: Page, projectId: string, name: string, hue = 205): Promise<string> {
  return uploadOverTus(page, projectId, await makePhoto(page, name, { hue, label: captionOf(name) }));
}

/** Opens the lightbox on a photo from its tile (a homeowner's tile opens with its expand button). */
async function openLightbox(page: Page, caption: string): Promise<Locator> {
  const t = tile(photoSection(page, 'Project Photos'), caption);
  await expect(t).toBeVisible({ timeout: 15_000 });
  await t.getByRole('button', { name: new RegExp(`^View ${caption.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).first().click();
  const lightbox = page.getByTestId('lightbox');
  await expect(lightbox).toBeVisible();
  await expect(lightbox.getByTestId('photo-stage').locator('img[data-state="loaded"]')).toBeVisible();
  return lightbox;
}

function stage(scope: Locator): Locator {
  return scope.getByTestId('photo-stage');
}

/** A drag with the mouse from one point to another, given as fractions of the photo. */
async function drag(page: Page, scope: Locator, from: [number, number], to: [number, number]): Promise<void> {
  const box = await stage(scope).boundingBox();
  if (!box) throw new Error('no photo stage');
  await page.mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0] * box.width, box.y + to[1] * box.height, { steps: 12 });
  await page.mouse.up();
}

async function clickAt(page: Page, scope: Locator, at: [number, number]): Promise<void> {
  const box = await stage(scope).boundingBox();
  if (!box) throw new Error('no photo stage');
  await page.mouse.click(box.x + at[0] * box.width, box.y + at[1] * box.height);
}

/** Each shape's drawn bounds as fractions of the photo's box on screen, by shape kind in drawing order. */
async function shapeFractions(scope: Locator): Promise<Record<string, Fraction>> {
  return stage(scope).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const out: Record<string, { left: number; top: number; width: number; height: number }> = {};
    el.querySelectorAll('[data-testid="markup-shape"]').forEach((g, i) => {
      const r = g.getBoundingClientRect();
      out[`${i}:${g.getAttribute('data-kind')}`] = {
        left: (r.left - box.left) / box.width,
        top: (r.top - box.top) / box.height,
        width: r.width / box.width,
        height: r.height / box.height,
      };
    });
    return out;
  });
}

function expectSamePlace(a: Record<string, Fraction>, b: Record<string, Fraction>, tolerance = 0.02): void {
  expect(Object.keys(b)).toEqual(Object.keys(a));
  for (const key of Object.keys(a)) {
    for (const side of ['left', 'top', 'width', 'height'] as const) {
      expect(Math.abs(a[key][side] - b[key][side]), `${key} ${side}: ${a[key][side]} vs ${b[key][side]}`).toBeLessThan(tolerance);
    }
  }
}

/** Waits until the editor has saved everything (no change waiting, nothing in flight). */
async function saved(scope: Locator): Promise<void> {
  await expect(scope.getByTestId('markup-surface')).toHaveAttribute('data-pending', 'false', { timeout: 10_000 });
  await expect(scope.getByTestId('markup-message')).toHaveCount(0);
}

async function startDrawing(lightbox: Locator, label = 'Draw'): Promise<Locator> {
  await lightbox.getByRole('button', { name: label, exact: true }).click();
  const toolbar = lightbox.getByRole('toolbar', { name: 'Markup tools' });
  await expect(toolbar).toBeVisible();
  return toolbar;
}

test('a builder draws an arrow and a label; the homeowner (phone) and a guest see them live, in the same place', async ({ browser }) => {
  // Three browsers (the builder, a homeowner's phone, a guest), a guest link, an upload
  // and a drawing pushed live to two of them.
  test.setTimeout(150_000);
  const world = await markupWorld();
  const stamp = Date.now();
  const name = `Markup live ${stamp}.jpg`;
  const caption = captionOf(name);

  const builder = await newPage(browser, 1280);
  const id = await openProject(builder, world, 'owner');
  await uploadFresh(builder, id, name, 190);

  const { path } = await createGuestLink(builder, { photos: 'All photos', downloads: true });
  await builder.getByRole('dialog', { name: 'Share this project' }).getByRole('button', { name: 'Close' }).click();

  const homeowner = await newPage(browser, 390);
  await openProject(homeowner, world, 'homeowner');
  const homeLightbox = await openLightbox(homeowner, caption);
  await expect(homeLightbox.getByTestId('markup-overlay')).toHaveCount(0);
  await homeowner.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  const guest = await newPage(browser, 1280);
  await guest.goto(path);
  const guestPhotos = guest.getByRole('region', { name: 'Photos', exact: true });
  await tile(guestPhotos, caption).getByRole('button', { name: `View ${caption}` }).click();
  const guestLightbox = guest.getByTestId('lightbox');
  await expect(guestLightbox).toBeVisible();
  // A guest only looks.
  await expect(guestLightbox.getByRole('button', { name: 'Draw' })).toHaveCount(0);

  const lightbox = await openLightbox(builder, caption);
  const toolbar = await startDrawing(lightbox);
  await expect(toolbar.getByRole('button', { name: 'Arrow' })).toHaveAttribute('aria-pressed', 'true');
  await drag(builder, lightbox, [0.2, 0.3], [0.6, 0.55]);
  await toolbar.getByRole('button', { name: 'Text' }).click();
  await expect(toolbar.getByRole('button', { name: 'Text' })).toHaveAttribute('aria-pressed', 'true');
  await clickAt(builder, lightbox, [0.1, 0.7]);
  await lightbox.getByRole('textbox', { name: 'Label text' }).fill('Move outlet here');
  await lightbox.getByRole('button', { name: 'Add label' }).click();
  await saved(lightbox);
  await builder.keyboard.press('Escape');
  await builder.keyboard.press('Escape');
  await expect(lightbox.getByRole('toolbar', { name: 'Markup tools' })).toHaveCount(0);
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(2);
  const drawn = await shapeFractions(lightbox);
  expect(Object.keys(drawn)).toEqual(['0:arrow', '1:text']);

  // The homeowner's open lightbox, 390 px wide, shows both without a reload, in the same place on the photo.
  await expect(homeLightbox.getByTestId('markup-shape')).toHaveCount(2, { timeout: 15_000 });
  expectSamePlace(drawn, await shapeFractions(homeLightbox));
  await expect(homeLightbox.getByRole('button', { name: 'Show markup' })).toHaveAttribute('aria-pressed', 'true');
  expect(await homeowner.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await homeowner.screenshot({ path: `${SHOTS}/viewer-homeowner-390.png` });

  // The toggle hides and shows it again.
  await homeLightbox.getByRole('button', { name: 'Show markup' }).click();
  await expect(homeLightbox.getByTestId('markup-overlay')).toHaveCount(0);
  await homeLightbox.getByRole('button', { name: 'Show markup' }).click();
  await expect(homeLightbox.getByTestId('markup-shape')).toHaveCount(2);

  // The guest's lightbox shows them too, read only.
  await expect(guestLightbox.getByTestId('markup-shape')).toHaveCount(2, { timeout: 15_000 });
  expectSamePlace(drawn, await shapeFractions(guestLightbox));
  // Downloads are allowed on this link: the photo can be had with its markup.
  await expect(guestLightbox.getByRole('link', { name: 'Download', exact: true })).toHaveAttribute('href', /\/original$/);
  await expect(guestLightbox.getByRole('link', { name: 'Download with markup' })).toHaveAttribute('href', /\/marked\?download=1$/);

  await builder.context().close();
  await homeowner.context().close();
  await guest.context().close();
});

test('undo, redo, move and delete in the editor, saved for the next visit', async ({ browser }) => {
  // A dozen edits, each waited on until the server has saved it, and a reload.
  test.setTimeout(120_000);
  const world = await markupWorld();
  const name = `Markup edit ${Date.now()}.jpg`;
  const caption = captionOf(name);
  const page = await newPage(browser, 1280);
  const id = await openProject(page, world, 'owner');
  await uploadFresh(page, id, name, 30);
  const lightbox = await openLightbox(page, caption);
  const toolbar = await startDrawing(lightbox);

  await toolbar.getByRole('button', { name: 'Rectangle' }).click();
  await drag(page, lightbox, [0.3, 0.3], [0.5, 0.5]);
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(1);
  await saved(lightbox);

  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(0);
  await saved(lightbox);
  await page.keyboard.press('Control+Shift+Z');
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(1);
  await page.keyboard.press('Control+z');
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(0);
  await toolbar.getByRole('button', { name: 'Redo' }).click();
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(1);
  await saved(lightbox);

  // Select and drag it to the right; the keyboard nudges it down.
  await toolbar.getByRole('button', { name: 'Select' }).click();
  const before = (await shapeFractions(lightbox))['0:rect'];
  await drag(page, lightbox, [0.3, 0.4], [0.5, 0.4]);
  await expect(lightbox.getByTestId('markup-selection')).toBeVisible();
  const moved = (await shapeFractions(lightbox))['0:rect'];
  expect(moved.left - before.left).toBeGreaterThan(0.15);
  expect(Math.abs(moved.top - before.top)).toBeLessThan(0.01);
  await page.keyboard.press('Shift+ArrowDown');
  await expect.poll(async () => (await shapeFractions(lightbox))['0:rect'].top - moved.top).toBeGreaterThan(0.04);
  await saved(lightbox);

  // A corner handle resizes it.
  const grown = (await shapeFractions(lightbox))['0:rect'];
  await drag(page, lightbox, [grown.left + grown.width - 0.003, grown.top + grown.height - 0.003], [0.9, 0.9]);
  await expect.poll(async () => (await shapeFractions(lightbox))['0:rect'].width).toBeGreaterThan(grown.width + 0.1);
  await saved(lightbox);

  // Leave and come back: the moved box is what the server holds.
  const kept = (await shapeFractions(lightbox))['0:rect'];
  await page.reload();
  const again = page.getByTestId('lightbox');
  // A whole page load: as long as signing in may take.
  await expect(again).toBeVisible({ timeout: 15_000 });
  await expect(again.getByTestId('markup-shape')).toHaveCount(1);
  expectSamePlace({ '0:rect': kept }, await shapeFractions(again), 0.01);

  // Delete with the key.
  const toolbar2 = await startDrawing(again);
  await toolbar2.getByRole('button', { name: 'Select' }).click();
  await clickAt(page, again, [kept.left + 0.002, kept.top + kept.height / 2]);
  await expect(again.getByTestId('markup-selection')).toBeVisible();
  await page.keyboard.press('Delete');
  await expect(again.getByTestId('markup-shape')).toHaveCount(0);
  await saved(again);
  await page.context().close();
});

test('the tile badge appears live when a photo is marked up', async ({ browser }) => {
  // Two browsers, an upload and three shapes drawn, then pushed live.
  test.setTimeout(120_000);
  const world = await markupWorld();
  const name = `Markup badge ${Date.now()}.jpg`;
  const caption = captionOf(name);
  const builder = await newPage(browser, 1280);
  const id = await openProject(builder, world, 'owner');
  await uploadFresh(builder, id, name, 280);

  const homeowner = await newPage(browser, 1280);
  await openProject(homeowner, world, 'homeowner');
  const homeTile = tile(photoSection(homeowner, 'Project Photos'), caption);
  await expect(homeTile).toBeVisible({ timeout: 15_000 });
  await expect(homeTile.getByTestId('markup-badge')).toHaveCount(0);

  const lightbox = await openLightbox(builder, caption);
  const toolbar = await startDrawing(lightbox);
  await toolbar.getByRole('button', { name: 'Ellipse' }).click();
  await drag(builder, lightbox, [0.4, 0.4], [0.6, 0.6]);
  await toolbar.getByRole('button', { name: 'Line' }).click();
  await drag(builder, lightbox, [0.1, 0.1], [0.3, 0.2]);
  await toolbar.getByRole('button', { name: 'Pen' }).click();
  await drag(builder, lightbox, [0.1, 0.8], [0.4, 0.9]);
  await saved(lightbox);

  await expect(homeTile.getByRole('img', { name: '3 markup shapes' })).toBeVisible({ timeout: 15_000 });
  await homeTile.screenshot({ path: `${SHOTS}/tile-badge-1280.png` });
  await builder.context().close();
  await homeowner.context().close();
});

test('a homeowner has only the pin tool, and their pin with its question reaches the builder live', async ({ browser }) => {
  // Two browsers, each drawing and waiting for the other's markup live.
  test.setTimeout(120_000);
  const world = await markupWorld();
  const name = `Markup pin ${Date.now()}.jpg`;
  const caption = captionOf(name);
  const question = 'Is this where the kitchen window goes?';
  const builder = await newPage(browser, 1280);
  const id = await openProject(builder, world, 'owner');
  await uploadFresh(builder, id, name, 120);
  const builderLightbox = await openLightbox(builder, caption);
  // The builder's own arrow: the homeowner may not change it.
  const builderTools = await startDrawing(builderLightbox);
  await drag(builder, builderLightbox, [0.6, 0.2], [0.8, 0.4]);
  await saved(builderLightbox);
  await builderTools.getByRole('button', { name: 'Done' }).click();

  const homeowner = await newPage(browser, 390);
  await openProject(homeowner, world, 'homeowner');
  const lightbox = await openLightbox(homeowner, caption);
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(1);
  await expect(lightbox.getByRole('button', { name: 'Draw', exact: true })).toHaveCount(0);
  const toolbar = await startDrawing(lightbox, 'Add pin');
  const tools = toolbar.getByRole('group', { name: 'Tool' }).getByRole('button');
  await expect(tools).toHaveCount(1);
  await expect(tools).toHaveAccessibleName('Pin');
  await expect(tools).toHaveAttribute('aria-pressed', 'true');

  // Tapping the builder's arrow places a pin: the homeowner cannot select it.
  await clickAt(homeowner, lightbox, [0.7, 0.3]);
  const box = lightbox.getByRole('textbox', { name: 'Your question' });
  await expect(box).toBeFocused();
  await expect(lightbox.getByRole('button', { name: 'Add pin' })).toBeDisabled();
  await box.fill(question);
  await lightbox.getByRole('button', { name: 'Add pin' }).click();
  await saved(lightbox);
  await homeowner.screenshot({ path: `${SHOTS}/editor-homeowner-390.png` });
  await lightbox.getByRole('button', { name: 'Done' }).click();

  // The builder's open lightbox shows the pin, numbered, with the question and who asked.
  const pin = builderLightbox.getByRole('button', { name: `Pin 1: ${question}` });
  await expect(pin).toBeVisible({ timeout: 15_000 });
  await pin.click();
  const note = builderLightbox.getByTestId('markup-pin-note');
  await expect(note).toContainText(question);
  await expect(note).toContainText(`by ${world.users.homeowner.name}`);
  await builder.screenshot({ path: `${SHOTS}/viewer-pin-note-1280.png` });
  await builder.context().close();
  await homeowner.context().close();
});

test('the flattened download matches what the browser draws, pixel for pixel within JPEG noise', async ({ browser }) => {
  // Three shapes drawn, then the screenshot and two renditions compared pixel by pixel in the page.
  test.setTimeout(120_000);
  const world = await markupWorld();
  const name = `Markup pixels ${Date.now()}.jpg`;
  const caption = captionOf(name);
  const page = await newPage(browser, 1280);
  const id = await openProject(page, world, 'owner');
  const photoId = await uploadFresh(page, id, name, 205);
  const lightbox = await openLightbox(page, caption);
  const toolbar = await startDrawing(lightbox);
  await toolbar.getByRole('button', { name: 'Thick' }).click();
  await drag(page, lightbox, [0.15, 0.2], [0.55, 0.45]);
  await toolbar.getByRole('button', { name: 'Rectangle' }).click();
  await toolbar.getByRole('button', { name: 'Yellow' }).click();
  await drag(page, lightbox, [0.6, 0.15], [0.9, 0.5]);
  await toolbar.getByRole('button', { name: 'Pin' }).click();
  await toolbar.getByRole('button', { name: 'Blue' }).click();
  await clickAt(page, lightbox, [0.3, 0.7]);
  await lightbox.getByRole('textbox', { name: 'Pin note' }).fill('Check flashing');
  await lightbox.getByRole('button', { name: 'Add pin' }).click();
  await saved(lightbox);
  await toolbar.getByRole('button', { name: 'Done' }).click();
  await expect(lightbox.getByTestId('markup-shape')).toHaveCount(3);
  await page.mouse.move(0, 0);

  // Where the shapes landed on screen (the drag's pixels are rounded by the browser), as
  // fractions of the photo: the colour checks below look there, in the flattened file.
  const shapes = await shapeFractions(lightbox);
  const rect = shapes['1:rect'];
  const pin = shapes['2:pin'];
  expect(rect, JSON.stringify(shapes)).toBeTruthy();
  expect(pin, JSON.stringify(shapes)).toBeTruthy();
  const probes = {
    // The arrow's shaft at its middle.
    shaft: { at: [0.35, 0.325], hex: '#E53935' },
    // The yellow box's left edge, halfway down.
    box: { at: [rect.left, rect.top + rect.height / 2], hex: '#FDD835' },
    // Left of the pin's centre: its white number sits in the middle.
    pin: { at: [pin.left + pin.width * 0.2, pin.top + pin.height / 2], hex: '#1E88E5' },
  };

  const shot = await stage(lightbox).screenshot({ animations: 'disabled' });
  const result = await page.evaluate(
    async ({ shotB64, marked, plain, probes }) => {
      const load = (src: string) =>
        new Promise<HTMLImageElement>((resolve, reject) => {
          const img = new Image();
          img.onload = () => resolve(img);
          img.onerror = () => reject(new Error(`cannot load ${src.slice(0, 60)}`));
          img.src = src;
        });
      const screen = await load(`data:image/png;base64,${shotB64}`);
      const w = screen.naturalWidth;
      const h = screen.naturalHeight;
      const pixels = (img: HTMLImageElement) => {
        const c = document.createElement('canvas');
        c.width = w;
        c.height = h;
        const g = c.getContext('2d');
        if (!g) throw new Error('no 2d context');
        g.imageSmoothingQuality = 'high';
        g.drawImage(img, 0, 0, w, h);
        return g.getImageData(0, 0, w, h).data;
      };
      const a = pixels(screen);
      const b = pixels(await load(marked));
      const p = pixels(await load(plain));
      const mad = (x: Uint8ClampedArray, y: Uint8ClampedArray) => {
        let sum = 0;
        for (let i = 0; i < x.length; i += 4) sum += Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]);
        return sum / ((x.length / 4) * 3);
      };
      // The pixel closest to the wanted colour within 3 px of the point: a stroke's edge is
      // anti-aliased and resampled, so one exact pixel on it can be half background.
      const closest = (d: Uint8ClampedArray, [fx, fy]: number[], hex: string) => {
        const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
        const cx = Math.round(fx * (w - 1));
        const cy = Math.round(fy * (h - 1));
        let best = { rgb: [0, 0, 0], off: 256 };
        for (let y = Math.max(0, cy - 3); y <= Math.min(h - 1, cy + 3); y++) {
          for (let x = Math.max(0, cx - 3); x <= Math.min(w - 1, cx + 3); x++) {
            const i = (y * w + x) * 4;
            const rgb = [d[i], d[i + 1], d[i + 2]];
            const off = Math.max(...rgb.map((v, k) => Math.abs(v - want[k])));
            if (off < best.off) best = { rgb, off };
          }
        }
        return best;
      };
      return {
        width: w,
        height: h,
        vsMarked: mad(a, b),
        vsPlain: mad(a, p),
        shaft: closest(b, probes.shaft.at, probes.shaft.hex),
        box: closest(b, probes.box.at, probes.box.hex),
        pin: closest(b, probes.pin.at, probes.pin.hex),
      };
    },
    { shotB64: shot.toString('base64'), marked: `/media/images/${photoId}/marked`, plain: `/media/images/${photoId}/display`, probes },
  );
  // JPEG re-encoding (the server's flattened file) and two different resamplers account for
  // a mean difference of a few levels out of 255; a shape in the wrong place or size,
  // or missing, costs far more (the plain photo differs by the shapes' whole area).
  expect(result.vsMarked, JSON.stringify(result)).toBeLessThan(6);
  expect(result.vsMarked).toBeLessThan(result.vsPlain / 2);
  // Each shape's colour is in the flattened file where the browser drew it.
  expect(result.shaft.off, `arrow red at ${result.shaft.rgb}`).toBeLessThanOrEqual(40);
  expect(result.box.off, `box yellow at ${result.box.rgb}`).toBeLessThanOrEqual(40);
  expect(result.pin.off, `pin blue at ${result.pin.rgb}`).toBeLessThanOrEqual(40);
  await page.context().close();
});

test('the viewer and the editor pass axe at phone and desktop widths, with screenshots', async ({ browser }) => {
  // Two axe audits and four screenshots at two widths, on top of the drawing.
  test.setTimeout(150_000);
  const world = await markupWorld();
  const name = `Markup a11y ${Date.now()}.jpg`;
  const caption = captionOf(name);
  const page = await newPage(browser, 1280);
  const id = await openProject(page, world, 'owner');
  await uploadFresh(page, id, name, 60);
  const lightbox = await openLightbox(page, caption);
  const toolbar = await startDrawing(lightbox);
  await drag(page, lightbox, [0.1, 0.2], [0.45, 0.5]);
  await toolbar.getByRole('button', { name: 'Pin' }).click();
  await clickAt(page, lightbox, [0.7, 0.6]);
  await lightbox.getByRole('textbox', { name: 'Pin note' }).fill('Flashing to be redone');
  await lightbox.getByRole('button', { name: 'Add pin' }).click();
  await toolbar.getByRole('button', { name: 'Text' }).click();
  await clickAt(page, lightbox, [0.1, 0.75]);
  await lightbox.getByRole('textbox', { name: 'Label text' }).fill('Level 2\nwest wall');
  await lightbox.getByRole('button', { name: 'Add label' }).click();
  await saved(lightbox);

  // The editor, a shape selected (handles showing).
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.screenshot({ path: `${SHOTS}/editor-${width}.png` });
  }
  await audit(page, 'markup-editor', { fullPage: false });

  await toolbar.getByRole('button', { name: 'Done' }).click();
  await expect(lightbox.getByRole('button', { name: 'Show markup' })).toBeVisible();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.screenshot({ path: `${SHOTS}/viewer-${width}.png` });
  }
  // A pin's note opens from the keyboard.
  await lightbox.getByRole('button', { name: 'Pin 1: Flashing to be redone' }).focus();
  await expect(lightbox.getByTestId('markup-pin-note')).toContainText(`by ${world.users.owner.name}`);
  await audit(page, 'markup-viewer', { fullPage: false });
  await page.context().close();
});

test('a finger places a pin; the compare view shows each side\'s markup; the zip with markup downloads the drawing', async ({ browser }) => {
  // A phone and a desktop browser, two uploads, the compare view and the project's zip.
  test.setTimeout(150_000);
  const world = await markupWorld();
  const stamp = Date.now();
  const [beforeName, afterName] = [`Markup before ${stamp}.jpg`, `Markup after ${stamp}.jpg`];
  const desk = await newPage(browser, 1280);
  const id = await openProject(desk, world, 'owner');
  const beforeId = await uploadFresh(desk, id, beforeName, 30);
  const afterId = await uploadFresh(desk, id, afterName, 260);

  // On a phone, by touch only: the pin tool places a pin where the finger taps.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const touch = await phone.newPage();
  await openProject(touch, world, 'owner');
  const lightbox = await openLightbox(touch, captionOf(afterName));
  const toolbar = await startDrawing(lightbox);
  await toolbar.getByRole('button', { name: 'Pin', exact: true }).tap();
  const box = await stage(lightbox).boundingBox();
  if (!box) throw new Error('no photo stage');
  await touch.touchscreen.tap(box.x + 0.3 * box.width, box.y + 0.6 * box.height);
  const note = lightbox.getByRole('textbox', { name: 'Pin note' });
  await expect(note).toBeFocused();
  await note.fill('Downpipe goes here');
  await lightbox.getByRole('button', { name: 'Add pin', exact: true }).tap();
  await saved(lightbox);
  const pin = await shapeFractions(lightbox);
  expect(Object.keys(pin)).toEqual(['0:pin']);
  expect(Math.abs(pin['0:pin'].left + pin['0:pin'].width / 2 - 0.3)).toBeLessThan(0.02);
  expect(Math.abs(pin['0:pin'].top + pin['0:pin'].height / 2 - 0.6)).toBeLessThan(0.02);
  await phone.close();

  // The compare view draws the marked-up side's pin, and hides it on request.
  await desk.goto(`/projects/${id}/compare?a=${beforeId}&b=${afterId}`);
  const view = desk.getByTestId('compare-view');
  await expect(view).toBeVisible({ timeout: 15_000 });
  await view.getByRole('button', { name: 'Side by side' }).click();
  await expect(view.getByTestId('compare-pane-after').getByTestId('markup-shape')).toHaveCount(1, { timeout: 15_000 });
  await expect(view.getByTestId('compare-pane-before').getByTestId('markup-shape')).toHaveCount(0);
  const toggle = view.getByRole('button', { name: 'Show markup' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await toggle.click();
  await expect(view.getByTestId('markup-shape')).toHaveCount(0);
  await view.getByRole('button', { name: 'Close compare view' }).click();

  // The project's zip with markup holds the drawn photo under its "(marked up)" name.
  await showAllDates(photoSection(desk, 'Project Photos'));
  await desk.getByRole('button', { name: 'Download' }).first().click();
  const item = desk.getByRole('menuitem', { name: /All, with markup/ });
  await expect(item).toHaveAttribute('href', `/media/projects/${id}/photos.zip?markup=true`);
  const zip = await desk.request.get(`/media/projects/${id}/photos.zip?markup=true`);
  expect(zip.status()).toBe(200);
  const bytes = await zip.body();
  expect(bytes.includes(Buffer.from(`${captionOf(afterName)} (marked up).jpg`))).toBe(true);
  const drawn = await desk.request.get(`/media/images/${afterId}/marked`);
  expect(bytes.includes(await drawn.body())).toBe(true);
  await desk.context().close();
});
