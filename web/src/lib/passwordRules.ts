// SPEC §5: weak passwords are reported with a list of reasons. The same rules, with the
// same messages, run on the server (server/src/domain/validation.rs) and both are tested
// against the shared cases in protocol/fixtures/password-rules.json.

export const PASSWORD_MESSAGES = {
  min6: 'Password must be at least 6 characters.',
  min8: 'Password must be at least 8 characters long.',
  onlyNumbers: 'Password cannot be only numbers.',
  repeated: 'Password cannot be a single repeated character.',
  common: 'Password is too common. Choose one that is harder to guess.',
} as const;

/** SPEC §9: at least 8 characters on sign-up, 6 on reset and password change. */
export type PasswordMinimum = 6 | 8;

/**
 * The passwords guessed first in every credential-stuffing list (lowercase). Longer
 * lists belong in a breach check; these are the ones people still type.
 */
const COMMON_PASSWORDS = new Set([
  '123456', '1234567', '12345678', '123456789', '1234567890', '111111', '000000', '654321', '987654321',
  'password', 'password1', 'password12', 'password123', 'passw0rd', 'p@ssw0rd', 'qwerty', 'qwerty12', 'qwerty123',
  'qwertyuiop', 'abc123', 'abcdef', 'abcd1234', 'abcdefgh', 'letmein', 'letmein1', 'welcome', 'welcome1',
  'welcome123', 'iloveyou', 'admin', 'admin123', 'administrator', 'monkey', 'dragon', 'football', 'baseball',
  'sunshine', 'princess', 'trustno1', 'asdfgh', 'asdfghjk', 'zxcvbnm', '1q2w3e4r', 'changeme', 'secret',
  'master', 'superman', 'starwars', 'sitecast', 'sitecast1', 'sitecast123',
]);

export interface PasswordRule {
  /** What the checklist under the field says. */
  label: string;
  /** The reason reported when the rule is not met. */
  message: string;
  met: boolean;
}

/** Every rule for a new password, met or not, in the order reasons are reported. */
export function passwordRules(password: string, min: PasswordMinimum): PasswordRule[] {
  // Characters as the server counts them (Unicode scalar values), not UTF-16 units.
  const chars = [...password];
  const nonEmpty = chars.length > 0;
  return [
    {
      label: `At least ${min} characters`,
      message: min === 8 ? PASSWORD_MESSAGES.min8 : PASSWORD_MESSAGES.min6,
      met: chars.length >= min,
    },
    { label: 'Not only numbers', message: PASSWORD_MESSAGES.onlyNumbers, met: !(nonEmpty && /^[0-9]+$/.test(password)) },
    {
      label: 'Not one character repeated',
      message: PASSWORD_MESSAGES.repeated,
      met: !(nonEmpty && chars.every((c) => c === chars[0])),
    },
    { label: 'Not a common password', message: PASSWORD_MESSAGES.common, met: !COMMON_PASSWORDS.has(password.toLowerCase()) },
  ];
}

/** The reasons a new password is weak, in order; empty when it is fine. */
export function passwordProblems(password: string, min: PasswordMinimum): string[] {
  return passwordRules(password, min)
    .filter((rule) => !rule.met)
    .map((rule) => rule.message);
}
