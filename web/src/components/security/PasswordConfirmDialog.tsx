import { useState, type FormEvent, type ReactNode } from 'react';
import { MAX_LENGTH } from '../../lib/limits';
import { RequestError } from '../../sync/requests';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';

/**
 * Turning a factor off asks for the password again (the server's words when
 * it is missing or wrong). A session that used a passkey in the last minutes may leave
 * it empty: the server says which.
 */
export function PasswordConfirmDialog({
  title,
  description,
  confirmLabel,
  busyLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  /** Rejects with the server's error; a `password` field error is shown under the field. */
  onConfirm: (password: string) => Promise<void>;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      await onConfirm(password);
      onClose();
    } catch (err) {
      if (err instanceof RequestError && err.code === 'factor_required') onClose();
      else if (err instanceof RequestError && err.fromServer) setError(err.fieldMessage('password') ?? err.message);
      else setError('That did not work. Please try again.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={title} description={description} busy={saving} widthClass="max-w-[440px]" alert>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label="Your password"
          type="password"
          autoComplete="current-password"
          maxLength={MAX_LENGTH.password}
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setError(undefined);
          }}
          error={error}
          disabled={saving}
          autoFocus
        />
        <DialogActions className="mt-2">
          <Button variant="outline" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" loading={saving} disabled={saving}>
            {saving ? busyLabel : confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
