import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { KeyRound, Pencil, UserRound } from 'lucide-react';
import { toast } from '../lib/toast';
import type { Profile } from '../protocol/types';
import { displayName } from '../lib/names';
import { ROLE_LABELS } from '../lib/people';
import { MAX_LENGTH } from '../lib/limits';
import { passwordProblems } from '../lib/passwordRules';
import { useAppStore } from '../store';
import { commands } from '../sync/commands';
import { RequestError } from '../sync/requests';
import { Avatar } from '../components/Avatar';
import { PageHeader } from '../components/PageHeader';
import { NotificationsSection } from '../components/notifications/NotificationsSection';
import { PhotoLocationsCard } from '../components/settings/PhotoLocationsCard';
import { TwoFactorPolicyCard } from '../components/settings/TwoFactorPolicyCard';
import { useInstallationSettings } from '../components/settings/useInstallationSettings';
import { SecuritySection } from '../components/security/SecuritySection';
import { Button } from '../components/ui/Button';
import { Field } from '../components/ui/Field';
import { PasswordChecklist } from '../components/PasswordChecklist';
import { SettingsHeading } from '../components/settings/SettingsHeading';

// SPEC §5 Change password, verbatim.
const PASSWORDS_DONT_MATCH = 'New passwords do not match.';
const PASSWORD_EMPTY = 'New password cannot be empty.';
const CURRENT_REQUIRED = 'Current password is required.';
// SPEC §5 Sign up / Edit user.
const NAME_REQUIRED = 'Name is required';

function Panel({ title, description, icon, children }: { title: string; description: string; icon: ReactNode; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <SettingsHeading icon={icon} title={title} description={description} />
      <div className="px-5 py-5 sm:px-6">{children}</div>
    </section>
  );
}

function ReadOnly({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="space-y-1">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">{label}</p>
      <p className="text-sm font-medium break-words text-slate-900 dark:text-slate-100">{value || <span className="text-slate-500 dark:text-slate-400">—</span>}</p>
    </div>
  );
}

function MyProfile({ user }: { user: Profile }) {
  const [editing, setEditing] = useState(false);
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [company, setCompany] = useState(user.name ?? '');
  const [phone, setPhone] = useState(user.phone ?? '');
  const [nameError, setNameError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const name = displayName(user);
  // A builder is their company name (SPEC §2 Sign up), edited like any other detail:
  // only email and role are read-only (SPEC §2 Profile & Settings).
  const builder = user.role === 'builder';

  const startEditing = () => {
    setFirstName(user.firstName ?? '');
    setLastName(user.lastName ?? '');
    setCompany(user.name ?? '');
    setNameError(undefined);
    setPhone(user.phone ?? '');
    setEditing(true);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (builder && !company.trim()) {
      setNameError(NAME_REQUIRED);
      return;
    }
    setSaving(true);
    try {
      // SPEC §3 Forms: blank fields are sent as empty strings.
      await commands.updateProfile({
        firstName: builder ? '' : firstName.trim(),
        lastName: builder ? '' : lastName.trim(),
        phone: phone.trim(),
        ...(builder ? { name: company.trim() } : {}),
      });
      toast.success('Profile updated successfully!');
      setEditing(false);
    } catch (err) {
      const field = err instanceof RequestError ? err.fields.find((f) => f.field === 'name') : undefined;
      if (field) setNameError(field.message);
      toast.error('Failed to update profile.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Panel title="My Profile" description="Your name and contact details." icon={<UserRound className="size-5" aria-hidden="true" />}>
      <div className="mb-6 flex items-center gap-4">
        <Avatar name={name} size="lg" online />
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold text-slate-900 dark:text-white" data-testid="profile-name">
            {name}
          </p>
          <p className="truncate text-sm text-slate-500 dark:text-slate-400">{user.email}</p>
        </div>
      </div>
      {editing ? (
        <form onSubmit={save} noValidate>
          <fieldset disabled={saving} className="grid gap-4 sm:grid-cols-2">
            {builder ? (
              <Field
                label="Company / Builder name"
                maxLength={MAX_LENGTH.name}
                value={company}
                onChange={(e) => {
                  setCompany(e.target.value);
                  setNameError(undefined);
                }}
                error={nameError}
                autoComplete="organization"
                className="sm:col-span-2"
              />
            ) : (
              <>
                <Field label="First name" maxLength={MAX_LENGTH.firstName} value={firstName} onChange={(e) => setFirstName(e.target.value)} autoComplete="given-name" />
                <Field label="Last name" maxLength={MAX_LENGTH.lastName} value={lastName} onChange={(e) => setLastName(e.target.value)} autoComplete="family-name" />
              </>
            )}
            <Field label="Email" value={user.email} readOnly disabled hint="Contact an administrator to change your email." />
            <Field
              label="Phone"
              maxLength={MAX_LENGTH.phone}
              type="tel"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              placeholder="(555) 123-4567"
              autoComplete="tel"
            />
            <Field label="Role" value={ROLE_LABELS[user.role]} readOnly disabled />
          </fieldset>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => setEditing(false)} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" variant="secondary" loading={saving} disabled={saving}>
              {saving ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      ) : (
        <div>
          <div className="grid gap-5 sm:grid-cols-2">
            {builder ? (
              <div className="sm:col-span-2">
                <ReadOnly label="Company / Builder name" value={user.name} />
              </div>
            ) : (
              <>
                <ReadOnly label="First name" value={user.firstName} />
                <ReadOnly label="Last name" value={user.lastName} />
              </>
            )}
            <ReadOnly label="Email" value={user.email} />
            <ReadOnly label="Phone" value={user.phone} />
            <ReadOnly label="Role" value={ROLE_LABELS[user.role]} />
          </div>
          <div className="mt-6 flex sm:justify-end">
            <Button variant="outline" onClick={startEditing} className="w-full sm:w-auto">
              <Pencil className="size-4" aria-hidden="true" />
              Edit Profile
            </Button>
          </div>
        </div>
      )}
    </Panel>
  );
}

type PasswordErrors = Partial<Record<'currentPassword' | 'newPassword' | 'confirmPassword', string>>;

function ChangePassword() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirmPassword, setConfirm] = useState('');
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: PasswordErrors = {};
    // Our server requires and checks the current password (SPEC only held it).
    if (!currentPassword) found.currentPassword = CURRENT_REQUIRED;
    if (!newPassword) found.newPassword = PASSWORD_EMPTY;
    else {
      // SPEC §5: a weak password's reasons; the server checks the same rules.
      const weak = passwordProblems(newPassword, 6)[0];
      if (weak) found.newPassword = weak;
    }
    if (newPassword !== confirmPassword) found.confirmPassword = PASSWORDS_DONT_MATCH;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await commands.changePassword({ currentPassword, newPassword, confirmPassword });
      toast.success('Password updated successfully! You might need to log in again elsewhere.');
      setCurrent('');
      setNew('');
      setConfirm('');
    } catch (err) {
      if (err instanceof RequestError && err.fields.length > 0) {
        setErrors(Object.fromEntries(err.fields.map((f) => [f.field, f.message])));
      } else {
        toast.error('Failed to update password.');
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Panel
      title="Change Password"
      description="Other devices signed in to your account will be signed out."
      icon={<KeyRound className="size-5" aria-hidden="true" />}
    >
      <form onSubmit={submit} noValidate>
        <fieldset disabled={saving} className="space-y-4">
          <Field
            label="Current password"
            maxLength={MAX_LENGTH.password}
            type="password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
            error={errors.currentPassword}
            autoComplete="current-password"
          />
          <Field
            label="New password"
            maxLength={MAX_LENGTH.password}
            type="password"
            value={newPassword}
            onChange={(e) => setNew(e.target.value)}
            error={errors.newPassword}
            autoComplete="new-password"
          />
          <PasswordChecklist password={newPassword} min={6} className="-mt-2" />
          <Field
            label="Confirm new password"
            maxLength={MAX_LENGTH.password}
            type="password"
            value={confirmPassword}
            onChange={(e) => setConfirm(e.target.value)}
            error={errors.confirmPassword}
            autoComplete="new-password"
          />
        </fieldset>
        <div className="mt-6 flex sm:justify-end">
          <Button type="submit" variant="secondary" loading={saving} disabled={saving} className="w-full sm:w-auto">
            {saving ? 'Updating...' : 'Update Password'}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

/** Admins: the settings for everyone on this Sitecast, sharing one copy (see useInstallationSettings). */
function InstallationCards() {
  const settings = useInstallationSettings();
  return (
    <>
      <TwoFactorPolicyCard settings={settings} />
      <PhotoLocationsCard settings={settings} />
    </>
  );
}

export function ProfileSettingsPage() {
  const user = useAppStore((s) => s.user);
  const { hash } = useLocation();
  // Mails link to a card (#email, #security, #notifications): the router does not scroll to it by itself.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
  if (!user) return null;
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <PageHeader title="Profile & Settings" subtitle="Manage your account details, password, sign-in security and notifications." />
      <MyProfile user={user} />
      <ChangePassword />
      <SecuritySection />
      <NotificationsSection />
      {user.role === 'admin' && <InstallationCards />}
    </div>
  );
}
