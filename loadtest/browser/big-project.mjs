// A big project on a phone over a weak signal (docs/FEATURES.md, "Big projects"):
// Debian's Chromium, headless, with Chromium's own network and CPU throttling, opens a
// project `sitecast seed` made, cold (no cache, no service worker), and measures what a
// homeowner waits for. One JSON line per run on stdout.
//
//   node loadtest/browser/big-project.mjs --url http://127.0.0.1:8090 --email homeowner1.TAG@bulk.test \
//     [--password sitecast-bulk] [--down-kbps 1600] [--latency 150] [--cpu 4] [--runs 3]
//
// Measured: first thumbnail (navigation → the first gallery image decoded), bytes
// received before it (every response and WebSocket frame), a year back (right after the
// first thumbnail, the month a year before the newest photo's chosen in Year and Month →
// a tile of that month drawn, `yearBackMs`, and its thumbnail decoded,
// `yearBackThumbMs`), every page read ("All years" → the progress line gone), scrolling
// to the oldest photo (scroll → its tiles drawn), DOM nodes and JS heap at the end, and a
// favourite tap (tap → the heart pressed).
import { launch, parseArgs, phonePage, profileOf } from './phone.mjs';

const args = parseArgs();
const { url, password, downKbps, latency, cpu, runs } = profileOf(args);
const email = args.email;
if (!email) throw new Error('--email of a homeowner `sitecast seed` printed');
// en-US short month names, as the gallery's tile dates write them (SPEC §9).
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const browser = await launch();

async function once() {
  const phone = await phonePage(browser, { url, email, password, downKbps, latency, cpu });
  const { context, page } = phone;

  // The homeowner's first project, from the dashboard's first card.
  const start = Date.now();
  await page.goto(`${url}/dashboard`);
  const card = page.locator('a[href^="/projects/"]').first();
  await card.waitFor({ timeout: 120_000 });
  const href = await card.getAttribute('href');
  phone.resetReceived();
  const opened = Date.now();
  await page.goto(`${url}${href}`);
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid="photo-tile"] img')].some((img) => img.complete && img.naturalWidth > 0),
    null,
    { timeout: 120_000, polling: 50 },
  );
  const firstThumbMs = Date.now() - opened;
  const bytesBeforeThumb = phone.received();

  const section = page.getByRole('region', { name: 'Project Photos' });

  // A year back: the newest photo's month is on the first tile ("Mar 3", or "Mar 3, 2025"
  // for another year); the same month a year before is read directly, not after the
  // pages between (docs/FEATURES.md, "Big projects").
  const newest = (await section.getByTestId('photo-date').first().textContent())?.trim() ?? '';
  const dated = /^([A-Z][a-z]{2}) \d{1,2}(?:, (\d{4}))?$/.exec(newest);
  const monthIndex = dated ? MONTHS.indexOf(dated[1]) : -1;
  if (!dated || monthIndex < 0) throw new Error(`the first tile's date: ${JSON.stringify(newest)}`);
  const backYear = (dated[2] ? Number(dated[2]) : new Date().getFullYear()) - 1;
  // A tile dated in that month ("Mar 3, 2025": another year always shows its year), drawn
  // or with its thumbnail decoded.
  await page.evaluate(() => {
    window.monthTileOf = ({ month, year, decoded }) =>
      [...document.querySelectorAll('[data-testid="photo-tile"]')].some((tile) => {
        const date = tile.querySelector('[data-testid="photo-date"]')?.textContent?.trim() ?? '';
        if (!date.startsWith(`${month} `) || !date.endsWith(`, ${year}`)) return false;
        const img = tile.querySelector('img');
        return !decoded || Boolean(img && img.complete && img.naturalWidth > 0);
      });
  });
  const yearBack = Date.now();
  await section.getByLabel('Year').selectOption(String(backYear));
  await section.getByLabel('Month').selectOption(String(monthIndex));
  // A month the seed's days barely reach may have no photo: then it says so (null).
  const drawn = await page.waitForFunction(
    (want) => window.monthTileOf(want) || (document.body.textContent?.includes('No photos found') ? 'empty' : false),
    { month: dated[1], year: backYear, decoded: false },
    { timeout: 120_000, polling: 50 },
  );
  const empty = (await drawn.jsonValue()) === 'empty';
  const yearBackMs = empty ? null : Date.now() - yearBack;
  if (!empty) await page.waitForFunction((want) => window.monthTileOf(want), { month: dated[1], year: backYear, decoded: true }, { timeout: 120_000, polling: 50 });
  const yearBackThumbMs = empty ? null : Date.now() - yearBack;

  const allYears = Date.now();
  await section.getByLabel('Year').selectOption('all');
  await section.getByLabel('Month').selectOption('all');
  await page.waitForFunction(() => !document.querySelector('[data-testid="photo-paging"]'), null, { timeout: 600_000, polling: 200 });
  const allPagesMs = Date.now() - allYears;

  const scrolled = Date.now();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(
    () => {
      const tiles = [...document.querySelectorAll('[data-testid="photo-tile"]')];
      const last = tiles[tiles.length - 1];
      if (!last) return false;
      const box = last.getBoundingClientRect();
      return box.top < window.innerHeight && box.bottom > 0;
    },
    null,
    { timeout: 60_000, polling: 50 },
  );
  const scrollBackMs = Date.now() - scrolled;

  // The tap timed inside the page, from the click to the heart's new state in the DOM:
  // what the person waits for, without Playwright's own checks before a click (scrolling
  // into view, waiting for the tile to hold still), which take longer than the app on a
  // throttled CPU. The tile stays where it is, as a thumb would find it.
  await section.locator('[data-testid="photo-tile"] button[aria-pressed]').last().waitFor();
  const favouriteMs = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const hearts = () => document.querySelectorAll('[data-testid="photo-tile"] button[aria-pressed]');
        const heart = hearts()[hearts().length - 1];
        const before = heart.getAttribute('aria-pressed');
        const start = performance.now();
        const observer = new MutationObserver(() => {
          const now = hearts();
          if (now[now.length - 1]?.getAttribute('aria-pressed') !== before) {
            observer.disconnect();
            resolve(Math.round(performance.now() - start));
          }
        });
        observer.observe(document.body, { attributes: true, subtree: true, childList: true, attributeFilter: ['aria-pressed'] });
        heart.click();
      }),
  );

  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  const heapMiB = await phone.heapMiB();
  const photos = await section.getByTestId('photo-summary').textContent().catch(() => null);
  await context.close();
  return {
    downKbps,
    latencyMs: latency,
    cpu,
    totalMs: Date.now() - start,
    firstThumbMs,
    bytesBeforeThumb,
    yearBackMs,
    yearBackThumbMs,
    allPagesMs,
    scrollBackMs,
    favouriteMs,
    domNodes,
    heapMiB,
    photos,
  };
}

for (let i = 0; i < runs; i++) console.log(JSON.stringify(await once()));
await browser.close();
