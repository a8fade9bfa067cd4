// Connections: ramp to TARGET authenticated sockets over RAMP seconds, hold them for
// HOLD seconds while the server's heartbeats flow (it pings every SITECAST_WS_PING_SECS,
// 15 s by default, and closes a socket silent for SITECAST_WS_TIMEOUT_SECS; k6 answers
// the pings), then count the sockets that stayed open and close them all.
//
// Each VU logs in once (ACCOUNTS, round robin over VUs) and holds SOCKETS_PER_VU
// sockets. The runner samples the server's RSS and socket count every second and
// prints RSS per socket at the peak.
//
//   TARGET=1000 RAMP=20 HOLD=60 loadtest/run.sh connections
//   TARGET=30000 LOCAL_IPS=127.0.0.2-127.0.0.9 loadtest/run.sh connections
//
// One source address has ~28,000 ephemeral ports (net.ipv4.ip_local_port_range);
// past that, give k6 several loopback source addresses with LOCAL_IPS (run.sh passes
// it as --local-ips; each VU dials from one of them).

import exec from 'k6/execution';
import { Counter, Trend } from 'k6/metrics';
import { ADMIN, BUILDER, HOMEOWNER, at, connect, envInt, envNum, paced, share, tryLogin } from './lib.js';

const TARGET = envInt('TARGET', 1000, 1);
const SOCKETS_PER_VU = envInt('SOCKETS_PER_VU', 250, 1);
const VUS = Math.min(TARGET, envInt('VUS', Math.ceil(TARGET / SOCKETS_PER_VU), 1));
const RAMP = envNum('RAMP', Math.max(5, Math.ceil(TARGET / 500)), 0);
const HOLD = envNum('HOLD', 60, 1);
const ROLES = { admin: ADMIN, builder: BUILDER, homeowner: HOMEOWNER };
const ACCOUNTS = (__ENV.ACCOUNTS || 'homeowner').split(',').map((a) => ROLES[a.trim()] || a.trim());

const opened = new Counter('conn_opened');
const failed = new Counter('conn_failed');
const dropped = new Counter('conn_dropped');
const alive = new Counter('conn_alive_at_end');
const pings = new Counter('conn_pings');
const helloTime = new Trend('conn_hello_time', true);
const loginFailed = new Counter('conn_login_failed');

const maxSecs = Math.ceil(RAMP + HOLD + 60);

export const options = {
  scenarios: {
    connections: {
      executor: 'per-vu-iterations',
      exec: 'hold',
      vus: VUS,
      iterations: 1,
      maxDuration: `${maxSecs}s`,
      gracefulStop: '10s',
    },
  },
  thresholds: {
    conn_failed: ['count==0'],
    conn_dropped: ['count==0'],
    conn_login_failed: ['count==0'],
    conn_alive_at_end: [`count==${TARGET}`],
  },
  summaryTrendStats: ['min', 'med', 'avg', 'p(95)', 'p(99)', 'max', 'count'],
};

export function setup() {
  console.log(`connections: ${TARGET} sockets on ${VUS} VUs (${ACCOUNTS.join(', ')}), ramp ${RAMP} s, hold ${HOLD} s`);
  // Every VU ramps from here and closes at the same moment.
  return { start: Date.now() };
}

export function hold(data) {
  const index = exec.scenario.iterationInTest;
  const mine = share(TARGET, VUS, index);
  const account = ACCOUNTS[index % ACCOUNTS.length];
  const session = tryLogin(account);
  failed.add(0);
  dropped.add(0);
  loginFailed.add(0);
  if (!session.ok) {
    console.warn(`login of ${account} failed: ${session.res.status}`);
    loginFailed.add(1);
    failed.add(mine);
    return;
  }
  const conns = [];
  const end = data.start + (RAMP + HOLD) * 1000;
  let ending = false;

  const open = () => {
    const began = Date.now();
    const conn = connect(session.cookie, { name: 'held' });
    let counted = false;
    conns.push(conn);
    conn.ws.onping = () => pings.add(1);
    conn.onHello = () => {
      helloTime.add(Date.now() - began);
      opened.add(1);
    };
    const lost = (why) => {
      if (counted || ending) return;
      counted = true;
      if (conn.hello) dropped.add(1);
      else failed.add(1);
      console.warn(`socket ${conn.hello ? 'dropped' : 'failed'}: ${why}`);
    };
    conn.onFail = (err) => lost(err);
    conn.onClose = (code, reason, byUs) => {
      if (!byUs) lost(`closed by the server: ${code} ${reason}`);
    };
  };

  // Spread this VU's sockets over the ramp (all at once when RAMP is 0).
  paced(mine, RAMP > 0 ? mine / RAMP : mine * 100, open);
  const timer = at(end, () => {
    ending = true;
    for (const conn of conns) {
      if (conn.isOpen && conn.hello) alive.add(1);
      conn.close();
    }
  });
  if (mine === 0) timer.cancel();
}
