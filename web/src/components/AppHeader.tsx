import { Link, useLocation, useNavigate } from 'react-router';
import { ArrowLeft, CloudOff } from 'lucide-react';
import { parentPath, showsBackButton } from '../lib/backNavigation';
import { useOnline } from '../offline/useOnline';
import { useAppStore } from '../store';
import { Logo } from './Logo';
import { NotificationBell } from './notifications/NotificationBell';
import { HeaderSearch } from './search/HeaderSearch';
import { UpdateRequiredBanner } from './UpdateRequiredBanner';
import { UserMenu } from './UserMenu';
import { buttonClasses } from './ui/Button';

export function AppHeader() {
  const user = useAppStore((s) => s.user);
  const connection = useAppStore((s) => s.connection);
  const { pathname } = useLocation();
  const back = showsBackButton(pathname);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70 dark:border-slate-800 dark:bg-slate-950/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        {back && <BackButton pathname={pathname} />}
        <Logo to={user ? '/dashboard' : '/'} className={back ? 'max-sm:hidden' : undefined} />
        {user && (
          <div className="hidden min-w-0 flex-1 justify-center md:flex">
            <HeaderSearch slot="center" />
          </div>
        )}
        <div className="flex items-center gap-3">
          {user ? (
            <>
              <HeaderSearch slot="actions" />
              <NotificationBell />
              <UserMenu user={user} online={connection === 'open'} />
            </>
          ) : (
            <Link to="/login" className={buttonClasses('primary', 'sm')}>
              Login
            </Link>
          )}
        </div>
      </div>
      <ConnectionBanner />
      <UpdateRequiredBanner />
    </header>
  );
}

/**
 * SPEC §2: deep project paths show a back button instead of the logo on small screens.
 * It goes back in this tab's history when there is some, else up one level.
 */
function BackButton({ pathname }: { pathname: string }) {
  const navigate = useNavigate();
  const goBack = () => {
    // react-router keeps the history index in history.state; 0 means this tab started here.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(parentPath(pathname));
  };
  return (
    <button
      type="button"
      onClick={goBack}
      className="-ml-2 inline-flex h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:hidden dark:text-slate-200 dark:hover:bg-slate-800"
    >
      <ArrowLeft className="size-5" aria-hidden="true" />
      Back
    </button>
  );
}

/**
 * Shown while the live connection is down. Nothing needs reloading afterwards: the
 * next Hello replaces everything the page shows. Offline, or showing the copy kept on
 * the device, it says so instead.
 */
function ConnectionBanner() {
  const connection = useAppStore((s) => s.connection);
  const savedCopy = useAppStore((s) => s.showingSavedCopy);
  const online = useOnline();
  if (!online || savedCopy) return <OfflineBanner />;
  if (connection !== 'reconnecting') return null;
  return (
    <div
      role="status"
      data-testid="reconnecting"
      className="border-t border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-400/20 dark:bg-amber-400/10 dark:text-amber-200"
    >
      <div className="mx-auto flex max-w-7xl items-center gap-2.5 px-4 py-2 text-sm sm:px-6 lg:px-8">
        <span className="relative flex size-2.5 shrink-0" aria-hidden="true">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-amber-400 opacity-75" />
          <span className="relative inline-flex size-2.5 rounded-full bg-amber-500" />
        </span>
        <span className="font-medium">Reconnecting…</span>
        <span className="hidden text-amber-800/80 sm:inline dark:text-amber-200/70">
          Live updates are paused. This page catches up by itself once you're back online.
        </span>
      </div>
    </div>
  );
}

/** Offline: what the pages show is what this device saw last; it catches up once back online. */
function OfflineBanner() {
  // Homeowners only look; admins and builders add photos, which wait on the device.
  const uploads = useAppStore((s) => s.user?.role !== 'homeowner');
  return (
    <div role="status" data-testid="offline-banner" className="border-t border-slate-800 bg-slate-900 text-white dark:border-slate-700 dark:bg-slate-800">
      <div className="mx-auto flex max-w-7xl items-center gap-2.5 px-4 py-2 text-sm sm:px-6 lg:px-8">
        <CloudOff className="size-4 shrink-0 text-brand-400" aria-hidden="true" />
        <span className="font-medium">Offline — showing what you saw last</span>
        <span className="hidden text-slate-300 sm:inline">
          {uploads ? "Photos you add wait on this device and go up once you're back online." : 'New photos appear once you’re back online.'}
        </span>
      </div>
    </div>
  );
}
