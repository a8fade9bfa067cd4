import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { capitalise } from '../src/lib/names';

export const SCREENSHOT_DIR = 'e2e-output/screenshots';
export const WIDTHS = [390, 1280] as const;

/**
 * Saves a full-page screenshot of the current page at phone and desktop widths.
 * Toasts are hidden unless asked for, so they don't cover the page under review.
 * `viewport` shoots just the screen, for full-screen overlays such as the lightbox.
 */
export async function shoot(page: Page, name: string, options: { toasts?: boolean; viewport?: boolean } = {}): Promise<void> {
  const original = page.viewportSize();
  const style = options.toasts
    ? null
    : await page.addStyleTag({ content: '[data-sonner-toaster] { visibility: hidden !important; }' });
  await page.mouse.move(0, 0);
  // From the top, so the sticky header is where a visitor sees it.
  if (!options.viewport) await page.evaluate(() => window.scrollTo(0, 0));
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    // Let layout settle (fonts, responsive images) before capturing.
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: !options.viewport, animations: 'disabled' });
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

/** Signs in with a demo-account button and waits for the dashboard behind its skeleton. */
export async function loginAs(page: Page, role: Role): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: ROLE_LABELS[role], exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 10_000 });
}

/** The server's mail outbox folder (.eml files), when the e2e script exposes it. */
export const OUTBOX_DIR = process.env.SITECAST_E2E_OUTBOX;

/** The .eml in an outbox folder to `to` with this subject, dated no earlier than a minute before `after`; waits up to 30 s. */
export async function findMail(dir: string, to: string, subject: string, after: number): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files.filter((f) => f.endsWith('.eml'))) {
      const text = await readFile(path.join(dir, file), 'utf8');
      const date = Date.parse(/^Date: (.+)$/m.exec(text)?.[1] ?? '');
      if (text.includes(`Subject: ${subject}`) && new RegExp(`^To: .*${to.replace(/[.]/g, '\\.')}`, 'm').test(text) && !(date < after - 60_000)) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No mail "${subject}" to ${to} in ${dir}`);
}

/** The path of the invitation link mailed to `email` (quoted-printable undone), from an outbox folder. */
export async function invitationPath(dir: string, email: string, after = 0): Promise<string> {
  const mail = (await findMail(dir, email, "You're invited to Sitecast", after)).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const link = /\/reset-password\?token=[A-Za-z0-9_%.-]+/.exec(mail)?.[0];
  if (!link) throw new Error(`The invitation to ${email} has no /reset-password link`);
  return link;
}


/** Opens a project from a card (the grid links to /projects/{id}) and returns its id. */
export async function openProjectCard(page: Page, title: string): Promise<string> {
  // A projects page lists every project its viewer may see, 60 at a time (an admin on
  // the shared e2e server sees every test's): search for the title where it can.
  const search = page.getByRole('searchbox', { name: 'Search projects' });
  const card = page.getByTestId('project-card').filter({ hasText: title }).first();
  await expect(search.or(card).first()).toBeVisible();
  if (await search.isVisible()) await search.fill(title);
  await card.click();
  await expect(page).toHaveURL(/\/projects\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  return new URL(page.url()).pathname.split('/').pop() ?? '';
}

/** A fresh project of the demo homeowner and builder, made by the admin, so a test's
 * uploads, edits and comments touch nothing other tests read. Answers its id. */
export async function createProject(browser: Browser, title: string, address: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, 'admin');
  await page.goto('/projects');
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Create New Project' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Address').fill(address);
  // The picker lists the server's first page of homeowners: a search brings Jamie's up.
  await form.getByLabel('Search by name or email').fill('Jamie Carter');
  await form.getByLabel('Homeowner').selectOption({ label: 'Jamie Carter' });
  await form.getByLabel('Builder').selectOption({ label: 'Summit Homes' });
  await form.getByRole('button', { name: 'Create Project' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  await context.close();
  return id;
}

/**
 * A world person's name as the app's pages show it. Admins and homeowners are named by
 * first and last name, which the app shows with each word capitalised, so a world tag
 * that starts with a letter shows capitalised there (the server's own texts, such as
 * notifications, keep the name as stored: use `user.name` for those).
 */
export function shownName(user: { name: string; role: string }): string {
  return user.role === 'builder' ? user.name : capitalise(user.name);
}
