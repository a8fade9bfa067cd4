import { expect, test, type Browser, type Page, type WebSocketRoute } from '@playwright/test';
import { decode, encode } from '../src/protocol/codec';
import type { ClientMsg } from '../src/protocol/types';
import { shoot, shownName, toast } from './helpers';
import { captionOf, fileInput, makePhoto, photoSection, showAllDates, tile } from './photoHelpers';
import { makeWorld, signIn, type Person, type World } from './world';

// The project's story in the signed-in app (docs/FEATURES.md, "The project's story") —
// milestones, the timeline, and photos grouped by milestone and site visit. Each test
// makes its own world and, in it, a project through the admin's form: a new project
// starts its plan with nothing done, with progress following it, which is where these
// stories begin.

const RESIDENTIAL = [
  'Site preparation',
  'Foundation',
  'Framing',
  'Roofing',
  'Rough-in (plumbing, electrical, HVAC)',
  'Insulation & drywall',
  'Finishes',
  'Final inspection',
  'Handover',
];

/**
 * The world's admin creates a project for its homeowner and company, on the residential
 * plan with progress following it. The title carries the world's tag.
 */
async function createStoryProject(browser: Browser, world: World, name: string): Promise<string> {
  const title = `${name} ${world.tag}`;
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, world, 'admin');
  await admin.getByRole('button', { name: 'New Project' }).click();
  const form = admin.getByRole('dialog', { name: 'Create New Project' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Address').fill('12 Orchard Way, Millbrook');
  await form.getByLabel('Search by name or email').fill(world.users.homeowner.email);
  await form.getByLabel('Homeowner').selectOption({ label: shownName(world.users.homeowner) });
  await form.getByLabel('Builder').selectOption({ label: world.company.name });
  await expect(form.getByLabel('Milestones', { exact: true })).toHaveValue('residential');
  await form.getByRole('switch', { name: 'Progress follows milestones' }).check();
  // Following milestones, there is no progress to set by hand.
  await expect(form.getByLabel('Progress', { exact: true })).toHaveCount(0);
  await form.getByRole('button', { name: 'Create Project' }).click();
  // The project is made with its nine milestones in one write: on a loaded machine the
  // answer can take longer than the usual wait.
  await expect(toast(admin, 'Project created successfully')).toBeVisible({ timeout: 15_000 });
  await expect(admin.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const id = new URL(admin.url()).pathname.split('/').pop() ?? '';
  await context.close();
  return id;
}

/** A page of its own signed in as `who` (the company's owner builds), at `path`. */
async function openAs(browser: Browser, world: World, who: Person, path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext(viewport ? { viewport } : {})).newPage();
  await signIn(page, world, who, path);
  await expect(page.getByTestId('project-header')).toBeVisible();
  return page;
}

const milestoneRow = (page: Page, name: string) => page.getByTestId('milestone').filter({ hasText: name }).first();

test('the builder completes a milestone and the homeowner’s open timeline and progress bar follow without reload', async ({ browser }) => {
  // Three browsers (the admin's form, the homeowner's page, the builder's) and four
  // screenshots at two widths.
  test.setTimeout(150_000);
  const world = await makeWorld({ projects: 0 });
  const id = await createStoryProject(browser, world, 'Orchard House');

  const homeowner = await openAs(browser, world, 'homeowner', `/projects/${id}?tab=timeline`);
  await homeowner.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await expect(homeowner.getByRole('tab', { name: 'Timeline' })).toHaveAttribute('aria-selected', 'true');
  await expect(homeowner.getByTestId('timeline-feed').or(homeowner.getByTestId('timeline-empty'))).toBeVisible();
  const progress = homeowner.getByRole('progressbar', { name: 'Project Progress' });
  await expect(progress).toHaveAttribute('aria-valuenow', '0');
  await expect(homeowner.getByTestId('progress-from-milestones')).toContainText('0 of 9 done · next: Site preparation');

  const builder = await openAs(browser, world, 'owner', `/projects/${id}?tab=milestones`);
  const editor = builder.getByTestId('milestone-editor');
  await expect(editor.getByTestId('milestone')).toHaveCount(9);
  await expect(editor.getByTestId('milestone-name')).toHaveText(RESIDENTIAL);
  await shoot(builder, 'story-milestones-editor');

  const row = milestoneRow(builder, 'Site preparation');
  await row.getByRole('button', { name: 'Complete' }).click();
  // The done date defaults to today.
  await expect(row.getByLabel('Done on')).not.toHaveValue('');
  await row.getByRole('button', { name: 'Complete Site preparation' }).click();
  await expect(row).toHaveAttribute('data-state', 'done');
  await expect(milestoneRow(builder, 'Foundation')).toHaveAttribute('data-state', 'current');

  // The homeowner's page: a new entry on top of the open timeline, and the bar moved (1 of 9).
  const entry = homeowner.getByTestId('timeline-entry').filter({ hasText: new RegExp(`${world.users.owner.name}.*completed Site preparation`) });
  await expect(entry).toHaveCount(1);
  await expect(homeowner.getByTestId('timeline-entry').first()).toContainText('completed Site preparation');
  await expect(progress).toHaveAttribute('aria-valuenow', '11');
  await expect(homeowner.getByTestId('progress-from-milestones')).toContainText('1 of 9 done · next: Foundation');
  expect(await homeowner.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await shoot(homeowner, 'story-timeline');

  // The homeowner's Milestones tab is read-only, with each state in words.
  await homeowner.getByRole('tab', { name: 'Milestones' }).click();
  await expect(homeowner).toHaveURL(/tab=milestones/);
  const list = homeowner.getByTestId('milestone-list');
  await expect(list.getByTestId('milestone').first()).toHaveAttribute('data-state', 'done');
  await expect(list.getByTestId('milestone').first()).toContainText('Done');
  await expect(list.getByTestId('milestone').nth(1)).toHaveAttribute('data-state', 'current');
  await expect(homeowner.getByRole('button', { name: /^Complete/ })).toHaveCount(0);
  await expect(homeowner.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await shoot(homeowner, 'story-milestones');

  // Reopening goes back the same way.
  await builder.getByTestId('milestone').first().getByRole('button', { name: 'Reopen' }).click();
  await expect(list.getByTestId('milestone').first()).toHaveAttribute('data-state', 'current');
  await expect(progress).toHaveAttribute('aria-valuenow', '0');

  await homeowner.context().close();
  await builder.context().close();
});

test('the builder edits the plan: add, rename, date, reorder by buttons, delete', async ({ browser }) => {
  // The admin's form, then a dozen edits of the plan, each waiting for the server's answer.
  test.setTimeout(90_000);
  const world = await makeWorld({ projects: 0 });
  const id = await createStoryProject(browser, world, 'Birch Cabin');
  const builder = await openAs(browser, world, 'owner', `/projects/${id}?tab=milestones`);
  const editor = builder.getByTestId('milestone-editor');
  await expect(editor.getByTestId('milestone')).toHaveCount(9);

  await editor.getByLabel('New milestone').fill('Landscaping');
  await editor.getByLabel(/^Target date/).fill('2031-05-04');
  await editor.getByRole('button', { name: 'Add milestone' }).click();
  await expect(editor.getByTestId('milestone')).toHaveCount(10);
  const added = milestoneRow(builder, 'Landscaping');
  await expect(added.getByLabel('Target', { exact: true })).toHaveValue('2031-05-04');

  await added.getByRole('button', { name: 'Rename Landscaping' }).click();
  // While renamed, the row's name is the field's value: one rename at a time.
  const rename = editor.getByLabel('Milestone name');
  await rename.fill('Landscaping & driveway');
  await rename.press('Enter');
  const renamed = milestoneRow(builder, 'Landscaping & driveway');
  await expect(renamed).toBeVisible();

  // Up one place with the keyboard-reachable button: before Handover.
  await renamed.getByRole('button', { name: 'Move Landscaping & driveway up' }).click();
  const names = editor.getByTestId('milestone-name');
  await expect(names.nth(8)).toHaveText('Landscaping & driveway');
  await expect(names.nth(9)).toHaveText('Handover');

  // Or dragged by its handle: Handover back above it.
  await milestoneRow(builder, 'Handover').getByTestId('drag-handle').dragTo(milestoneRow(builder, 'Landscaping & driveway'));
  await expect(names.nth(8)).toHaveText('Handover');
  await expect(names.nth(9)).toHaveText('Landscaping & driveway');

  // A target date in the past makes a milestone late, in words.
  const roofing = milestoneRow(builder, 'Roofing');
  await roofing.getByLabel('Target', { exact: true }).fill('2020-01-02');
  await roofing.getByLabel('Target', { exact: true }).blur();
  await expect(roofing).toHaveAttribute('data-state', 'late');
  await expect(roofing.getByText('Late', { exact: true })).toBeVisible();

  await milestoneRow(builder, 'Landscaping & driveway').getByRole('button', { name: 'Delete Landscaping & driveway' }).click();
  const confirm = builder.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Delete milestone' }).click();
  await expect(editor.getByTestId('milestone')).toHaveCount(9);
  await builder.context().close();
});

/**
 * Sends requests on the page's own socket, as if the app had: a test stand-in for many
 * changes made over weeks. Every frame the server sends still reaches the app (which
 * ignores replies to ids it never used); `ask` resolves with the type of the server's
 * answer to its request ('reply' or 'error').
 */
async function socketOf(page: Page): Promise<(msg: ClientMsg) => Promise<string>> {
  let server: WebSocketRoute | null = null;
  const waiting = new Map<number, (type: string) => void>();
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const toServer = ws.connectToServer();
    server = toServer;
    toServer.onMessage((message) => {
      ws.send(message);
      if (typeof message === 'string') return;
      const msg = decode<{ type?: string; id?: number | null }>(message);
      if ((msg.type === 'reply' || msg.type === 'error') && typeof msg.id === 'number') waiting.get(msg.id)?.(msg.type);
    });
  });
  return (msg) =>
    new Promise((resolve, reject) => {
      if (!server) return reject(new Error('no socket yet'));
      waiting.set(msg.id, resolve);
      server.send(Buffer.from(encode(msg)));
    });
}

test('the timeline pages older entries without gaps or repeats', async ({ browser }) => {
  // 44 changes one after another, then every page of the timeline fetched as a reader
  // scrolls: longer than the default on a loaded two-core machine.
  test.setTimeout(180_000);
  const world = await makeWorld({ projects: 0 });
  const id = await createStoryProject(browser, world, 'Aspen Row');
  const builderContext = await browser.newContext();
  const builder = await builderContext.newPage();
  const ask = await socketOf(builder);
  await signIn(builder, world, 'owner', `/projects/${id}?tab=milestones`);
  await expect(builder.getByTestId('milestone')).toHaveCount(9);
  const milestoneId = await builder.getByTestId('milestone').first().getAttribute('data-milestone-id');
  expect(milestoneId).toBeTruthy();

  // 44 changes, each a timeline entry: with the project's own first entries, three
  // pages of the server's 20.
  const changes = 44;
  for (let i = 0; i < changes; i++) {
    const msg: ClientMsg = { id: 1_000_000 + i, request: { type: 'set_milestone_done', id: milestoneId!, done: i % 2 === 0 } };
    // One at a time (each waits for the server's reply), so each change is its own
    // entry in its own order.
    expect(await ask(msg)).toBe('reply');
  }
  // The builder's page followed them live: the last one reopened the milestone.
  await expect(builder.getByTestId('milestone').first()).toHaveAttribute('data-state', 'current');

  const homeowner = await openAs(browser, world, 'homeowner', `/projects/${id}?tab=timeline`);
  const entries = homeowner.getByTestId('timeline-entry');
  // A fresh context also installs the app's service worker: on a loaded machine the
  // first page can take longer than the usual wait.
  await expect(entries.first()).toBeVisible({ timeout: 30_000 });
  const firstPage = await entries.count();
  // The newest page first, not everything at once.
  expect(firstPage).toBeLessThan(changes);
  // Older pages come as the end scrolls into view or with "Load older", until the start.
  // However long each page takes to come on a loaded machine, keep bringing the end of
  // the feed into view (which asks for the next page by itself) and pressing "Load
  // older" when it is there, until the start shows. The button comes and goes as pages
  // arrive, so the press is bounded (a wait for a button that a page's arrival removed
  // would hold this step past every timeout) and is the DOM's own click (a pointer
  // click would wait for the moving button to settle).
  const end = homeowner.getByText('That’s the beginning of this project’s story.');
  const older = homeowner.getByRole('button', { name: 'Load older' });
  await expect(async () => {
    if (await end.isVisible()) return;
    await homeowner.mouse.wheel(0, 4000);
    await older
      .evaluate((button: HTMLButtonElement) => {
        if (!button.disabled) button.click();
      }, undefined, { timeout: 1_000 })
      .catch(() => undefined);
    await expect(end).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000 });
  const ids = await entries.evaluateAll((els) => els.map((el) => el.getAttribute('data-entry-id')));
  expect(new Set(ids).size).toBe(ids.length);
  const kinds = await entries.evaluateAll((els) => els.map((el) => el.getAttribute('data-kind')));
  expect(kinds.filter((k) => k === 'milestone_completed')).toHaveLength(changes / 2);
  expect(kinds.filter((k) => k === 'milestone_reopened')).toHaveLength(changes / 2);
  // Newest first all the way down.
  const times = await entries.locator('time').evaluateAll((els) => els.map((el) => Date.parse(el.getAttribute('datetime') ?? '')));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  await homeowner.context().close();
  await builderContext.close();
});

test('a photo tagged with a milestone on upload and in the edit dialog groups under it', async ({ browser }) => {
  // Two uploads, three browsers and two screenshots at two widths.
  test.setTimeout(150_000);
  const world = await makeWorld({ projects: 0 });
  const id = await createStoryProject(browser, world, 'Willow Bend');
  const builder = await openAs(browser, world, 'owner', `/projects/${id}`);
  const section = photoSection(builder, 'Project Photos');
  await section.getByRole('button', { name: 'Upload Photos' }).click();
  const names = [`Footings ${world.tag}.jpg`, `Rebar ${world.tag}.jpg`];
  await fileInput(section).setInputFiles([await makePhoto(builder, names[0], { hue: 30 }), await makePhoto(builder, names[1], { hue: 200 })]);
  const panel = section.getByRole('region', { name: 'Selected Photos' });
  await panel.getByLabel(/^Milestone/).selectOption({ label: 'Foundation' });
  await panel.getByLabel(/^Note for the homeowner/).fill('Footings poured and inspected');
  await panel.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(builder, '2 photos uploaded successfully')).toBeVisible({ timeout: 60_000 });

  await showAllDates(section);
  await section.getByTestId('group-by').selectOption('milestone');
  await expect(builder).toHaveURL(/group=milestone/);
  const foundation = section.getByTestId('photo-group').filter({ has: builder.getByRole('heading', { name: 'Foundation' }) });
  await expect(tile(foundation, captionOf(names[0]))).toHaveCount(1);
  await expect(tile(foundation, captionOf(names[1]))).toHaveCount(1);

  // Re-tag one in the edit dialog: it moves to its new milestone's group.
  await tile(section, captionOf(names[1])).getByRole('button', { name: /^Edit details of/ }).click();
  const dialog = builder.getByRole('dialog', { name: 'Edit photo details' });
  await dialog.getByLabel('Milestone').selectOption({ label: 'Framing' });
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toHaveCount(0);
  const framing = section.getByTestId('photo-group').filter({ has: builder.getByRole('heading', { name: 'Framing' }) });
  await expect(tile(framing, captionOf(names[1]))).toHaveCount(1);
  await expect(tile(foundation, captionOf(names[1]))).toHaveCount(0);
  // Groups follow the plan's order.
  const headings = await section.getByTestId('photo-group').locator('h3').allTextContents();
  expect(headings).toEqual(['Foundation', 'Framing']);
  await shoot(builder, 'story-gallery-by-milestone');

  // By site visit: one visit, headed with its note; the choice survives a reload.
  await section.getByTestId('group-by').selectOption('visit');
  const visit = section.getByTestId('photo-group').first();
  await expect(visit.getByRole('heading', { name: /^Site visit · / })).toBeVisible();
  await expect(visit).toContainText('2 photos');
  await expect(visit).toContainText('“Footings poured and inspected”');
  await builder.reload();
  await expect(photoSection(builder, 'Project Photos').getByTestId('group-by')).toHaveValue('visit');
  await shoot(builder, 'story-gallery-by-visit');

  // The homeowner's timeline shows the batch with its note, and a thumbnail opens the lightbox.
  const homeowner = await openAs(browser, world, 'homeowner', `/projects/${id}?tab=timeline`);
  const batch = homeowner.getByTestId('timeline-entry').filter({ hasText: '2 new photos from a site visit' });
  await expect(batch).toContainText('“Footings poured and inspected”');
  await batch.getByRole('button', { name: /^Open photo 1 of 2/ }).click();
  await expect(homeowner.getByTestId('lightbox')).toBeVisible();
  await expect(homeowner).toHaveURL(/photo=/);
  await homeowner.keyboard.press('Escape');
  await expect(homeowner.getByTestId('lightbox')).toHaveCount(0);
  await homeowner.context().close();
  await builder.context().close();
});

test('the story tabs at phone width', async ({ browser }) => {
  const world = await makeWorld({ projects: 0 });
  const id = await createStoryProject(browser, world, 'Fern Court');
  const phone = { width: 390, height: 844 };
  const homeowner = await openAs(browser, world, 'homeowner', `/projects/${id}`, phone);
  const tabs = homeowner.getByRole('tablist', { name: 'Project sections' });
  for (const name of ['Photos', 'Timeline', 'Milestones']) await expect(tabs.getByRole('tab', { name })).toBeInViewport();
  await tabs.getByRole('tab', { name: 'Milestones' }).click();
  await expect(homeowner.getByTestId('milestone')).toHaveCount(9);
  await expect(homeowner.getByTestId('milestone-summary')).toContainText('0 of 9 done · next: Site preparation');
  const overflow = () => homeowner.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await overflow()).toBe(0);
  await tabs.getByRole('tab', { name: 'Timeline' }).click();
  await expect(homeowner.getByTestId('timeline-feed').or(homeowner.getByTestId('timeline-empty'))).toBeVisible();
  expect(await overflow()).toBe(0);

  const builder = await openAs(browser, world, 'owner', `/projects/${id}?tab=milestones`, phone);
  await expect(builder.getByTestId('milestone')).toHaveCount(9);
  // Every action of a milestone fits the phone's width.
  const row = builder.getByTestId('milestone').first();
  for (const name of ['Complete', 'Move Site preparation down', 'Delete Site preparation']) {
    const box = await row.getByRole('button', { name }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x, name).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(phone.width);
  }
  const builderOverflow = () => builder.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await builderOverflow()).toBe(0);
  // The photo section's actions wrap rather than widen the page, with the uploader open too.
  await builder.getByRole('tab', { name: 'Photos' }).click();
  await photoSection(builder, 'Project Photos').getByRole('button', { name: 'Upload Photos' }).click();
  await expect(photoSection(builder, 'Project Photos').getByRole('button', { name: 'Close upload' })).toBeVisible();
  expect(await builderOverflow()).toBe(0);
  await homeowner.context().close();
  await builder.context().close();
});
