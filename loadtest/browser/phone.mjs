// What the browser benchmarks share: their `--key value` arguments, Debian's Chromium
// headless, a session from the HTTP API (so a measured load starts at its own
// navigation), and a phone's page — 390 px wide, touch, no cache and no service worker,
// behind Chromium's own network and CPU throttling — that counts the bytes it receives.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'web/package.json'));
const { chromium } = require('playwright-core');

/** `--url http://… --runs 3` → { url: 'http://…', runs: '3' }; a bare flag is 'true'. */
export function parseArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv
      .join(' ')
      .split('--')
      .filter(Boolean)
      .map((kv) => kv.trim().split(/\s+/))
      .map(([k, v]) => [k, v ?? 'true']),
  );
}

/** The phone profile's settings from the arguments, with the defaults. */
export function profileOf(args) {
  return {
    url: args.url ?? 'http://127.0.0.1:8090',
    password: args.password ?? 'sitecast-bulk',
    downKbps: Number(args['down-kbps'] ?? 1600),
    latency: Number(args.latency ?? 150),
    cpu: Number(args.cpu ?? 4),
    runs: Number(args.runs ?? 1),
  };
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

async function signedIn(browser, url, email, password) {
  const api = await browser.newContext({ baseURL: url });
  const response = await api.request.post('/api/auth/login', { data: { email, password } });
  if (!response.ok()) throw new Error(`login: ${response.status()}`);
  const state = await api.storageState();
  await api.close();
  return state;
}

/**
 * A signed-in phone page behind the profile's throttling. `received()` is the bytes
 * received so far (responses and WebSocket frames), `resetReceived()` starts the count
 * again, and `largestFrame()` the biggest WebSocket frame seen.
 */
export async function phonePage(browser, { url, email, password, downKbps, latency, cpu }) {
  const context = await browser.newContext({
    storageState: await signedIn(browser, url, email, password),
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency,
    downloadThroughput: (downKbps * 1000) / 8,
    uploadThroughput: (downKbps * 1000) / 8 / 2,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  let received = 0;
  let largest = 0;
  cdp.on('Network.loadingFinished', (e) => (received += e.encodedDataLength));
  cdp.on('Network.webSocketFrameReceived', (e) => {
    // Binary frames come base64-encoded.
    const bytes = Math.round(e.response.payloadData.length * 0.75);
    received += bytes;
    largest = Math.max(largest, bytes);
  });
  return {
    context,
    page,
    cdp,
    received: () => Math.round(received),
    resetReceived: () => (received = 0),
    largestFrame: () => largest,
    heapMiB: async () => Math.round(((await cdp.send('Runtime.getHeapUsage')).usedSize / 1048576) * 10) / 10,
  };
}
