import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { SCREENSHOT_DIR, WIDTHS } from './helpers';

/** What fails a screen: findings a screen-reader or low-vision user cannot get past. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);
/**
 * Rules that fail whatever impact axe gives them: skipped heading levels (axe calls them
 * moderate) leave a screen-reader user guessing where a section sits.
 */
const ALWAYS_FAILING = new Set(['heading-order']);

/** Sonner's toast region. */
const TOASTER = '[data-sonner-toaster]';

/** Lets entrance animations finish, so contrast is measured on the settled colours. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/**
 * Runs axe-core over the page as it stands at phone (390 px) and desktop (1280 px)
 * widths, saves a screenshot of each, and records every serious or critical finding
 * (plus skipped heading levels) as a soft failure naming the screen, width and nodes,
 * so one run lists everything that needs fixing.
 *
 * Toasts are left out: one raised by the step before may be fading in or out while axe
 * reads it, and its contrast half-way through the fade decides nothing, so a page's
 * verdict would depend on timing. `auditToast` checks toasts once they have settled.
 */
export async function audit(page: Page, screen: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const original = page.viewportSize();
  const findings: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await settle(page);
    const results = await new AxeBuilder({ page })
      .exclude(TOASTER)
      // WCAG 2.5.3: a control's name contains its visible text (axe files it as experimental).
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze();
    for (const v of results.violations) {
      if (!FAILING_IMPACTS.has(v.impact ?? '') && !ALWAYS_FAILING.has(v.id)) continue;
      const nodes = v.nodes
        .slice(0, 6)
        .map((n) => `    ${n.target.join(' ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`)
        .join('\n');
      findings.push(`${screen} @ ${width}px — ${v.id} (${v.impact}): ${v.help}\n${nodes}`);
    }
    await page.screenshot({ path: `${SCREENSHOT_DIR}/a11y-${screen}-${width}.png`, fullPage: options.fullPage ?? true, animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
  expect.soft(findings, findings.join('\n\n')).toEqual([]);
}

export type ToastKind = 'success' | 'info' | 'warning' | 'error';

/**
 * Keeps a toast on screen for as long as a test reads it: the moment one of this kind
 * saying `title` appears, presses sonner's hotkey (Alt+T), as a keyboard user reaching
 * the toasts does. That expands them, which stops their dismissal timers.
 */
export async function holdToast(page: Page, kind: ToastKind, title: string): Promise<void> {
  await page.locator(`${TOASTER} [data-sonner-toast][data-type="${kind}"]`).filter({ hasText: title }).waitFor({ timeout: 15_000 });
  await page.keyboard.press('Alt+KeyT');
}

/**
 * Audits the newest toast (sonner's front one), held by `holdToast`, of this kind and
 * saying each of `texts`, once it has settled: mounted, its transitions over and fully
 * opaque. Fails on any colour-contrast finding, and unless axe measured every one of
 * `texts` (the title, and the description where there is one) and found it readable:
 * a toast axe skipped as hidden would otherwise pass unread.
 */
export async function auditToast(page: Page, kind: ToastKind, texts: string[], screen: string): Promise<void> {
  const selector = `${TOASTER} [data-sonner-toast][data-front="true"]`;
  const toast = page.locator(selector);
  await expect(toast).toHaveCount(1);
  await expect(toast).toHaveAttribute('data-type', kind);
  for (const text of texts) await expect(toast).toContainText(text);
  await expect(toast).toHaveAttribute('data-expanded', 'true');
  await expect(toast).toHaveAttribute('data-mounted', 'true');
  await settle(page);
  await expect(toast).toHaveCSS('opacity', '1');
  // What lies behind an opaque toast cannot change its contrast, but axe compares what
  // lies under each line of a wrapped title and gives up where the lines differ (one
  // over the header, one over the page). So the page behind is hidden while axe reads.
  expect(await toast.evaluate((el) => getComputedStyle(el).backgroundColor), 'an opaque toast').toMatch(/^rgb\(/);
  const behind = await page.addStyleTag({ content: `body * { visibility: hidden !important; } ${TOASTER}, ${TOASTER} * { visibility: visible !important; }` });
  await settle(page);
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  await behind.evaluate((el) => (el as Element).remove());
  const contrast = (list: typeof results.violations) =>
    list.filter((r) => r.id === 'color-contrast').flatMap((r) => r.nodes.map((n) => `${n.html}\n  ${n.failureSummary ?? ''}`));
  expect(contrast(results.violations), `${screen}: colour contrast`).toEqual([]);
  expect(contrast(results.incomplete), `${screen}: contrast axe could not decide`).toEqual([]);
  const measured = results.passes.filter((r) => r.id === 'color-contrast').flatMap((r) => r.nodes.map((n) => n.html));
  for (const text of texts) expect(measured.some((html) => html.includes(text)), `${screen}: axe measured "${text}" (it measured ${measured.join(', ')})`).toBe(true);
  await toast.screenshot({ path: `${SCREENSHOT_DIR}/a11y-${screen}.png` });
}
