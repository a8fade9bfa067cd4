import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const SCREENSHOT_DIR = 'e2e-output/screenshots';
export const WIDTHS = [390, 1280] as const;

/**
 * Saves a full-page screenshot of the current page at phone and desktop widths.
 * Toasts are hidden unless asked for, so they don't cover the page under review.
 */
export async function shoot(page: Page, name: string, options: { toasts?: boolean } = {}): Promise<void> {
  const original = page.viewportSize();
  const style = options.toasts
    ? null
    : await page.addStyleTag({ content: '[data-sonner-toaster] { visibility: hidden !important; }' });
  await page.mouse.move(0, 0);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    // Let layout settle (fonts, responsive images) before capturing.
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: true, animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
  await style?.evaluate((el) => (el as Element).remove());
}

export type Role = 'admin' | 'builder' | 'homeowner';

export interface DemoConfig {
  password: string;
  accounts: { role: Role; email: string }[];
}

export async function demoConfig(request: APIRequestContext): Promise<DemoConfig> {
  const response = await request.get('/api/config');
  expect(response.ok()).toBeTruthy();
  const body = (await response.json()) as { demo: DemoConfig | null };
  if (!body.demo) throw new Error('The e2e server must run with demo accounts');
  return body.demo;
}

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', builder: 'Builder', homeowner: 'Homeowner' };

/** The toast region is rendered by sonner; match on text inside it. */
export function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text });
}
