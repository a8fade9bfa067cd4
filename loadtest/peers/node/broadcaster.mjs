// A bare Node `ws` broadcaster: the peer Sitecast's live fan-out is compared with
// (loadtest/README.md, "Beside the peers"). It speaks just enough of Sitecast's socket
// protocol for our native load clients: every new socket gets a fixed Hello frame, and
// each `update_project` request becomes one `project_updated` event, encoded once and
// sent to every open socket. Deliberately nothing else: no auth, no database, no policy
// (who may see what), no replies. What it costs is the floor of "Node + ws".
//
//   node broadcaster.mjs --port 8091 --frames DIR
//
// DIR/hello.msgpack: a complete Hello server frame, sent as-is to each new socket.
// DIR/project_updated.msgpack: a complete `{type:'event', event:{type:'project_updated',
// project, actor}}` frame, the template every broadcast event is made from.

import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Packr } from 'msgpackr';
import { WebSocketServer } from 'ws';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '8091' },
    frames: { type: 'string' },
  },
});
if (!args.frames) {
  console.error('usage: node broadcaster.mjs --port P --frames DIR');
  process.exit(2);
}
const port = Number(args.port);

/** Ping every 15 s; a socket silent for 30 s (no pong, no frame) is cut off (as Sitecast). */
const PING_EVERY_MS = 15_000;
const SILENT_FOR_MS = 30_000;
/** A socket with more than this waiting to be written stops reading: cut off, not buffered. */
const MAX_BUFFERED = 1024 * 1024;
/** As protocol::MAX_FRAME_BYTES. */
const MAX_PAYLOAD = 64 * 1024;

// The web app's options (web/src/protocol/codec.ts): plain maps with field names, as
// rmp_serde::to_vec_named writes them, and 64-bit integers read as numbers.
const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true, int64AsType: 'number' });

/**
 * msgpackr writes a JS number that is an integer but does not fit 32 bits (a millisecond
 * timestamp) as a float64, which rmp-serde refuses for an i64 field. BigInts are written
 * as int64, so such integers become BigInts before they are packed.
 */
function wideIntsAsBigInt(value) {
  if (typeof value === 'number') {
    return Number.isInteger(value) && (value >= 2 ** 32 || value < -(2 ** 31)) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map(wideIntsAsBigInt);
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) value[key] = wideIntsAsBigInt(value[key]);
  }
  return value;
}

const hello = readFileSync(path.join(args.frames, 'hello.msgpack'));
const template = wideIntsAsBigInt(packr.unpack(readFileSync(path.join(args.frames, 'project_updated.msgpack'))));
const project = template?.event?.project;
if (template?.type !== 'event' || template.event.type !== 'project_updated' || typeof project !== 'object') {
  console.error('project_updated.msgpack is not a project_updated event frame');
  process.exit(2);
}
let version = Number(project.version);

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/api/health') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok', sockets: wss.clients.size }));
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
});

const wss = new WebSocketServer({ server, path: '/ws', perMessageDeflate: false, maxPayload: MAX_PAYLOAD });

wss.on('connection', (ws) => {
  ws.lastHeard = Date.now();
  ws.on('pong', heard);
  ws.on('message', onMessage);
  // A socket error (reset, frame over maxPayload) is followed by 'close'; never throw.
  ws.on('error', () => {});
  ws.send(hello, { binary: true });
});

function heard() {
  this.lastHeard = Date.now();
}

function onMessage(data, isBinary) {
  this.lastHeard = Date.now();
  if (!isBinary) return;
  let msg;
  try {
    msg = packr.unpack(data);
  } catch {
    return; // Malformed: ignored.
  }
  const request = msg?.request;
  if (request?.type !== 'update_project') return;
  if (typeof request.id === 'string') project.id = request.id;
  if (typeof request.description === 'string') project.description = request.description;
  if (typeof request.progress === 'number' && Number.isInteger(request.progress)) project.progress = request.progress;
  version += 1;
  project.version = wideIntsAsBigInt(version);
  project.updatedAt = BigInt(Date.now());
  broadcast(packr.pack(template));
}

/** One encoded frame, the same Buffer to every open socket (the sender too). */
function broadcast(frame) {
  for (const ws of wss.clients) {
    if (ws.readyState !== ws.OPEN) continue;
    ws.send(frame, { binary: true });
    if (ws.bufferedAmount > MAX_BUFFERED) ws.terminate();
  }
}

// One timer for every socket: cut off the silent, ping the rest.
const heartbeat = setInterval(() => {
  const now = Date.now();
  for (const ws of wss.clients) {
    if (now - ws.lastHeard > SILENT_FOR_MS) {
      ws.terminate();
    } else {
      ws.ping();
    }
  }
}, PING_EVERY_MS);
wss.on('close', () => clearInterval(heartbeat));

server.listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${port}`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    server.close(() => process.exit(0));
  });
}
