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
 */
export async function audit(page: Page, screen: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const original = page.viewportSize();
  const findings: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await settle(page);
    const results = await new AxeBuilder({ page })
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
