import { expect, test, type Locator, type Page } from '@playwright/test';
import { shoot, toast } from './helpers';
import { photoSection, showAllDates, tileById } from './photoHelpers';
import { makeWorld, signIn } from './world';

/** The divider's position as the slider announces it. */
async function dividerAt(slider: Locator): Promise<number> {
  return Number(await slider.getAttribute('aria-valuenow'));
}

/** A finger on the screen (Chrome DevTools touch input, which the page receives as touch pointer events). */
async function touchDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
  const steps = 6;
  for (let i = 1; i <= steps; i++) {
    const x = from.x + ((to.x - from.x) * i) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: from.y + ((to.y - from.y) * i) / steps }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('on a phone: compare from the lightbox, drag the divider with a finger and the keyboard, switch views, swap, copy, close', async ({ browser }) => {
  // Some twenty steps with three screenshots at two widths and a second page opened
  // cold: about half a minute on two cores.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 3, milestones: false, comments: false });
  const project = world.projects[0]!;
  const id = project.id;
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await signIn(page, world, 'homeowner', `/projects/${id}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);

  // The newest photo leads the gallery.
  const first = project.photos[project.photos.length - 1]!.id;
  await expect(section.getByTestId('photo-tile').first()).toHaveAttribute('data-photo-id', first);
  await tileById(section, first).getByRole('button', { name: /full size$/ }).click();
  const lightbox = page.getByTestId('lightbox');
  await lightbox.getByRole('button', { name: 'Compare' }).click();

  // The picker starts with the photo shown; one tap on another is the pair.
  const picker = page.getByRole('dialog', { name: 'Compare photos' });
  const grid = picker.getByTestId('compare-picker');
  await expect(grid.getByRole('button', { pressed: true })).toHaveCount(1);
  await expect(picker.getByRole('button', { name: 'Compare', exact: true })).toBeDisabled();
  const other = grid.getByRole('button', { pressed: false }).last();
  const second = await other.getAttribute('data-photo-id');
  expect(second).toBe(project.photos[0]!.id);
  await grid.locator(`[data-photo-id="${second}"]`).click();
  await expect(grid.getByText('Before', { exact: true })).toHaveCount(1);
  await expect(grid.getByText('After', { exact: true })).toHaveCount(1);
  await shoot(page, 'compare-picker', { viewport: true });
  await picker.getByRole('button', { name: 'Compare', exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/projects/${id}/compare\\?a=[^&]+&b=[^&]+$`));
  const url = new URL(page.url());
  // The earlier photo is "before": the other one was older (the grid is newest first).
  expect([url.searchParams.get('a'), url.searchParams.get('b')]).toEqual([second, first]);
  const view = page.getByTestId('compare-view');
  await expect(view).toHaveAttribute('data-mode', 'slider');
  await expect(view.getByTestId('compare-caption-before')).toContainText(/Taken|Uploaded/);
  const slider = view.getByRole('slider', { name: 'Divider between before and after' });
  await expect(slider).toHaveAttribute('aria-valuenow', '50');

  // A finger drags the divider to a fifth of the photo's width.
  const area = await view.getByTestId('compare-slider').boundingBox();
  if (!area) throw new Error('the slider has no box');
  const y = area.y + area.height / 2;
  await touchDrag(page, { x: area.x + area.width / 2, y }, { x: area.x + area.width * 0.2, y });
  const dragged = await dividerAt(slider);
  expect(dragged).toBeGreaterThanOrEqual(17);
  expect(dragged).toBeLessThanOrEqual(23);
  await expect(slider).toHaveAttribute('aria-valuetext', `${dragged}% before, ${100 - dragged}% after`);
  await shoot(page, 'compare-slider', { viewport: true });
  // Past the edge it stops at the edge.
  await touchDrag(page, { x: area.x + area.width * 0.2, y }, { x: area.x + area.width + 40, y });
  await expect(slider).toHaveAttribute('aria-valuenow', '100');

  // The keyboard: arrows step 1, Shift+arrow and Page keys 10, Home and End the edges.
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveAttribute('aria-valuenow', '0');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuenow', '2');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuenow', '12');
  await page.keyboard.press('PageUp');
  await expect(slider).toHaveAttribute('aria-valuenow', '22');
  await page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveAttribute('aria-valuenow', '21');
  await page.keyboard.press('End');
  await expect(slider).toHaveAttribute('aria-valuenow', '100');

  // Side by side: both photos whole, stacked on an upright phone.
  await view.getByRole('button', { name: 'Side by side' }).click();
  await expect(view).toHaveAttribute('data-mode', 'side-by-side');
  await expect(view.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true');
  const beforeBox = await view.getByTestId('compare-pane-before').boundingBox();
  const afterBox = await view.getByTestId('compare-pane-after').boundingBox();
  expect(beforeBox && afterBox && afterBox.y > beforeBox.y).toBeTruthy();
  await shoot(page, 'compare-side-by-side', { viewport: true });

  // Swap puts the other photo first, in the address too.
  await view.getByRole('button', { name: 'Swap before and after' }).click();
  await expect(page).toHaveURL(new RegExp(`a=${first}&b=${second}$`));

  // Copy link copies this comparison's address; opened cold it shows the same pair.
  await view.getByRole('button', { name: 'Copy link' }).click();
  await expect(toast(page, 'Link copied')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(page.url());
  const cold = await context.newPage();
  await cold.goto(copied);
  await expect(cold.getByTestId('compare-view')).toBeVisible({ timeout: 15_000 });
  await expect(cold.getByRole('slider', { name: /Divider/ })).toBeVisible();
  // Closing a cold-started view goes to the project.
  await cold.getByRole('button', { name: 'Close compare view' }).click();
  await expect(cold).toHaveURL(new RegExp(`/projects/${id}$`));
  await cold.close();

  // Close returns to where it was opened: the lightbox on the first photo.
  await view.getByRole('button', { name: 'Close compare view' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}\\?photo=${first}`));
  await expect(lightbox).toBeVisible();
  await context.close();
});

test('on a desktop: compare from the gallery, drag with the mouse, Escape closes', async ({ page }) => {
  const world = await makeWorld({ photos: 3, milestones: false, comments: false });
  const id = world.projects[0]!.id;
  await signIn(page, world, 'owner', `/projects/${id}`);
  const section = photoSection(page, 'Project Photos');
  await section.getByRole('button', { name: 'Compare', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Compare photos' });
  const grid = picker.getByTestId('compare-picker');
  await expect(grid.getByRole('button', { pressed: true })).toHaveCount(0);
  await grid.getByRole('button').nth(0).click();
  await grid.getByRole('button').nth(1).click();
  // A third tap replaces the second choice.
  await grid.getByRole('button').nth(2).click();
  await expect(grid.getByRole('button', { pressed: true })).toHaveCount(2);
  await expect(grid.getByRole('button').nth(1)).toHaveAttribute('aria-pressed', 'false');
  await picker.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/compare\\?`));

  const view = page.getByTestId('compare-view');
  const slider = view.getByRole('slider', { name: /Divider/ });
  const area = await view.getByTestId('compare-slider').boundingBox();
  if (!area) throw new Error('the slider has no box');
  const y = area.y + area.height / 2;
  await page.mouse.move(area.x + area.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width * 0.75, y, { steps: 5 });
  await page.mouse.up();
  const at = await dividerAt(slider);
  expect(at).toBeGreaterThanOrEqual(72);
  expect(at).toBeLessThanOrEqual(78);
  // Side by side sits side by side on a wide screen.
  await view.getByRole('button', { name: 'Side by side' }).click();
  const beforeBox = await view.getByTestId('compare-pane-before').boundingBox();
  const afterBox = await view.getByTestId('compare-pane-after').boundingBox();
  expect(beforeBox && afterBox && afterBox.x > beforeBox.x + beforeBox.width - 1).toBeTruthy();

  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/projects/${id}$`));
  await expect(view).toHaveCount(0);
});
