import { describe, expect, it } from 'vitest';
import { parentPath, showsBackButton } from './backNavigation';

describe('back button on small screens', () => {
  it('shows under /projects/ with more than two segments', () => {
    expect(showsBackButton('/projects/abc')).toBe(true);
    expect(showsBackButton('/projects/abc/photos')).toBe(true);
  });
  it('does not show elsewhere', () => {
    for (const path of ['/projects', '/projects/', '/dashboard', '/profile-settings', '/homeowner/h/projects', '/builder/b/projects']) {
      expect(showsBackButton(path), path).toBe(false);
    }
  });
  it('goes up one level without history', () => {
    expect(parentPath('/projects/abc')).toBe('/projects');
    expect(parentPath('/projects/abc/photos/')).toBe('/projects/abc');
  });
});
