// The JavaScript budget of the first paint (docs/LIMITS.md, "First paint"), checked after
// every production build (`npm run build`). For the entry and for each first screen
// (build/firstScreens.mjs), it weighs the scripts that must arrive before the screen can
// draw: the entry and its static imports, and the chunks holding the screen's modules
// and their static imports, brotli-compressed as the server sends them. It also checks
// that all of them are asked for in the first round: by index.html's own tags or by
// its route preload script (build/routePreload.ts), run here for a sample address.
// Exits non-zero, saying what is over, when a budget is broken.
//
//   node scripts/js-budget.mjs [dist]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { brotliCompressSync, constants } from 'node:zlib';

// Budgets in KiB of brotli (quality 11) and in files, 12–13 % over what the build
// needed when they were set (entry 87.1 KiB in 3 files, login 111.8 KiB in 6, project
// 153.7 KiB in 9), so ordinary growth fits and a new library on a first screen does
// not. At 400 kbit/s a KiB takes 20 ms: on the phone profile (400 kbit/s, 400 ms, CPU 4x
// slower) the login form showed at 4.3 s and a project's first content (its loading
// state) at 5.3 s when these were set. What a first view does not show (the photo
// viewer and markup editor, the uploader and tus, reports, sharing, the milestone
// editor, the dialogs' and menus' library, toasts, the windowed gallery) loads when
// first used or once the page is idle (docs/LIMITS.md, "First paint").
const BUDGETS = {
  entry: { kib: 98, files: 4 },
  login: { kib: 126, files: 7 },
  project: { kib: 173, files: 10 },
};

const dist = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url)));
const read = (/** @type {string} */ file) => readFileSync(path.join(dist, file));
for (const file of ['.vite/manifest.json', '.vite/first-screens.json', 'index.html']) {
  if (!existsSync(path.join(dist, file))) {
    console.error(`js-budget: ${path.join(dist, file)} is missing; run \`vite build\` first (build.manifest on).`);
    process.exit(1);
  }
}
/** @type {Record<string, { file: string, imports?: string[], isEntry?: boolean }>} */
const manifest = JSON.parse(read('.vite/manifest.json').toString());
/** @type {{ routes: { name: string, paths: string[], chunks: string[] }[] }} */
const firstScreens = JSON.parse(read('.vite/first-screens.json').toString());
const html = read('index.html').toString();

const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
/**
 * The chunk `file` and everything it imports statically, as files.
 * @param {string} file
 * @param {Set<string>} into
 */
function closure(file, into = new Set()) {
  if (into.has(file)) return into;
  into.add(file);
  for (const key of byFile.get(file)?.imports ?? []) closure(manifest[key].file, into);
  return into;
}

/** Bytes as the browser receives them: the build's .br copy, or brotli 11 of the file. @param {string} file */
function brotliBytes(file) {
  if (existsSync(path.join(dist, `${file}.br`))) return read(`${file}.br`).length;
  return brotliCompressSync(read(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/** What index.html asks for at `pathname` before any module runs: its tags and its preload script's links. @param {string} pathname */
function firstRound(pathname) {
  /** @type {Set<string>} */
  const asked = new Set();
  const strip = (/** @type {string} */ href) => href.replace(/^\//, '');
  for (const [, src] of html.matchAll(/<script type="module"[^>]*\bsrc="([^"]+)"/g)) asked.add(strip(src));
  for (const [, href] of html.matchAll(/<link rel="modulepreload"[^>]*\bhref="([^"]+)"/g)) asked.add(strip(href));
  const document = {
    createElement: () => ({}),
    head: { appendChild: (/** @type {{ rel?: string, href: string }} */ link) => link.rel === 'modulepreload' && asked.add(strip(link.href)) },
    documentElement: { classList: { add() {} } },
  };
  // No `fetch` on this `window`: index.html's early session check is skipped here.
  const context = vm.createContext({ document, location: { pathname }, window: {}, localStorage: { getItem: () => null }, matchMedia: () => ({ matches: false }) });
  for (const [, code] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) vm.runInContext(code, context);
  return asked;
}

const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
if (!entry) {
  console.error('js-budget: the manifest has no entry');
  process.exit(1);
}
const rows = [{ name: 'entry', path: '(any)', needed: closure(entry.file), asked: firstRound('/') }];
for (const route of firstScreens.routes) {
  const needed = new Set(closure(entry.file));
  for (const chunk of route.chunks) closure(chunk, needed);
  const sample = route.paths[0].replace(/:[^/]+/g, 'sample');
  rows.push({ name: route.name, path: sample, needed, asked: firstRound(sample) });
}

const failures = [];
const kib = (/** @type {number} */ bytes) => (bytes / 1024).toFixed(1);
const table = [['first screen', 'address', 'KiB br', 'budget', 'files', 'budget', 'first round']];
for (const row of rows) {
  const js = [...row.needed].filter((file) => file.endsWith('.js'));
  const bytes = js.reduce((sum, file) => sum + brotliBytes(file), 0);
  const late = js.filter((file) => !row.asked.has(file));
  const budget = BUDGETS[/** @type {keyof typeof BUDGETS} */ (row.name)];
  table.push([row.name, row.path, kib(bytes), budget ? String(budget.kib) : '-', String(js.length), budget ? String(budget.files) : '-', late.length ? `no (${late.length} later)` : 'yes']);
  if (late.length) failures.push(`${row.name} (${row.path}): ${late.join(', ')} ${late.length === 1 ? 'is' : 'are'} asked for only after a script has run; build/routePreload.ts should preload ${late.length === 1 ? 'it' : 'them'}.`);
  if (budget && bytes > budget.kib * 1024) failures.push(`${row.name}: ${kib(bytes)} KiB of brotli-compressed JS before first content, over its budget of ${budget.kib} KiB.`);
  if (budget && js.length > budget.files) failures.push(`${row.name}: ${js.length} script files before first content, over its budget of ${budget.files}.`);
}
for (const name of Object.keys(BUDGETS)) if (!rows.some((row) => row.name === name)) failures.push(`${name}: budgeted here but not a route of build/firstScreens.mjs.`);

const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
console.log('First paint JS (scripts/js-budget.mjs, docs/LIMITS.md "First paint"):');
for (const row of table) console.log(`  ${row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`);
if (failures.length) {
  console.error(`\nJS budget broken:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  console.error('Load the new code lazily, or if the first screen needs it, raise the budget here and in docs/LIMITS.md and say why.');
  process.exit(1);
}
