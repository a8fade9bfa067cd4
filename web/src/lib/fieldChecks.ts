// The forms' messages (SPEC.md §5 verbatim) and the checks that need no schema: the
// signed-in app's forms use these without loading zod and the sign-in schemas
// (lib/validation), which only the signed-out pages need (docs/LIMITS.md, "First paint").

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

/**
 * zod's `z.email()` pattern (zod/v4/core regexes.email), so a form checked here and one
 * checked by a schema agree on what an email address is; fieldChecks.test.ts holds them
 * equal.
 */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** A valid email address once trimmed. */
export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

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
