import { BrowserRouter, Route, Routes } from 'react-router';
import { Toaster } from 'sonner';
import { useAppStore } from './store';
import { LiveSocket } from './sync/LiveSocket';
import { AuthBootstrap } from './session/AuthBootstrap';
import { ThemeController } from './session/ThemeController';
import { RedirectIfAuthenticated, RequireAuth } from './session/routes';
import { AppShell } from './components/AppShell';
import { LoginPage } from './pages/LoginPage';
import { SignupPage } from './pages/SignupPage';
import { CheckEmailPage } from './pages/CheckEmailPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { DashboardPage } from './pages/DashboardPage';
import { NotFoundPage } from './pages/NotFoundPage';

function ToastHost() {
  const theme = useAppStore((s) => s.theme);
  return <Toaster position="top-center" richColors closeButton theme={theme} />;
}

export function App() {
  const authenticated = useAppStore((s) => s.sessionStatus === 'authenticated');
  const login = (
    <RedirectIfAuthenticated>
      <LoginPage />
    </RedirectIfAuthenticated>
  );
  return (
    <BrowserRouter>
      <ThemeController />
      <AuthBootstrap />
      {authenticated && <LiveSocket />}
      <Routes>
        <Route path="/" element={login} />
        <Route path="/login" element={login} />
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/check-email" element={<CheckEmailPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route element={<RequireAuth />}>
          <Route element={<AppShell />}>
            <Route path="/dashboard" element={<DashboardPage />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
      <ToastHost />
    </BrowserRouter>
  );
}
