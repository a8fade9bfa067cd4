/**
 * Where each search result leads (docs/FEATURES.md, "Tags and search"), and the results
 * as one list in the order shown, for the arrow keys: projects, photos, comments, people.
 */

import type { CommentHit, PhotoHit, Profile, ProjectHit, SearchResults } from '../protocol/types';

export type SearchItem =
  | { kind: 'project'; key: string; hit: ProjectHit }
  | { kind: 'photo'; key: string; hit: PhotoHit }
  | { kind: 'comment'; key: string; hit: CommentHit }
  | { kind: 'person'; key: string; person: Profile };

export function searchItems(results: SearchResults | null): SearchItem[] {
  if (!results) return [];
  return [
    ...results.projects.map((hit): SearchItem => ({ kind: 'project', key: `project-${hit.project.id}`, hit })),
    ...results.photos.map((hit): SearchItem => ({ kind: 'photo', key: `photo-${hit.photo.id}`, hit })),
    ...results.comments.map((hit): SearchItem => ({ kind: 'comment', key: `comment-${hit.comment.id}`, hit })),
    ...results.people.map((person): SearchItem => ({ kind: 'person', key: `person-${person.id}`, person })),
  ];
}

/** Whether nothing at all was found. */
export function isEmptyResult(results: SearchResults): boolean {
  return results.projects.length + results.photos.length + results.comments.length + results.people.length === 0;
}

/**
 * A project opens its page; a photo, the page's lightbox on it (`?photo=`); a comment,
 * that lightbox with the comment marked in its thread (`&comment=`); a person (admins
 * only), the dashboard's People tab of their role, searched for their email.
 */
export function searchItemHref(item: SearchItem): string {
  switch (item.kind) {
    case 'project':
      return `/projects/${encodeURIComponent(item.hit.project.id)}`;
    case 'photo': {
      const { photo } = item.hit;
      return `/projects/${encodeURIComponent(photo.projectId)}?photo=${encodeURIComponent(photo.id)}`;
    }
    case 'comment': {
      const { comment } = item.hit;
      return `/projects/${encodeURIComponent(comment.projectId)}?photo=${encodeURIComponent(comment.imageId)}&comment=${encodeURIComponent(comment.id)}`;
    }
    case 'person': {
      const params = new URLSearchParams({ people: item.person.email, role: item.person.role });
      return `/dashboard?${params.toString()}`;
    }
  }
}
