import { useEffect, useState } from 'react';
import { Mail } from 'lucide-react';
import { toast } from 'sonner';
import type { MailPreferences } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { SettingsHeading } from '../settings/SettingsHeading';

const OPTIONS: { key: keyof MailPreferences; label: string; hint: string }[] = [
  { key: 'newPhotos', label: 'New photos', hint: 'One email per upload to your project.' },
  { key: 'comments', label: 'Comments and mentions', hint: 'A short digest of comments, replies and @mentions.' },
  { key: 'statusChanges', label: 'Status changes', hint: 'When your project’s status changes.' },
];

/** Profile & Settings, "Email me about" (issue 17): each kind of mail obeys its switch. */
export function MailPreferencesCard() {
  const epoch = useAppStore((s) => s.liveEpoch);
  const [prefs, setPrefs] = useState<MailPreferences | null>(null);
  const [saving, setSaving] = useState<keyof MailPreferences | null>(null);

  useEffect(() => {
    if (epoch === 0) return;
    commands.mailPreferences().then(setPrefs).catch(() => undefined);
  }, [epoch]);

  const toggle = async (key: keyof MailPreferences) => {
    if (!prefs) return;
    const next = { ...prefs, [key]: !prefs[key] };
    setPrefs(next);
    setSaving(key);
    try {
      setPrefs(await commands.updateMailPreferences(next));
      toast.success('Email preferences saved');
    } catch {
      setPrefs(prefs);
      toast.error('Could not save your email preferences');
    } finally {
      setSaving(null);
    }
  };

  return (
    <section
      id="email"
      aria-label="Email me about"
      className="scroll-mt-24 rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <SettingsHeading
        icon={<Mail className="size-4.5" aria-hidden="true" />}
        title="Email me about"
        description="Notifications in the app stay on; these choose what also comes by email."
      />
      <ul className="divide-y divide-slate-100 px-5 sm:px-6 dark:divide-slate-800">
        {OPTIONS.map(({ key, label, hint }) => {
          const on = prefs?.[key] ?? false;
          return (
            <li key={key} className="flex items-center justify-between gap-4 py-4">
              <div>
                <p id={`mail-${key}`} className="text-sm font-medium text-slate-900 dark:text-slate-100">{label}</p>
                <p className="text-sm text-slate-500 dark:text-slate-400">{hint}</p>
              </div>
              <button
                type="button"
                role="switch"
                aria-checked={on}
                aria-labelledby={`mail-${key}`}
                disabled={!prefs || saving !== null}
                onClick={() => void toggle(key)}
                className={cn(
                  'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-60 dark:focus-visible:ring-offset-slate-900',
                  on ? 'bg-amber-500' : 'bg-slate-300 dark:bg-slate-700',
                )}
              >
                <span className={cn('inline-block size-5 rounded-full bg-white shadow transition', on ? 'translate-x-5.5' : 'translate-x-0.5')} />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
