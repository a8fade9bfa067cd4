import { lazy, Suspense, useEffect, useId, useLayoutEffect, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Menu, Moon, Sun, X } from 'lucide-react';
import { useAppStore } from '../store';
import { cn } from '../lib/cn';
import { Logo } from './Logo';
import { UpdateRequiredBanner } from './UpdateRequiredBanner';
import { buttonClasses } from './ui/Button';
import { Skeleton } from './ui/Skeleton';
import { Spinner } from './ui/Spinner';

// The public pages (landing, about, contact, legal) share this header and footer.
// Nothing here may import the signed-in app (socket, codec, dashboard): a visitor
// reading the landing page should download only what the landing page needs.

// The avatar menu (Radix dropdown) is only fetched for signed-in visitors.
const UserMenu = lazy(() => import('./UserMenu').then((m) => ({ default: m.UserMenu })));

const NAV = [
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
] as const;

export const FOOTER_LINKS = {
  company: [
    { to: '/about', label: 'About Us' },
    { to: '/contact', label: 'Contact Us' },
  ],
  legal: [
    { to: '/terms-of-service', label: 'Terms' },
    { to: '/privacy-policy', label: 'Privacy' },
    { to: '/cookie-policy', label: 'Cookies' },
  ],
} as const;

const focusRing =
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 focus-visible:ring-offset-white dark:focus-visible:ring-offset-slate-950';

/** Light/dark switch for signed-out visitors; signed-in users pick a theme in the avatar menu. */
function ThemeToggle() {
  const theme = useAppStore((s) => s.theme);
  const setTheme = useAppStore((s) => s.setTheme);
  const dark =
    theme === 'dark' || (theme === 'system' && typeof window !== 'undefined' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  return (
    <button
      type="button"
      onClick={() => setTheme(dark ? 'light' : 'dark')}
      aria-label={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      className={cn(
        'inline-flex size-9 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white',
        focusRing,
      )}
    >
      {dark ? <Sun className="size-4.5" aria-hidden="true" /> : <Moon className="size-4.5" aria-hidden="true" />}
    </button>
  );
}

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors',
    focusRing,
    isActive ? 'text-slate-900 dark:text-white' : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white',
  );

export function PublicHeader() {
  const user = useAppStore((s) => s.user);
  const status = useAppStore((s) => s.sessionStatus);
  const connection = useAppStore((s) => s.connection);
  // Phones: About and Contact do not fit beside the logo, so they fold into a menu.
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const menuId = useId();
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70 dark:border-slate-800 dark:bg-slate-950/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <div className="flex items-center gap-8">
          <Logo to="/home" />
          <nav aria-label="Main" className="hidden items-center gap-1 sm:flex">
            {NAV.map(({ to, label }) => (
              <NavLink key={to} to={to} className={navLinkClasses}>
                {label}
              </NavLink>
            ))}
          </nav>
        </div>
        <div className="flex items-center gap-2">
          {status === 'unknown' ? (
            // Same footprint as the Login button, so the header does not shift once we know.
            <Skeleton className="h-8 w-16 rounded-lg" />
          ) : user ? (
            <Suspense fallback={<Skeleton className="size-10 rounded-full" />}>
              <UserMenu user={user} online={connection === 'open'} />
            </Suspense>
          ) : (
            <>
              <ThemeToggle />
              <Link to="/login" className={buttonClasses('primary', 'sm', 'px-4')}>
                Login
              </Link>
            </>
          )}
          <button
            type="button"
            onClick={() => setMenuOpen((v) => !v)}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            className={cn(
              'inline-flex size-9 items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 sm:hidden dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
              focusRing,
            )}
          >
            {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
            <span className="sr-only">Menu</span>
          </button>
        </div>
      </div>
      <div id={menuId} hidden={!menuOpen} className="border-t border-slate-200/80 sm:hidden dark:border-slate-800">
        <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-col gap-1 px-2 py-2">
          {NAV.map(({ to, label }) => (
            <NavLink key={to} to={to} className={(state) => cn(navLinkClasses(state), 'px-3 py-3 text-base')}>
              {label}
            </NavLink>
          ))}
        </nav>
      </div>
      <UpdateRequiredBanner />
    </header>
  );
}

function SocialIcon({ name }: { name: 'facebook' | 'x' | 'linkedin' }) {
  // lucide-react no longer ships brand marks; these are simplified single-path glyphs.
  const paths = {
    facebook:
      'M13.5 21v-7.5h2.5l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.5V4.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.7 1.3-3.7 3.8v2.4H8.1v3h2.5V21h2.9z',
    x: 'M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.2-8.3L1.8 3h6.4l4.4 5.8L17.8 3zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5z',
    linkedin:
      'M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.75h4V21H3V9.75zm6.5 0h3.8v1.55h.06c.53-1 1.83-2.05 3.77-2.05 4.03 0 4.77 2.65 4.77 6.1V21h-4v-4.95c0-1.18-.02-2.7-1.65-2.7-1.65 0-1.9 1.29-1.9 2.61V21h-4V9.75z',
  } as const;
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4 fill-current">
      <path d={paths[name]} />
    </svg>
  );
}

const SOCIAL = [
  { name: 'facebook', label: 'Sitecast on Facebook', href: 'https://www.facebook.com/' },
  { name: 'x', label: 'Sitecast on X', href: 'https://x.com/' },
  { name: 'linkedin', label: 'Sitecast on LinkedIn', href: 'https://www.linkedin.com/' },
] as const;

const footerLinkClasses = cn(
  'rounded text-sm text-slate-600 transition-colors hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
  focusRing,
);

export function PublicFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950" data-testid="site-footer">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="grid grid-cols-2 gap-10 lg:grid-cols-4">
          <div className="col-span-2">
            <Logo to="/home" />
            <p className="mt-4 max-w-sm text-sm leading-6 text-slate-600 dark:text-slate-400">
              Construction progress, photographed and shared. Builders document every stage; homeowners follow their own
              build from anywhere.
            </p>
          </div>
          <nav aria-label="Company" className="space-y-3">
            <h2 className="text-xs font-semibold tracking-wider text-slate-900 uppercase dark:text-white">Company</h2>
            <ul className="space-y-2.5">
              {FOOTER_LINKS.company.map(({ to, label }) => (
                <li key={to}>
                  <Link to={to} className={footerLinkClasses}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-label="Legal" className="space-y-3">
            <h2 className="text-xs font-semibold tracking-wider text-slate-900 uppercase dark:text-white">Legal</h2>
            <ul className="space-y-2.5">
              {FOOTER_LINKS.legal.map(({ to, label }) => (
                <li key={to}>
                  <Link to={to} className={footerLinkClasses}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <div className="mt-10 flex flex-col-reverse items-start justify-between gap-4 border-t border-slate-200 pt-6 sm:flex-row sm:items-center dark:border-slate-800">
          <p className="text-sm text-slate-500 dark:text-slate-400">© {year} Sitecast. All rights reserved.</p>
          <ul className="flex items-center gap-2" aria-label="Social media">
            {SOCIAL.map(({ name, label, href }) => (
              <li key={name}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={label}
                  className={cn(
                    'inline-flex size-9 items-center justify-center rounded-full text-slate-500 ring-1 ring-slate-200 transition-colors hover:bg-slate-50 hover:text-slate-900 dark:text-slate-400 dark:ring-slate-800 dark:hover:bg-slate-900 dark:hover:text-white',
                    focusRing,
                  )}
                >
                  <SocialIcon name={name} />
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}

/** A new public page starts at the top; in-page anchors (#section) keep their own scroll. */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useLayoutEffect(() => {
    if (!hash) window.scrollTo(0, 0);
    // Only a change of page resets the scroll, not a change of anchor.
  }, [pathname]);
  return null;
}

/** Header, page, footer — for pages that render their own content (the landing page). */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-white dark:bg-slate-950">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-medium text-slate-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:ring-2 focus:ring-brand-500"
      >
        Skip to content
      </a>
      <PublicHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}

function PageFallback() {
  return (
    <div className="flex min-h-[60dvh] items-center justify-center" role="status">
      <Spinner className="size-6 text-brand-500" />
      <span className="sr-only">Loading</span>
    </div>
  );
}

/** Layout route for /about, /contact and the legal pages. */
export function PublicShell() {
  return (
    <PublicFrame>
      <ScrollToTop />
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </PublicFrame>
  );
}
