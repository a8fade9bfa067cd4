// An admin of a big installation on a phone over a weak signal (docs/FEATURES.md, "Big
// projects"): Debian's Chromium, headless, throttled like a phone, opens the dashboard
// of an admin `sitecast seed` made (say 1,000 projects and 10,000 homeowners), cold,
// and finds a homeowner by name. One JSON line per run on stdout.
//
//   node loadtest/browser/admin-people.mjs --url http://127.0.0.1:8090 --tag TAG \
//     [--find 7342] [--password sitecast-bulk] [--down-kbps 1600] [--latency 150] [--cpu 4] [--runs 3]
//
// `--tag` is the one `sitecast seed` printed (its accounts are admin.TAG@bulk.test and
// homeowner<n>.TAG@bulk.test, named "<first> Homeowner<n> TAG").
//
// Measured: the dashboard's first content (navigation → its heading, `welcomeMs`, and
// the bytes received before it), the people table (navigation → the first row of the homeowners' table drawn,
// `dashboardMs`, and the bytes received before it), finding a person (typing
// "Homeowner<n>" in the table's search → that homeowner's row drawn, `findMs`; the
// whole wait from navigation is `toPersonMs`), every project read in the background
// (navigation → "Loading projects…" gone, `allProjectsMs`), the largest WebSocket frame,
// and DOM nodes and JS heap at the end.
import { launch, parseArgs, phonePage, profileOf } from './phone.mjs';

const args = parseArgs();
const { url, password, downKbps, latency, cpu, runs } = profileOf(args);
const tag = args.tag;
if (!tag) throw new Error('--tag that `sitecast seed` printed');
const find = Number(args.find ?? 7342);
const email = `admin.${tag}@bulk.test`;
const wanted = `homeowner${find}.${tag}@bulk.test`;

const browser = await launch();

async function once() {
  const phone = await phonePage(browser, { url, email, password, downKbps, latency, cpu });
  const { context, page } = phone;
  const people = page.getByRole('region', { name: 'People' }).or(page.locator('section[aria-labelledby="people-heading"]'));

  const start = Date.now();
  await page.goto(`${url}/dashboard`);
  // The dashboard's own content: the welcome heading.
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 120_000 });
  const welcomeMs = Date.now() - start;
  const bytesBeforeWelcome = phone.received();
  // A homeowner's email in the People section: the table's first page is drawn.
  await people.getByText(/^homeowner\d+\..+@bulk\.test$/).first().waitFor({ timeout: 120_000 });
  const dashboardMs = Date.now() - start;
  const bytesBeforeTable = phone.received();

  const typed = Date.now();
  await people.getByRole('searchbox', { name: /Search homeowners/ }).or(people.getByLabel(/Search homeowners/)).first().fill(`Homeowner${find}`);
  await people.getByText(wanted, { exact: true }).first().waitFor({ timeout: 120_000 });
  const findMs = Date.now() - typed;
  const toPersonMs = Date.now() - start;

  // The projects the hello did not carry, read in the background: the summary's
  // per-status counts show once they are all held.
  await page.waitForFunction(() => document.querySelector('section[aria-label="Project summary"]')?.getAttribute('aria-busy') !== 'true', null, {
    timeout: 600_000,
    polling: 200,
  });
  const allProjectsMs = Date.now() - start;

  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  const heapMiB = await phone.heapMiB();
  const largestFrame = phone.largestFrame();
  await context.close();
  return { downKbps, latencyMs: latency, cpu, welcomeMs, bytesBeforeWelcome, dashboardMs, bytesBeforeTable, findMs, toPersonMs, allProjectsMs, largestFrame, domNodes, heapMiB };
}

for (let i = 0; i < runs; i++) console.log(JSON.stringify(await once()));
await browser.close();
