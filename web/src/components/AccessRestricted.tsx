import type { ReactNode } from 'react';
import { Lock } from 'lucide-react';
import { cn } from '../lib/cn';

/** SPEC §6 screen wording when a builder meets the status and progress controls. */
export const ADMIN_ONLY_STATUS_SCREEN = 'Only administrators can update project status and progress';
/** SPEC §6: the restricted-access alert's default text. */
export const ACCESS_RESTRICTED_TEXT = 'This action is restricted to administrators only.';

/** SPEC §6 restricted-access alert: "Access Restricted" and why. */
export function AccessRestricted({ children = ACCESS_RESTRICTED_TEXT, className }: { children?: ReactNode; className?: string }) {
  return (
    <div
      role="note"
      aria-label="Access Restricted"
      className={cn(
        'flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 px-3.5 py-3 text-sm text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100',
        className,
      )}
    >
      <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 space-y-0.5">
        <p className="font-semibold">Access Restricted</p>
        <p>{children}</p>
      </div>
    </div>
  );
}
