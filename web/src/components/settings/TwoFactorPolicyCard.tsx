import { useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { InstallationSettings } from '../../protocol/types';
import { RequestError } from '../../sync/requests';
import { SwitchField } from '../ui/Choices';
import { Notice } from '../ui/Notice';
import type { InstallationSettingsState } from './useInstallationSettings';
import { SettingsHeading } from './SettingsHeading';

type Rule = keyof Pick<InstallationSettings, 'requireFactorAdmins' | 'requireFactorCompanyLeads'>;

const RULES: { key: Rule; label: string; hint: string }[] = [
  {
    key: 'requireFactorAdmins',
    label: 'Require for administrators',
    hint: 'Administrators without an authenticator app or a passkey set one up at their next sign-in.',
  },
  {
    key: 'requireFactorCompanyLeads',
    label: "Require for builder companies' owners and managers",
    hint: 'Crew and homeowners choose for themselves.',
  },
];

/**
 * Profile & Settings, admins only (docs/SECURITY.md, "Two-factor sign-in"): who must sign
 * in with a second factor. Someone it newly applies to is led to set one up at their next
 * sign-in; sessions already open go on as they are.
 */
export function TwoFactorPolicyCard({ settings }: { settings: InstallationSettingsState }) {
  const { held, failed } = settings;
  const [saving, setSaving] = useState<Rule | null>(null);

  const toggle = async (rule: Rule, on: boolean) => {
    setSaving(rule);
    try {
      await settings.save({ [rule]: on });
      toast.success(on ? 'Two-factor sign-in is now required for them' : 'Two-factor sign-in is now their choice');
    } catch (err) {
      toast.error('Could not change the setting', err instanceof RequestError && err.fromServer ? { description: err.message } : undefined);
    } finally {
      setSaving(null);
    }
  };

  return (
    <section
      id="two-factor"
      aria-label="Two-factor sign-in"
      className="scroll-mt-24 rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <SettingsHeading
        icon={<ShieldCheck className="size-4.5" aria-hidden="true" />}
        title="Two-factor sign-in"
        description="For everyone on this Sitecast: an authenticator app or a passkey as well as the password."
      />
      <div className="space-y-5 px-5 py-5 sm:px-6">
        {RULES.map(({ key, label, hint }) => (
          <SwitchField
            key={key}
            label={label}
            hint={hint}
            checked={held?.[key] ?? false}
            disabled={!held || saving !== null}
            onChange={(on) => void toggle(key, on)}
          />
        ))}
        {failed && <Notice tone="error">{failed}</Notice>}
      </div>
    </section>
  );
}
