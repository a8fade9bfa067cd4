import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { Company, CompanyRole } from '../../protocol/types';
import { COMPANY_ROLE_HINTS, COMPANY_ROLE_LABELS, defaultInviteRole } from '../../lib/companyRules';
import { MAX_LENGTH } from '../../lib/limits';
import { invitationProblems } from '../../lib/fieldChecks';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { CompanyRoleChoice } from '../companies/CompanyRoleChoice';
import { Dialog, FormDialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';

interface Draft {
  name: string;
  email: string;
  phone: string;
}

const FIELDS = ['name', 'email', 'phone'] as const;

/**
 * Invites someone into a company (docs/FEATURES.md, "Builder companies"): they get the
 * invitation mail with a link to set their password, and are a member in the role chosen
 * here from the start. Admins and owners invite any role, managers crew only (`roles`).
 */
export function InviteMemberDialog({ company, roles, onClose }: { company: Company; roles: CompanyRole[]; onClose: () => void }) {
  const [draft, setDraft] = useState<Draft>({ name: '', email: '', phone: '' });
  const [role, setRole] = useState<CompanyRole>(() => defaultInviteRole(company, roles));
  const [allProjects, setAllProjects] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [saving, setSaving] = useState(false);

  const set = (key: keyof Draft) => (e: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [key]: e.target.value }));
    setErrors((found) => ({ ...found, [key]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = invitationProblems(draft);
    const email = draft.email.trim().toLowerCase();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await commands.inviteMember({
        companyId: company.id,
        email,
        name: draft.name.trim(),
        phone: draft.phone.trim(),
        companyRole: role,
        allProjects: role === 'crew' && allProjects,
      });
      toast.success(`Invitation sent to ${email}`);
      setSaving(false);
      onClose();
    } catch (err) {
      setSaving(false);
      // The server's words beside their field ("This person is already a member of
      // this company."); anything else as a toast.
      const fields = err instanceof RequestError ? err.fields.filter((f) => (FIELDS as readonly string[]).includes(f.field)) : [];
      if (fields.length > 0) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
      else toastRequestError(err, 'Failed to invite member');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Invite member"
      description={`They get an email invitation to set their password and join ${company.name}.`}
      busy={saving}
      widthClass="max-w-[500px]"
      sheet
    >
      <form onSubmit={submit} noValidate>
        <fieldset disabled={saving} className="space-y-4">
          <Field label="Name" maxLength={MAX_LENGTH.name} value={draft.name} onChange={set('name')} error={errors.name} autoComplete="off" required autoFocus />
          <Field label="Email" type="email" maxLength={MAX_LENGTH.email} value={draft.email} onChange={set('email')} error={errors.email} autoComplete="off" required />
          <Field
            label="Phone (optional)"
            type="tel"
            maxLength={MAX_LENGTH.phone}
            value={draft.phone}
            onChange={set('phone')}
            error={errors.phone}
            placeholder="(555) 123-4567"
            autoComplete="off"
          />
          {roles.length > 1 ? (
            <CompanyRoleChoice
              name="invite-role"
              companyName={company.name}
              roles={roles}
              role={role}
              onRole={setRole}
              allProjects={allProjects}
              onAllProjects={setAllProjects}
            />
          ) : (
            <>
              <p className="rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-200">
                They join as <strong className="font-semibold">{COMPANY_ROLE_LABELS[role].toLowerCase()}</strong>: {COMPANY_ROLE_HINTS[role].charAt(0).toLowerCase()}
                {COMPANY_ROLE_HINTS[role].slice(1)}
              </p>
              {/* A manager invites crew to the projects they are put on: whether crew
                  see every project is the owner's call (the server holds it too). */}
            </>
          )}
        </fieldset>
        <FormDialogActions saving={saving} onCancel={onClose} label="Send invitation" busyLabel="Sending..." />
      </form>
    </Dialog>
  );
}
