import { lazy, Suspense, useEffect, useSyncExternalStore, type ComponentType } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { lazyModule, useLazyModule } from './lib/lazyModule';
import { toasterReady, toastsWaiting } from './lib/toast';
import { useAppStore } from './store';
import { AuthBootstrap } from './session/AuthBootstrap';
import { ThemeController } from './session/ThemeController';
import { RedirectIfAuthenticated, RequireAuth } from './session/routes';
import { FullPageSpinner } from './components/FullPageSpinner';
import { NotificationRouting } from './offline/NotificationRouting';
import { useAppUpdate } from './offline/serviceWorker';
import { NotFoundPage } from './pages/NotFoundPage';

// Each screen is loaded lazily: a visitor on the login page does not download the
// signed-in app (socket, codec, dashboard), and the reverse. The most used are built
// into a few chunks by build/firstScreens.mjs, which index.html fetches beside the
// entry for the address it opens at, so a first screen arrives in one round even
// where a lazy screen sits in another (the project page in AppShell).
const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, key: K) =>
  lazy(() => load().then((m) => ({ default: m[key] })));
const LiveSocket = named(() => import('./sync/LiveSocket'), 'LiveSocket');
// "Confirm it's you" for any sensitive action, over whichever page is open
// (docs/SECURITY.md, "Two-factor sign-in").
const FactorPromptHost = named(() => import('./components/security/FactorPromptHost'), 'FactorPromptHost');
const AppShell = named(() => import('./components/AppShell'), 'AppShell');
const LoginPage = named(() => import('./pages/LoginPage'), 'LoginPage');
const SignupPage = named(() => import('./pages/SignupPage'), 'SignupPage');
const CheckEmailPage = named(() => import('./pages/CheckEmailPage'), 'CheckEmailPage');
const ForgotPasswordPage = named(() => import('./pages/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = named(() => import('./pages/ResetPasswordPage'), 'ResetPasswordPage');
const UnsubscribePage = named(() => import('./pages/UnsubscribePage'), 'UnsubscribePage');
const DashboardPage = named(() => import('./pages/DashboardPage'), 'DashboardPage');
const ProjectsPage = named(() => import('./pages/ProjectsPage'), 'ProjectsPage');
const HomeownerProjectsPage = named(() => import('./pages/ProjectsPage'), 'HomeownerProjectsPage');
const BuilderProjectsPage = named(() => import('./pages/ProjectsPage'), 'BuilderProjectsPage');
const ProjectDetailPage = named(() => import('./pages/ProjectDetailPage'), 'ProjectDetailPage');
const CompanyPage = named(() => import('./pages/CompanyPage'), 'CompanyPage');
const ProfileSettingsPage = named(() => import('./pages/ProfileSettingsPage'), 'ProfileSettingsPage');
const ProjectComparePage = named(() => import('./pages/ProjectComparePage'), 'ProjectComparePage');
// Guest links: public, their own socket and store, none of the signed-in app.
const GuestLayout = named(() => import('./pages/GuestPages'), 'GuestLayout');
const GuestProjectPage = named(() => import('./pages/GuestPages'), 'GuestProjectPage');
const GuestComparePage = named(() => import('./pages/GuestPages'), 'GuestComparePage');
// Public pages: none of these chunks imports the signed-in app.
const PublicShell = named(() => import('./components/PublicLayout'), 'PublicShell');
const LandingPage = named(() => import('./pages/LandingPage'), 'LandingPage');
const AboutPage = named(() => import('./pages/AboutPage'), 'AboutPage');
const ContactPage = named(() => import('./pages/ContactPage'), 'ContactPage');
const TermsOfServicePage = named(() => import('./pages/LegalPages'), 'TermsOfServicePage');
const PrivacyPolicyPage = named(() => import('./pages/LegalPages'), 'PrivacyPolicyPage');
const CookiePolicyPage = named(() => import('./pages/LegalPages'), 'CookiePolicyPage');
// Loaded once a new version waits (it reads the upload queue, tus and all).
const UpdateReadyBanner = named(() => import('./components/UpdateReadyBanner'), 'UpdateReadyBanner');

// sonner comes once the page is idle, or with the first toast, which waits for it (lib/toast).
const sonnerLibrary = lazyModule(() => import('sonner'));

function ToastHost() {
  const theme = useAppStore((s) => s.theme);
  const waiting = useSyncExternalStore(toastsWaiting.subscribe, toastsWaiting.count);
  // Failing, it says nothing (it would be a toast): the next toast asks again.
  const sonner = useLazyModule(sonnerLibrary, { what: null, wanted: waiting });
  // After the Toaster's own effects: it listens by now.
  useEffect(() => {
    if (sonner) toasterReady(sonner.toast);
  }, [sonner]);
  if (!sonner) return null;
  return <sonner.Toaster position="top-center" richColors closeButton theme={theme} />;
}

export function App() {
  const authenticated = useAppStore((s) => s.sessionStatus === 'authenticated');
  const updateReady = useAppUpdate((s) => s.ready);
  const login = (
    <RedirectIfAuthenticated>
      <LoginPage />
    </RedirectIfAuthenticated>
  );
  return (
    <BrowserRouter>
      <ThemeController />
      <AuthBootstrap />
      <NotificationRouting />
      {authenticated && (
        <Suspense fallback={null}>
          <LiveSocket />
          <FactorPromptHost />
        </Suspense>
      )}
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route path="/" element={login} />
          <Route path="/login" element={login} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/check-email" element={<CheckEmailPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/unsubscribe" element={<UnsubscribePage />} />
          <Route path="/home" element={<LandingPage />} />
          <Route element={<PublicShell />}>
            <Route path="/about" element={<AboutPage />} />
            <Route path="/contact" element={<ContactPage />} />
            <Route path="/terms-of-service" element={<TermsOfServicePage />} />
            <Route path="/privacy-policy" element={<PrivacyPolicyPage />} />
            <Route path="/cookie-policy" element={<CookiePolicyPage />} />
          </Route>
          <Route path="/guest/:token" element={<GuestLayout />}>
            <Route index element={<GuestProjectPage />} />
            <Route path="compare" element={<GuestComparePage />} />
          </Route>
          <Route element={<RequireAuth />}>
            {/* Full screen: no app header over the photos. */}
            <Route path="/projects/:id/compare" element={<ProjectComparePage />} />
            <Route element={<AppShell />}>
              <Route path="/dashboard" element={<DashboardPage />} />
              <Route path="/projects" element={<ProjectsPage />} />
              <Route path="/projects/:id" element={<ProjectDetailPage />} />
              <Route path="/profile-settings" element={<ProfileSettingsPage />} />
            </Route>
          </Route>
          {/* A builder's company and its people. */}
          <Route element={<RequireAuth roles={['builder']} />}>
            <Route element={<AppShell />}>
              <Route path="/company" element={<CompanyPage />} />
            </Route>
          </Route>
          {/* SPEC §6: only admins and builders see other people's project lists. */}
          <Route element={<RequireAuth roles={['admin', 'builder']} />}>
            <Route element={<AppShell />}>
              <Route path="/homeowner/:homeownerId/projects" element={<HomeownerProjectsPage />} />
              <Route path="/builder/:builderId/projects" element={<BuilderProjectsPage />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
      <ToastHost />
      {updateReady && (
        <Suspense fallback={null}>
          <UpdateReadyBanner />
        </Suspense>
      )}
    </BrowserRouter>
  );
}
