import { expect, type Page } from '@playwright/test';

export interface LinkOptions {
  photos?: 'All photos' | 'Favorites only';
  expires?: '1 day' | '7 days' | '30 days' | 'Never';
  downloads?: boolean;
}

/**
 * On an open project page: Share → create a guest link with these options, and return
 * its path (`/guest/{token}`) as the dialog shows it, once. The dialog stays open.
 */
export async function createGuestLink(page: Page, options: LinkOptions = {}): Promise<string> {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this project' });
  await expect(dialog).toBeVisible();
  const form = dialog.getByRole('form', { name: 'New link' });
  await form.getByRole('radio', { name: new RegExp(`^${options.photos ?? 'All photos'}`) }).check();
  await form.getByRole('radio', { name: options.expires ?? '7 days', exact: true }).check();
  const downloads = form.getByRole('switch', { name: 'Allow downloads' });
  if ((await downloads.getAttribute('aria-checked')) !== String(options.downloads ?? false)) await downloads.click();
  await expect(downloads).toHaveAttribute('aria-checked', String(options.downloads ?? false));
  await form.getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByRole('textbox', { name: 'Link to share' }).inputValue();
  expect(url).toMatch(/^https?:\/\/[^/]+\/guest\/[A-Za-z0-9_-]{20,}$/);
  return new URL(url).pathname;
}

/** The row of the link (by its token's path) is not identifiable on screen: rows are the maker's newest first. */
export function linkRows(page: Page) {
  return page.getByRole('dialog', { name: 'Share this project' }).getByTestId('guest-link');
}
