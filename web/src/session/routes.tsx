import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Role } from '../protocol/types';
import { useAppStore } from '../store';
import { FullPageSpinner } from '../components/FullPageSpinner';
import { loginPathFor, pathAfterLogin, REMOVED_FROM_COMPANY, SESSION_EXPIRED, SESSION_EXPIRED_LOGOUT_MS } from './returnTo';

/**
 * A session that ended under the user (expired, revoked elsewhere, password changed on
 * another device): say so, wait SPEC §9's 1.5 s, then go to /login remembering the page.
 * Someone removed from their company (issue 30) is told that instead, and not brought back.
 */
function SessionEnded({ removed }: { removed: boolean }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    // One id: a second render (or a second cause, socket and HTTP both noticing) shows one toast.
    toast.error(removed ? REMOVED_FROM_COMPANY : SESSION_EXPIRED, { id: 'session-expired' });
    const timer = window.setTimeout(
      () => navigate(loginPathFor(pathname + search, removed ? { removed: true } : { expired: true }), { replace: true }),
      SESSION_EXPIRED_LOGOUT_MS,
    );
    return () => window.clearTimeout(timer);
  }, [navigate, pathname, search, removed]);
  return <FullPageSpinner />;
}

/** Protected pages need a session and optionally one of some roles; a wrong role goes to /dashboard (SPEC §2). */
export function RequireAuth({ roles }: { roles?: Role[] }) {
  const status = useAppStore((s) => s.sessionStatus);
  const role = useAppStore((s) => s.user?.role);
  const reason = useAppStore((s) => s.signOutReason);
  const { pathname, search } = useLocation();
  if (status === 'unknown') return <FullPageSpinner />;
  // After an explicit logout the login page says so (SPEC §2: /login?logout=true).
  if (status === 'anonymous' && reason === 'logout') return <Navigate to="/login?logout=true" replace />;
  if (status === 'anonymous' && (reason === 'revoked' || reason === 'removed')) return <SessionEnded removed={reason === 'removed'} />;
  // Not signed in: after login, come back to the page asked for.
  if (status === 'anonymous') return <Navigate to={loginPathFor(pathname + search)} replace />;
  if (roles && role && !roles.includes(role)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}

/**
 * An already authenticated user on the login page goes to /dashboard (SPEC §2), or back
 * to the page a sign-in was asked for.
 */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const status = useAppStore((s) => s.sessionStatus);
  const { search } = useLocation();
  if (status === 'authenticated') return <Navigate to={pathAfterLogin(search)} replace />;
  return <>{children}</>;
}
