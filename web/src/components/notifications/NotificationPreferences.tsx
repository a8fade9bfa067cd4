import { useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import type { MailPreferences } from '../../protocol/types';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { SettingsPart } from '../settings/SettingsPart';

type Channel = 'email' | 'push';

/** Each kind of notification, and its switch per channel (email and push). */
const KINDS: { label: string; hint: string; email: keyof MailPreferences; push: keyof MailPreferences }[] = [
  { label: 'New photos', hint: 'One email per upload to your project.', email: 'newPhotos', push: 'pushNewPhotos' },
  { label: 'Comments and @mentions', hint: 'A short digest of comments, replies and @mentions.', email: 'comments', push: 'pushComments' },
  { label: 'Status changes', hint: 'When your project’s status changes.', email: 'statusChanges', push: 'pushStatusChanges' },
];

const SAVED: Record<Channel, string> = { email: 'Email preferences saved', push: 'Push preferences saved' };
const NOT_SAVED: Record<Channel, string> = { email: 'Could not save your email preferences', push: 'Could not save your push preferences' };

/**
 * The account's six switches, read on open and after every (re)connect. A change shows
 * at once; saves go one after another, each sending every switch as shown then, and
 * the last answer (or, if it fails, the last saved state) is what stays.
 */
function usePreferences() {
  const epoch = useAppStore((s) => s.liveEpoch);
  const [shown, setShown] = useState<MailPreferences | null>(null);
  const wanted = useRef<MailPreferences | null>(null);
  const saved = useRef<MailPreferences | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const pending = useRef(0);

  const show = (prefs: MailPreferences) => {
    wanted.current = prefs;
    setShown(prefs);
  };

  useEffect(() => {
    if (epoch === 0) return;
    commands
      .mailPreferences()
      .then((prefs) => {
        saved.current = prefs;
        if (pending.current === 0) show(prefs);
      })
      .catch(() => undefined);
  }, [epoch]);

  const change = (key: keyof MailPreferences, on: boolean, channel: Channel) => {
    if (!wanted.current) return;
    const next = { ...wanted.current, [key]: on };
    show(next);
    pending.current += 1;
    queue.current = queue.current.then(async () => {
      try {
        const answer = await commands.updateMailPreferences(next);
        saved.current = answer;
        if (pending.current === 1) show(answer);
        toast.success(SAVED[channel]);
      } catch {
        if (pending.current === 1 && saved.current) show(saved.current);
        toast.error(NOT_SAVED[channel]);
      } finally {
        pending.current -= 1;
      }
    });
  };

  return { prefs: shown, change };
}

function Switch({ label, checked, disabled, onChange }: { label: string; checked: boolean; disabled: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="inline-flex size-11 cursor-pointer items-center justify-center rounded-lg hover:bg-slate-50 has-[:disabled]:cursor-not-allowed dark:hover:bg-slate-800/60">
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        className="size-5 rounded accent-amber-600 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 focus-visible:outline-none disabled:opacity-60 dark:focus-visible:ring-offset-slate-900"
      />
      <span className="sr-only">{label}</span>
    </label>
  );
}

/**
 * Profile & Settings › Notifications, "Notify me about": each kind of notification by
 * email and by push. The app's bell always has them; email obeys the Email column (the
 * mails' "Email preferences" link and unsubscribe land on `#email`), push the Push
 * column, on every device that has notifications on.
 */
export function NotificationPreferences() {
  const { prefs, change } = usePreferences();
  return (
    <SettingsPart
      id="email"
      title="Notify me about"
      description="Notifications in the app stay on. Email goes to your address; push goes to each of your devices with notifications on."
    >
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">What Sitecast tells you about by email and by push notification</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th scope="col" className="pb-2 font-medium">
              <span className="sr-only">Kind of notification</span>
            </th>
            <th scope="col" className="w-14 pb-2 text-center text-xs font-semibold tracking-wide text-slate-600 uppercase sm:w-20 dark:text-slate-300">
              Email
            </th>
            <th scope="col" className="w-14 pb-2 text-center text-xs font-semibold tracking-wide text-slate-600 uppercase sm:w-20 dark:text-slate-300">
              Push
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {KINDS.map((kind) => (
            <tr key={kind.email}>
              <th scope="row" className="py-2.5 pr-3 align-middle font-normal">
                <span className="block font-medium text-slate-900 dark:text-slate-100">{kind.label}</span>
                <span className="block text-slate-500 dark:text-slate-400">{kind.hint}</span>
              </th>
              {(['email', 'push'] as const).map((channel) => (
                <td key={channel} className="py-1 text-center align-middle">
                  <Switch
                    label={`${kind.label} by ${channel === 'email' ? 'email' : 'push notification'}`}
                    checked={prefs?.[kind[channel]] ?? false}
                    disabled={!prefs}
                    onChange={(on) => change(kind[channel], on, channel)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </SettingsPart>
  );
}
