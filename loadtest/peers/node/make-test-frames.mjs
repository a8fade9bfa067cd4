// TEST AID ONLY: writes DIR/hello.msgpack and DIR/project_updated.msgpack for trying the
// broadcaster by hand or with smoke.mjs. The frames used for the real figures come
// from Sitecast's own Rust encoder (rmp_serde::to_vec_named); these imitate them with
// msgpackr: plain maps, camelCase keys, i64 timestamps as 64-bit integers (BigInt),
// shapes after web/src/protocol/types.ts (Hello, Profile, Snapshot, Project).
//
//   node make-test-frames.mjs DIR

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Packr } from 'msgpackr';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node make-test-frames.mjs DIR');
  process.exit(2);
}
const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true, int64AsType: 'number' });
const now = BigInt(Date.now());

const project = {
  id: 'p1',
  title: 'Kitchen extension',
  description: 'Rear kitchen extension with bifold doors',
  address: '12 Station Road',
  homeownerId: 'u-home',
  homeownerName: 'Hannah Homeowner',
  homeownerFirstName: 'Hannah',
  homeownerLastName: 'Homeowner',
  builderId: 'c-build',
  builderName: 'Bob Builds Ltd',
  crew: [],
  status: 'in-progress',
  progress: 40,
  progressMode: 'manual',
  thumbnailUrl: null,
  thumbnailPinned: false,
  createdAt: now - 86_400_000n,
  updatedAt: now,
  version: 7,
};

const user = {
  id: 'u-home',
  email: 'homeowner@sitecast.demo',
  role: 'homeowner',
  name: 'Hannah Homeowner',
  firstName: 'Hannah',
  lastName: 'Homeowner',
  phone: null,
  builderId: 'c-build',
  companyId: null,
  companyName: null,
  companyRole: null,
  allProjects: false,
  emailConfirmedAt: now - 86_400_000n,
  lastSignInAt: now,
  createdAt: now - 86_400_000n,
  version: 1,
};

const hello = {
  type: 'hello',
  protocolVersion: 1,
  serverTime: now,
  user,
  snapshot: { projects: [project], users: [], online: [], companies: [] },
};
const updated = { type: 'event', event: { type: 'project_updated', project, actor: null } };

mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'hello.msgpack'), packr.pack(hello));
writeFileSync(path.join(dir, 'project_updated.msgpack'), packr.pack(updated));
console.log(`wrote ${path.join(dir, 'hello.msgpack')} and ${path.join(dir, 'project_updated.msgpack')}`);
