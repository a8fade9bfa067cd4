// Smoke test of a running broadcaster (it starts nothing itself): N sockets each get the
// Hello bytes; one of them sends a few malformed frames, then `--events` update_project
// requests; every socket (the sender too) must get every event, in order, versions
// rising, descriptions matching, and the wide integers (timestamps) as MessagePack
// integers, never float64 (rmp-serde refuses a float for an i64).
//
//   node broadcaster.mjs --port 8091 --frames /tmp/frames &
//   node smoke.mjs --url http://127.0.0.1:8091 --sockets 200 --frames /tmp/frames

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Packr } from 'msgpackr';
import WebSocket from 'ws';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8091' },
    sockets: { type: 'string', default: '200' },
    events: { type: 'string', default: '20' },
    frames: { type: 'string' },
    timeout: { type: 'string', default: '15' },
  },
});
const sockets = Number(args.sockets);
const events = Number(args.events);
const base = args.url.replace(/\/$/, '');
const wsUrl = `${base.replace(/^http/, 'ws')}/ws`;

const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true, int64AsType: 'number' });
// Reads 64-bit integers as BigInt and float64 as number: tells an int64 from a float.
const strict = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true, int64AsType: 'bigint' });
const expectedHello = args.frames ? readFileSync(path.join(args.frames, 'hello.msgpack')) : null;

const failures = [];
const fail = (what) => {
  if (failures.length < 20) failures.push(what);
  else if (failures.length === 20) failures.push('… (more)');
};

async function health() {
  const res = await fetch(`${base}/api/health`);
  if (res.status !== 200) throw new Error(`/api/health answered ${res.status}`);
  return res.json();
}

function open(index) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
    const client = { index, ws, hello: null, got: [] };
    ws.on('message', (data, isBinary) => {
      if (!isBinary) return fail(`socket ${index}: text frame`);
      if (client.hello === null) {
        client.hello = Buffer.from(data);
        resolve(client);
      } else {
        client.got.push(Buffer.from(data));
      }
    });
    ws.on('error', reject);
    ws.on('close', () => {
      if (client.hello === null) reject(new Error(`socket ${index} closed before its Hello`));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const before = await health();
  if (before.status !== 'ok') fail(`health status ${JSON.stringify(before)}`);
  const missing = await fetch(`${base}/api/nothing-here`);
  if (missing.status !== 404) fail(`GET /api/nothing-here answered ${missing.status}, not 404`);

  const clients = await Promise.all(Array.from({ length: sockets }, (_, i) => open(i)));
  for (const c of clients) {
    if (expectedHello && !c.hello.equals(expectedHello)) fail(`socket ${c.index}: Hello bytes differ from hello.msgpack`);
    if (!expectedHello && !c.hello.equals(clients[0].hello)) fail(`socket ${c.index}: Hello bytes differ from socket 0's`);
  }
  const hello = packr.unpack(clients[0].hello);
  if (hello?.type !== 'hello') fail(`first frame is ${hello?.type}, not hello`);
  const projectId = hello?.snapshot?.projects?.[0]?.id ?? 'p1';

  const during = await health();
  if (during.sockets !== before.sockets + sockets) {
    fail(`health counts ${during.sockets} sockets, expected ${before.sockets + sockets}`);
  }

  // Never crash on these: garbage, a text frame, a request of another type, no request.
  const sender = clients[0].ws;
  sender.send(Buffer.from([0xc1, 0xff, 0x00, 0x13]));
  sender.send('not msgpack');
  sender.send(packr.pack({ id: 1, request: { type: 'list_projects' } }));
  sender.send(packr.pack([1, 2, 3]));
  sender.send(packr.pack({ id: 1 }));

  const started = Date.now();
  for (let i = 0; i < events; i++) {
    sender.send(packr.pack({ id: i + 2, request: { type: 'update_project', id: projectId, description: 'fanout ' + i, progress: 5 } }));
  }

  const deadline = Date.now() + Number(args.timeout) * 1000;
  while (Date.now() < deadline && clients.some((c) => c.got.length < events)) await sleep(20);
  const elapsed = Date.now() - started;

  for (const c of clients) {
    if (c.got.length !== events) fail(`socket ${c.index}: got ${c.got.length}/${events} events`);
    let lastVersion = -1n;
    c.got.forEach((bytes, i) => {
      let msg;
      try {
        msg = strict.unpack(bytes);
      } catch (e) {
        return fail(`socket ${c.index} event ${i}: undecodable (${e.message})`);
      }
      const p = msg?.event?.project;
      if (msg?.type !== 'event' || msg.event.type !== 'project_updated' || !p) {
        return fail(`socket ${c.index} event ${i}: not a project_updated event`);
      }
      if (p.id !== projectId) fail(`socket ${c.index} event ${i}: project ${p.id}`);
      if (p.description !== 'fanout ' + i) fail(`socket ${c.index} event ${i}: description ${JSON.stringify(p.description)}`);
      if (p.progress !== 5) fail(`socket ${c.index} event ${i}: progress ${p.progress}`);
      const version = BigInt(p.version);
      if (version <= lastVersion) fail(`socket ${c.index} event ${i}: version ${version} after ${lastVersion}`);
      lastVersion = version;
      for (const field of ['createdAt', 'updatedAt']) {
        if (typeof p[field] !== 'bigint') fail(`socket ${c.index} event ${i}: ${field} is a ${typeof p[field]} (float64?), not an int64`);
      }
      if (msg.event.actor !== null) fail(`socket ${c.index} event ${i}: actor ${JSON.stringify(msg.event.actor)}`);
    });
  }
  // Every socket must have been sent the very same bytes for each event (encoded once).
  for (let i = 0; i < events; i++) {
    const first = clients[0].got[i];
    if (first && clients.some((c) => c.got[i] && !c.got[i].equals(first))) fail(`event ${i}: bytes differ between sockets`);
  }

  for (const c of clients) c.ws.close();
  const delivered = clients.reduce((n, c) => n + c.got.length, 0);
  if (failures.length) {
    console.log(`smoke FAILED sockets=${sockets} events=${events} delivered=${delivered}/${sockets * events}`);
    for (const f of failures) console.log(`  ${f}`);
    process.exit(1);
  }
  console.log(`smoke ok sockets=${sockets} events=${events} delivered=${delivered}/${sockets * events} in ${elapsed} ms`);
  process.exit(0);
}

main().catch((e) => {
  console.log(`smoke FAILED: ${e.message}`);
  process.exit(1);
});
