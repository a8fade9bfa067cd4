import type { ExternalToast, toast as sonnerToast } from 'sonner';

// Toasts, as sonner's `toast.success(title, { description })`, without sonner among the
// scripts a first screen waits for: App's ToastHost loads it and its Toaster once the page
// is idle, or at the first toast, which waits for them (docs/LIMITS.md, "First paint").

type Kind = 'success' | 'error' | 'info' | 'warning';
type Say = (message: string, options?: ExternalToast) => void;

let sonner: typeof sonnerToast | null = null;
const waiting: [Kind, string, ExternalToast | undefined][] = [];
let asks = 0;
const listeners = new Set<() => void>();

function say(kind: Kind, message: string, options?: ExternalToast): void {
  if (sonner) {
    sonner[kind](message, options);
    return;
  }
  waiting.push([kind, message, options]);
  asks += 1;
  for (const listener of listeners) listener();
}

export const toast: Record<Kind, Say> = {
  success: (message, options) => say('success', message, options),
  error: (message, options) => say('error', message, options),
  info: (message, options) => say('info', message, options),
  warning: (message, options) => say('warning', message, options),
};

/** How many toasts have waited for the Toaster: ToastHost loads it at once when this grows. */
export const toastsWaiting = {
  count: () => asks,
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The Toaster is drawn and listening (ToastHost): the toasts that waited show now, the next at once. */
export function toasterReady(show: typeof sonnerToast): void {
  sonner = show;
  for (const [kind, message, options] of waiting.splice(0)) show[kind](message, options);
}
