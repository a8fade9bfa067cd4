import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { useLazyModule } from '../../lib/lazyModule';
import { Button } from './Button';
import { dialogLibrary } from './radixLibraries';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  /** SPEC §2 Dialogs: user and project dialogs cannot be closed while a save runs. */
  busy?: boolean;
  /** Tailwind max-width class, e.g. max-w-[500px] (SPEC §2 gives each dialog's width). */
  widthClass?: string;
  children: ReactNode;
  /** Role alertdialog for confirmations. */
  alert?: boolean;
  /** Below 640 px the dialog fills the screen (a sheet) rather than floating: for long forms. */
  sheet?: boolean;
  /** Kept at the foot, outside the scrolling body (a long form's buttons stay in reach). */
  footer?: ReactNode;
}

/**
 * A modal with a focus trap, Escape and outside-click to close (unless busy). Radix's
 * dialog comes when the page is idle or the dialog first opens (ui/radixLibraries): it
 * shows once that has arrived.
 */
export function Dialog({ open, onOpenChange, title, description, busy = false, widthClass = 'max-w-[500px]', children, alert, sheet = false, footer }: DialogProps) {
  const RadixDialog = useLazyModule(dialogLibrary, { what: title, wanted: open, onFailed: () => onOpenChange(false) });
  const block = (e: Event) => {
    if (busy) e.preventDefault();
  };
  if (!RadixDialog) return null;
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-[2px] data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <RadixDialog.Content
          role={alert ? 'alertdialog' : 'dialog'}
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
          className={cn(
            'fixed z-50 flex flex-col overflow-hidden bg-white shadow-2xl focus:outline-none dark:bg-slate-900',
            sheet
              ? 'inset-0 h-dvh w-full data-[state=open]:animate-[fade-in_150ms_ease-out] sm:inset-auto sm:top-1/2 sm:left-1/2 sm:h-auto sm:max-h-[calc(100dvh-2rem)] sm:w-[calc(100vw-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl sm:border sm:border-slate-200 sm:data-[state=open]:animate-[dialog-in_160ms_ease-out] sm:dark:border-slate-800'
              : 'top-1/2 left-1/2 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 data-[state=open]:animate-[dialog-in_160ms_ease-out] dark:border-slate-800',
            widthClass,
          )}
        >
          <div className="flex items-start justify-between gap-4 px-5 pt-5 sm:px-6 sm:pt-6">
            <div className="min-w-0">
              <RadixDialog.Title className="text-lg font-semibold text-slate-900 dark:text-white">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="mt-1 text-sm text-slate-500 dark:text-slate-400">
                  {description}
                </RadixDialog.Description>
              ) : (
                <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close
              disabled={busy}
              aria-label="Close"
              className="-mt-1 -mr-2 rounded-md p-1.5 text-slate-400 transition hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-40 dark:hover:bg-slate-800 dark:hover:text-slate-200"
            >
              <X className="size-4" aria-hidden="true" />
            </RadixDialog.Close>
          </div>
          <div className={cn('min-h-0 flex-1 overflow-y-auto px-5 pt-4 sm:px-6', footer ? 'pb-4' : 'pb-5 sm:pb-6')}>{children}</div>
          {footer && <div className="border-t border-slate-100 px-5 py-3 sm:px-6 dark:border-slate-800">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The button row at the foot of a dialog: stacked on phones, right-aligned on wider screens. */
export function DialogActions({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}>{children}</div>
  );
}

/** The Cancel / submit row of a form dialog; both are disabled while the save runs. */
export function FormDialogActions({
  saving,
  onCancel,
  label = 'Save Changes',
  busyLabel = 'Saving...',
}: {
  saving: boolean;
  onCancel: () => void;
  label?: string;
  busyLabel?: string;
}) {
  return (
    <DialogActions>
      <Button variant="outline" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
      <Button type="submit" variant="secondary" loading={saving} disabled={saving}>
        {saving ? busyLabel : label}
      </Button>
    </DialogActions>
  );
}
