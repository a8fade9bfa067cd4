import { useState } from 'react';
import { Building2, LayoutDashboard, LogOut, Monitor, Moon, Sun, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import type { Profile } from '../protocol/types';
import { initials } from '../lib/avatar';
import { displayName } from '../lib/names';
import { useAppStore, type Theme } from '../store';
import { useLogout } from '../session/useLogout';
import { Avatar } from './Avatar';
import { PendingTrigger, useTriggerSwap } from './lazyPart';
import { useLazyModule } from '../lib/lazyModule';
import { menuLibrary } from './ui/radixLibraries';

const itemClasses =
  'flex cursor-pointer select-none items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800 dark:data-[highlighted]:text-white';

const themes: { value: Theme; label: string; icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'system', label: 'System', icon: Monitor },
];

export function UserMenu({ user, online }: { user: Profile; online: boolean }) {
  const theme = useAppStore((s) => s.theme);
  const setTheme = useAppStore((s) => s.setTheme);
  const logout = useLogout();
  const name = displayName(user);
  const [pressed, setPressed] = useState(false);
  const DropdownMenu = useLazyModule(menuLibrary, { what: 'The user menu', wanted: pressed, onFailed: () => setPressed(false) });
  const { pendingRef, ref } = useTriggerSwap(DropdownMenu !== null);
  const trigger = {
    // The name starts with what the avatar shows (WCAG 2.5.3 label in name).
    'aria-label': `${initials(name)}: Open user menu for ${name}`,
    className:
      'rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-950',
    children: <Avatar name={name} size="md" online={online} />,
  };
  if (!DropdownMenu) return <PendingTrigger popup="menu" pendingRef={pendingRef} onPress={() => setPressed(true)} {...trigger} />;

  return (
    <DropdownMenu.Root modal={false} defaultOpen={pressed}>
      <DropdownMenu.Trigger ref={ref} {...trigger} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-64 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="flex items-center gap-3 px-2.5 py-2.5">
            <Avatar name={name} size="md" />
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold text-slate-900 dark:text-white" data-testid="menu-name">
                {name}
              </p>
              <p className="truncate text-xs text-slate-500 dark:text-slate-400">{user.email}</p>
            </div>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100 dark:bg-slate-800" />
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/dashboard">
              <LayoutDashboard className="size-4" aria-hidden="true" />
              Dashboard
            </Link>
          </DropdownMenu.Item>
          {user.role === 'builder' && (
            // A builder's company and its people.
            <DropdownMenu.Item asChild className={itemClasses}>
              <Link to="/company">
                <Building2 className="size-4" aria-hidden="true" />
                Company
              </Link>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/profile-settings">
              <UserRound className="size-4" aria-hidden="true" />
              Profile
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100 dark:bg-slate-800" />
          <DropdownMenu.Label className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-slate-500 dark:text-slate-400">
            Theme
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
            {themes.map(({ value, label, icon: Icon }) => (
              <DropdownMenu.RadioItem key={value} value={value} className={itemClasses}>
                <Icon className="size-4" aria-hidden="true" />
                <span className="flex-1">{label}</span>
                <DropdownMenu.ItemIndicator>
                  <span className="size-1.5 rounded-full bg-brand-500 block" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100 dark:bg-slate-800" />
          <DropdownMenu.Item className={itemClasses} onSelect={() => void logout()}>
            <LogOut className="size-4" aria-hidden="true" />
            Log out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
