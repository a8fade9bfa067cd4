import { z } from 'zod/mini';
import { isEmail, MESSAGES } from './fieldChecks';
import { passwordProblems } from './passwordRules';

// The sign-in and sign-up forms' schemas, with zod's tree-shakable build (zod/mini): the
// login page loads them (docs/LIMITS.md, "First paint"). Messages are SPEC.md §5
// verbatim (lib/fieldChecks). Cross-field rules live in superRefine on plain string
// fields so every message shows at once on submit, independent of the others.
export { invitationProblems, MESSAGES } from './fieldChecks';

const emailField = z.pipe(z.string().check(z.trim()), z.email({ error: MESSAGES.email }));

export const loginSchema = z.object({
  email: emailField,
  password: z.string().check(z.minLength(6, { error: MESSAGES.password6 })),
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
  .check(
    z.superRefine((values, ctx) => {
      // SPEC §5: a weak password's first reason shows on the field; the checklist under it shows all.
      const weak = passwordProblems(values.password, 6)[0];
      if (weak) ctx.addIssue({ code: 'custom', path: ['password'], message: weak });
      if (values.confirmPassword !== values.password) {
        ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.mismatch });
      }
    }),
  );
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
  .check(
    z.superRefine((values, ctx) => {
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
    }),
  );
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
  .check(
    z.superRefine((values, ctx) => {
      const issue = (path: string, message: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message });
      if (!values.name.trim()) issue('name', MESSAGES.name);
      if (!isEmail(values.email)) issue('email', MESSAGES.email);
      if (!values.message.trim()) issue('message', MESSAGES.message);
    }),
  );
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
