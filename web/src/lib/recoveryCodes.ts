/**
 * What the security screens show of authenticator-app secrets and recovery
 * codes. The server makes both; these only lay them out for reading, typing and keeping.
 */

/** A base32 secret in groups of four, as people type it into an authenticator app. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** The secret as the app wants it: what was shown, without the spaces between groups. */
export function ungroupSecret(shown: string): string {
  return shown.replace(/\s+/g, '');
}

/** What the second sign-in step reads: a 6-digit app code, spaces people type into it dropped. */
export function appCodeOf(typed: string): string {
  return typed.replace(/\s+/g, '');
}

/** Whether what was typed can be an app code yet (6 digits), before asking the server. */
export function isAppCode(typed: string): boolean {
  return /^\d{6}$/.test(appCodeOf(typed));
}

/** "9 recovery codes left", "1 recovery code left", "No recovery codes left". */
export function recoveryCodesLeft(count: number): string {
  if (count <= 0) return 'No recovery codes left';
  return count === 1 ? '1 recovery code left' : `${count} recovery codes left`;
}

/**
 * The text file a user downloads (or prints): each code on its own line under what it
 * is for, so the file still makes sense when found months later.
 */
export function recoveryCodesFile(codes: readonly string[], account: string, site: string, made: Date): string {
  const when = made.toISOString().slice(0, 10);
  return [
    'Sitecast recovery codes',
    '',
    `Account: ${account}`,
    `Site: ${site}`,
    `Made: ${when}`,
    '',
    'Each code signs you in once when you cannot use your authenticator app.',
    'Keep them somewhere safe. Making new codes stops these from working.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** The download's file name: the site's host, so codes for two installations do not collide. */
export function recoveryCodesFileName(site: string): string {
  const host = site.replace(/^[a-z]+:\/\//i, '').replace(/[:/].*$/, '') || 'sitecast';
  return `sitecast-recovery-codes-${host.replace(/[^a-z0-9.-]/gi, '-')}.txt`;
}
