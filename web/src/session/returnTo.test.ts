import { describe, expect, it } from 'vitest';
import { loginPathFor, pathAfterLogin } from './returnTo';

describe('return to the page after signing in again', () => {
  it('carries the page, with its query, through the login page', () => {
    const login = loginPathFor('/projects/abc?tab=photos', { expired: true });
    expect(login).toBe('/login?expired=true&next=%2Fprojects%2Fabc%3Ftab%3Dphotos');
    expect(pathAfterLogin(login.slice('/login'.length))).toBe('/projects/abc?tab=photos');
  });

  it('goes to the dashboard without a page to return to', () => {
    expect(loginPathFor('/dashboard')).toBe('/login');
    expect(pathAfterLogin('')).toBe('/dashboard');
    expect(pathAfterLogin('?logout=true')).toBe('/dashboard');
  });

  it('does not bring someone removed from their company back to its page', () => {
    expect(loginPathFor('/projects/abc', { removed: true })).toBe('/login?removed=true');
  });

  it('says a sign-out from another device, and comes back to the page after signing in', () => {
    const login = loginPathFor('/projects/abc', { elsewhere: true });
    expect(login).toBe('/login?elsewhere=true&next=%2Fprojects%2Fabc');
    expect(pathAfterLogin(login.slice('/login'.length))).toBe('/projects/abc');
  });

  it('never leaves the site or loops on the login page', () => {
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '/login?next=/x', '/']) {
      expect(pathAfterLogin(`?next=${encodeURIComponent(next)}`)).toBe('/dashboard');
    }
    expect(loginPathFor('//evil.example')).toBe('/login');
  });
});
