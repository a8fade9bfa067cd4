import { WifiOff } from 'lucide-react';
import { useAppStore } from '../store';
import { Logo } from './Logo';
import { UserMenu } from './UserMenu';
import { buttonClasses } from './ui/Button';
import { Link } from 'react-router';

export function AppHeader() {
  const user = useAppStore((s) => s.user);
  const connection = useAppStore((s) => s.connection);
  const offline = connection === 'reconnecting' || connection === 'closed';

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70 dark:border-slate-800 dark:bg-slate-950/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo to={user ? '/dashboard' : '/'} />
        <div className="flex items-center gap-3">
          {offline && (
            <span
              role="status"
              className="inline-flex items-center gap-1.5 rounded-full bg-amber-50 px-2.5 py-1 text-xs font-medium text-amber-800 ring-1 ring-amber-200 ring-inset dark:bg-amber-400/10 dark:text-amber-300 dark:ring-amber-400/20"
            >
              <WifiOff className="size-3.5" aria-hidden="true" />
              Reconnecting…
            </span>
          )}
          {user ? (
            <UserMenu user={user} online={connection === 'open'} />
          ) : (
            <Link to="/login" className={buttonClasses('primary', 'sm')}>
              Login
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
