import { useId } from 'react';
import type { CompanyRole } from '../../protocol/types';
import { COMPANY_ROLE_HINTS, COMPANY_ROLE_LABELS } from '../../lib/companyRules';
import { CheckboxField, ChoiceCard, ChoiceLegend } from '../ui/Choices';

/**
 * A member's role in a company as cards with what each may do, and for crew whether
 * they see every project: what inviting a member and changing a member's role ask.
 * `locked` roles are shown but cannot be chosen, with `lockedReason` saying why.
 */
export function CompanyRoleChoice({
  name,
  companyName,
  roles,
  role,
  onRole,
  allProjects,
  onAllProjects,
  locked,
  lockedReason,
}: {
  name: string;
  companyName: string;
  roles: readonly CompanyRole[];
  role: CompanyRole;
  onRole: (role: CompanyRole) => void;
  allProjects: boolean;
  onAllProjects: (all: boolean) => void;
  locked?: (role: CompanyRole) => boolean;
  lockedReason?: string;
}) {
  const reasonId = useId();
  return (
    <>
      <fieldset>
        <ChoiceLegend>Role</ChoiceLegend>
        <div className="space-y-2">
          {roles.map((r) => {
            const isLocked = locked?.(r) ?? false;
            return (
              <ChoiceCard
                key={r}
                name={name}
                value={r}
                checked={role === r}
                onChange={() => onRole(r)}
                title={COMPANY_ROLE_LABELS[r]}
                hint={COMPANY_ROLE_HINTS[r]}
                disabled={isLocked}
                describedBy={isLocked && lockedReason ? reasonId : undefined}
              />
            );
          })}
        </div>
        {lockedReason && (
          <p id={reasonId} className="mt-2 text-xs text-slate-600 dark:text-slate-400">
            {lockedReason}
          </p>
        )}
      </fieldset>
      {role === 'crew' && <AllProjectsChoice companyName={companyName} checked={allProjects} onChange={onAllProjects} />}
    </>
  );
}

export function AllProjectsChoice({ companyName, checked, onChange }: { companyName: string; checked: boolean; onChange: (all: boolean) => void }) {
  return (
    <CheckboxField
      className="px-3.5"
      label="Sees all projects"
      hint={`Every project of ${companyName}, not only those they are put on.`}
      checked={checked}
      onChange={onChange}
    />
  );
}
