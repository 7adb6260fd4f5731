/**
 * Draws the app's home-screen icons (web/public/icons/*.png) from the favicon's shapes, with no image tool:
 * a small polygon rasteriser (4x4 samples a pixel) and a PNG writer on node:zlib. The PNGs are committed;
 * run this again only when the favicon changes: `npx tsx web/scripts/make-icons.ts`.
 *
 * "any" icons are the favicon (rounded square); maskable ones fill the square with the background and keep
 * the mark inside the 80 % safe circle, so a launcher's mask never cuts it.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

type Pt = [number, number];
type Rgb = [number, number, number];

const NAVY: Rgb = [0x1d, 0x35, 0x57];
const CAP: Rgb = [0xf1, 0xfa, 0xee];
const BAND: Rgb = [0xa8, 0xda, 0xdc];

/** Cubic Bézier from p0 to p3, as points (p0 excluded). */
function bezier(p0: Pt, p1: Pt, p2: Pt, p3: Pt, steps = 16): Pt[] {
  const out: Pt[] = [];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    out.push([
      u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
      u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
    ]);
  }
  return out;
}

// The favicon's two paths, in its 64-unit box.
const capTop: Pt[] = [
  [32, 14],
  [8, 26],
  [32, 38],
  [56, 26],
];
const band: Pt[] = [
  [18, 32],
  [18, 42],
  ...bezier([18, 42], [18, 46], [24.5, 50], [32, 50]),
  ...bezier([32, 50], [39.5, 50], [46, 46], [46, 42]),
  [46, 32],
  [32, 39],
];

function inside(poly: Pt[], x: number, y: number): boolean {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

function inRoundedSquare(x: number, y: number, r: number): boolean {
  if (x < 0 || y < 0 || x > 64 || y > 64) return false;
  const cx = Math.min(Math.max(x, r), 64 - r);
  const cy = Math.min(Math.max(y, r), 64 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** RGBA pixels of one icon. */
function draw(size: number, maskable: boolean): Buffer {
  const px = Buffer.alloc(size * size * 4);
  const n = 4;
  // Maskable: the mark at 70 % around the centre, well within the safe circle (radius 40 %).
  const scale = maskable ? 0.7 : 1;
  for (let py = 0; py < size; py++) {
    for (let pxX = 0; pxX < size; pxX++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = ((pxX + (sx + 0.5) / n) / size) * 64;
          const y = ((py + (sy + 0.5) / n) / size) * 64;
          const bg = maskable || inRoundedSquare(x, y, 14);
          if (!bg) continue;
          const mx = 32 + (x - 32) / scale;
          const my = 32 + (y - 32) / scale;
          const c = inside(capTop, mx, my) ? CAP : inside(band, mx, my) ? BAND : NAVY;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const o = (py * size + pxX) * 4;
      if (a > 0) {
        px[o] = Math.round(r / a);
        px[o + 1] = Math.round(g / a);
        px[o + 2] = Math.round(b / a);
      }
      px[o + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, k) => {
  let c = k;
  for (let i = 0; i < 8; i++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG (8-bit RGBA, no filter) of the pixels. */
function png(size: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = path.join(import.meta.dirname, '..', 'public', 'icons');
fs.mkdirSync(out, { recursive: true });
for (const size of [192, 512]) {
  fs.writeFileSync(path.join(out, `icon-${size}.png`), png(size, draw(size, false)));
  fs.writeFileSync(path.join(out, `maskable-${size}.png`), png(size, draw(size, true)));
}
// iOS takes its home-screen icon from apple-touch-icon, 180 px, opaque.
fs.writeFileSync(path.join(out, 'apple-touch-icon.png'), png(180, draw(180, true)));
console.log(`icons written to ${out}`);
