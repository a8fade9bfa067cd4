import { Clock3, Mail, UserMinus, UserCog } from 'lucide-react';
import type { Company, CompanyRole, Member, Profile } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { COMPANY_ROLE_LABELS, memberActions, memberStatus, type CompanyAbilities } from '../../lib/companyRules';
import { useNow } from '../../lib/useNow';
import { Avatar } from '../Avatar';
import { Button } from '../ui/Button';

const ROLE_TINTS: Record<CompanyRole, string> = {
  owner: 'bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-400/10 dark:text-amber-200 dark:ring-amber-400/30',
  manager: 'bg-sky-100 text-sky-900 ring-sky-600/20 dark:bg-sky-400/10 dark:text-sky-200 dark:ring-sky-400/30',
  crew: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600/40',
};

/** A member's role as a small badge: Owner, Manager, Crew. */
export function RoleBadge({ role, className }: { role: CompanyRole; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', ROLE_TINTS[role], className)}>
      {COMPANY_ROLE_LABELS[role]}
    </span>
  );
}

/**
 * A company's people, owners first as the server sends them: who they are,
 * their role, whether they signed in yet, and what the viewer may do about them. One
 * row per person that lays out in a line on wide screens and stacks on a phone.
 */
export function MemberList({
  company,
  viewer,
  abilities,
  onChangeRole,
  onRemove,
}: {
  company: Company;
  viewer: Profile;
  abilities: CompanyAbilities;
  onChangeRole: (member: Member) => void;
  onRemove: (member: Member) => void;
}) {
  const now = useNow();
  if (company.members.length === 0) {
    return (
      <p className="px-5 py-8 text-center text-sm text-slate-600 sm:px-6 dark:text-slate-300" data-testid="no-members">
        No members yet. Invite the company's owner first: they can invite the rest.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label={`Members of ${company.name}`}>
      {company.members.map((member) => {
        const self = member.id === viewer.id;
        const actions = memberActions(abilities, viewer, company, member);
        const status = memberStatus(member, now);
        return (
          <li key={member.id} data-testid="member-row" className="flex flex-col gap-3 px-5 py-3.5 sm:px-6 md:flex-row md:items-center md:gap-4">
            <div className="flex min-w-0 flex-1 items-center gap-3">
              <Avatar name={member.name} size="sm" />
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900 dark:text-white">
                  {member.name}
                  {self && <span className="ml-1.5 text-xs font-normal text-slate-600 dark:text-slate-300">(you)</span>}
                </p>
                <p className="flex min-w-0 items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
                  <Mail className="size-3.5 shrink-0" aria-hidden="true" />
                  <span className="sr-only">Email</span>
                  <span className="truncate">{member.email}</span>
                </p>
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 pl-11 md:w-72 md:shrink-0 md:pl-0">
              <RoleBadge role={member.companyRole} />
              {member.companyRole === 'crew' && member.allProjects && (
                <span className="text-xs font-medium text-slate-700 dark:text-slate-200">Sees all projects</span>
              )}
              <span
                title={member.invited ? 'Invited: they have not set a password yet' : undefined}
                className={cn(
                  'inline-flex items-center gap-1 text-xs',
                  member.invited ? 'font-medium text-amber-800 dark:text-amber-300' : 'text-slate-600 dark:text-slate-400',
                )}
                data-testid="member-status"
              >
                {member.invited ? <Mail className="size-3.5" aria-hidden="true" /> : <Clock3 className="size-3.5" aria-hidden="true" />}
                {status}
              </span>
            </div>
            {(actions.changeRole || actions.remove) && (
              <div className="flex gap-2 pl-11 md:w-56 md:shrink-0 md:justify-end md:pl-0">
                {actions.changeRole && (
                  <Button variant="outline" size="sm" onClick={() => onChangeRole(member)} aria-label={`Change role of ${member.name}`}>
                    <UserCog className="size-4" aria-hidden="true" />
                    Change role
                  </Button>
                )}
                {actions.remove && (
                  <Button
                    variant="outline"
                    size="sm"
                    className="text-red-700 hover:bg-red-50 hover:text-red-800 dark:text-red-400 dark:hover:bg-red-500/10"
                    onClick={() => onRemove(member)}
                    aria-label={`Remove ${member.name}`}
                  >
                    <UserMinus className="size-4" aria-hidden="true" />
                    Remove
                  </Button>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
