/**
 * Gives a JPEG an EXIF capture time (DateTimeOriginal), and optionally an orientation,
 * as a camera writes them: an APP1 segment right after the start-of-image marker.
 * Canvas-made JPEGs carry no EXIF.
 */
export function withCaptureTime(jpeg: Buffer, taken: Date, options: { orientation?: number } = {}): Buffer {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  // The camera's local clock, "YYYY:MM:DD HH:MM:SS" and a NUL: 20 bytes.
  const stamp = `${pad(taken.getFullYear(), 4)}:${pad(taken.getMonth() + 1)}:${pad(taken.getDate())} ${pad(taken.getHours())}:${pad(taken.getMinutes())}:${pad(taken.getSeconds())}\0`;
  const orientation = options.orientation;
  // IFD0 at 8: the Orientation (when given) and the pointer to the Exif IFD.
  const ifd0Entries = orientation === undefined ? 1 : 2;
  const exifIfd = 8 + 2 + 12 * ifd0Entries + 4;
  const dataAt = exifIfd + 2 + 12 + 4;
  const tiff = Buffer.alloc(dataAt + 20);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(0x2a, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(ifd0Entries, 8);
  let entry = 10;
  if (orientation !== undefined) {
    // Orientation: SHORT, one value, kept in the entry's first two bytes.
    tiff.writeUInt16BE(0x0112, entry);
    tiff.writeUInt16BE(3, entry + 2);
    tiff.writeUInt32BE(1, entry + 4);
    tiff.writeUInt16BE(orientation, entry + 8);
    entry += 12;
  }
  tiff.writeUInt16BE(0x8769, entry);
  tiff.writeUInt16BE(4, entry + 2);
  tiff.writeUInt32BE(1, entry + 4);
  tiff.writeUInt32BE(exifIfd, entry + 8);
  tiff.writeUInt32BE(0, entry + 12);
  // Exif IFD: DateTimeOriginal, ASCII, 20 bytes stored after the IFD.
  tiff.writeUInt16BE(1, exifIfd);
  tiff.writeUInt16BE(0x9003, exifIfd + 2);
  tiff.writeUInt16BE(2, exifIfd + 4);
  tiff.writeUInt32BE(20, exifIfd + 6);
  tiff.writeUInt32BE(dataAt, exifIfd + 10);
  tiff.writeUInt32BE(0, exifIfd + 14);
  tiff.write(stamp, dataAt, 'latin1');
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}
