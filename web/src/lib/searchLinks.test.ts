import { describe, expect, it } from 'vitest';
import type { Comment, SearchResults } from '../protocol/types';
import { photo, profile, project } from '../testing/fixtures';
import { isEmptyResult, searchItemHref, searchItems } from './searchLinks';

const comment: Comment = {
  id: 'c1',
  imageId: 'i1',
  projectId: 'p1',
  author: { id: 'u', email: 'u@example.com', name: 'Jamie Carter', role: 'homeowner', createdAt: 0, company: null },
  body: 'Is the junction box covered?',
  createdAt: 0,
  updatedAt: 0,
  version: 1,
} as Comment;

const results: SearchResults = {
  query: 'kitch',
  projectId: null,
  projects: [{ project: project({ id: 'p1' }), thumbUrl: null, milestone: null }],
  photos: [{ photo: photo({ id: 'i1', projectId: 'p1' }), projectTitle: 'Maple', milestone: null }],
  comments: [{ comment, projectTitle: 'Maple', thumbUrl: '/t' }],
  people: [profile({ id: 'u2', email: 'priya+x@example.com', role: 'builder' })],
  morePhotos: false,
};

describe('search results', () => {
  it('lists projects, photos, comments and people in that order', () => {
    expect(searchItems(results).map((i) => i.key)).toEqual(['project-p1', 'photo-i1', 'comment-c1', 'person-u2']);
    expect(searchItems(null)).toEqual([]);
  });

  it('links each result where it is seen', () => {
    expect(searchItems(results).map(searchItemHref)).toEqual([
      '/projects/p1',
      '/projects/p1?photo=i1',
      '/projects/p1?photo=i1&comment=c1',
      '/dashboard?people=priya%2Bx%40example.com&role=builder',
    ]);
  });

  it('knows an empty result', () => {
    expect(isEmptyResult(results)).toBe(false);
    expect(isEmptyResult({ ...results, projects: [], photos: [], comments: [], people: [] })).toBe(true);
  });
});
