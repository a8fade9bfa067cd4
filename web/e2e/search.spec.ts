import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { SCREENSHOT_DIR, toast } from './helpers';
import { captionOf, fileInput, makePhoto, photoSection, showAllDates, tile, uploadOverTus } from './photoHelpers';
import { makeWorld, signIn, type Person, type World } from './world';

// Find any photo: tags and search (docs/FEATURES.md, "Tags and search"). Search spans
// everything its user may see, so each test searches for words only its own world holds
// (its tag, or a word made with it): other tests' photos and comments never show in its
// results.
const SEARCH_LABEL = 'Search photos, projects and comments';

/** A page of its own at this width, signed in as `who` at `path`. */
async function newPage(browser: Browser, width: number, world: World, who: Person, path = '/dashboard'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
  const page = await context.newPage();
  await signIn(page, world, who, path);
  return page;
}

/** Uploads a fresh photo (its caption is the name without ".jpg") and answers its id. */
async function uploadFresh(page: Page, projectId: string, name: string, hue = 205): Promise<string> {
  return uploadOverTus(page, projectId, await makePhoto(page, name, { hue, label: captionOf(name) }));
}

/** A screenshot of the page at the width it has (the search differs by width: field or sheet). */
async function snap(page: Page, name: string): Promise<void> {
  const style = await page.addStyleTag({ content: '[data-sonner-toaster] { visibility: hidden !important; }' });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${page.viewportSize()?.width ?? 0}.png`, animations: 'disabled' });
  await style.evaluate((el) => (el as Element).remove());
}

/** Opens the header search — the field on desktop, the full-screen sheet on phones — and types the query. */
async function search(page: Page, query: string): Promise<Locator> {
  const phone = (page.viewportSize()?.width ?? 1280) < 768;
  if (phone) {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Search' })).toBeVisible();
  }
  const box = page.getByRole('combobox', { name: SEARCH_LABEL });
  await box.click();
  await box.fill(query);
  return box;
}

function results(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Search results' });
}

/** A result option naming this text (a photo's caption, a comment's words). */
function result(page: Page, kind: 'project' | 'photo' | 'comment' | 'person', text: string): Locator {
  return results(page).getByTestId(`search-result-${kind}`).filter({ hasText: text });
}

test('a builder tags three photos at once; a homeowner on a phone finds them with "kitch" and sees the tags', async ({ browser }) => {
  // Three uploads, then two browsers: the builder's tagging and the homeowner's search.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 0, comments: false });
  const { id } = world.projects[0]!;
  const builder = await newPage(browser, 1280, world, 'owner');
  const captions = [1, 2, 3].map((n) => `Rough-in ${n} ${world.tag}`);
  const ids: string[] = [];
  for (const [n, caption] of captions.entries()) ids.push(await uploadFresh(builder, id, `${caption}.jpg`, 20 + n * 60));

  // Select the three in the gallery and tag them in one go.
  await builder.goto(`/projects/${id}`);
  const section = photoSection(builder, 'Project Photos');
  await showAllDates(section);
  for (const caption of captions) await expect(tile(section, caption)).toBeVisible({ timeout: 15_000 });
  await section.getByRole('button', { name: 'Select', exact: true }).click();
  for (const caption of captions) await section.getByRole('button', { name: `Select ${caption}`, exact: true }).click();
  const bar = section.getByRole('toolbar', { name: 'Selected photos' });
  await expect(bar.getByTestId('selected-count')).toHaveText('3 selected');
  await bar.getByRole('button', { name: 'Tag', exact: true }).click();
  const dialog = builder.getByRole('dialog', { name: 'Tag 3 photos' });
  await expect(dialog).toBeVisible();
  const add = dialog.getByRole('combobox', { name: 'Add tags' });
  await add.fill('Kitchen');
  await add.press('Enter');
  await add.fill('electrical');
  // The project's tags have arrived (the suggestion is offered), so its spelling is used.
  await expect(dialog.getByRole('option', { name: /^Electrical/ })).toBeVisible();
  await add.press('Enter');
  const adding = dialog.getByRole('list', { name: 'Tags to add' });
  await expect(adding.getByTestId('tag-chip')).toHaveCount(2);
  await expect(adding).toContainText('Kitchen');
  // The suggestion's spelling wins over the typed one.
  await expect(adding).toContainText('Electrical');
  await builder.screenshot({ path: `${SCREENSHOT_DIR}/search-tag-dialog-1280.png` });
  await dialog.getByRole('button', { name: 'Save tags' }).click();
  await expect(toast(builder, 'Tagged 3 photos')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(section.getByRole('toolbar', { name: 'Selected photos' })).toBeHidden();

  // The homeowner, on a phone, finds them by the start of a tag.
  const homeowner = await newPage(browser, 390, world, 'homeowner');
  await search(homeowner, 'kitch');
  for (const caption of captions) await expect(result(homeowner, 'photo', caption)).toBeVisible({ timeout: 10_000 });
  const first = result(homeowner, 'photo', captions[0]!);
  await expect(first.getByTestId('search-photo-tag')).toHaveText(['Kitchen', 'Electrical']);
  await expect(first.locator('mark').first()).toHaveText('Kitch');
  await expect(results(homeowner).getByText('Photos', { exact: true })).toBeVisible();
  await snap(homeowner, 'search-results');

  await first.click();
  await expect(homeowner).toHaveURL(new RegExp(`/projects/${id}\\?photo=${ids[0]}`));
  const lightbox = homeowner.getByTestId('lightbox');
  await expect(lightbox).toBeVisible({ timeout: 10_000 });
  await expect(lightbox.getByTestId('lightbox-caption')).toHaveText(captions[0]!);
  const chips = lightbox.getByRole('list', { name: 'Photo tags' });
  await expect(chips.getByTestId('tag-chip')).toHaveText(['Kitchen', 'Electrical']);
  // A homeowner reads tags; only admins and the project's builder change them.
  await expect(lightbox.getByRole('combobox', { name: 'Add tag' })).toHaveCount(0);
  await expect(lightbox.getByRole('button', { name: /^Remove tag / })).toHaveCount(0);
  await snap(homeowner, 'search-lightbox-tags');

  // The builder's lightbox edits them: × takes one off, and the homeowner's follows live.
  await builder.goto(`/projects/${id}?photo=${ids[0]}`);
  const editor = builder.getByTestId('lightbox');
  await expect(editor.getByRole('combobox', { name: 'Add tag' })).toBeVisible({ timeout: 10_000 });
  await editor.getByRole('button', { name: 'Remove tag Electrical' }).click();
  await expect(editor.getByRole('list', { name: 'Photo tags' }).getByTestId('tag-chip')).toHaveText(['Kitchen']);
  await expect(chips.getByTestId('tag-chip')).toHaveText(['Kitchen']);
});

test('a comment found by a unique word opens its photo with the thread at that comment', async ({ browser }) => {
  const world = await makeWorld({ photos: 3, comments: false });
  const project = world.projects[0]!;
  const id = project.id;
  const word = `Quoin${world.tag}`;
  const page = await newPage(browser, 1280, world, 'homeowner', `/projects/${id}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  const photoId = project.photos.at(-1)!.id;
  await section.locator(`[data-testid="photo-tile"][data-photo-id="${photoId}"]`).getByRole('button', { name: /full size$/ }).click();
  const thread = page.getByTestId('lightbox').getByTestId('photo-comments');
  const box = thread.getByRole('textbox', { name: 'Add a comment…' });
  await box.fill(`Should the ${word} corner stay exposed brick?`);
  await box.press('Enter');
  await expect(thread.getByTestId('comment').filter({ hasText: word })).toBeVisible();
  await page.getByTestId('lightbox').getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByTestId('lightbox')).toBeHidden();

  // "/" focuses the header search from anywhere on the page.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('/');
  const input = page.getByRole('combobox', { name: SEARCH_LABEL });
  await expect(input).toBeFocused();
  await input.fill(word.toLowerCase());
  const hit = result(page, 'comment', word);
  await expect(hit).toBeVisible({ timeout: 10_000 });
  await expect(hit).toContainText(world.users.homeowner.name);
  await expect(hit).toContainText(project.title);
  await expect(hit.locator('mark')).toHaveText(word);
  await snap(page, 'search-comment-result');

  // Keyboard: the arrow highlights it, Enter opens it.
  await input.press('ArrowDown');
  await expect(input).toHaveAttribute('aria-activedescendant', /.+/);
  await input.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/projects/${id}\\?photo=${photoId}&comment=`));
  const opened = page.getByTestId('lightbox').getByTestId('photo-comments');
  await expect(opened).toBeVisible({ timeout: 10_000 });
  const focused = opened.locator('[data-testid="comment"][data-focused]');
  await expect(focused).toContainText(word);
  await expect(focused).toBeInViewport();
});

test("a word in another homeowner's project finds nothing for this homeowner", async ({ browser }) => {
  // Two homeowners of one company: the second project is the second homeowner's.
  const world = await makeWorld({ projects: 2, homeowners: 2, photos: 0, comments: false });
  const other = world.projects[1]!;
  expect(other.homeowner).toBe('homeowner2');
  const word = `Xylo${world.tag}`;
  const builder = await newPage(browser, 1280, world, 'owner');
  await uploadFresh(builder, other.id, `Hidden ${word}.jpg`, 300);
  // The builder may see that project: the word is found there.
  await search(builder, word);
  await expect(result(builder, 'photo', word)).toBeVisible({ timeout: 10_000 });
  await expect(result(builder, 'photo', word)).toContainText(other.title);

  const homeowner = await newPage(browser, 390, world, 'homeowner');
  await search(homeowner, word);
  await expect(homeowner.getByTestId('search-empty')).toContainText(`No results for “${word}”`, { timeout: 10_000 });
  await expect(results(homeowner)).toHaveCount(0);
  await snap(homeowner, 'search-no-results');
});

test("open results follow the builder's caption without a reload", async ({ browser }) => {
  const world = await makeWorld({ photos: 0, comments: false });
  const { id } = world.projects[0]!;
  const word = `Lumen${world.tag}`;
  const builder = await newPage(browser, 1280, world, 'owner');
  const caption = `Porch light ${world.tag}`;
  await uploadFresh(builder, id, `${caption}.jpg`, 50);
  await builder.goto(`/projects/${id}`);
  const section = photoSection(builder, 'Project Photos');
  await showAllDates(section);
  await expect(tile(section, caption)).toBeVisible({ timeout: 15_000 });

  const homeowner = await newPage(browser, 390, world, 'homeowner');
  await homeowner.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await search(homeowner, word);
  await expect(homeowner.getByTestId('search-empty')).toBeVisible({ timeout: 10_000 });

  await tile(section, caption).getByRole('button', { name: `Edit details of ${caption}` }).click();
  const edit = builder.getByRole('dialog', { name: 'Edit photo details' });
  await edit.getByLabel('Caption').fill(`Porch light fixture ${word}`);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();

  // search_changed reaches the homeowner's socket; the open search runs again.
  const hit = result(homeowner, 'photo', `Porch light fixture ${word}`);
  await expect(hit).toBeVisible({ timeout: 15_000 });
  await expect(hit.locator('mark')).toHaveText(word);
  expect(await homeowner.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await snap(homeowner, 'search-live-result');
});

test('the gallery filters by tags from the address, and one tap clears it', async ({ browser }) => {
  const world = await makeWorld({ photos: 0, comments: false });
  const { id } = world.projects[0]!;
  const tag = `Punch${world.tag}`;
  const page = await newPage(browser, 1280, world, 'owner');
  const tagged = `Tagged tile ${world.tag}`;
  const plain = `Plain tile ${world.tag}`;
  const taggedId = await uploadFresh(page, id, `${tagged}.jpg`, 120);
  await uploadFresh(page, id, `${plain}.jpg`, 240);

  // Tag one in its lightbox with the "Add tag" combobox.
  await page.goto(`/projects/${id}?photo=${taggedId}`);
  const lightbox = page.getByTestId('lightbox');
  const add = lightbox.getByRole('combobox', { name: 'Add tag' });
  await expect(add).toBeVisible({ timeout: 10_000 });
  await add.fill(tag);
  await expect(lightbox.getByRole('option', { name: new RegExp(tag) })).toBeVisible();
  await add.press('Enter');
  await expect(lightbox.getByRole('list', { name: 'Photo tags' }).getByTestId('tag-chip').filter({ hasText: tag })).toBeVisible();
  await expect(add).toHaveValue('');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/search-lightbox-editor-1280.png` });

  await page.goto(`/projects/${id}?tags=${tag}`);
  const section = photoSection(page, 'Project Photos');
  await showAllDates(section);
  await expect(tile(section, tagged)).toBeVisible({ timeout: 10_000 });
  await expect(tile(section, plain)).toHaveCount(0);
  await expect(section.getByTestId('photo-tile')).toHaveCount(1);
  await expect(section.getByTestId('chosen-tags')).toContainText(tag);
  await expect(section.getByTestId('tag-filter')).toContainText('1');
  await snap(page, 'search-tag-filter');

  await section.getByRole('button', { name: 'Clear tags' }).click();
  await expect(page).not.toHaveURL(/tags=/);
  await expect(tile(section, plain)).toBeVisible();
  await expect(tile(section, tagged)).toBeVisible();

  // The menu sets it again, into the address.
  await section.getByTestId('tag-filter').click();
  await page.getByRole('menuitemcheckbox', { name: new RegExp(tag) }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`tags=${tag}`));
  await expect(tile(section, plain)).toHaveCount(0);
});

test('tags chosen in the upload form go on every photo of the visit', async ({ browser }) => {
  // Two photos through the upload form, which makes their renditions before it reports.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 0, comments: false });
  const { id } = world.projects[0]!;
  const tag = `Visit${world.tag}`;
  const page = await newPage(browser, 1280, world, 'owner', `/projects/${id}`);
  const section = photoSection(page, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  const names = [`Batch one ${world.tag}.jpg`, `Batch two ${world.tag}.jpg`];
  await fileInput(section).setInputFiles([await makePhoto(page, names[0]!, { hue: 90 }), await makePhoto(page, names[1]!, { hue: 180 })]);
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await expect(panel.getByRole('heading', { name: 'Selected Photos (2)' })).toBeVisible();
  const tags = panel.getByRole('combobox', { name: 'Tags for this visit' });
  await tags.fill(tag);
  await tags.press('Enter');
  await tags.fill('Framing');
  await tags.press('Enter');
  await expect(panel.getByRole('list', { name: 'Chosen tags' }).getByTestId('tag-chip')).toHaveText([tag, 'Framing']);
  await panel.screenshot({ path: `${SCREENSHOT_DIR}/search-upload-tags-1280.png` });
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page, '2 photos uploaded successfully')).toBeVisible({ timeout: 60_000 });

  await page.goto(`/projects/${id}?tags=${tag}`);
  await showAllDates(section);
  for (const name of names) await expect(tile(section, captionOf(name))).toBeVisible({ timeout: 15_000 });
  await expect(section.getByTestId('photo-tile')).toHaveCount(2);
  await tile(section, captionOf(names[1]!)).getByRole('button', { name: `View ${captionOf(names[1]!)}`, exact: true }).click();
  await expect(page.getByTestId('lightbox').getByRole('list', { name: 'Photo tags' }).getByTestId('tag-chip')).toHaveText([tag, 'Framing']);
});

test('the open search passes axe at phone and desktop widths', async ({ browser }) => {
  // The world's tag is in its project's title, its people's names and its comment: a
  // mix of results that are all this test's own.
  // Two full axe scans, one per width, each in a browser of its own.
  test.setTimeout(120_000);
  const world = await makeWorld({ photos: 3 });
  for (const width of [1280, 390]) {
    const page = await newPage(browser, width, world, 'admin');
    const box = await search(page, world.tag);
    await expect(results(page)).toBeVisible({ timeout: 10_000 });
    // The arrow keys highlight a result, as a keyboard user would see it.
    await box.press('ArrowDown');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const scan = await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
    const findings = scan.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order')
      .map((v) => `${width}px — ${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 6).map((n) => `  ${n.target.join(' ')}`).join('\n')}`);
    await snap(page, 'a11y-search-open');
    expect.soft(findings, findings.join('\n\n')).toEqual([]);
    // Escape closes the results (desktop) or the sheet (phone).
    await box.press('Escape');
    if (width < 768) await expect(page.getByRole('dialog', { name: 'Search' })).toBeHidden();
    else await expect(results(page)).toBeHidden();
    await page.context().close();
  }
});
