// The rendition peer (loadtest/README.md, "Beside the peers"): how many photos a second
// sharp (libvips) turns into what Sitecast makes of every photo, on `--threads` cores,
// for side-by-side figures with `photos renditions` (loadtest/src/bin/photos.rs). Per
// photo: EXIF orientation applied, a display JPEG of at most 1600 px on the long edge
// (quality 82, 4:2:0) and a thumbnail of at most 480 px (quality 78, 4:2:0). By default
// each output decodes the file itself, the way sharp users make two sizes (so JPEG
// shrink-on-load helps both); `--thumb-from display` makes the thumbnail from the
// display JPEG instead (as Sitecast makes it from its display image).
//
//   node renditions.mjs --file PHOTO.jpg --threads 2 --seconds 20   # or --count N
//   node renditions.mjs --file PHOTO.jpg --thumb-from display --write /tmp/out
//
// Parallelism is exactly --threads: libvips works each operation on one thread
// (sharp.concurrency(1)), --threads photos are in flight at once, and the process
// re-executes itself with UV_THREADPOOL_SIZE=--threads (the libuv pool sharp runs on
// is sized once, when first used, before any of this code could set it). `--pin` also
// pins the process to --threads CPUs with taskset. The line printed ends with the
// average CPU cores the process kept busy while timed, to check.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    file: { type: 'string' },
    threads: { type: 'string', default: '2' },
    seconds: { type: 'string' },
    count: { type: 'string' },
    'thumb-from': { type: 'string', default: 'original' },
    write: { type: 'string' },
    warmup: { type: 'string', default: '3' },
    pin: { type: 'boolean', default: false },
  },
});
const threads = Math.max(1, Number(args.threads) || 1);
if (!args.file || !['original', 'display'].includes(args['thumb-from'])) {
  console.error('usage: node renditions.mjs --file PHOTO.jpg [--threads 2] [--seconds 20 | --count N] [--thumb-from original|display] [--write DIR] [--pin]');
  process.exit(2);
}

// Re-exec with the thread pool sized to --threads (and pinned, with --pin).
if (process.env.UV_THREADPOOL_SIZE !== String(threads)) {
  const env = { ...process.env, UV_THREADPOOL_SIZE: String(threads) };
  const node = [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  const [cmd, ...rest] = args.pin ? ['taskset', '-c', firstCpus(threads), ...node] : node;
  const child = spawnSync(cmd, rest, { env, stdio: 'inherit' });
  if (child.error) {
    console.error(`could not re-execute: ${child.error.message}`);
    process.exit(1);
  }
  process.exit(child.status ?? 1);
}

/** The first `n` CPUs this process may run on, as a taskset list. */
function firstCpus(n) {
  const out = spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' });
  const list = out.stdout?.split(':').pop()?.trim() ?? `0-${n - 1}`;
  const cpus = list.split(',').flatMap((part) => {
    const [a, b = a] = part.split('-').map(Number);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
  if (cpus.length < n) {
    console.error(`--pin: only ${cpus.length} CPUs available for ${n} threads`);
    process.exit(2);
  }
  return cpus.slice(0, n).join(',');
}

const { default: sharp } = await import('sharp');
sharp.concurrency(1);
// The same input over and over: libvips' operation cache would reuse one photo's work
// for the next (a server sees each photo once), so it is off.
sharp.cache(false);

const DISPLAY_EDGE = 1600;
const THUMB_EDGE = 480;
const fit = { fit: 'inside', withoutEnlargement: true };
const thumbFromDisplay = args['thumb-from'] === 'display';
const photo = readFileSync(args.file);

async function renditions(input) {
  const display = await sharp(input)
    .rotate()
    .resize(DISPLAY_EDGE, DISPLAY_EDGE, fit)
    .jpeg({ quality: 82, chromaSubsampling: '4:2:0' })
    .toBuffer({ resolveWithObject: true });
  // The display JPEG is already turned and carries no EXIF: rotate() is a no-op there.
  const thumb = await sharp(thumbFromDisplay ? display.data : input)
    .rotate()
    .resize(THUMB_EDGE, THUMB_EDGE, fit)
    .jpeg({ quality: 78, chromaSubsampling: '4:2:0' })
    .toBuffer({ resolveWithObject: true });
  return { display, thumb };
}

// Warm-up, not counted; its output is the sample written and measured.
let sample;
for (let i = 0; i < Math.max(1, Number(args.warmup)); i++) sample = await renditions(photo);
if (args.write) {
  mkdirSync(args.write, { recursive: true });
  writeFileSync(path.join(args.write, 'display.jpg'), sample.display.data);
  writeFileSync(path.join(args.write, 'thumb.jpg'), sample.thumb.data);
}

const count = args.count ? Number(args.count) : Infinity;
const seconds = args.seconds ? Number(args.seconds) : args.count ? Infinity : 10;
const start = process.hrtime.bigint();
const deadline = seconds === Infinity ? Infinity : Date.now() + seconds * 1000;
const cpuStart = process.cpuUsage();
let claimed = 0;
let done = 0;
// --threads lanes, each one photo at a time.
await Promise.all(
  Array.from({ length: threads }, async () => {
    while (claimed < count && Date.now() < deadline) {
      claimed++;
      await renditions(photo);
      done++;
    }
  }),
);
const wall = Number(process.hrtime.bigint() - start) / 1e9;
const cpu = process.cpuUsage(cpuStart);
const busy = (cpu.user + cpu.system) / 1e6 / wall;

const size = (o) => `${o.info.width}x${o.info.height}`;
console.log(
  `sharp vips=${sharp.versions.vips} file=${path.basename(args.file)} threads=${threads} photos=${done} ` +
    `seconds=${wall.toFixed(1)} rate=${(done / wall).toFixed(1)}/s display=${size(sample.display)} thumb=${size(sample.thumb)} ` +
    `thumb_from=${args['thumb-from']} display_bytes=${sample.display.info.size} thumb_bytes=${sample.thumb.info.size} ` +
    `ms_per_photo_per_thread=${((wall * 1000 * threads) / Math.max(done, 1)).toFixed(0)} cpu_cores=${busy.toFixed(2)}`,
);
