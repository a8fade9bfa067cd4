import { expect, type Locator, type Page } from '@playwright/test';

export interface LinkOptions {
  photos?: 'All photos' | 'Favorites only';
  expires?: '1 day' | '7 days' | '30 days' | 'Never';
  downloads?: boolean;
}

/**
 * On an open project page: Share → create a guest link with these options, and return
 * its path (`/guest/{token}`) as the dialog shows it, once, and its row in "Your
 * links" (other tests share links to the same project meanwhile). The dialog stays open.
 */
export async function createGuestLink(page: Page, options: LinkOptions = {}): Promise<{ path: string; row: Locator }> {
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
  const id = await dialog.getByTestId('guest-link-created').getAttribute('data-link-id');
  expect(id).toBeTruthy();
  return { path: new URL(url).pathname, row: linkRow(page, id ?? '') };
}

/** One link's row in "Your links" (found again after the dialog reopens). */
export function linkRow(page: Page, id: string): Locator {
  return page.getByRole('dialog', { name: 'Share this project' }).locator(`[data-testid="guest-link"][data-link-id="${id}"]`);
}
