import {
  Component,
  Suspense,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type ComponentType,
  type ReactNode,
} from 'react';
import { lazyModule, toastLoadFailed, whenIdle } from '../lib/lazyModule';
import { Button } from './ui/Button';
import { Spinner } from './ui/Spinner';

// The parts of a screen its first view does not need, loaded when first used or once the
// page is idle (lib/lazyModule; docs/LIMITS.md, "First paint").

/**
 * A trigger drawn before its menu's or dialog's library has arrived, then replaced by
 * the library's own: when the first had focus, the second takes it. `pendingRef` goes on
 * the first, `ref` on the second.
 */
export function useTriggerSwap(ready: boolean) {
  const hadFocus = useRef(false);
  const ref = useRef<HTMLButtonElement>(null);
  // Its cleanup runs as the first trigger leaves, before it is taken out of the page (one
  // callback for the component's life, so not at every render).
  const pendingRef = useCallback(
    (element: HTMLButtonElement | null) => () => {
      if (element && document.activeElement === element) hadFocus.current = true;
    },
    [],
  );
  useLayoutEffect(() => {
    if (!ready || !hadFocus.current) return;
    hadFocus.current = false;
    ref.current?.focus();
  }, [ready]);
  return { pendingRef, ref };
}

/**
 * The plain button drawn where a menu's or a dialog's trigger will be until its library
 * has arrived: the same look, name and state as the library's trigger, and pressing it
 * opens the menu or dialog as soon as the library is there.
 */
export function PendingTrigger({
  popup,
  pendingRef,
  onPress,
  ...button
}: {
  popup: 'menu' | 'dialog';
  pendingRef: (element: HTMLButtonElement | null) => () => void;
  onPress: () => void;
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'type'> & { 'data-testid'?: string }) {
  return <button type="button" ref={pendingRef} aria-haspopup={popup} aria-expanded={false} data-state="closed" {...button} onClick={onPress} />;
}

/**
 * A part of a screen (a component) loaded when it is first shown or when the page has a
 * moment to spare (`preload`).
 */
export interface LazyPart<P> {
  (props: P): ReactNode;
  /** Fetches the part now, once: a page calls it when idle, so a first click does not wait. */
  preload: () => Promise<void>;
}

interface Options<P> {
  /** What it is, for the message when it cannot be loaded: "The photo viewer". */
  what: string;
  /**
   * A dialog or an overlay: nothing is drawn, nor loaded, until it first opens, and then
   * it stays mounted as it would have. Loading, nothing shows (it opens once it has
   * arrived); when it cannot be loaded, a toast says so and `close` gives up the opening,
   * and the next opening tries again.
   */
  overlay?: { isOpen: (props: P) => boolean; close: (props: P) => void };
  /** In place of an inline part while it loads: a small spinner unless given. */
  fallback?: ReactNode | ((props: P) => ReactNode);
}

/** What `load` threw: only these are ours to catch, a part's own errors go on up. */
class PartLoadError extends Error {}

/** A small spinner where an inline part will show, until it has arrived. */
export function PartSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex justify-center py-8">
      <Spinner className="size-5 text-slate-400" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

class LoadBoundary extends Component<
  { children: ReactNode; retryKey: unknown; onFailed: () => void; onRetry: () => void; failed: (retry: () => void) => ReactNode },
  { error: unknown }
> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown) {
    if (error instanceof PartLoadError) this.props.onFailed();
  }

  // An overlay that failed tries again when it is opened again (`retryKey` true), not as it closes.
  componentDidUpdate(previous: { retryKey: unknown }) {
    if (this.state.error instanceof PartLoadError && this.props.retryKey && previous.retryKey !== this.props.retryKey) this.retry();
  }

  retry() {
    this.props.onRetry();
    this.setState({ error: null });
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!(error instanceof PartLoadError)) throw error;
    return this.props.failed(() => this.retry());
  }
}

/**
 * `load` resolves to the part's component. Once it has arrived the part draws at once,
 * with no Suspense fallback, whoever asked for it first.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, options: Options<P>): LazyPart<P> {
  const module = lazyModule(() =>
    load().catch((error: unknown) => {
      throw new PartLoadError(`${options.what} could not be loaded`, { cause: error });
    }),
  );

  // The fetch the part waits for: kept when it fails, so the boundary sees the failure
  // (a new fetch at every render would wait forever), and dropped when it tries again.
  let attempt: Promise<ComponentType<P>> | null = null;
  const retry = () => {
    if (!module.current()) attempt = null;
  };

  function Loaded(props: P) {
    const Part = module.current() ?? use((attempt ??= module.load()));
    return <Part {...props} />;
  }

  // Always inside the same boundary and Suspense, loaded or not: a part that changed
  // its place in the tree once it arrived would be mounted anew, its state lost.
  const { fallback } = options;
  function InlinePart(props: P) {
    return (
      <LoadBoundary
        retryKey={null}
        onFailed={() => undefined}
        onRetry={retry}
        failed={(again) => (
          <div role="alert" className="flex flex-wrap items-center justify-center gap-3 py-6 text-sm text-slate-600 dark:text-slate-300">
            <span>{options.what} could not be loaded. Check your connection.</span>
            <Button variant="outline" size="sm" onClick={again}>
              Retry
            </Button>
          </div>
        )}
      >
        <Suspense fallback={typeof fallback === 'function' ? fallback(props) : (fallback ?? <PartSpinner />)}>
          <Loaded {...props} />
        </Suspense>
      </LoadBoundary>
    );
  }

  function OverlayPart(props: P) {
    const { isOpen, close } = options.overlay!;
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    if (open && !opened) setOpened(true);
    if (!opened && !open) return null;
    return (
      <LoadBoundary
        retryKey={open}
        onRetry={retry}
        onFailed={() => {
          toastLoadFailed(options.what);
          close(props);
        }}
        failed={() => null}
      >
        <Suspense fallback={null}>
          <Loaded {...props} />
        </Suspense>
      </LoadBoundary>
    );
  }

  const part = (options.overlay ? OverlayPart : InlinePart) as LazyPart<P>;
  part.preload = module.preload;
  return part;
}

/**
 * Preloads `parts` once the page is idle after the calling component first drew; a part
 * given as false is not for this user (the uploader for a homeowner). Each is fetched
 * once, however often asked.
 */
export function usePreloadWhenIdle(parts: readonly (Pick<LazyPart<never>, 'preload'> | false | null | undefined)[]): void {
  useEffect(
    () =>
      whenIdle(() => {
        for (const part of parts) if (part) void part.preload();
      }),
    // The parts themselves (a call site's list has a fixed length): again only when one joins.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    parts,
  );
}
