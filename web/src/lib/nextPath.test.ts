import { describe, expect, it } from 'vitest';
import { loginPathFor, safeNextPath } from './nextPath';

describe('safeNextPath', () => {
  it('keeps paths of this site, with their query', () => {
    expect(safeNextPath('/projects/p1?photo=i1')).toBe('/projects/p1?photo=i1');
  });
  it('refuses other origins and the login page itself', () => {
    for (const bad of ['https://evil.test/x', '//evil.test/x', '/\\evil.test', 'projects/p1', '', null, '/login?next=/x']) {
      expect(safeNextPath(bad)).toBeNull();
    }
  });
  it('builds the login link back', () => {
    expect(loginPathFor('/projects/p1?photo=i1')).toBe('/login?next=%2Fprojects%2Fp1%3Fphoto%3Di1');
    expect(loginPathFor('/dashboard')).toBe('/login');
  });
});
