import { describe, expect, it } from 'vitest';
import { appCodeOf, groupSecret, isAppCode, recoveryCodesFile, recoveryCodesFileName, recoveryCodesLeft, ungroupSecret } from './recoveryCodes';

describe('authenticator secrets and codes', () => {
  it('groups a secret in fours and takes the groups apart again', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    expect(groupSecret(secret)).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDEF')).toBe('ABCD EF');
    expect(ungroupSecret(groupSecret(secret))).toBe(secret);
  });

  it('reads an app code typed with spaces, and only six digits as one', () => {
    expect(appCodeOf(' 123 456 ')).toBe('123456');
    expect(isAppCode('123 456')).toBe(true);
    expect(isAppCode('12345')).toBe(false);
    expect(isAppCode('abcde-fghij')).toBe(false);
  });

  it('says how many recovery codes are left', () => {
    expect(recoveryCodesLeft(10)).toBe('10 recovery codes left');
    expect(recoveryCodesLeft(1)).toBe('1 recovery code left');
    expect(recoveryCodesLeft(0)).toBe('No recovery codes left');
  });

  it('writes a file that says what the codes are for, one code a line', () => {
    const text = recoveryCodesFile(['abcde-fghij', 'klmno-pqrst'], 'ana@example.com', 'https://sitecast.example', new Date('2026-03-04T10:00:00Z'));
    expect(text).toContain('Account: ana@example.com');
    expect(text).toContain('Made: 2026-03-04');
    expect(text.split('\n')).toEqual(expect.arrayContaining(['abcde-fghij', 'klmno-pqrst']));
    expect(recoveryCodesFileName('https://sitecast.example:8443/x')).toBe('sitecast-recovery-codes-sitecast.example.txt');
    expect(recoveryCodesFileName('')).toBe('sitecast-recovery-codes-sitecast.txt');
  });
});
