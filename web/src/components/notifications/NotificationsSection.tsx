import { useCallback, useEffect, useState } from 'react';
import { Bell, BellOff, BellRing } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { PushDevice, PushSettings } from '../../protocol/types';
import { formatDate } from '../../lib/dates';
import {
  currentSubscription,
  notificationPermission,
  pushFailure,
  pushSupported,
  subscribeThisBrowser,
  unsubscribeThisBrowser,
  unsupportedMessage,
} from '../../lib/webPush';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';
import { RequestError } from '../../sync/requests';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Notice';
import { Skeleton } from '../ui/Skeleton';
import { SettingsHeading } from '../settings/SettingsHeading';
import { SettingsPart, StateBadge } from '../settings/SettingsPart';
import { NotificationPreferences } from './NotificationPreferences';

/**
 * The account's devices with push notifications on, read on open and after every
 * (re)connect with this browser's subscription, so the server can say which is this one.
 */
function usePushSettings() {
  const epoch = useAppStore((s) => s.liveEpoch);
  const [settings, setSettings] = useState<PushSettings | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  /** This browser's subscription, as the server knows it when this device is on. */
  const [endpoint, setEndpoint] = useState<string | null>(null);

  useEffect(() => {
    if (epoch === 0) return;
    let current = true;
    void (async () => {
      const subscription = await currentSubscription().catch(() => null);
      try {
        const read = await commands.pushSettings(subscription?.endpoint);
        if (!current) return;
        setEndpoint(subscription?.endpoint ?? null);
        setSettings(read);
        setFailed(null);
      } catch (err) {
        if (current) setFailed(err instanceof RequestError && err.fromServer ? err.message : 'Your notification settings could not be loaded.');
      }
    })();
    return () => {
      current = false;
    };
  }, [epoch]);

  return { settings, failed, setSettings, endpoint, setEndpoint };
}

/** Notification.permission, followed while the page is open (the person may allow it again in site settings). */
function usePermission() {
  const [permission, setPermission] = useState<NotificationPermission>(notificationPermission);
  useEffect(() => {
    if (!pushSupported() || !navigator.permissions) return;
    let status: PermissionStatus | null = null;
    const follow = () => setPermission(notificationPermission());
    navigator.permissions
      .query({ name: 'notifications' })
      .then((answer) => {
        status = answer;
        answer.addEventListener('change', follow);
      })
      .catch(() => undefined);
    return () => status?.removeEventListener('change', follow);
  }, []);
  return [permission, setPermission] as const;
}

const BLOCKED =
  'Notifications are blocked for Sitecast in this browser. To allow them again, open the site’s settings (the icon at the left of the address bar; on a phone, the browser’s menu › Settings › Site settings › Notifications), set Notifications to Allow, then come back here.';

function ThisDevice({
  settings,
  endpoint,
  onChanged,
}: {
  settings: PushSettings;
  endpoint: string | null;
  onChanged: (next: PushSettings, endpoint: string | null) => void;
}) {
  const [permission, setPermission] = usePermission();
  const [busy, setBusy] = useState(false);
  const supported = pushSupported();
  const on = settings.devices.some((d) => d.thisDevice);

  const turnOn = async () => {
    setBusy(true);
    try {
      const answer = await Notification.requestPermission();
      setPermission(answer);
      if (answer !== 'granted') {
        // Closing the browser's question without choosing leaves it 'default': ask again later.
        if (answer === 'default') toast.info('Notifications stay off: the browser’s question was closed without an answer.');
        return;
      }
      const subscription = await subscribeThisBrowser(settings.publicKey);
      try {
        onChanged(await commands.subscribePush(subscription), subscription.endpoint);
      } catch (err) {
        // A subscription the server will not send to is of no use to keep.
        await unsubscribeThisBrowser();
        throw err;
      }
      toast.success('Notifications are on for this device');
    } catch (err) {
      if (err instanceof RequestError) toastRequestError(err, 'Notifications could not be turned on.');
      else toast.error(pushFailure(err));
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    try {
      const ended = (await unsubscribeThisBrowser()) ?? endpoint;
      if (ended) onChanged(await commands.unsubscribePush(ended), null);
      toast.success('Notifications are off for this device');
    } catch (err) {
      toastRequestError(err, 'Notifications could not be turned off.');
    } finally {
      setBusy(false);
    }
  };

  const blocked = supported && permission === 'denied';
  return (
    <SettingsPart
      title="This device"
      badge={<StateBadge on={on}>{on ? 'On' : 'Off'}</StateBadge>}
      description={
        on
          ? 'This device shows a notification for what you choose below, even when Sitecast is closed.'
          : 'Get a notification on this device for new photos, comments and status changes, even when Sitecast is closed.'
      }
      actions={
        on ? (
          <Button variant="outline" size="sm" onClick={() => void turnOff()} loading={busy} disabled={busy}>
            {!busy && <BellOff className="size-4" aria-hidden="true" />}
            Turn off
          </Button>
        ) : supported && !blocked ? (
          <Button variant="secondary" size="sm" className="w-full sm:w-auto" onClick={() => void turnOn()} loading={busy} disabled={busy}>
            {!busy && <BellRing className="size-4" aria-hidden="true" />}
            Turn on notifications on this device
          </Button>
        ) : undefined
      }
    >
      {!supported && <Notice>{unsupportedMessage(navigator.userAgent)}</Notice>}
      {blocked && <Notice>{BLOCKED}</Notice>}
    </SettingsPart>
  );
}

function DeviceRow({ device, busy, onRemove }: { device: PushDevice; busy: boolean; onRemove: () => void }) {
  return (
    <li data-testid="push-device-row" className="flex items-center gap-3 px-4 py-3">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
        <Bell className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-medium text-slate-900 dark:text-white">
          <span className="min-w-0 break-words">{device.device}</span>
          {device.thisDevice && (
            <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-400/15 dark:text-amber-200">
              This device
            </span>
          )}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">On since {formatDate(device.createdAt)}</p>
      </div>
      {!device.thisDevice && (
        <Button variant="outline" size="sm" onClick={onRemove} loading={busy} disabled={busy} aria-label={`Remove ${device.device}`}>
          Remove
        </Button>
      )}
    </li>
  );
}

function Devices({ settings, endpoint, onChanged }: { settings: PushSettings; endpoint: string | null; onChanged: (next: PushSettings) => void }) {
  const [removing, setRemoving] = useState<string | null>(null);

  const remove = async (device: PushDevice) => {
    setRemoving(device.id);
    try {
      onChanged(await commands.removePushDevice(device.id, endpoint ?? undefined));
      toast.success(`Notifications are off for ${device.device}`);
    } catch (err) {
      toastRequestError(err, 'Notifications could not be turned off for that device.');
    } finally {
      setRemoving(null);
    }
  };

  return (
    <SettingsPart
      title="Devices with notifications on"
      description="Each gets push notifications until it is removed here, turned off on it, or signed out."
    >
      <ul aria-label="Devices with notifications on" className="divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
        {settings.devices.map((device) => (
          <DeviceRow key={device.id} device={device} busy={removing === device.id} onRemove={() => void remove(device)} />
        ))}
      </ul>
    </SettingsPart>
  );
}

/**
 * Profile & Settings › Notifications
 * (docs/FEATURES.md, "Comments, notifications and mail"): push notifications on this
 * device, the account's devices that have them, and what comes by email and by push.
 */
export function NotificationsSection() {
  const { settings, failed, setSettings, endpoint, setEndpoint } = usePushSettings();
  const changed = useCallback(
    (next: PushSettings, thisEndpoint: string | null) => {
      setSettings(next);
      setEndpoint(thisEndpoint);
    },
    [setSettings, setEndpoint],
  );

  return (
    <section
      id="notifications"
      aria-labelledby="notifications-heading"
      className="scroll-mt-24 rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <SettingsHeading
        icon={<Bell className="size-4.5" aria-hidden="true" />}
        title="Notifications"
        headingId="notifications-heading"
        description="The bell in the app has every one. Choose what also reaches you on your devices and by email."
      />
      <div className="divide-y divide-slate-100 dark:divide-slate-800">
        {settings ? (
          <>
            <ThisDevice settings={settings} endpoint={endpoint} onChanged={changed} />
            {settings.devices.length > 0 && <Devices settings={settings} endpoint={endpoint} onChanged={setSettings} />}
          </>
        ) : failed ? (
          <div className="px-5 py-5 sm:px-6">
            <Notice tone="error">{failed}</Notice>
          </div>
        ) : (
          <div className="space-y-3 px-5 py-5 sm:px-6" role="status" aria-label="Loading notification settings">
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-full" />
          </div>
        )}
        <NotificationPreferences />
      </div>
    </section>
  );
}
