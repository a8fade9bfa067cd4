import { z } from 'zod';
import { passwordProblems } from './passwordRules';

// Messages are SPEC.md §5 verbatim. Cross-field rules live in superRefine on plain
// string fields so every message shows at once on submit, independent of the others.

export const MESSAGES = {
  email: 'Please enter a valid email address.',
  password6: 'Password must be at least 6 characters.',
  password8: 'Password must be at least 8 characters long.',
  mismatch: "Passwords don't match",
  role: 'Please select a role.',
  firstName: 'First name is required',
  lastName: 'Last name is required',
  name: 'Name is required',
  message: 'Message is required',
} as const;

const emailField = z.string().trim().pipe(z.email({ error: MESSAGES.email }));

function isEmail(value: string): boolean {
  return z.email().safeParse(value.trim()).success;
}

export const loginSchema = z.object({
  email: emailField,
  password: z.string().min(6, { error: MESSAGES.password6 }),
});
export type LoginValues = z.input<typeof loginSchema>;

export const forgotSchema = z.object({
  email: emailField,
});
export type ForgotValues = z.input<typeof forgotSchema>;

export const resetSchema = z
  .object({
    password: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine((values, ctx) => {
    // SPEC §5: a weak password's first reason shows on the field; the checklist under it shows all.
    const weak = passwordProblems(values.password, 6)[0];
    if (weak) ctx.addIssue({ code: 'custom', path: ['password'], message: weak });
    if (values.confirmPassword !== values.password) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.mismatch });
    }
  });
export type ResetValues = z.input<typeof resetSchema>;

export const SIGNUP_ROLES = ['homeowner', 'builder'] as const;
export type SignupRole = (typeof SIGNUP_ROLES)[number];

export const signupSchema = z
  .object({
    role: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    password: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine((values, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    // Self-signup is open only for homeowner and builder (SPEC §6).
    if (!(SIGNUP_ROLES as readonly string[]).includes(values.role)) issue('role', MESSAGES.role);
    if (values.role === 'homeowner') {
      if (!values.firstName.trim()) issue('firstName', MESSAGES.firstName);
      if (!values.lastName.trim()) issue('lastName', MESSAGES.lastName);
    }
    if (values.role === 'builder' && !values.name.trim()) issue('name', MESSAGES.name);
    if (!isEmail(values.email)) issue('email', MESSAGES.email);
    const weak = passwordProblems(values.password, 8)[0];
    if (weak) issue('password', weak);
    if (values.confirmPassword !== values.password) issue('confirmPassword', MESSAGES.mismatch);
  });
export type SignupValues = z.input<typeof signupSchema>;

/** The sign-up request body: unused fields are sent as empty strings (server contract). */
export function signupPayload(values: SignupValues) {
  const homeowner = values.role === 'homeowner';
  return {
    role: values.role,
    email: values.email.trim(),
    password: values.password,
    confirmPassword: values.confirmPassword,
    firstName: homeowner ? values.firstName.trim() : '',
    lastName: homeowner ? values.lastName.trim() : '',
    name: homeowner ? '' : values.name.trim(),
    phone: values.phone.trim(),
  };
}

// SPEC §5 Contact: name, email (valid format) and message are required; phone is optional.
export const contactSchema = z
  .object({
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    message: z.string(),
  })
  .superRefine((values, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    if (!values.name.trim()) issue('name', MESSAGES.name);
    if (!isEmail(values.email)) issue('email', MESSAGES.email);
    if (!values.message.trim()) issue('message', MESSAGES.message);
  });
export type ContactValues = z.input<typeof contactSchema>;

/** The contact request body (SPEC §3 Contact message): a blank phone is sent as null. */
export function contactPayload(values: ContactValues) {
  const phone = values.phone.trim();
  return {
    name: values.name.trim(),
    email: values.email.trim(),
    phone: phone === '' ? null : phone,
    message: values.message.trim(),
  };
}
export type ContactRequest = ReturnType<typeof contactPayload>;

/**
 * An invitation into a company: a name and a valid email (the phone is
 * optional). The field messages to show, none when the form may be sent.
 */
export function invitationProblems(values: { name: string; email: string }): Partial<Record<'name' | 'email', string>> {
  const problems: Partial<Record<'name' | 'email', string>> = {};
  if (!values.name.trim()) problems.name = MESSAGES.name;
  if (!isEmail(values.email)) problems.email = MESSAGES.email;
  return problems;
}
