import { Check, Circle } from 'lucide-react';
import { passwordRules, type PasswordMinimum } from '../lib/passwordRules';
import { cn } from '../lib/cn';

/**
 * The rules a new password must meet, ticked off as the user types (SPEC §5 lists weak
 * passwords' reasons; the server checks the same ones). Hidden until typing starts.
 */
export function PasswordChecklist({ password, min, className }: { password: string; min: PasswordMinimum; className?: string }) {
  if (!password) return null;
  const rules = passwordRules(password, min);
  return (
    <ul aria-label="Password requirements" className={cn('grid gap-1 text-xs sm:grid-cols-2', className)} data-testid="password-rules">
      {rules.map((rule) => (
        <li
          key={rule.label}
          data-met={rule.met}
          className={cn(
            'flex items-center gap-1.5',
            rule.met ? 'text-green-700 dark:text-green-400' : 'text-slate-600 dark:text-slate-300',
          )}
        >
          {rule.met ? <Check className="size-3.5 shrink-0" aria-hidden="true" /> : <Circle className="size-3 shrink-0" aria-hidden="true" />}
          <span>
            {rule.label}
            <span className="sr-only">{rule.met ? ' (met)' : ' (not met)'}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
