import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { loginPathFor, safeNextPath } from '../lib/nextPath';
import type { Role } from '../protocol/types';
import { useAppStore } from '../store';
import { FullPageSpinner } from '../components/FullPageSpinner';

/** Protected pages need a session and optionally one of some roles; a wrong role goes to /dashboard (SPEC §2). */
export function RequireAuth({ roles }: { roles?: Role[] }) {
  const status = useAppStore((s) => s.sessionStatus);
  const role = useAppStore((s) => s.user?.role);
  const reason = useAppStore((s) => s.signOutReason);
  const location = useLocation();
  if (status === 'unknown') return <FullPageSpinner />;
  // After an explicit logout the login page says so (SPEC §2: /login?logout=true);
  // otherwise a deep link (a mail's photo link) comes back after signing in.
  if (status === 'anonymous') {
    return <Navigate to={reason === 'logout' ? '/login?logout=true' : loginPathFor(location.pathname + location.search)} replace />;
  }
  if (roles && role && !roles.includes(role)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}

/** An already authenticated user on the login page goes to /dashboard (SPEC §2). */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const status = useAppStore((s) => s.sessionStatus);
  const [params] = useSearchParams();
  if (status === 'authenticated') return <Navigate to={safeNextPath(params.get('next')) ?? '/dashboard'} replace />;
  return <>{children}</>;
}
