import type { ComponentProps, ReactNode } from 'react';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';

/** SPEC §2 Dialogs: destructive confirmations are titled "Are you absolutely sure?" unless the spec words one itself. */
export function ConfirmDialog({
  title = 'Are you absolutely sure?',
  open,
  onOpenChange,
  description,
  confirmLabel,
  confirmVariant = 'destructive',
  confirmIcon,
  busy,
  onConfirm,
}: {
  title?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  description: ReactNode;
  confirmLabel: string;
  /** Destructive by default; a confirmation that sends something is the primary action. */
  confirmVariant?: ComponentProps<typeof Button>['variant'];
  /** Shown before the label while not busy. */
  confirmIcon?: ReactNode;
  busy: boolean;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      busy={busy}
      widthClass="max-w-[440px]"
      alert
    >
      <DialogActions className="mt-2">
        <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
          Cancel
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm} loading={busy} disabled={busy}>
          {!busy && confirmIcon}
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
