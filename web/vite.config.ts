import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { firstScreenChunks } from './build/chunking';
import { precompress } from './build/precompress';
import { routePreload } from './build/routePreload';

// The Rust server listens on 8080 during development; the web app is served by it
// in production, so /api and /ws are always same-origin from the browser's view.
const backend = 'http://127.0.0.1:8080';

// The brand's colours (index.css, components/Logo.tsx): amber-500 and the page's slate-50.
const BRAND = '#f59e0b';
const PAGE = '#f8fafc';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // A phone on a weak signal gets an address's first screen in one round (docs/LIMITS.md,
    // "First paint"): its chunks are fetched beside the entry.
    routePreload(),
    // Installable, and useful offline (docs/FEATURES.md, "On the phone"). Our own service
    // worker (src/sw.ts), given the list of built files to precache; the page registers it
    // (src/offline/serviceWorker.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'Sitecast',
        short_name: 'Sitecast',
        description: 'Follow your home being built, photo by photo.',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: BRAND,
        background_color: PAGE,
        categories: ['business', 'productivity'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // The app shell: every chunk (build/firstScreens.mjs), the stylesheet, Inter, the
        // icons and the placeholder a photo that cannot load falls back to. Not the 700 KB
        // DejaVu face, which only drawing markup needs.
        globPatterns: ['**/*.{js,css,html,woff2,svg,png,jpg}'],
        // Not the compressed copies the server sends in their place (precompress below).
        globIgnores: ['**/sw.js', '**/*.br', '**/*.gz'],
      },
      devOptions: { enabled: false },
    }),
    // Last: it compresses what the others wrote, the service worker included.
    precompress(),
  ],
  build: {
    // Read by scripts/js-budget.mjs, which `npm run build` runs next.
    manifest: true,
    rolldownOptions: { output: { codeSplitting: firstScreenChunks(root) } },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/ws': { target: backend, ws: true, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/ws': { target: backend, ws: true, changeOrigin: false },
    },
  },
});
