import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { Company, CompanyRole, Member, UpdateMember } from '../../protocol/types';
import { COMPANY_ROLES, isOnlyOwner, NEEDS_AN_OWNER, roleChangeMessage } from '../../lib/companyRules';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { CompanyRoleChoice } from '../companies/CompanyRoleChoice';
import { Dialog, FormDialogActions } from '../ui/Dialog';

/**
 * A member's role in their company, and for crew whether they see every project (admins
 * and the company's owners). The company's only owner stays one: the other roles are
 * offered disabled, with the reason.
 */
export function MemberRoleDialog({ company, member, onClose }: { company: Company; member: Member; onClose: () => void }) {
  const [role, setRole] = useState<CompanyRole>(member.companyRole);
  const [allProjects, setAllProjects] = useState(member.allProjects);
  const [saving, setSaving] = useState(false);
  const onlyOwner = isOnlyOwner(company, member);
  const all = role === 'crew' && allProjects;
  const changed = role !== member.companyRole || (role === 'crew' && all !== member.allProjects);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!changed) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      const update: UpdateMember = { id: member.id };
      if (role !== member.companyRole) update.companyRole = role;
      if (all !== member.allProjects) update.allProjects = all;
      await commands.updateMember(update);
      toast.success(roleChangeMessage(member, role, all));
      setSaving(false);
      onClose();
    } catch (err) {
      setSaving(false);
      toastRequestError(err, 'Failed to change the role');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Role of ${member.name}`}
      description={`What ${member.name} may do in ${company.name}. Their open pages follow at once.`}
      busy={saving}
      widthClass="max-w-[500px]"
    >
      <form onSubmit={submit} noValidate>
        <fieldset disabled={saving} className="space-y-4">
          <CompanyRoleChoice
            name="member-role"
            companyName={company.name}
            roles={COMPANY_ROLES}
            role={role}
            onRole={setRole}
            allProjects={allProjects}
            onAllProjects={setAllProjects}
            locked={(r) => onlyOwner && r !== 'owner'}
            lockedReason={onlyOwner ? NEEDS_AN_OWNER : undefined}
          />
        </fieldset>
        <FormDialogActions saving={saving} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
