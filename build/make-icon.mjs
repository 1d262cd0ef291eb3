// Draws build/icon.png (512×512): three stacked, offset "archive layers" on a dark rounded square, the
// studio's idea in one picture. Run `node build/make-icon.mjs` to redraw it; electron-builder derives the
// platform icons (ico, icns) from this PNG.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const size = 512;
const rgba = Buffer.alloc(size * size * 4);
const put = (x, y, [r, g, b, a]) => {
  const i = (y * size + x) * 4;
  rgba[i] = r;
  rgba[i + 1] = g;
  rgba[i + 2] = b;
  rgba[i + 3] = a;
};
const inRounded = (x, y, x0, y0, x1, y1, radius) => {
  if (x < x0 || x >= x1 || y < y0 || y >= y1) return false;
  const cx = Math.max(x0 + radius, Math.min(x, x1 - radius - 1));
  const cy = Math.max(y0 + radius, Math.min(y, y1 - radius - 1));
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
};
const layers = [
  { x0: 150, y0: 110, color: [74, 144, 226, 255] },
  { x0: 120, y0: 200, color: [80, 200, 160, 255] },
  { x0: 90, y0: 290, color: [245, 180, 60, 255] },
];
for (let y = 0; y < size; y++) {
  for (let x = 0; x < size; x++) {
    let px = [0, 0, 0, 0];
    if (inRounded(x, y, 16, 16, 496, 496, 96)) px = [28, 32, 44, 255];
    for (const l of layers) {
      if (inRounded(x, y, l.x0, l.y0, l.x0 + 270, l.y0 + 110, 18))
        px = inRounded(x, y, l.x0 + 8, l.y0 + 8, l.x0 + 262, l.y0 + 102, 12) ? l.color : [20, 22, 30, 255];
    }
    put(x, y, px);
  }
}
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
// Each scanline starts with filter byte 0 (none).
const raw = Buffer.alloc((size * 4 + 1) * size);
for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
const png = Buffer.concat([
  Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(fileURLToPath(new URL('./icon.png', import.meta.url)), png);
console.log(`build/icon.png: ${png.length} bytes`);
