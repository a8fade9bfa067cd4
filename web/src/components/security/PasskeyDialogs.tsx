import { useState, type FormEvent } from 'react';
import type { PasskeyInfo, Security } from '../../protocol/types';
import { passkeyNameFor } from '../../lib/devices';
import { createPasskey, passkeyCancelled, passkeyFailure } from '../../lib/passkeys';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { Dialog, FormDialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';

const NAME_MAX = 60;

/**
 * A new passkey. The name comes first (this browser and system, e.g. "Chrome
 * on Linux", to change at will); then the browser makes the passkey, and its answer goes
 * to the server under that name.
 */
export function AddPasskeyDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (security: Security) => void }) {
  const [name, setName] = useState(() => passkeyNameFor(navigator.userAgent));
  const [nameError, setNameError] = useState<string | undefined>();
  const [notice, setNotice] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    if (!name.trim()) {
      setNameError('Give the passkey a name.');
      return;
    }
    setSaving(true);
    try {
      const { challengeId, options } = await commands.startPasskey();
      const credential = await createPasskey(options);
      onAdded(await commands.addPasskey(challengeId, name.trim(), credential));
      onClose();
    } catch (err) {
      if (err instanceof RequestError) {
        if (err.code === 'factor_required') onClose();
        else if (err.fieldMessage('name')) setNameError(err.fieldMessage('name'));
        else setNotice({ tone: 'error', text: err.fromServer ? err.message : 'The passkey could not be saved. Please try again.' });
      } else {
        setNotice({ tone: passkeyCancelled(err) ? 'info' : 'error', text: passkeyFailure(err) });
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add a passkey"
      description="A passkey signs you in with this device's fingerprint, face or screen lock instead of a code. Your browser asks next."
      busy={saving}
      widthClass="max-w-[460px]"
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label="Name"
          hint="So you can tell your passkeys apart, like “Work laptop”."
          maxLength={NAME_MAX}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(undefined);
          }}
          error={nameError}
          disabled={saving}
          autoComplete="off"
        />
        <div aria-live="polite" className="empty:hidden">
          {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
        </div>
        <FormDialogActions saving={saving} onCancel={onClose} label="Continue" busyLabel="Waiting for your passkey..." />
      </form>
    </Dialog>
  );
}

export function RenamePasskeyDialog({ passkey, onClose, onRenamed }: { passkey: PasskeyInfo; onClose: () => void; onRenamed: (security: Security) => void }) {
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError('Give the passkey a name.');
      return;
    }
    setSaving(true);
    try {
      onRenamed(await commands.renamePasskey(passkey.id, name.trim()));
      onClose();
    } catch (err) {
      setError(err instanceof RequestError && err.fromServer ? (err.fieldMessage('name') ?? err.message) : 'The passkey could not be renamed. Please try again.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Rename passkey" busy={saving} widthClass="max-w-[440px]">
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label="Name"
          maxLength={NAME_MAX}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError(undefined);
          }}
          error={error}
          disabled={saving}
          autoComplete="off"
          autoFocus
        />
        <FormDialogActions saving={saving} onCancel={onClose} label="Save" />
      </form>
    </Dialog>
  );
}
