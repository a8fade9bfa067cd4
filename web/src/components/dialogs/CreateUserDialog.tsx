import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { Role } from '../../protocol/types';
import { displayName } from '../../lib/names';
import { ROLE_LABELS } from '../../lib/people';
import { MAX_LENGTH } from '../../lib/limits';
import { useAppStore } from '../../store';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { SelectField } from '../ui/Select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/Tabs';

interface Draft {
  firstName: string;
  lastName: string;
  name: string;
  email: string;
  phone: string;
  builderId: string;
}

const EMPTY: Draft = { firstName: '', lastName: '', name: '', email: '', phone: '', builderId: '' };

// SPEC §5 Create user: a homeowner or admin needs first name, last name, email and
// phone; a builder needs name, email and phone.
function missingRequired(role: Role, d: Draft): boolean {
  const names = role === 'builder' ? [d.name] : [d.firstName, d.lastName];
  return [...names, d.email, d.phone].some((v) => !v.trim());
}

export function CreateUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [role, setRole] = useState<Role>('homeowner');
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const users = useAppStore((s) => s.users);
  const builders = Object.values(users)
    .filter((u) => u.role === 'builder')
    .map((u) => ({ value: u.id, label: displayName(u) }))
    .sort((a, b) => a.label.localeCompare(b.label));

  const set = (key: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setDraft(EMPTY);
      setErrors({});
      setRole('homeowner');
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    if (missingRequired(role, draft)) {
      toast.error('Error', { description: 'Please fill all required fields for the selected role.' });
      return;
    }
    setSaving(true);
    try {
      const builder = role === 'builder';
      await commands.createUser({
        role,
        email: draft.email.trim().toLowerCase(),
        firstName: builder ? '' : draft.firstName.trim(),
        lastName: builder ? '' : draft.lastName.trim(),
        name: builder ? draft.name.trim() : `${draft.firstName.trim()} ${draft.lastName.trim()}`,
        phone: draft.phone.trim(),
        builderId: role === 'homeowner' && draft.builderId ? draft.builderId : null,
      });
      toast.success(`${ROLE_LABELS[role]} created successfully. An invitation email has been sent.`);
      setSaving(false);
      close(false);
    } catch (err) {
      setSaving(false);
      if (err instanceof RequestError && err.fields.length > 0) {
        setErrors(Object.fromEntries(err.fields.map((f) => [f.field, f.message])));
      }
      toastRequestError(err, 'Failed to invite user');
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Create New User"
      description="They get an email invitation to set their password."
      busy={saving}
      widthClass="max-w-[500px]"
    >
      <form onSubmit={submit} noValidate className="space-y-5">
        <Tabs value={role} onValueChange={(v) => setRole(v as Role)}>
          <TabsList label="Role of the new user" className="flex w-full">
            <TabsTrigger value="homeowner" disabled={saving}>Homeowner</TabsTrigger>
            <TabsTrigger value="builder" disabled={saving}>Builder</TabsTrigger>
            <TabsTrigger value="admin" disabled={saving}>Admin</TabsTrigger>
          </TabsList>
          {/* One panel, the selected role's fields: every tab controls a panel that exists. */}
          <TabsContent value={role} className="focus-visible:outline-none">
            <fieldset disabled={saving} className="space-y-4">
              {role === 'builder' ? (
                <Field label="Company / Builder name" maxLength={MAX_LENGTH.name} value={draft.name} onChange={set('name')} error={errors.name} autoComplete="organization" required />
              ) : (
                <div className="grid gap-4 sm:grid-cols-2">
                  <Field label="First name" maxLength={MAX_LENGTH.firstName} value={draft.firstName} onChange={set('firstName')} error={errors.firstName} autoComplete="off" required />
                  <Field label="Last name" maxLength={MAX_LENGTH.lastName} value={draft.lastName} onChange={set('lastName')} error={errors.lastName} autoComplete="off" required />
                </div>
              )}
              <Field label="Email" maxLength={MAX_LENGTH.email} type="email" value={draft.email} onChange={set('email')} error={errors.email} autoComplete="off" required />
              <Field label="Phone" maxLength={MAX_LENGTH.phone} type="tel" value={draft.phone} onChange={set('phone')} error={errors.phone} placeholder="(555) 123-4567" autoComplete="off" required />
              {role === 'homeowner' && (
                <SelectField
                  label="Builder (optional)"
                  value={draft.builderId}
                  onChange={set('builderId')}
                  error={errors.builderId}
                  options={[{ value: '', label: 'None' }, ...builders]}
                />
              )}
            </fieldset>
          </TabsContent>
        </Tabs>
        <DialogActions>
          <Button variant="outline" onClick={() => close(false)} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="secondary" loading={saving} disabled={saving}>
            {saving ? 'Creating...' : `Create ${ROLE_LABELS[role]}`}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
