import { useCallback, useEffect, useState } from 'react';
import { HelpCircle, KeyRound, LogOut, Monitor, Pencil, ShieldCheck, Smartphone, Tablet, Trash2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { DeviceSession, PasskeyInfo, Security } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { formatDate, relativeTime } from '../../lib/dates';
import { deviceKind, deviceTitle, deviceWhere, type DeviceKind } from '../../lib/devices';
import { passkeysSupported } from '../../lib/passkeys';
import { recoveryCodesLeft } from '../../lib/recoveryCodes';
import { useNow } from '../../lib/useNow';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { toastRequestError } from '../../sync/errors';
import { ConfirmDialog } from '../dialogs/ConfirmDialog';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Notice } from '../ui/Notice';
import { Skeleton } from '../ui/Skeleton';
import { AddPasskeyDialog, RenamePasskeyDialog } from './PasskeyDialogs';
import { PasswordConfirmDialog } from './PasswordConfirmDialog';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetupDialog } from './TotpSetupDialog';
import { SettingsHeading } from '../settings/SettingsHeading';
import { SettingsPart, StateBadge, settingsIconButton } from '../settings/SettingsPart';

/** This account's factors and devices, read on open and after every (re)connect; each change's reply replaces it. */
export function useSecurity() {
  const epoch = useAppStore((s) => s.liveEpoch);
  const [security, setSecurity] = useState<Security | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setSecurity(await commands.security());
      setFailed(null);
    } catch (err) {
      setFailed(err instanceof RequestError && err.fromServer ? err.message : 'Your security settings could not be loaded.');
    }
  }, []);

  useEffect(() => {
    if (epoch > 0) void refresh();
  }, [epoch, refresh]);

  return { security, failed, setSecurity, refresh };
}

function AuthenticatorApp({ security, onChanged }: { security: Security; onChanged: (next: Security) => void }) {
  const [dialog, setDialog] = useState<null | 'setup' | 'new-codes' | 'turn-off'>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [making, setMaking] = useState(false);

  const refresh = () => void commands.security().then(onChanged).catch(() => undefined);

  const makeCodes = async () => {
    setMaking(true);
    try {
      setCodes(await commands.newRecoveryCodes());
      setDialog(null);
      refresh();
    } catch (err) {
      setDialog(null);
      if (!(err instanceof RequestError && err.code === 'factor_required')) toastRequestError(err, 'New recovery codes could not be made.');
    } finally {
      setMaking(false);
    }
  };

  return (
    <SettingsPart
      title="Authenticator app"
      badge={<StateBadge on={security.totp}>{security.totp ? 'On' : 'Off'}</StateBadge>}
      description={
        security.totp ? (
          <span data-testid="recovery-codes-left">{recoveryCodesLeft(security.recoveryCodesLeft)}.</span>
        ) : (
          'A 6-digit code from an app on your phone, such as Google Authenticator or 1Password, each time you sign in.'
        )
      }
      actions={
        security.totp ? (
          <>
            <Button variant="outline" size="sm" onClick={() => setDialog('new-codes')}>
              New recovery codes
            </Button>
            <Button variant="outline" size="sm" onClick={() => setDialog('turn-off')}>
              Turn off
            </Button>
          </>
        ) : (
          <Button variant="secondary" size="sm" onClick={() => setDialog('setup')}>
            Set up
          </Button>
        )
      }
    >
      {dialog === 'setup' && <TotpSetupDialog onClose={() => setDialog(null)} onEnabled={refresh} />}
      <ConfirmDialog
        open={dialog === 'new-codes'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Make new recovery codes?"
        description={`The codes you have now stop working (${recoveryCodesLeft(security.recoveryCodesLeft).toLowerCase()}). You will see ten new ones once.`}
        confirmLabel="Make new codes"
        confirmVariant="secondary"
        busy={making}
        onConfirm={() => void makeCodes()}
      />
      {dialog === 'turn-off' && (
        <PasswordConfirmDialog
          title="Turn off the authenticator app?"
          description="Signing in will no longer ask for its codes, and your recovery codes stop working."
          confirmLabel="Turn off"
          busyLabel="Turning off..."
          onConfirm={async (password) => {
            onChanged(await commands.removeTotp(password));
            toast.success('The authenticator app is off');
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {codes && (
        <Dialog
          open
          onOpenChange={(open) => !open && setCodes(null)}
          title="Your new recovery codes"
          description="The old ones no longer work."
          widthClass="max-w-[480px]"
          sheet
        >
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        </Dialog>
      )}
    </SettingsPart>
  );
}

function Passkeys({ security, onChanged }: { security: Security; onChanged: (next: Security) => void }) {
  const now = useNow();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<PasskeyInfo | null>(null);
  const [removing, setRemoving] = useState<PasskeyInfo | null>(null);
  const supported = passkeysSupported();
  const count = security.passkeys.length;

  return (
    <SettingsPart
      title="Passkeys"
      badge={<StateBadge on={count > 0}>{count === 0 ? 'None' : count === 1 ? '1 passkey' : `${count} passkeys`}</StateBadge>}
      description="Sign in with your fingerprint, face or screen lock, without a password or code."
      actions={
        <Button variant={count === 0 ? 'secondary' : 'outline'} size="sm" onClick={() => setAdding(true)} disabled={!supported}>
          <KeyRound className="size-4" aria-hidden="true" />
          Add a passkey
        </Button>
      }
    >
      {!supported && <Notice>This browser cannot make passkeys. Add one from another browser or device.</Notice>}
      {count > 0 && (
        <ul aria-label="Your passkeys" className="divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
          {security.passkeys.map((passkey) => (
            <li key={passkey.id} data-testid="passkey-row" className="flex items-center gap-3 px-4 py-3">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                <KeyRound className="size-4" aria-hidden="true" />
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-slate-900 dark:text-white">{passkey.name}</p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${relativeTime(passkey.lastUsedAt, now)}` : 'Not used yet'}
                </p>
              </div>
              <button type="button" className={settingsIconButton} onClick={() => setRenaming(passkey)} aria-label={`Rename ${passkey.name}`}>
                <Pencil className="size-4" aria-hidden="true" />
              </button>
              <button
                type="button"
                className={cn(settingsIconButton, 'hover:bg-red-50 hover:text-red-600 dark:hover:bg-red-500/10 dark:hover:text-red-400')}
                onClick={() => setRemoving(passkey)}
                aria-label={`Remove ${passkey.name}`}
              >
                <Trash2 className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {adding && (
        <AddPasskeyDialog
          onClose={() => setAdding(false)}
          onAdded={(next) => {
            onChanged(next);
            toast.success('Passkey added');
          }}
        />
      )}
      {renaming && <RenamePasskeyDialog key={renaming.id} passkey={renaming} onClose={() => setRenaming(null)} onRenamed={onChanged} />}
      {removing && (
        <PasswordConfirmDialog
          key={removing.id}
          title={`Remove “${removing.name}”?`}
          description="You will no longer be able to sign in with this passkey. Remove it from the device too, in its passkey or password settings."
          confirmLabel="Remove passkey"
          busyLabel="Removing..."
          onConfirm={async (password) => {
            onChanged(await commands.removePasskey(removing.id, password));
            toast.success('Passkey removed');
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </SettingsPart>
  );
}

const KIND_ICONS: Record<DeviceKind, typeof Monitor> = { desktop: Monitor, phone: Smartphone, tablet: Tablet, other: HelpCircle };

function DeviceRow({ device, now, busy, onSignOut }: { device: DeviceSession; now: number; busy: boolean; onSignOut: () => void }) {
  const Icon = KIND_ICONS[deviceKind(device.kind)];
  const where = deviceWhere(device);
  const title = deviceTitle(device);
  return (
    <li data-testid="device-row" className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <Icon className="size-4" aria-hidden="true" />
          <span className="sr-only">{device.kind}</span>
        </span>
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900 dark:text-white">
            <span className="min-w-0 break-words">{title}</span>
            {device.current && (
              <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-400/15 dark:text-amber-200">
                This device
              </span>
            )}
          </p>
          {where && <p className="text-xs break-words text-slate-600 dark:text-slate-400">{where}</p>}
          <p className="text-xs text-slate-600 dark:text-slate-400">
            Signed in {formatDate(device.signedInAt)} · {device.current ? 'Active now' : `Last active ${relativeTime(device.lastActiveAt, now)}`}
          </p>
        </div>
      </div>
      {!device.current && (
        <Button variant="outline" size="sm" className="self-start sm:self-center" onClick={onSignOut} loading={busy} disabled={busy} aria-label={`Sign out ${title}`}>
          {!busy && <LogOut className="size-4" aria-hidden="true" />}
          Sign out
        </Button>
      )}
    </li>
  );
}

function Devices({ security, onChanged }: { security: Security; onChanged: (next: Security) => void }) {
  const now = useNow();
  const [ending, setEnding] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const [endingAll, setEndingAll] = useState(false);
  const others = security.devices.filter((d) => !d.current).length;

  const endOne = async (device: DeviceSession) => {
    setEnding(device.id);
    try {
      onChanged(await commands.endSession(device.id));
      toast.success(`${deviceTitle(device)} is signed out`);
    } catch (err) {
      toastRequestError(err, 'That device could not be signed out.');
    } finally {
      setEnding(null);
    }
  };

  const endAll = async () => {
    setEndingAll(true);
    try {
      onChanged(await commands.endOtherSessions());
      toast.success('Your other devices are signed out');
      setConfirmAll(false);
    } catch (err) {
      toastRequestError(err, 'Your other devices could not be signed out.');
    } finally {
      setEndingAll(false);
    }
  };

  return (
    <SettingsPart
      title="Signed-in devices"
      description="Where your account is signed in now. Sign out any you do not recognise, then change your password."
      actions={
        others > 0 ? (
          <Button variant="outline" size="sm" onClick={() => setConfirmAll(true)}>
            <LogOut className="size-4" aria-hidden="true" />
            Sign out everywhere else
          </Button>
        ) : undefined
      }
    >
      <ul aria-label="Signed-in devices" className="divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
        {security.devices.map((device) => (
          <DeviceRow key={device.id} device={device} now={now} busy={ending === device.id} onSignOut={() => void endOne(device)} />
        ))}
      </ul>
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title="Sign out everywhere else?"
        description={`${others === 1 ? 'Your other device is' : `Your ${others} other devices are`} signed out at once. This one stays signed in.`}
        confirmLabel="Sign out everywhere else"
        busy={endingAll}
        onConfirm={() => void endAll()}
      />
    </SettingsPart>
  );
}

/**
 * Profile & Settings' Security (docs/SECURITY.md, "Two-factor sign-in"): the
 * authenticator app and its recovery codes, passkeys, and the devices signed in to this
 * account. Mails about sign-ins link here.
 */
export function SecuritySection() {
  const { security, failed, setSecurity } = useSecurity();
  const hasFactor = security !== null && (security.totp || security.passkeys.length > 0);
  return (
    <section
      id="security"
      aria-labelledby="security-heading"
      className="scroll-mt-24 rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <SettingsHeading
        icon={<ShieldCheck className="size-5" aria-hidden="true" />}
        title="Security"
        headingId="security-heading"
        description="A second step when you sign in, and the devices signed in to your account."
      />
      {security ? (
        <div className="divide-y divide-slate-100 dark:divide-slate-800">
          {security.required && !hasFactor && (
            <div className="px-5 py-4 sm:px-6">
              <Notice tone="error">Your administrator requires two-factor sign-in. Set up an authenticator app or a passkey.</Notice>
            </div>
          )}
          <AuthenticatorApp security={security} onChanged={setSecurity} />
          <Passkeys security={security} onChanged={setSecurity} />
          <Devices security={security} onChanged={setSecurity} />
        </div>
      ) : failed ? (
        <div className="px-5 py-5 sm:px-6">
          <Notice tone="error">{failed}</Notice>
        </div>
      ) : (
        <div className="space-y-3 px-5 py-5 sm:px-6" role="status" aria-label="Loading security settings">
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      )}
    </section>
  );
}
