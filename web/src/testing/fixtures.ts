// Builders of wire objects for unit tests: a valid default, overridden per test.
import type { Profile, ProjectImage } from '../protocol/types';

export const profile = (over: Partial<Profile>): Profile => ({
  id: 'u',
  email: 'u@example.com',
  role: 'homeowner',
  name: null,
  firstName: null,
  lastName: null,
  phone: null,
  builderId: null,
  emailConfirmedAt: null,
  lastSignInAt: null,
  createdAt: 0,
  version: 1,
  ...over,
});

export const photo = (over: Partial<ProjectImage>): ProjectImage => {
  const id = over.id ?? 'i1';
  return {
    id,
    projectId: 'p1',
    category: 'other',
    caption: null,
    originalName: `${id}.jpg`,
    width: 1600,
    height: 1200,
    takenAt: null,
    createdAt: 0,
    thumbUrl: `/media/images/${id}/thumb`,
    displayUrl: `/media/images/${id}/display`,
    downloadUrl: `/media/images/${id}/original`,
    version: 1,
    ...over,
  };
};
