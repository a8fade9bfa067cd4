// Writes a 12 MP test JPEG (4000×3000, quality 92, 4:2:0, EXIF Orientation 6 so the
// renditions must turn it) for renditions.mjs. The picture follows `photos renditions`'
// generator (loadtest/src/bin/photos.rs: a vertical "sky" ramp, a diagonal pattern, a
// horizontal blue ramp, plus xorshift grain), so the two benches chew on alike content;
// standard Huffman tables (no optimised coding), as Sitecast's encoder writes: grain 36
// makes about 3.9 MB here against 4.2 MB there, grain 100 a worst case.
// Not committed: images stay out of git.
//
//   node make-photo.mjs /tmp/photo.jpg [--grain 36] [--orientation 6]

import { parseArgs } from 'node:util';
import sharp from 'sharp';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    grain: { type: 'string', default: '36' },
    orientation: { type: 'string', default: '6' },
    width: { type: 'string', default: '4000' },
    height: { type: 'string', default: '3000' },
  },
});
const out = positionals[0];
if (!out) {
  console.error('usage: node make-photo.mjs OUT.jpg [--grain 36] [--orientation 6]');
  process.exit(2);
}
const [w, h, grainMax] = [Number(args.width), Number(args.height), Math.min(Math.max(Number(args.grain), 1), 256)];

const pixels = Buffer.alloc(w * h * 3);
let state = Math.imul(1, 2654435761) >>> 0 || 1;
let i = 0;
for (let y = 0; y < h; y++) {
  const sky = Math.floor((y * 200) / h);
  for (let x = 0; x < w; x++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const grain = state % grainMax;
    pixels[i++] = Math.min(255, sky + grain);
    pixels[i++] = ((Math.floor(x / 16) + Math.floor(y / 16)) % 180) + (grain >> 1);
    pixels[i++] = Math.floor((x * 255) / w);
  }
}

const info = await sharp(pixels, { raw: { width: w, height: h, channels: 3 } })
  .withMetadata({ orientation: Number(args.orientation) })
  .jpeg({ quality: 92, chromaSubsampling: '4:2:0', optimiseCoding: false })
  .toFile(out);
const meta = await sharp(out).metadata();
console.log(`wrote ${out}: ${info.width}x${info.height} ${(info.size / 1e6).toFixed(1)} MB orientation=${meta.orientation}`);
