// @vitest-environment jsdom
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPart } from './lazyPart';

const toastError = vi.hoisted(() => vi.fn());
vi.mock('../lib/toast', () => ({ toast: { error: toastError, success: vi.fn(), info: vi.fn(), warning: vi.fn() } }));

// Not in act(): React 19 reveals what a Suspense boundary waited for after a short
// throttle, on a timer act() does not run. Real timers, and waiting for the page.
const act = (change: () => void) => flushSync(change);
const settle = (change: () => void) => change();

let root: Root | null = null;
let host: HTMLDivElement | null = null;

afterEach(() => {
  root?.unmount();
  host?.remove();
  root = null;
  host = null;
  toastError.mockReset();
});

function render(node: React.ReactNode) {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(node));
}

const dialog = () => document.querySelector('[role="dialog"]');

/** A module import that the test settles. */
function deferredImport<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const load = vi.fn(
    () =>
      new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      }),
  );
  return { load, resolve: (value: T) => resolve(value), reject: (error: unknown) => reject(error) };
}

type DialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

function FakeDialog({ open }: DialogProps) {
  const [mounted] = useState(() => Date.now());
  return open ? <div role="dialog" data-mounted={mounted}>Shared</div> : null;
}

describe('lazyPart, an overlay', () => {
  it('loads nothing until first opened, opens once it arrives, then stays mounted', async () => {
    const module = deferredImport<typeof FakeDialog>();
    const Dialog = lazyPart(module.load, { what: 'Sharing', overlay: { isOpen: (p) => p.open, close: (p) => p.onOpenChange(false) } });
    let setOpen!: (open: boolean) => void;
    function Page() {
      const [open, set] = useState(false);
      setOpen = set;
      return <Dialog open={open} onOpenChange={set} />;
    }
    render(<Page />);
    expect(module.load).not.toHaveBeenCalled();

    act(() => setOpen(true));
    expect(module.load).toHaveBeenCalledTimes(1);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    settle(() => module.resolve(FakeDialog));
    await vi.waitFor(() => expect(dialog()).not.toBeNull());
    const first = dialog()!.getAttribute('data-mounted');

    act(() => setOpen(false));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    act(() => setOpen(true));
    // The same instance: closed and opened again, not mounted anew.
    expect(dialog()!.getAttribute('data-mounted')).toBe(first);
    expect(module.load).toHaveBeenCalledTimes(1);
  });

  it('says so when it cannot be loaded, gives up the opening, and tries again at the next', async () => {
    const module = deferredImport<typeof FakeDialog>();
    const Dialog = lazyPart(module.load, { what: 'Sharing', overlay: { isOpen: (p) => p.open, close: (p) => p.onOpenChange(false) } });
    const onOpenChange = vi.fn();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<Dialog open onOpenChange={onOpenChange} />);
    settle(() => module.reject(new Error('offline')));
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledWith('Sharing could not be loaded', expect.anything()));
    spy.mockRestore();
    expect(onOpenChange).toHaveBeenCalledWith(false);

    act(() => root!.render(<Dialog open={false} onOpenChange={onOpenChange} />));
    expect(module.load).toHaveBeenCalledTimes(1);
    act(() => root!.render(<Dialog open onOpenChange={onOpenChange} />));
    expect(module.load).toHaveBeenCalledTimes(2);
    expect(toastError).toHaveBeenCalledTimes(1);
    settle(() => module.resolve(FakeDialog));
    await vi.waitFor(() => expect(dialog()?.textContent).toBe('Shared'));
  });
});

describe('lazyPart, inline', () => {
  it('shows its fallback while loading, then the part; once loaded, at once', async () => {
    const module = deferredImport<(props: { name: string }) => React.ReactNode>();
    const Tab = lazyPart(module.load, { what: 'Reports', fallback: <p>waiting</p> });
    render(<Tab name="a" />);
    expect(host!.textContent).toBe('waiting');
    settle(() => module.resolve(({ name }) => <p>reports {name}</p>));
    await vi.waitFor(() => expect(host!.textContent).toBe('reports a'));

    act(() => root!.render(<Tab name="b" />));
    expect(host!.textContent).toBe('reports b');
  });

  it('offers Retry where it could not be loaded', async () => {
    const module = deferredImport<() => React.ReactNode>();
    const Tab = lazyPart(module.load, { what: 'Reports' });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<Tab />);
    settle(() => module.reject(new Error('offline')));
    await vi.waitFor(() => expect(host!.querySelector('[role="alert"]')?.textContent).toContain('Reports could not be loaded'));
    spy.mockRestore();

    act(() => host!.querySelector('button')!.click());
    settle(() => module.resolve(() => <p>reports</p>));
    await vi.waitFor(() => expect(host!.textContent).toBe('reports'));
  });
});
