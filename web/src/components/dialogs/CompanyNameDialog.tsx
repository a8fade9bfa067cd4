import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { Company } from '../../protocol/types';
import { MAX_LENGTH } from '../../lib/limits';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { Dialog, FormDialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';

const NAME_REQUIRED = 'Name is required';

/**
 * "New company" (admins) or the rename of one (admins and its owners). Mounted
 * while open, so each opening starts from the name as it is.
 */
export function CompanyNameDialog({ company, onClose, onSaved }: { company?: Company; onClose: () => void; onSaved?: (company: Company) => void }) {
  const [name, setName] = useState(company?.name ?? '');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(NAME_REQUIRED);
      return;
    }
    if (company && trimmed === company.name) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      const saved = company ? await commands.renameCompany(company.id, trimmed) : await commands.createCompany(trimmed);
      toast.success(company ? 'Company renamed successfully' : 'Company created successfully');
      setSaving(false);
      onClose();
      onSaved?.(saved);
    } catch (err) {
      setSaving(false);
      const field = err instanceof RequestError ? err.fieldMessage('name') : undefined;
      if (field) setError(field);
      else toastRequestError(err, company ? 'Failed to rename company' : 'Failed to create company');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={company ? 'Rename company' : 'New company'}
      description={company ? 'Homeowners see this name as their builder.' : 'Once it exists, invite its owner: they can invite the rest of their people.'}
      busy={saving}
      widthClass="max-w-[425px]"
    >
      <form onSubmit={submit} noValidate>
        <fieldset disabled={saving}>
          <Field
            label="Company name"
            maxLength={MAX_LENGTH.name}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
            }}
            error={error}
            placeholder="e.g. Summit Homes"
            autoComplete="organization"
            autoFocus
          />
        </fieldset>
        <FormDialogActions saving={saving} onCancel={onClose} label={company ? 'Save Changes' : 'Create company'} busyLabel={company ? 'Saving...' : 'Creating...'} />
      </form>
    </Dialog>
  );
}
