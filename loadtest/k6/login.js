// Login burst: RATE logins a second for DURATION seconds (constant arrival rate, the
// demo accounts in turn), timing each (`login_duration`). Passwords are argon2id on a
// bounded blocking pool, so a login storm must not stall live sockets: meanwhile
// WATCHERS homeowner sockets receive LIVE_RATE project changes a second from the admin,
// and `live_latency` shows whether live traffic kept flowing (WATCHERS=0: logins only).
//
//   loadtest/run.sh login                        (RATE=10 DURATION=10 WATCHERS=5)
//   RATE=40 DURATION=30 loadtest/run.sh login
//
// Only failed logins are rate-limited (per account and per address); these succeed.

import exec from 'k6/execution';
import { Counter, Trend } from 'k6/metrics';
import {
  ADMIN,
  BUILDER,
  HOMEOWNER,
  at,
  envInt,
  envNum,
  homeownerProject,
  login,
  paced,
  receiveChanges,
  sendChanges,
  tryLogin,
  waitForSockets,
} from './lib.js';

const RATE = envNum('RATE', 10, 0.1);
const DURATION = envNum('DURATION', 10, 1);
const PRE_VUS = envInt('PRE_VUS', Math.max(5, Math.ceil(RATE)), 1);
const MAX_VUS = envInt('MAX_VUS', Math.max(PRE_VUS, Math.ceil(RATE * 5)), 1);
const ROLES = { admin: ADMIN, builder: BUILDER, homeowner: HOMEOWNER };
const ACCOUNTS = (__ENV.ACCOUNTS || 'admin,builder,homeowner').split(',').map((a) => ROLES[a.trim()] || a.trim());
const WATCHERS = envInt('WATCHERS', 5, 0);
const LIVE_RATE = envNum('LIVE_RATE', 2, 0.1);
const LIVE_COUNT = Math.max(1, Math.floor(DURATION * LIVE_RATE));
const GRACE = 10;

const loginDuration = new Trend('login_duration', true);
const loginOk = new Counter('login_ok');
const loginFailed = new Counter('login_failed');
const live = {
  latency: new Trend('live_latency', true),
  received: new Counter('live_received'),
  missing: new Counter('live_missing'),
  outOfOrder: new Counter('live_out_of_order'),
  failed: new Counter('live_sockets_failed'),
};
const liveSent = new Counter('live_sent');
const liveErrors = new Counter('live_send_errors');

const scenarios = {
  logins: {
    executor: 'constant-arrival-rate',
    exec: 'burst',
    rate: Math.round(RATE * 100),
    timeUnit: '100s',
    duration: `${DURATION}s`,
    preAllocatedVUs: PRE_VUS,
    maxVUs: MAX_VUS,
    gracefulStop: '30s',
    // With watchers, the burst starts once they listen and the changes flow.
    startTime: WATCHERS > 0 ? '2s' : '0s',
  },
};
const thresholds = {
  login_failed: ['count==0'],
  login_ok: [`count>=${Math.floor(RATE * DURATION * 0.95)}`],
  dropped_iterations: ['count==0'],
};
if (WATCHERS > 0) {
  const maxDuration = `${Math.ceil(DURATION + 2 + 30 + GRACE)}s`;
  scenarios.watchers = { executor: 'per-vu-iterations', exec: 'watchers', vus: 1, iterations: 1, maxDuration };
  // Its changes start about half a second after it connects: with the burst.
  scenarios.admin = { executor: 'per-vu-iterations', exec: 'admin', vus: 1, iterations: 1, maxDuration, startTime: '1.5s' };
  Object.assign(thresholds, {
    live_missing: ['count==0'],
    live_out_of_order: ['count==0'],
    live_sockets_failed: ['count==0'],
    live_send_errors: ['count==0'],
    live_received: [`count==${WATCHERS * LIVE_COUNT}`],
  });
}

export const options = {
  setupTimeout: '60s',
  scenarios,
  thresholds,
  summaryTrendStats: ['min', 'med', 'avg', 'p(95)', 'p(99)', 'max', 'count'],
};

export async function setup() {
  console.log(`login: ${RATE}/s for ${DURATION} s (${ACCOUNTS.join(', ')}); ${WATCHERS} watchers`);
  if (WATCHERS === 0) return {};
  const homeowner = login(HOMEOWNER);
  const admin = login(ADMIN);
  const project = await homeownerProject(homeowner);
  return { homeowner, admin, project };
}

export function burst() {
  const account = ACCOUNTS[exec.scenario.iterationInTest % ACCOUNTS.length];
  const r = tryLogin(account);
  loginDuration.add(r.res.timings.duration);
  loginFailed.add(r.ok ? 0 : 1);
  if (r.ok) loginOk.add(1);
  else console.warn(`login of ${account}: ${r.res.status} ${r.res.error || ''}`);
}

export function watchers(data) {
  const open = new Set();
  // The changes span the burst (which starts 2 s in); a socket gives up GRACE s after.
  const deadline = at(Date.now() + (2 + DURATION + 30 + GRACE) * 1000, () => {
    for (const finish of [...open]) finish();
  });
  paced(WATCHERS, 200, () => {
    const finish = receiveChanges(data.homeowner, {
      project: data.project,
      tag: 'live',
      count: LIVE_COUNT,
      metrics: live,
      done: () => {
        open.delete(finish);
        if (open.size === 0) deadline.cancel();
      },
    });
    open.add(finish);
  });
}

export function admin(data) {
  waitForSockets(WATCHERS, 30);
  sendChanges(data.admin, {
    project: data.project,
    tag: 'live',
    count: LIVE_COUNT,
    rate: LIVE_RATE,
    metrics: { sent: liveSent, errors: liveErrors },
  });
}
