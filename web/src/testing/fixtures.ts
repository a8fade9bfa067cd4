// Builders of wire objects for unit tests: a valid default, overridden per test.
import type {
  Comment,
  Company,
  Member,
  Milestone,
  MilestonePlan,
  Notification,
  Profile,
  Project,
  ProjectImage,
  Report,
  ReportContent,
  ReportOptions,
  ReportPhoto,
  TimelineEntry,
} from '../protocol/types';

export const profile = (over: Partial<Profile>): Profile => ({
  id: 'u',
  email: 'u@example.com',
  role: 'homeowner',
  name: null,
  firstName: null,
  lastName: null,
  phone: null,
  builderId: null,
  companyId: null,
  companyName: null,
  companyRole: null,
  allProjects: false,
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
    commentCount: 0,
    visitNote: null,
    batchId: null,
    milestoneId: null,
    markupCount: 0,
    tags: [],
    location: null,
    uploadedBy: null,
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
  crew: [],
  status: 'in-progress',
  progress: 45,
  progressMode: 'manual',
  thumbnailUrl: null,
  thumbnailPinned: false,
  createdAt: 0,
  updatedAt: 10,
  version: 3,
  ...over,
});

export const member = (over: Partial<Member>): Member => ({
  id: 'k1',
  email: 'luis.romero@example.com',
  name: 'Luis Romero',
  phone: null,
  companyRole: 'crew',
  allProjects: false,
  invited: false,
  lastSignInAt: null,
  ...over,
});

/** Summit Homes (id c1): its owner o1, manager m1 and crew k1, unless `over` says otherwise. */
export const company = (over: Partial<Company>): Company => ({
  id: 'c1',
  name: 'Summit Homes',
  members: [
    member({ id: 'o1', email: 'owner@example.com', name: 'Summit Homes', companyRole: 'owner' }),
    member({ id: 'm1', email: 'dana.ortiz@example.com', name: 'Dana Ortiz', companyRole: 'manager' }),
    member({}),
  ],
  projectCount: 3,
  createdAt: 0,
  version: 1,
  ...over,
});

export const comment = (over: Partial<Comment>): Comment => ({
  id: 'c1',
  imageId: 'i1',
  projectId: 'p1',
  author: { id: 'h1', email: 'jamie@example.com', name: 'Jamie Carter', role: 'homeowner', createdAt: 0, company: null },
  body: 'Is this crack a problem?',
  createdAt: 100,
  updatedAt: 100,
  ...over,
});

export const notification = (over: Partial<Notification>): Notification => ({
  id: 'n1',
  kind: 'comment',
  projectId: 'p1',
  imageId: 'i1',
  actorName: 'Jamie Carter',
  title: 'Jamie Carter commented on a photo in Maple Street Residence',
  body: 'Is this crack a problem?',
  link: '/projects/p1?photo=i1',
  createdAt: 100,
  readAt: null,
  ...over,
});

export const milestone = (over: Partial<Milestone>): Milestone => ({
  id: 'm1',
  projectId: 'p1',
  name: 'Foundation',
  position: 0,
  targetDate: null,
  doneDate: null,
  ...over,
});

/** A plan of `names` in order; `over` patches milestones by index. */
export const plan = (names: string[], over: Record<number, Partial<Milestone>> = {}, version = 1): MilestonePlan => ({
  projectId: 'p1',
  milestones: names.map((name, i) => milestone({ id: `m${i + 1}`, name, position: i, ...over[i] })),
  version,
});

export const timelineEntry = (over: Partial<TimelineEntry>): TimelineEntry => ({
  id: 't1',
  projectId: 'p1',
  actorName: 'Alex Morgan',
  actorRole: 'admin',
  createdAt: 100,
  detail: { type: 'status_changed', from: 'planning', to: 'in-progress' },
  ...over,
});

export const reportOptions = (over: Partial<ReportOptions> = {}): ReportOptions => ({
  milestoneIds: [],
  photos: 'all',
  picked: [],
  pairs: [],
  perPage: 2,
  groupBy: 'visit',
  comments: false,
  markup: true,
  ...over,
});

export const report = (over: Partial<Report>): Report => ({
  id: 'r1',
  projectId: 'p1',
  options: reportOptions(),
  status: 'generating',
  done: 0,
  total: 10,
  pages: null,
  byteSize: null,
  error: null,
  createdAt: 1000,
  createdBy: { id: 'b1', email: 'builder@example.com', name: 'Summit Homes', role: 'builder', createdAt: 0, company: 'Summit Homes' },
  finishedAt: null,
  mailedAt: null,
  mailedTo: null,
  ...over,
});

export const reportPhoto = (id: string, over: Partial<ProjectImage> = {}): ReportPhoto => ({ photo: photo({ id, ...over }), comments: [], shapes: [] });

/** A report's content with sections of `sizes` photos each. */
export const reportContent = (sizes: number[], over: Partial<ReportContent> = {}): ReportContent => ({
  project: project({}),
  from: null,
  to: null,
  generatedAt: 0,
  perPage: 2,
  milestones: [],
  sections: sizes.map((n, s) => ({
    milestone: null,
    date: null,
    note: null,
    photos: Array.from({ length: n }, (_, i) => reportPhoto(`s${s}p${i}`)),
  })),
  pairs: [],
  changes: [],
  ...over,
});
