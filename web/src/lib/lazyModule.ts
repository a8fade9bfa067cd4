import { useEffect, useRef, useSyncExternalStore } from 'react';
import { toast } from './toast';

// Code a screen's first view does not need (a library behind menus and dialogs, the
// toasts, a dialog, the uploader) comes when first used, or once the page is idle, so
// the scripts a screen waits for are fewer (docs/LIMITS.md, "First paint"). Components
// built on this are in components/lazyPart.

/** Says that `what` could not be loaded (offline before the app was installed, say). */
export function toastLoadFailed(what: string): void {
  toast.error(`${what} could not be loaded`, { description: 'Check your connection and try again.' });
}

/**
 * Runs `task` once the page has loaded (its first screen's scripts are all in: a preload
 * must not take their bandwidth) and is idle, or `timeout` ms after loading at the
 * latest; returns how to cancel it.
 */
export function whenIdle(task: () => void, timeout = 3000): () => void {
  let cancel = () => undefined as void;
  const idle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(task, { timeout });
      cancel = () => window.cancelIdleCallback(id);
    } else {
      const id = window.setTimeout(task, 1000);
      cancel = () => window.clearTimeout(id);
    }
  };
  if (document.readyState === 'complete') idle();
  else {
    window.addEventListener('load', idle, { once: true });
    cancel = () => window.removeEventListener('load', idle);
  }
  return () => cancel();
}

/** A module fetched when first wanted, once; asked again after a failure, fetched again. */
export interface LazyModule<M> {
  /** The module once it has arrived, else null. */
  current: () => M | null;
  load: () => Promise<M>;
  /** `load`, for a page that is idle: a failure is left for the real use to tell. */
  preload: () => Promise<void>;
  subscribe: (listener: () => void) => () => void;
}

export function lazyModule<M>(load: () => Promise<M>): LazyModule<M> {
  let loaded: M | null = null;
  let loading: Promise<M> | null = null;
  const listeners = new Set<() => void>();
  const fetch = () => {
    loading ??= load().then(
      (module) => {
        loaded = module;
        for (const listener of listeners) listener();
        return module;
      },
      (error: unknown) => {
        // Asked again, it is fetched again (the network may be back).
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  return {
    current: () => loaded,
    load: fetch,
    preload: () =>
      fetch().then(
        () => undefined,
        () => undefined,
      ),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * `module` once it has arrived, else null (and the caller draws without it). It is
 * fetched when the page is idle, or at once while `wanted` (its trigger was pressed; a
 * count asks again each time it grows); when that fails, a toast says that `what` could
 * not be loaded (unless null: the toasts themselves) and `onFailed` gives up what was asked.
 */
export function useLazyModule<M>(module: LazyModule<M>, now: { what: string | null; wanted: boolean | number; onFailed?: () => void }): M | null {
  const current = useSyncExternalStore(module.subscribe, module.current, module.current);
  const { what, wanted } = now;
  const failed = useRef(now.onFailed);
  failed.current = now.onFailed;
  useEffect(() => {
    if (current) return undefined;
    if (!wanted) return whenIdle(() => void module.preload());
    let live = true;
    module.load().catch(() => {
      if (!live) return;
      if (what !== null) toastLoadFailed(what);
      failed.current?.();
    });
    return () => {
      live = false;
    };
  }, [current, wanted, module, what]);
  return current;
}
