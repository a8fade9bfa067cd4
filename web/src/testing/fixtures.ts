// Builders of wire objects for unit tests: a valid default, overridden per test.
import type { Profile, Project, ProjectImage } from '../protocol/types';

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

export const project = (over: Partial<Project>): Project => ({
  id: 'p1',
  title: 'Maple Street Residence',
  description: '',
  address: '1428 Maple Street',
  homeownerId: 'h1',
  homeownerName: 'Jamie Carter',
  homeownerFirstName: 'Jamie',
  homeownerLastName: 'Carter',
  builderId: 'b1',
  builderName: 'Summit Homes',
  status: 'in-progress',
  progress: 45,
  thumbnailUrl: null,
  thumbnailPinned: false,
  createdAt: 0,
  updatedAt: 10,
  version: 3,
  ...over,
});
