import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * iPhone photos for the browser tests (docs/FEATURES.md, "Photos"), made as the server's
 * own tests make them (server/src/media/fixtures.rs): libheif's encoder turns a JPEG into
 * a HEIC, and an `irot` box says how to turn it upright, as an iPhone writes one.
 */

/** A HEIC of `jpeg` by Debian's `heif-enc` (libheif-examples; scripts/test-deps.sh installs it). It keeps the JPEG's EXIF. */
export function heicFromJpeg(jpeg: Buffer): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitecast-heic-'));
  try {
    const input = path.join(dir, 'in.jpg');
    const output = path.join(dir, 'out.heic');
    writeFileSync(input, jpeg);
    execFileSync('heif-enc', ['-q', '60', input, '-o', output], { stdio: 'pipe' });
    return readFileSync(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `heif` with an `irot` property (`quarterTurns` × 90° anticlockwise) on its primary
 * image: the pixels stay as the sensor saw them and the file says how to turn them.
 * heif-enc 1.15 writes none. A port of `heif_with_rotation` (fixtures.rs): it rewrites
 * heif-enc's layout (meta before mdat, iloc extents by absolute offset) and throws for
 * any other.
 */
export function heifWithRotation(heif: Buffer, quarterTurns: number): Buffer {
  const fail = (why: string): never => {
    throw new Error(`not heif-enc's layout: ${why}`);
  };
  const be32 = (at: number) => (at + 4 <= heif.length ? heif.readUInt32BE(at) : fail(`no 32 bits at ${at}`));
  const find = (from: number, to: number, name: string): [number, number] => {
    for (let at = from; at + 8 <= to; ) {
      const size = be32(at);
      if (size < 8) fail(`a box of ${size} bytes`);
      if (heif.toString('latin1', at + 4, at + 8) === name) return [at, size];
      at += size;
    }
    return fail(`no ${name} box`);
  };
  const [meta, metaLen] = find(0, heif.length, 'meta');
  const [iprp, iprpLen] = find(meta + 12, meta + metaLen, 'iprp');
  const [ipco, ipcoLen] = find(iprp + 8, iprp + iprpLen, 'ipco');
  const [ipma, ipmaLen] = find(iprp + 8, iprp + iprpLen, 'ipma');
  const [iloc, ilocLen] = find(meta + 12, meta + metaLen, 'iloc');
  const [pitm] = find(meta + 12, meta + metaLen, 'pitm');
  const primary = heif.readUInt16BE(pitm + 12);
  // Properties so far: the new one's 1-based index follows them.
  let count = 0;
  for (let at = ipco + 8; at < ipco + ipcoLen; at += be32(at)) count += 1;
  const irot = Buffer.from([0, 0, 0, 9, ...Buffer.from('irot', 'latin1'), quarterTurns & 3]);
  // ipma version 0, flags 0: entries of item id (2), count (1), 1-byte associations.
  if (heif.readUInt32BE(ipma + 8) !== 0 || count >= 127) fail('an ipma of another version');

  const parts: Buffer[] = [heif.subarray(0, ipco + ipcoLen), irot];
  const ipmaStart = ipco + ipcoLen + irot.length;
  const entries = be32(ipma + 12);
  const ipmaBody: number[] = [...heif.subarray(ipma, ipma + 16)];
  let found = false;
  for (let at = ipma + 16, i = 0; i < entries; i++) {
    const item = heif.readUInt16BE(at);
    const n = heif[at + 2] ?? fail('a cut ipma');
    ipmaBody.push(heif[at] ?? 0, heif[at + 1] ?? 0, item === primary ? n + 1 : n, ...heif.subarray(at + 3, at + 3 + n));
    if (item === primary) {
      found = true;
      ipmaBody.push(0x80 | (count + 1));
    }
    at += 3 + n;
  }
  if (!found) fail('the primary image has no properties');
  parts.push(Buffer.from(ipmaBody), heif.subarray(ipma + ipmaLen));
  const out = Buffer.concat(parts);

  const grown = irot.length + 1;
  const bump = (at: number) => out.writeUInt32BE(out.readUInt32BE(at) + grown, at);
  bump(meta);
  bump(iprp);
  out.writeUInt32BE(ipcoLen + irot.length, ipco);
  out.writeUInt32BE(ipmaLen + 1, ipmaStart);
  // iloc: version 0/1, offset and length sizes 4, base offset size 0 or 4; every extent
  // lies in mdat, after what grew. Its offsets in `out` are its offsets in `heif`
  // (iloc comes before ipco).
  if (iloc > ipco) fail('iloc after ipco');
  const version = heif[iloc + 8] ?? 0;
  const sizes = heif[iloc + 12];
  const baseSize = (heif[iloc + 13] ?? 0) >> 4;
  if (version > 1 || sizes !== 0x44 || !(baseSize === 0 || baseSize === 4)) fail('an iloc of another shape');
  const items = heif.readUInt16BE(iloc + 14);
  let at = iloc + 16;
  for (let i = 0; i < items; i++) {
    at += 2; // item id
    if (version === 1) at += 2; // construction method
    at += 2; // data reference index
    const based = baseSize === 4 && be32(at) !== 0;
    if (based) bump(at);
    at += baseSize;
    const extents = heif.readUInt16BE(at);
    at += 2;
    for (let e = 0; e < extents; e++) {
      if (!based) bump(at);
      at += 8;
    }
  }
  if (at > iloc + ilocLen) fail('an iloc longer than its box');
  return out;
}
