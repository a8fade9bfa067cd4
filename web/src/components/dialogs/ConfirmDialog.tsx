import type { ReactNode } from 'react';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';

/** SPEC §2 Dialogs: destructive confirmations are titled "Are you absolutely sure?" unless the spec words one itself. */
export function ConfirmDialog({
  title = 'Are you absolutely sure?',
  open,
  onOpenChange,
  description,
  confirmLabel,
  busy,
  onConfirm,
}: {
  title?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  description: ReactNode;
  confirmLabel: string;
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
        <Button variant="destructive" onClick={onConfirm} loading={busy} disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
