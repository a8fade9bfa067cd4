import { expect, test, type Locator, type Page } from '@playwright/test';
import { SCREENSHOT_DIR, shoot } from './helpers';
import { photoSection, showAllDates } from './photoHelpers';
import { makeWorld, signIn } from './world';

/** The unread count on the bell (0 when it shows none). */
async function bellCount(page: Page): Promise<number> {
  const badge = page.getByTestId('notification-count');
  return (await badge.count()) === 0 ? 0 : Number(await badge.innerText());
}

function comments(page: Page): Locator {
  return page.getByTestId('lightbox').getByTestId('photo-comments');
}

test('a homeowner comments in the lightbox; the builder sees it live, is notified, and the bell opens the photo', async ({ browser }) => {
  // Two signed-in browsers following each other live, a third page's cold start, and
  // five screenshots.
  test.setTimeout(120_000);
  // No comment of the world's own: the thread starts empty and the bell counts only this one.
  const world = await makeWorld({ photos: 3, comments: false });
  const project = world.projects[0]!;
  const id = project.id;
  const ownerName = world.users.owner.name;
  const homeownerName = world.users.homeowner.name;
  const homeownerContext = await browser.newContext();
  const builderContext = await browser.newContext();
  const homeowner = await homeownerContext.newPage();
  const builder = await builderContext.newPage();
  const question = `Is this crack in the foundation a problem? ${world.tag}`;

  await signIn(homeowner, world, 'homeowner', `/projects/${id}`);
  await expect(homeowner.getByRole('heading', { level: 1, name: project.title })).toBeVisible();
  const watching = photoSection(homeowner, 'Project Photos');
  await showAllDates(watching);

  await signIn(builder, world, 'owner', `/projects/${id}`);
  const gallery = photoSection(builder, 'Project Photos');
  await showAllDates(gallery);
  await builder.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  const unreadBefore = await bellCount(builder);

  // The homeowner opens the newest photo (a homeowner's tap favourites; the expand
  // button opens) and asks, mentioning the company's owner through the autocomplete.
  const photoId = project.photos.at(-1)!.id;
  await watching.locator(`[data-testid="photo-tile"][data-photo-id="${photoId}"]`).getByRole('button', { name: /full size$/ }).click();
  await expect(homeowner).toHaveURL(new RegExp(`photo=${photoId}`));
  const thread = comments(homeowner);
  await expect(thread.getByText('No comments yet.', { exact: false })).toBeVisible();
  const box = thread.getByRole('textbox', { name: 'Add a comment…' });
  await box.fill('@Oli');
  await expect(homeowner.getByRole('option', { name: ownerName })).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveValue(`@${ownerName} `);
  await box.pressSequentially(question);
  await box.press('Enter');
  const posted = thread.getByTestId('comment').filter({ hasText: question });
  await expect(posted).toBeVisible();
  await expect(posted.getByText(homeownerName)).toBeVisible();
  await expect(posted.getByText(`@${ownerName}`, { exact: true })).toBeVisible();
  await expect(box).toHaveValue('');
  await expect(thread.getByTestId('comments-count')).toHaveText('1');
  await shoot(homeowner, 'comments-lightbox', { viewport: true });

  // Bad input: an empty comment cannot be sent.
  await box.fill('   ');
  await expect(thread.getByRole('button', { name: 'Post comment' })).toBeDisabled();
  await box.fill('');

  // The builder's open gallery counts it, without a reload, and the bell rings once.
  const builderTile = gallery.locator(`[data-photo-id="${photoId}"]`);
  await expect(builderTile.getByTestId('comment-count')).toContainText('1', { timeout: 15_000 });
  await expect.poll(() => bellCount(builder), { timeout: 15_000 }).toBe(unreadBefore + 1);
  expect(await builder.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await shoot(builder, 'comments-gallery-count');

  // The bell lists it; clicking it opens the lightbox on that photo, comment beside it.
  await builder.getByTestId('notification-bell').click();
  const item = builder.getByTestId('notification').filter({ hasText: `${homeownerName} mentioned you` }).first();
  await expect(item).toBeVisible();
  await shoot(builder, 'notifications-open', { viewport: true });
  await item.click();
  await expect(builder).toHaveURL(new RegExp(`/projects/${id}\\?photo=${photoId}`));
  await expect(comments(builder).getByTestId('comment').filter({ hasText: question })).toBeVisible();
  await expect.poll(() => bellCount(builder)).toBe(unreadBefore);

  // The builder answers; the homeowner's open lightbox shows it live.
  const answer = `Hairline shrinkage crack, nothing structural. ${world.tag}`;
  await comments(builder).getByRole('textbox', { name: 'Add a comment…' }).fill(answer);
  await comments(builder).getByRole('button', { name: 'Post comment' }).click();
  await expect(thread.getByTestId('comment').filter({ hasText: answer })).toBeVisible({ timeout: 15_000 });
  await expect(thread.getByTestId('comments-count')).toHaveText('2');

  // The homeowner edits their own comment; the builder cannot edit it.
  await expect(comments(builder).getByRole('button', { name: `Edit comment by ${homeownerName}` })).toHaveCount(0);
  await posted.getByRole('button', { name: /^Edit comment by/ }).click();
  const editBox = posted.getByRole('textbox', { name: 'Edit your comment' });
  await editBox.fill(`${question} (photo 3)`);
  await editBox.press('Enter');
  await expect(comments(builder).getByTestId('comment').filter({ hasText: '(photo 3)' })).toBeVisible({ timeout: 15_000 });
  await expect(comments(builder).getByText('(edited)')).toBeVisible();

  // A cold start on the photo link (as from a mail) opens the lightbox on it.
  const cold = await builderContext.newPage();
  await cold.goto(`/projects/${id}?photo=${photoId}`);
  await expect(comments(cold).getByTestId('comment').filter({ hasText: answer })).toBeVisible({ timeout: 15_000 });

  // Phone width: the thread sits below the photo and still takes comments.
  await cold.setViewportSize({ width: 390, height: 844 });
  await expect(comments(cold).getByRole('textbox', { name: 'Add a comment…' })).toBeVisible();
  await cold.screenshot({ path: `${SCREENSHOT_DIR}/comments-lightbox-phone.png` });

  await homeownerContext.close();
  await builderContext.close();
});
