// Uploads: BUILDERS VUs of the demo builder each upload PHOTOS generated 12 MP JPEGs
// (3-5 MB, BATCH to a request) to the demo homeowner's project while WATCHERS homeowner
// sockets, subscribed to it, wait for each `photo_added`. A photo's file name carries
// the start time of its request, so its caption does too; every watcher records
// request start → photo visible (`photo_visible_latency`), as ../src/bin/photos.rs
// `upload` does. Upload throughput: `upload_bytes`, `upload_photos` and the request
// durations.
//
//   loadtest/run.sh uploads                     (BUILDERS=2 PHOTOS=5 BATCH=1 WATCHERS=10)
//   BUILDERS=4 PHOTOS=10 BATCH=5 WATCHERS=50 loadtest/run.sh uploads
//
// The JPEGs are made by fixtures.py (run.sh does it: FIXTURE_DIR, FIXTURES files).

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
const REQUESTS = Math.ceil(PHOTOS / BATCH);
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
    iterations: REQUESTS,
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
    `uploads: ${BUILDERS} builders x ${PHOTOS} photos (${BATCH} a request), ${WATCHERS} watchers, project ${project}`,
  );
  return { homeowner, builder, project };
}

function ascii(s) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/** A multipart/form-data body with one `photos` part per file (names are ASCII). */
function multipart(parts) {
  const boundary = `----sitecast-k6-${Date.now()}-${Math.floor(Math.random() * 1e9)}`;
  const chunks = [];
  for (const { name, data } of parts) {
    chunks.push(
      ascii(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="${name}"\r\n` +
          'Content-Type: image/jpeg\r\n\r\n',
      ),
    );
    chunks.push(data);
    chunks.push(ascii('\r\n'));
  }
  chunks.push(ascii(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    body.set(c, offset);
    offset += c.length;
  }
  return { body: body.buffer, contentType: `multipart/form-data; boundary=${boundary}` };
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
  const started = Date.now();
  const parts = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const photo = files[(vu + n) % files.length];
    bytes += photo.length;
    // The caption is the file name without its extension: k6-<request start>-<vu>-<n>.
    parts.push({ name: `k6-${started}-${vu}-${n}.jpg`, data: photo });
  }
  const { body, contentType } = multipart(parts);
  const res = http.post(`${BASE_URL}/api/projects/${data.project}/photos`, body, {
    headers: { 'Content-Type': contentType, Cookie: data.builder, Origin: ORIGIN },
    tags: { name: 'upload' },
    timeout: '300s',
  });
  uploadDuration.add(res.timings.duration);
  if (res.status !== 201) {
    uploadFailed.add(1);
    console.warn(`upload: ${res.status} ${res.error || ''} ${String(res.body).slice(0, 200)}`);
    return;
  }
  const result = res.json();
  uploadBytes.add(bytes);
  uploadPhotos.add(result.photos.length);
  uploadSkipped.add(result.skipped.length);
  for (const s of result.skipped) console.warn(`skipped ${s.name}: ${s.reason}`);
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
