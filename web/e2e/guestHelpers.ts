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
  // The expiry radios are a segmented control: their labels are what a person taps.
  const expires = options.expires ?? '7 days';
  await form.getByText(expires, { exact: true }).click();
  await expect(form.getByRole('radio', { name: expires, exact: true })).toBeChecked();
  const downloads = form.getByRole('switch', { name: 'Allow downloads' });
  if ((await downloads.getAttribute('aria-checked')) !== String(options.downloads ?? false)) await downloads.click();
  await expect(downloads).toHaveAttribute('aria-checked', String(options.downloads ?? false));
  await form.getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByRole('textbox', { name: 'Link to share' }).inputValue();
  expect(url).toMatch(/^https?:\/\/[^/]+\/guest\/[A-Za-z0-9_-]{20,}$/);
  return new URL(url).pathname;
}

/** The rows of "Your links" (active ones first, newest first). */
export function linkRows(page: Page) {
  return page.getByRole('dialog', { name: 'Share this project' }).getByTestId('guest-link');
}
