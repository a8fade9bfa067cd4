import type { ReactNode } from 'react';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';

/** SPEC §2 Dialogs: destructive confirmations are titled "Are you absolutely sure?". */
export function ConfirmDialog({
  open,
  onOpenChange,
  description,
  confirmLabel,
  busy,
  onConfirm,
}: {
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
      title="Are you absolutely sure?"
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
