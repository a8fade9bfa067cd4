import type { Profile, Role } from '../protocol/types';
import { apiFetch } from './http';

export interface DemoConfig {
  password: string;
  accounts: { role: Role; email: string }[];
}

export interface AppConfig {
  demo: DemoConfig | null;
}

export const getConfig = () => apiFetch<AppConfig>('/api/config');

export const getMe = () => apiFetch<{ user: Profile }>('/api/auth/me');

export const login = (email: string, password: string) =>
  apiFetch<{ user: Profile }>('/api/auth/login', { body: { email, password } });

export const logout = () => apiFetch<void>('/api/auth/logout', { method: 'POST' });

export interface SignupRequest {
  role: string;
  email: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
  name: string;
  phone: string;
}

export const signup = (body: SignupRequest) => apiFetch<{ email: string }>('/api/auth/signup', { body });

export const forgotPassword = (email: string) =>
  apiFetch<{ message: string }>('/api/auth/forgot', { body: { email } });

export interface ResetTokenInfo {
  kind: 'invite' | 'reset';
  email: string;
}

export const checkResetToken = (token: string) =>
  apiFetch<ResetTokenInfo>(`/api/auth/reset/check?token=${encodeURIComponent(token)}`);

export const resetPassword = (token: string, password: string, confirmPassword: string) =>
  apiFetch<{ message: string }>('/api/auth/reset', { body: { token, password, confirmPassword } });
