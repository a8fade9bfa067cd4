import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { toast } from '../lib/toast';
import type { Role } from '../protocol/types';
import { useAppStore } from '../store';
import { FullPageSpinner } from '../components/FullPageSpinner';
import type { SignOutReason } from '../store/session';
import { loginPathFor, pathAfterLogin, REMOVED_FROM_COMPANY, SESSION_EXPIRED, SESSION_EXPIRED_LOGOUT_MS, SIGNED_OUT_ELSEWHERE } from './returnTo';

// The enrolment screen is part of the signed-in app (it talks over the socket).
const EnrolPage = lazy(() => import('../pages/EnrolPage').then((m) => ({ default: m.EnrolPage })));

/** Why a session ended, as the toast says it; each goes to the login page that says it again. */
const ENDED: Record<'revoked' | 'removed' | 'elsewhere', { message: string; login: Parameters<typeof loginPathFor>[1] }> = {
  revoked: { message: SESSION_EXPIRED, login: { expired: true } },
  removed: { message: REMOVED_FROM_COMPANY, login: { removed: true } },
  elsewhere: { message: SIGNED_OUT_ELSEWHERE, login: { elsewhere: true } },
};

/**
 * A session that ended under the user (expired, revoked elsewhere, password changed on
 * another device): say so, wait SPEC §9's 1.5 s, then go to /login remembering the page.
 * Someone removed from their company is told that instead, and not brought
 * back; someone who signed this device out from another is told that.
 */
function SessionEnded({ reason }: { reason: keyof typeof ENDED }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    const { message, login } = ENDED[reason];
    // One id: a second render (or a second cause, socket and HTTP both noticing) shows one toast.
    toast.error(message, { id: 'session-expired' });
    const timer = window.setTimeout(() => navigate(loginPathFor(pathname + search, login), { replace: true }), SESSION_EXPIRED_LOGOUT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate, pathname, search, reason]);
  return <FullPageSpinner />;
}

const endedUnderUser = (reason: SignOutReason | null): reason is keyof typeof ENDED =>
  reason === 'revoked' || reason === 'removed' || reason === 'elsewhere';

/** Protected pages need a session and optionally one of some roles; a wrong role goes to /dashboard (SPEC §2). */
export function RequireAuth({ roles }: { roles?: Role[] }) {
  const status = useAppStore((s) => s.sessionStatus);
  const role = useAppStore((s) => s.user?.role);
  const reason = useAppStore((s) => s.signOutReason);
  const enrolRequired = useAppStore((s) => s.enrolRequired);
  const { pathname, search } = useLocation();
  if (status === 'unknown') return <FullPageSpinner />;
  // After an explicit logout the login page says so (SPEC §2: /login?logout=true).
  if (status === 'anonymous' && reason === 'logout') return <Navigate to="/login?logout=true" replace />;
  if (status === 'anonymous' && endedUnderUser(reason)) return <SessionEnded reason={reason} />;
  // Not signed in: after login, come back to the page asked for.
  if (status === 'anonymous') return <Navigate to={loginPathFor(pathname + search)} replace />;
  // Nothing of the app until the second factor the installation requires is set
  // up; the page asked for opens after it, at the same address.
  if (enrolRequired) {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <EnrolPage />
      </Suspense>
    );
  }
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
