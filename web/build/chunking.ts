import path from 'node:path';
import type { Rolldown } from 'vite';
import { chunkGroups } from './firstScreens.mjs';

type ModuleInfo = { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[]; code: string | null };
type GetModuleInfo = (id: string) => ModuleInfo | null;

// lucide-react's index re-exports every icon, so a module importing one icon "imports"
// two thousand, and every screen would seem to reach every icon. Its named imports say
// which icons it uses; the index's `export { default as X } from './icons/x.mjs'` says
// where they are.
const LUCIDE_INDEX = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;
const LUCIDE_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g;
const REEXPORT = /export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;

/** What lucide-react's index exports, by name, and from which file. */
function lucideIndex(indexId: string, getModuleInfo: GetModuleInfo): Map<string, string> {
  const icons = new Map<string, string>();
  for (const [, names, from] of (getModuleInfo(indexId)?.code ?? '').matchAll(REEXPORT)) {
    const file = path.resolve(path.dirname(indexId), from);
    for (const name of names.split(',')) icons.set(name.trim().split(/\s+as\s+/).pop()!, file);
  }
  return icons;
}

/**
 * The modules `id` imports statically, lucide-react's index replaced by the icons it
 * names. Where its imports cannot be read, the index and so every icon stays: that only
 * places icons less well.
 */
function importsOf(id: string, getModuleInfo: GetModuleInfo, icons: (indexId: string) => Map<string, string>): string[] {
  const info = getModuleInfo(id);
  const imported = [...(info?.importedIds ?? [])];
  const index = imported.findIndex((m) => LUCIDE_INDEX.test(m));
  if (index < 0) return imported;
  const named = [...(info?.code ?? '').matchAll(LUCIDE_IMPORT)].flatMap(([, names]) =>
    names.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean),
  );
  const files = named.map((n) => icons(imported[index]).get(n));
  if (!named.length || files.some((f) => !f || !getModuleInfo(f))) return imported;
  imported.splice(index, 1, ...(files as string[]));
  return imported;
}

/** One of lucide-react's icons: a few hundred bytes, importing only what the entry has. */
const LUCIDE_ICON = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;
/** Code (as transformed, before minifying) under which a module that imports nothing is "small". */
const SMALL_LEAF = 2048;

const treeOf = (group: string): string => chunkGroups[group]?.within ?? group;

/**
 * The chunk a module that `groups` reach goes into: its group's chunk when one group
 * reaches it, its tree's root chunk when several of one tree do, and a chunk of the
 * trees' code in common otherwise ("shared-app-public": what the login page and the
 * signed-in app both use, such as the form library). A module's imports are reached by
 * at least the same groups, so they land in the same chunk, in its tree's root or in a
 * chunk shared by more trees: chunks only import down that order, never in a circle.
 *
 * `later`: the trees whose first screens load the module only later, in a part they
 * import when it is used (a dialog, the photo viewer). Such a module is not put with the
 * code only `groups` need, or opening the viewer on a project would fetch the guest
 * page's chunk: it gets a chunk of its own beside it ("guest-app-later"), which the
 * trees of `groups` fetch with their first screen and the others when the part loads.
 * (firstScreenChunks gives a small module that imports nothing, such as an icon, to the
 * later trees' first screens instead: its few hundred bytes cost them less than another
 * file costs `groups`.)
 */
export function chunkNameFor(groups: ReadonlySet<string>, later: ReadonlySet<string> = new Set()): string {
  const trees = [...new Set([...groups].map(treeOf))].sort();
  const base = trees.length > 1 ? `shared-${trees.join('-')}` : groups.size === 1 ? [...groups][0] : trees[0];
  const others = [...later].filter((tree) => !trees.includes(tree)).sort();
  return others.length ? `${base}-${others.join('-')}-later` : base;
}

/**
 * Rolldown's code splitting for the first screens (build/firstScreens.mjs). Left to
 * itself it makes a chunk for each set of lazy screens sharing a module: about a
 * hundred files, many under 1 KB (one per icon), a screen needs dozens of them, and on
 * a weak signal their round trips cost more than their bytes. Instead:
 *   - React, React DOM and the router (`react`) are a chunk of their own: they change
 *     less often than our code, so a new version of the app leaves them cached;
 *   - everything else the entry imports is in the entry;
 *   - what the first screens reach goes into a chunk per group of screens
 *     (chunkNameFor), whatever imports it, apart from what another tree's screens
 *     load only later (a `-later` chunk: chunkNameFor);
 *   - what only rarely used screens, or the parts a first screen loads when used (the
 *     photo viewer, the uploader, dialogs), reach is left to rolldown, lazy as before.
 */
export function firstScreenChunks(root: string): Rolldown.CodeSplittingOptions {
  // Worked out once per chunking pass (one context each), not once per config: a watch
  // build's next pass sees the module graph anew.
  const placements = new WeakMap<object, Map<string, string>>();
  const place = (getModuleInfo: GetModuleInfo): Map<string, string> => {
    let icons: Map<string, string> | undefined;
    const iconFiles = (indexId: string) => (icons ??= lucideIndex(indexId, getModuleInfo));
    const reached = new Map<string, Set<string>>();
    for (const [group, { modules }] of Object.entries(chunkGroups)) {
      const stack = modules.map((m) => path.resolve(root, m));
      while (stack.length) {
        const id = stack.pop()!;
        if (!reached.has(id)) reached.set(id, new Set());
        const groups = reached.get(id)!;
        if (groups.has(group)) continue;
        groups.add(group);
        stack.push(...importsOf(id, getModuleInfo, iconFiles));
      }
    }
    // What each tree's first screens import lazily (the parts they load when used), and
    // all that imports: the modules among them its first screens do not already have.
    const later = new Map<string, Set<string>>();
    for (const tree of new Set(Object.keys(chunkGroups).map(treeOf))) {
      const first = [...reached].filter(([, groups]) => [...groups].some((g) => treeOf(g) === tree)).map(([id]) => id);
      const seen = new Set(first);
      const stack = first.flatMap((id) => getModuleInfo(id)?.dynamicallyImportedIds ?? []);
      while (stack.length) {
        const id = stack.pop()!;
        if (seen.has(id)) continue;
        seen.add(id);
        if (!later.has(id)) later.set(id, new Set());
        later.get(id)!.add(tree);
        stack.push(...importsOf(id, getModuleInfo, iconFiles), ...(getModuleInfo(id)?.dynamicallyImportedIds ?? []));
      }
    }
    return new Map(
      [...reached].map(([id, groups]) => {
        const laterTrees = later.get(id);
        const info = getModuleInfo(id);
        // Importing nothing (or only the entry's icon factory), it cannot make chunks import in a circle.
        const small = LUCIDE_ICON.test(id) || (info?.importedIds.length === 0 && (info.code?.length ?? Infinity) < SMALL_LEAF);
        if (!laterTrees || !small) return [id, chunkNameFor(groups, laterTrees)];
        return [id, chunkNameFor(new Set([...groups, ...laterTrees]))];
      }),
    );
  };
  return {
    groups: [
      { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 3 },
      // What the entry imports, with the entry: rolldown's `$initial` follows what is
      // used, not lucide-react's index. Higher priority, so the groups below skip it.
      { name: 'index', tags: ['$initial'], priority: 2 },
      {
        name: (id, ctx) => {
          if (!placements.has(ctx)) placements.set(ctx, place((m) => ctx.getModuleInfo(m)));
          return placements.get(ctx)!.get(id) ?? null;
        },
        debugName: 'first screens',
        priority: 1,
        // Each module is placed by what reaches it (above), so a chunk must not take
        // its imports along: they belong to the entry or to a chunk further down.
        includeDependenciesRecursively: false,
      },
    ],
  };
}
