// Draws Patrimonio's logo (a rounded square in the brand colours with three white rising bars) and
// writes the PWA icons as PNG files under public/icons/, plus public/favicon.ico.
// The generated files are committed; run again after changing the drawing:
//   npx tsx pwa/scripts/make-icons.ts
// No dependency beyond Node: the PNG encoder below uses node:zlib for the image data.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";

type RGB = readonly [number, number, number];

/** Brand gradient, top-left to bottom-right (teal 600 → a deep teal). */
const GRADIENT_FROM: RGB = [0x0d, 0x94, 0x88];
const GRADIENT_TO: RGB = [0x11, 0x5e, 0x59];
const MARK: RGB = [0xff, 0xff, 0xff];

/** Samples per pixel side for anti-aliasing (SUPERSAMPLE² samples per pixel). */
const SUPERSAMPLE = 5;

interface IconLayout {
  /** Background: "rounded" leaves transparent corners; "full" fills the square (maskable, Apple). */
  background: "rounded" | "full";
  /** Width of the bar group as a fraction of the icon side, centred. */
  markWidth: number;
}

/** Signed distance from point (px, py) to a rounded box centred at (cx, cy); negative inside. */
function roundedBoxDistance(
  px: number,
  py: number,
  cx: number,
  cy: number,
  halfW: number,
  halfH: number,
  radius: number,
): number {
  const qx = Math.abs(px - cx) - (halfW - radius);
  const qy = Math.abs(py - cy) - (halfH - radius);
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  const inside = Math.min(Math.max(qx, qy), 0);
  return outside + inside - radius;
}

interface Bar {
  cx: number;
  cy: number;
  halfW: number;
  halfH: number;
  radius: number;
}

/** Three bars of rising height, bottom-aligned, in a square box of side markWidth centred at 0.5. */
function bars(markWidth: number): Bar[] {
  const barWidth = markWidth * (0.12 / 0.52);
  const gap = (markWidth - 3 * barWidth) / 2;
  const heights = [0.5, 0.73, 1].map((h) => h * markWidth);
  const left = 0.5 - markWidth / 2;
  const bottom = 0.5 + markWidth / 2;
  return heights.map((h, i) => ({
    cx: left + barWidth / 2 + i * (barWidth + gap),
    cy: bottom - h / 2,
    halfW: barWidth / 2,
    halfH: h / 2,
    radius: barWidth * 0.32,
  }));
}

function mix(a: RGB, b: RGB, t: number): RGB {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Renders the logo at size×size as straight (non-premultiplied) RGBA bytes. */
function render(size: number, layout: IconLayout): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  const markBars = bars(layout.markWidth);
  const bgRadius = layout.background === "rounded" ? 0.22 : 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let bgCoverage = 0;
      let markCoverage = 0;
      let gradientT = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const u = (x + (sx + 0.5) / SUPERSAMPLE) / size;
          const v = (y + (sy + 0.5) / SUPERSAMPLE) / size;
          if (roundedBoxDistance(u, v, 0.5, 0.5, 0.5, 0.5, bgRadius) > 0) continue;
          bgCoverage++;
          gradientT += (u + v) / 2;
          if (markBars.some((b) => roundedBoxDistance(u, v, b.cx, b.cy, b.halfW, b.halfH, b.radius) <= 0)) {
            markCoverage++;
          }
        }
      }
      const o = (y * size + x) * 4;
      if (bgCoverage === 0) continue;
      const bg = mix(GRADIENT_FROM, GRADIENT_TO, gradientT / bgCoverage);
      const colour = mix(bg, MARK, markCoverage / bgCoverage);
      pixels[o] = Math.round(colour[0]);
      pixels[o + 1] = Math.round(colour[1]);
      pixels[o + 2] = Math.round(colour[2]);
      pixels[o + 3] = Math.round((255 * bgCoverage) / (SUPERSAMPLE * SUPERSAMPLE));
    }
  }
  return pixels;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return out;
}

/** Encodes RGBA pixels as a PNG (8-bit, colour type 6, no filtering). */
function encodePng(size: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: truecolour with alpha
  header[10] = 0; // compression
  header[11] = 0; // filter method
  header[12] = 0; // no interlace
  const stride = size * 4;
  const raw = Buffer.alloc((stride + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (stride + 1)] = 0; // filter type None
    Buffer.from(rgba.buffer, rgba.byteOffset + y * stride, stride).copy(raw, y * (stride + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** An ICO file whose entries are PNG images (supported by every current browser). */
function encodeIco(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const e = 6 + 16 * i;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header[e + 2] = 0; // palette
    header[e + 3] = 0; // reserved
    header.writeUInt16LE(1, e + 4); // colour planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

const ANY: IconLayout = { background: "rounded", markWidth: 0.52 };
// Maskable: the whole square is painted and the mark stays well inside the 80% safe-zone circle
// (its corners are at 0.2·√2 ≈ 0.28 of the side from the centre, under the 0.4 radius).
const MASKABLE: IconLayout = { background: "full", markWidth: 0.4 };
// Apple draws its own rounded mask over an opaque square.
const APPLE: IconLayout = { background: "full", markWidth: 0.48 };

const outputs: { file: string; size: number; layout: IconLayout }[] = [
  { file: "icons/icon-192.png", size: 192, layout: ANY },
  { file: "icons/icon-512.png", size: 512, layout: ANY },
  { file: "icons/maskable-192.png", size: 192, layout: MASKABLE },
  { file: "icons/maskable-512.png", size: 512, layout: MASKABLE },
  { file: "icons/apple-touch-icon.png", size: 180, layout: APPLE },
  { file: "icons/favicon-32.png", size: 32, layout: ANY },
];

const publicDir = join(dirname(fileURLToPath(import.meta.url)), "..", "public");
for (const { file, size, layout } of outputs) {
  const path = join(publicDir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, encodePng(size, render(size, layout)));
  console.warn(`wrote ${path}`);
}
const ico = encodeIco([16, 32, 48].map((size) => ({ size, png: encodePng(size, render(size, ANY)) })));
writeFileSync(join(publicDir, "favicon.ico"), ico);
console.warn(`wrote ${join(publicDir, "favicon.ico")}`);
