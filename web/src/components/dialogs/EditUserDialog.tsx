import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { Profile } from '../../protocol/types';
import { MAX_LENGTH } from '../../lib/limits';
import { nameParts } from '../../lib/names';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { Dialog, FormDialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';

const FIRST_NAME_REQUIRED = 'First name is required';
const LAST_NAME_REQUIRED = 'Last name is required';
const NAME_REQUIRED = 'Name is required';

/**
 * SPEC §5 Edit user: the email is read-only and the phone optional. One name model: the
 * dialog edits what is displayed — first and last name for homeowners and admins, the
 * company name for builders. Mounted per user, so the form starts from their data.
 */
export function EditUserDialog({ user, onClose }: { user: Profile; onClose: () => void }) {
  const homeowner = user.role === 'homeowner';
  const byParts = user.role !== 'builder';
  const parts = nameParts(user);
  const [firstName, setFirstName] = useState(parts.firstName);
  const [lastName, setLastName] = useState(parts.lastName);
  const [name, setName] = useState(user.name ?? '');
  const [phone, setPhone] = useState(user.phone ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (byParts) {
      if (!firstName.trim()) found.firstName = FIRST_NAME_REQUIRED;
      if (!lastName.trim()) found.lastName = LAST_NAME_REQUIRED;
    } else if (!name.trim()) {
      found.name = NAME_REQUIRED;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await commands.updateUser(
        byParts
          ? { id: user.id, firstName: firstName.trim(), lastName: lastName.trim(), phone: phone.trim() }
          : { id: user.id, name: name.trim(), phone: phone.trim() },
      );
      toast.success('User details updated successfully');
      setSaving(false);
      onClose();
    } catch (err) {
      setSaving(false);
      if (err instanceof RequestError && err.fields.length > 0) {
        setErrors(Object.fromEntries(err.fields.map((f) => [f.field, f.message])));
      }
      toastRequestError(err, 'Failed to update user details');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={homeowner ? 'Edit Homeowner Details' : 'Edit Builder/Admin Details'}
      description="Changes show everywhere this person appears."
      busy={saving}
      widthClass="max-w-[425px]"
    >
      <form onSubmit={submit} noValidate>
        <fieldset disabled={saving} className="space-y-4">
          {byParts ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="First name" maxLength={MAX_LENGTH.firstName} value={firstName} onChange={(e) => setFirstName(e.target.value)} error={errors.firstName} />
              <Field label="Last name" maxLength={MAX_LENGTH.lastName} value={lastName} onChange={(e) => setLastName(e.target.value)} error={errors.lastName} />
            </div>
          ) : (
            <Field label="Company / Builder name" maxLength={MAX_LENGTH.name} value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
          )}
          <Field label="Email" type="email" value={user.email} readOnly disabled hint="The email address cannot be changed." />
          <Field
            label="Phone"
            maxLength={MAX_LENGTH.phone}
            type="tel"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            error={errors.phone}
            placeholder="(555) 123-4567"
          />
        </fieldset>
        <FormDialogActions saving={saving} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
