import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { Profile, Role } from '../protocol/types';
import { apiFetch, apiResponse } from './http';

export interface DemoConfig {
  password: string;
  accounts: { role: Role; email: string }[];
}

export interface AppConfig {
  demo: DemoConfig | null;
}

export const getConfig = () => apiFetch<AppConfig>('/api/config');

/**
 * A session: the cookie came with it. `enrolRequired`: the installation
 * requires a second factor of this user and they have none yet, so setting one up is
 * all this session may do.
 */
export interface SignedIn {
  user: Profile;
  enrolRequired: boolean;
}

/** The second steps an account has, in the order the server lists them. */
export type SecondFactorMethod = 'totp' | 'recovery' | 'passkey';

/** The password was right and the account has a second factor: no cookie yet. */
export interface SecondFactorNeeded {
  secondFactor: { ticket: string; methods: SecondFactorMethod[] };
}

export const getMe = () => apiFetch<SignedIn>('/api/auth/me');

declare global {
  interface Window {
    /** The session check index.html starts with the page; null when it could not be sent. */
    sitecastSessionCheck?: Promise<Response | null>;
  }
}

/**
 * The session check of the app's start: the answer to the request index.html sent as
 * the page began to load, a round trip earlier than the scripts could on a weak signal
 * (docs/LIMITS.md, "First paint"). Taken once; without it (or when it failed to be sent)
 * a new request.
 */
export async function getMeAtStart(): Promise<SignedIn> {
  const early = typeof window === 'undefined' ? undefined : window.sitecastSessionCheck;
  if (early) delete window.sitecastSessionCheck;
  const response = await early;
  return response ? apiResponse<SignedIn>('/api/auth/me', response) : getMe();
}

export const login = (email: string, password: string) =>
  apiFetch<SignedIn | SecondFactorNeeded>('/api/auth/login', { body: { email, password } });

export function needsSecondFactor(answer: SignedIn | SecondFactorNeeded): answer is SecondFactorNeeded {
  return 'secondFactor' in answer;
}

/** The second step with a 6-digit app code or a recovery code (each works once). */
export const loginWithCode = (ticket: string, code: string) =>
  apiFetch<SignedIn>('/api/auth/login/code', { body: { ticket, code } });

export interface PasskeyChallenge {
  challengeId: string;
  options: { publicKey: PublicKeyCredentialRequestOptionsJSON };
}

/** Options to sign with a passkey: the second step of `ticket`'s sign-in, or without one, the whole sign-in. */
export const passkeyOptions = (ticket?: string) =>
  apiFetch<PasskeyChallenge>('/api/auth/passkey/options', { body: ticket ? { ticket } : {} });

export const loginWithPasskey = (challengeId: string, credential: AuthenticationResponseJSON) =>
  apiFetch<SignedIn>('/api/auth/passkey', { body: { challengeId, credential } });

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
