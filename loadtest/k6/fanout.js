// Fan-out: SOCKETS sockets of the demo homeowner (SOCKETS_PER_VU to a VU) watch their
// project while the demo admin changes it RATE times a second, COUNT changes. The admin
// writes `fanout <seq> <send time in epoch ms>` into the description; every receiver
// records now − send time (all VUs share the machine's clock), and expects seq 1..COUNT
// in order on every socket. The k6 counterpart of ../src/bin/fanout.rs.
//
//   loadtest/run.sh fanout                     (SOCKETS=100 COUNT=50 RATE=10)
//   SOCKETS=1000 COUNT=100 RATE=20 loadtest/run.sh fanout
//
// The admin starts once the server counts every receiver's socket (/api/health), so
// the first change already has its full audience.

import exec from 'k6/execution';
import { Counter, Trend } from 'k6/metrics';
import {
  ADMIN,
  HOMEOWNER,
  at,
  envInt,
  envNum,
  homeownerProject,
  login,
  paced,
  receiveChanges,
  sendChanges,
  share,
  waitForSockets,
} from './lib.js';

const SOCKETS = envInt('SOCKETS', 100, 1);
const SOCKETS_PER_VU = envInt('SOCKETS_PER_VU', 100, 1);
const VUS = Math.min(SOCKETS, envInt('VUS', Math.ceil(SOCKETS / SOCKETS_PER_VU), 1));
const COUNT = envInt('COUNT', 50, 1);
const RATE = envNum('RATE', 10, 0.1);
/** Sockets opened per second, over all VUs. */
const CONNECT_RATE = envNum('CONNECT_RATE', 500, 1);
/** Seconds a receiver waits past the last change before it counts what is missing. */
const GRACE = envNum('GRACE', 10, 1);

const connectSecs = SOCKETS / CONNECT_RATE;
const barrierSecs = envNum('BARRIER_TIMEOUT', 30 + 2 * connectSecs, 1);
const sendSecs = COUNT / RATE;
const maxSecs = Math.ceil(connectSecs + barrierSecs + sendSecs + GRACE + 30);

const latency = new Trend('fanout_latency', true);
const received = new Counter('fanout_received');
const missing = new Counter('fanout_missing');
const outOfOrder = new Counter('fanout_out_of_order');
const socketsFailed = new Counter('fanout_sockets_failed');
const sent = new Counter('fanout_sent');
const sendErrors = new Counter('fanout_send_errors');

export const options = {
  setupTimeout: '60s',
  scenarios: {
    receivers: {
      executor: 'per-vu-iterations',
      exec: 'receivers',
      vus: VUS,
      iterations: 1,
      maxDuration: `${maxSecs}s`,
      gracefulStop: '10s',
    },
    admin: {
      executor: 'per-vu-iterations',
      exec: 'admin',
      vus: 1,
      iterations: 1,
      maxDuration: `${maxSecs}s`,
      gracefulStop: '10s',
    },
  },
  thresholds: {
    fanout_missing: ['count==0'],
    fanout_out_of_order: ['count==0'],
    fanout_sockets_failed: ['count==0'],
    fanout_send_errors: ['count==0'],
    fanout_received: [`count==${SOCKETS * COUNT}`],
    fanout_sent: [`count==${COUNT}`],
  },
  summaryTrendStats: ['min', 'med', 'avg', 'p(95)', 'p(99)', 'max', 'count'],
};

export async function setup() {
  const homeowner = login(HOMEOWNER);
  const admin = login(ADMIN);
  const project = await homeownerProject(homeowner);
  console.log(`fanout: ${SOCKETS} sockets on ${VUS} VUs, ${COUNT} changes at ${RATE}/s to project ${project}`);
  return { homeowner, admin, project };
}

export function receivers(data) {
  const mine = share(SOCKETS, VUS, exec.scenario.iterationInTest);
  const metrics = { latency, received, missing, outOfOrder, failed: socketsFailed };
  const live = new Set();
  let allOpened = false;
  const settle = () => {
    if (allOpened && live.size === 0) deadline.cancel();
  };
  // Every socket closes when it has the last change, or at this deadline.
  const deadline = at(Date.now() + (connectSecs + barrierSecs + sendSecs + GRACE) * 1000, () => {
    for (const finish of [...live]) finish();
  });
  paced(
    mine,
    CONNECT_RATE / VUS,
    () => {
      const finish = receiveChanges(data.homeowner, {
        project: data.project,
        tag: 'fanout',
        count: COUNT,
        metrics,
        done: () => {
          live.delete(finish);
          settle();
        },
      });
      live.add(finish);
    },
    () => {
      allOpened = true;
      settle();
    },
  );
}

export function admin(data) {
  // Start once the server counts every receiver's socket.
  waitForSockets(SOCKETS, barrierSecs);
  sendChanges(data.admin, {
    project: data.project,
    tag: 'fanout',
    count: COUNT,
    rate: RATE,
    metrics: { sent, errors: sendErrors },
  });
}
