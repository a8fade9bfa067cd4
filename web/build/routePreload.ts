import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { routes } from './firstScreens.mjs';

type Chunk = Rolldown.OutputChunk;

/** Where the build says which chunks hold each route's modules, for scripts/js-budget.mjs. */
export const FIRST_SCREENS_FILE = '.vite/first-screens.json';

/** A react-router path as a regular expression over `location.pathname`. */
export function pathPattern(routePath: string): string {
  const segments = routePath
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return segments.length ? `^/${segments.join('/')}/?$` : '^/$';
}

function chunksOf(bundle: Rolldown.OutputBundle): Chunk[] {
  return Object.values(bundle).filter((output): output is Chunk => output.type === 'chunk');
}

/** `chunk` and every chunk it imports statically, each once. */
function staticClosure(chunk: Chunk, byFile: Map<string, Chunk>, into = new Set<string>()): Set<string> {
  if (into.has(chunk.fileName)) return into;
  into.add(chunk.fileName);
  for (const file of chunk.imports) {
    const imported = byFile.get(file);
    if (imported) staticClosure(imported, byFile, into);
  }
  return into;
}

/** Each route of build/firstScreens.mjs with the chunks that hold its modules. */
export function routeChunks(bundle: Rolldown.OutputBundle, root: string) {
  const chunks = chunksOf(bundle);
  return routes.map((route) => ({
    ...route,
    chunks: [
      ...new Set(
        route.modules.map((module) => {
          const id = path.resolve(root, module);
          const chunk = chunks.find((c) => c.moduleIds.includes(id));
          // The table names a module the build does not have: renamed or moved.
          if (!chunk) throw new Error(`route preload: ${module} (route "${route.name}") is in no chunk; update build/firstScreens.mjs`);
          return chunk.fileName;
        }),
      ),
    ],
  }));
}

/**
 * The script that starts fetching the address's first screen, for index.html. A
 * route's modules are imported lazily, so without it they are asked for only once the
 * entry has arrived and run (and for the signed-in app once the session check has
 * answered and the shell has drawn): on a 400 ms link one round trip, or three, after
 * the entry. This runs while the page is still being parsed, so they come in the
 * entry's round.
 */
export function preloadScript(bundle: Rolldown.OutputBundle, root: string, base: string): string {
  const chunks = chunksOf(bundle);
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('route preload: no entry chunk');
  // index.html already has the entry and its imports (<script> and <link rel="modulepreload">).
  const loaded = staticClosure(entry, byFile);
  const files: string[] = [];
  const table: [string, number[]][] = [];
  for (const route of routeChunks(bundle, root)) {
    const needed = new Set<string>();
    for (const file of route.chunks) staticClosure(byFile.get(file)!, byFile, needed);
    const indexes = [...needed]
      .filter((file) => !loaded.has(file))
      .map((file) => (files.includes(file) ? files.indexOf(file) : files.push(file) - 1));
    for (const routePath of route.paths) table.push([pathPattern(routePath), indexes]);
  }
  // Module preloads as Vite writes them, so the lazy import finds them fetched.
  return `(function (routes, files) {
      for (var i = 0; i < routes.length; i++) {
        if (!new RegExp(routes[i][0]).test(location.pathname)) continue;
        routes[i][1].forEach(function (f) {
          var link = document.createElement('link');
          link.rel = 'modulepreload';
          link.crossOrigin = '';
          link.href = files[f];
          document.head.appendChild(link);
        });
        return;
      }
    })(${JSON.stringify(table)}, ${JSON.stringify(files.map((f) => base + f))});`;
}

/**
 * Adds preloadScript to index.html, after the entry's own tags but before the
 * stylesheet (a script after a stylesheet waits until the stylesheet has loaded), and
 * writes FIRST_SCREENS_FILE.
 */
export function routePreload(): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'sitecast:route-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    generateBundle(_options, bundle) {
      if (!chunksOf(bundle).some((c) => c.isEntry && c.facadeModuleId?.endsWith('index.html'))) return;
      const table = routeChunks(bundle, root).map(({ name, paths, chunks }) => ({ name, paths, chunks }));
      this.emitFile({ type: 'asset', fileName: FIRST_SCREENS_FILE, source: `${JSON.stringify({ routes: table }, null, 2)}\n` });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return;
        const script = `<script>\n    ${preloadScript(ctx.bundle, root, base)}\n    </script>\n    `;
        const at = html.search(/<link rel="stylesheet"|<\/head>/);
        return html.slice(0, at) + script + html.slice(at);
      },
    },
  };
}
