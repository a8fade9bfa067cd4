import { describe, expect, it } from 'vitest';
import { chunkNameFor } from './chunking';
import { pathPattern } from './routePreload';

describe('pathPattern', () => {
  const matches = (routePath: string, pathname: string) => new RegExp(pathPattern(routePath)).test(pathname);

  it('matches the address react-router would, and nothing under it', () => {
    expect(matches('/', '/')).toBe(true);
    expect(matches('/', '/login')).toBe(false);
    expect(matches('/login', '/login')).toBe(true);
    expect(matches('/login', '/login/')).toBe(true);
    expect(matches('/login', '/login/x')).toBe(false);
    expect(matches('/projects', '/projects/abc')).toBe(false);
    expect(matches('/projects/:id', '/projects/abc')).toBe(true);
    expect(matches('/projects/:id', '/projects')).toBe(false);
    expect(matches('/projects/:id', '/projects/abc/compare')).toBe(false);
    expect(matches('/homeowner/:homeownerId/projects', '/homeowner/u1/projects')).toBe(true);
  });
});

describe('chunkNameFor', () => {
  const name = (...groups: string[]) => chunkNameFor(new Set(groups));

  it("puts what one group reaches in that group's chunk", () => {
    expect(name('public')).toBe('public');
    expect(name('project')).toBe('project');
  });

  it('puts what several screens of one tree share in the tree’s root', () => {
    expect(name('dashboard', 'project')).toBe('app');
    expect(name('app', 'project')).toBe('app');
    expect(name('public', 'account')).toBe('public');
  });

  it('puts what trees share in a chunk named after them', () => {
    expect(name('public', 'project')).toBe('shared-app-public');
    expect(name('guest', 'dashboard', 'project')).toBe('shared-app-guest');
    expect(name('account', 'guest', 'app')).toBe('shared-app-guest-public');
  });
});

describe('chunkNameFor, with what other trees load later', () => {
  const name = (groups: string[], later: string[]) => chunkNameFor(new Set(groups), new Set(later));

  it('keeps a module other trees load only when used apart from the code only its own trees need', () => {
    expect(name(['guest'], ['app'])).toBe('guest-app-later');
    expect(name(['public'], ['app', 'guest'])).toBe('public-app-guest-later');
    expect(name(['dashboard', 'project'], ['guest'])).toBe('app-guest-later');
  });

  it('changes nothing when those trees have it on their first screens anyway', () => {
    expect(name(['project'], ['app'])).toBe('project');
    expect(name(['guest', 'project'], ['app', 'guest'])).toBe('shared-app-guest');
  });
});
