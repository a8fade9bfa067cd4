import type { Profile } from '../../protocol/types';
import { companyAbilities } from '../../lib/companyRules';
import { useAppStore } from '../../store';
import { CompanyNameDialog } from '../dialogs/CompanyNameDialog';
import { DeleteCompanyDialog } from '../dialogs/DeleteCompanyDialog';
import { InviteMemberDialog } from '../dialogs/InviteMemberDialog';
import { MemberRoleDialog } from '../dialogs/MemberRoleDialog';
import { RemoveMemberDialog } from '../dialogs/RemoveMemberDialog';

/** A dialog asked for on a company or on one of its members. */
export type CompanyAction =
  | { kind: 'rename' | 'invite' | 'delete'; companyId: string }
  | { kind: 'role' | 'remove'; companyId: string; memberId: string };

/**
 * The open company dialog, on the company as the store holds it now: an event that
 * changes it meanwhile shows in the dialog, and one that takes it (or the member) away
 * closes it.
 */
export function CompanyDialogs({ action, viewer, onClose }: { action: CompanyAction | null; viewer: Profile; onClose: () => void }) {
  const company = useAppStore((s) => (action ? s.companies[action.companyId] : undefined));
  if (!action || !company) return null;
  const abilities = companyAbilities(viewer, company);
  switch (action.kind) {
    case 'rename':
      return abilities.rename ? <CompanyNameDialog company={company} onClose={onClose} /> : null;
    case 'invite':
      return abilities.invite.length > 0 ? <InviteMemberDialog company={company} roles={abilities.invite} onClose={onClose} /> : null;
    case 'delete':
      return abilities.delete ? <DeleteCompanyDialog company={company} onClose={onClose} /> : null;
    default: {
      const member = company.members.find((m) => m.id === action.memberId);
      if (!member || !abilities.manageMembers) return null;
      return action.kind === 'role' ? (
        <MemberRoleDialog key={member.id} company={company} member={member} onClose={onClose} />
      ) : (
        <RemoveMemberDialog key={member.id} company={company} member={member} onClose={onClose} />
      );
    }
  }
}
