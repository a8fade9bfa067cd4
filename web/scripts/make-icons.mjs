// Draws the installable app's icons from the logo in public/favicon.svg:
//   node scripts/make-icons.mjs        (from web/; uses Debian's Chromium, or SITECAST_CHROMIUM)
// The PNGs are committed; run this again only when the logo changes.
import { readFile, writeFile } from 'node:fs/promises';
import { chromium } from '@playwright/test';

const favicon = await readFile(new URL('../public/favicon.svg', import.meta.url), 'utf8');
const brand = /<rect[^>]*fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1];
const house = /<path d="([^"]+)" fill="(#[0-9a-f]{6})"/i.exec(favicon);
if (!brand || !house) throw new Error('public/favicon.svg no longer has the rect and path this script reads');
const [, path, ink] = house;

/** The house centred in a 32-unit square, scaled about its middle. */
const houseAt = (scale, fill) => `<g transform="translate(16 15.5) scale(${scale}) translate(-16 -15.5)"><path d="${path}" fill="${fill}"/></g>`;

const icons = [
  // "any": the logo as the favicon draws it, corners rounded and clear.
  { file: 'icon-192.png', size: 192, svg: `<rect width="32" height="32" rx="7" fill="${brand}"/>${houseAt(1, ink)}` },
  { file: 'icon-512.png', size: 512, svg: `<rect width="32" height="32" rx="7" fill="${brand}"/>${houseAt(1, ink)}` },
  // "maskable": full bleed, the house well inside the 80% circle any mask keeps.
  { file: 'icon-maskable-512.png', size: 512, svg: `<rect width="32" height="32" fill="${brand}"/>${houseAt(0.8, ink)}` },
  // iOS rounds the corners itself and shows transparency as black.
  { file: 'apple-touch-icon.png', size: 180, svg: `<rect width="32" height="32" fill="${brand}"/>${houseAt(0.9, ink)}` },
  // Android's status-bar badge: a white silhouette; only its alpha is used.
  { file: 'badge-96.png', size: 96, svg: houseAt(1.3, '#ffffff') },
];

const browser = await chromium.launch({ executablePath: process.env.SITECAST_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
for (const { file, size, svg } of icons) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}" style="display:block">${svg}</svg></body></html>`,
  );
  await writeFile(new URL(`../public/icons/${file}`, import.meta.url), await page.screenshot({ omitBackground: true }));
  console.log(`public/icons/${file}`);
}
await browser.close();
