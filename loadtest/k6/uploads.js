// Uploads: BUILDERS VUs of the demo builder each upload PHOTOS generated 12 MP JPEGs
// (3-5 MB, BATCH to a site visit) to the demo homeowner's project over tus
// (`/api/uploads`: each file created, then sent whole in one PATCH) while WATCHERS
// homeowner sockets, subscribed to it, wait for each `photo_added`. A photo's file name
// carries the moment its upload was created, so its caption does too; every watcher
// records creation → photo visible (`photo_visible_latency`), as ../src/bin/photos.rs
// `upload` does. Upload throughput: `upload_bytes`, `upload_photos` and the per-file
// durations (creation to the last PATCH's answer).
//
//   loadtest/run.sh uploads                     (BUILDERS=2 PHOTOS=5 BATCH=1 WATCHERS=10)
//   BUILDERS=4 PHOTOS=10 BATCH=5 WATCHERS=50 loadtest/run.sh uploads
//
// The JPEGs are made by fixtures.py (run.sh does it: FIXTURE_DIR, FIXTURES files).

import { b64encode } from 'k6/encoding';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import {
  BASE_URL,
  BUILDER,
  HOMEOWNER,
  ORIGIN,
  at,
  connect,
  envInt,
  envNum,
  homeownerProject,
  login,
  paced,
  share,
  waitForSockets,
} from './lib.js';

const BUILDERS = envInt('BUILDERS', 2, 1);
const PHOTOS = envInt('PHOTOS', 5, 1);
const BATCH = envInt('BATCH', 1, 1);
const WATCHERS = envInt('WATCHERS', 10, 0);
const WATCHERS_PER_VU = envInt('WATCHERS_PER_VU', 50, 1);
const WATCHER_VUS = Math.max(1, Math.min(WATCHERS, Math.ceil(WATCHERS / WATCHERS_PER_VU)));
const FIXTURES = envInt('FIXTURES', 4, 1);
const FIXTURE_DIR = __ENV.FIXTURE_DIR || './.build/fixtures';
/** A watcher gives up this long after the last photo it saw (or after it subscribed). */
const IDLE = envNum('IDLE', 60, 5);
const EXPECTED = BUILDERS * PHOTOS;
const VISITS = Math.ceil(PHOTOS / BATCH);
const maxSecs = Math.ceil(60 + EXPECTED * 5 + IDLE);

// open() runs in every VU's init; the files are a few MB each.
const files = [];
for (let i = 1; i <= FIXTURES; i++) files.push(new Uint8Array(open(`${FIXTURE_DIR}/photo-${i}.jpg`, 'b')));

const uploadBytes = new Counter('upload_bytes');
const uploadPhotos = new Counter('upload_photos');
const uploadSkipped = new Counter('upload_skipped');
const uploadFailed = new Counter('upload_failed');
const uploadDuration = new Trend('upload_duration', true);
const visibleLatency = new Trend('photo_visible_latency', true);
const visible = new Counter('photo_visible');
const missing = new Counter('photo_missing');
const watchersFailed = new Counter('photo_watchers_failed');

const scenarios = {
  builders: {
    executor: 'per-vu-iterations',
    exec: 'builder',
    vus: BUILDERS,
    iterations: VISITS,
    maxDuration: `${maxSecs}s`,
    gracefulStop: '30s',
  },
};
if (WATCHERS > 0) {
  scenarios.watchers = {
    executor: 'per-vu-iterations',
    exec: 'watchers',
    vus: WATCHER_VUS,
    iterations: 1,
    maxDuration: `${maxSecs}s`,
    gracefulStop: '10s',
  };
}

export const options = {
  setupTimeout: '60s',
  scenarios,
  thresholds: {
    upload_failed: ['count==0'],
    upload_skipped: ['count==0'],
    upload_photos: [`count==${EXPECTED}`],
    photo_missing: ['count==0'],
    photo_watchers_failed: ['count==0'],
    photo_visible: [`count==${EXPECTED * WATCHERS}`],
  },
  summaryTrendStats: ['min', 'med', 'avg', 'p(95)', 'p(99)', 'max', 'count'],
};

export async function setup() {
  const homeowner = login(HOMEOWNER);
  const builder = login(BUILDER);
  const project = await homeownerProject(homeowner);
  console.log(
    `uploads: ${BUILDERS} builders x ${PHOTOS} photos (${BATCH} a site visit), ${WATCHERS} watchers, project ${project}`,
  );
  return { homeowner, builder, project };
}

/** tus `Upload-Metadata`: `key base64(value)` pairs (values are ASCII here). */
function metadata(pairs) {
  return Object.entries(pairs)
    .map(([k, v]) => `${k} ${b64encode(String(v))}`)
    .join(',');
}

const TUS = { 'Tus-Resumable': '1.0.0' };

/** One file over tus: created, then sent whole. Answers 'stored', 'refused' or 'failed'. */
/** A random (version 4) UUID: the server takes only UUIDs as site-visit ids. */
function uuidV4() {
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = Math.floor(Math.random() * 16);
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

function send(data, name, photo, visit, files) {
  const headers = { ...TUS, Cookie: data.builder, Origin: ORIGIN };
  const created = http.post(`${BASE_URL}/api/uploads`, null, {
    headers: {
      ...headers,
      'Upload-Length': String(photo.length),
      'Upload-Metadata': metadata({ projectId: data.project, filename: name, batchId: visit, batchSize: files }),
    },
    tags: { name: 'upload_create' },
  });
  if (created.status !== 201) {
    console.warn(`upload creation: ${created.status} ${created.error || ''} ${String(created.body).slice(0, 200)}`);
    return 'failed';
  }
  const res = http.patch(`${BASE_URL}${created.headers.Location}`, photo.buffer, {
    headers: { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    tags: { name: 'upload' },
    timeout: '300s',
  });
  if (res.status !== 204) {
    console.warn(`upload: ${res.status} ${res.error || ''} ${String(res.body).slice(0, 200)}`);
    return 'failed';
  }
  if (res.headers['Sitecast-Refused']) {
    console.warn(`refused ${name}: ${decodeURIComponent(res.headers['Sitecast-Refused'])}`);
    return 'refused';
  }
  return 'stored';
}

export function builder(data) {
  const vu = exec.vu.idInTest;
  const iteration = exec.vu.iterationInScenario;
  if (iteration === 0) {
    uploadFailed.add(0);
    uploadSkipped.add(0);
    // Start once the watchers are connected, and give them a moment to subscribe.
    if (WATCHERS > 0) waitForSockets(WATCHERS, 60);
    http.get(`${BASE_URL}/api/health`); // warm the connection outside the timings
  }
  const first = iteration * BATCH;
  const count = Math.min(BATCH, PHOTOS - first);
  const visit = uuidV4();
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const photo = files[(vu + n) % files.length];
    const started = Date.now();
    // The caption is the file name without its extension: k6-<creation>-<vu>-<n>.
    const outcome = send(data, `k6-${started}-${vu}-${n}.jpg`, photo, visit, count);
    uploadDuration.add(Date.now() - started);
    if (outcome === 'failed') {
      uploadFailed.add(1);
      continue;
    }
    uploadBytes.add(photo.length);
    if (outcome === 'stored') uploadPhotos.add(1);
    else uploadSkipped.add(1);
  }
}

const CAPTION = /^k6-(\d+)-\d+-\d+$/;

export function watchers(data) {
  const mine = share(WATCHERS, WATCHER_VUS, exec.scenario.iterationInTest);

  const watch = () => {
    const conn = connect(data.homeowner, { name: 'watcher' });
    const seen = new Set();
    let finished = false;
    let idle = null;
    const finish = (failed) => {
      if (finished) return;
      finished = true;
      if (idle) idle.cancel();
      missing.add(EXPECTED - seen.size);
      watchersFailed.add(failed ? 1 : 0);
      conn.close();
    };
    const rearm = () => {
      if (idle) idle.cancel();
      idle = at(Date.now() + IDLE * 1000, () => {
        console.warn(`watcher: no photo for ${IDLE} s; ${seen.size} of ${EXPECTED} seen`);
        finish(false);
      });
    };
    rearm();
    conn.onHello = () => {
      conn
        .request({ type: 'subscribe', id: data.project })
        .then(rearm)
        .catch((err) => {
          console.warn(`subscribe: ${err.code || ''} ${err.message}`);
          finish(true);
        });
    };
    conn.onEvent = (event) => {
      if (event.type !== 'photo_added' || event.photo.projectId !== data.project) return;
      const m = CAPTION.exec(event.photo.caption || '');
      if (!m || seen.has(event.photo.caption)) return;
      seen.add(event.photo.caption);
      visible.add(1);
      visibleLatency.add(Date.now() - Number(m[1]));
      if (seen.size >= EXPECTED) finish(false);
      else rearm();
    };
    conn.onFail = (err) => {
      console.warn(`watcher socket: ${err}`);
      finish(true);
    };
    conn.onClose = (code, reason, byUs) => {
      if (!byUs) {
        console.warn(`watcher socket closed by the server: ${code} ${reason}`);
        finish(true);
      }
    };
  };

  if (mine > 0) paced(mine, 200, watch);
}
