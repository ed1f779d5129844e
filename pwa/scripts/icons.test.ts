// Checks the committed icons that scripts/make-icons.ts generated: real PNGs of the sizes the
// manifest and index.html declare, maskable ones full-bleed with the mark inside the safe zone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { describe, expect, test } from "vitest";

const ICONS = join(import.meta.dirname, "..", "public", "icons");

interface Image {
  width: number;
  height: number;
  /** RGBA at (x, y). */
  at(x: number, y: number): [number, number, number, number];
}

/** Decodes the PNGs make-icons.ts writes: 8-bit RGBA, not interlaced, filter type 0 on every row. */
function decodePng(bytes: Buffer): Image {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9], data[12]]).toEqual([8, 6, 0]);
    } else if (type === "IDAT") {
      idat.push(data);
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4 + 1;
  expect(raw.length).toBe(stride * height);
  // Filter type 0 (none) on every row, checked once here rather than per pixel read (an expect per
  // pixel made the 512 px scan take seconds on a busy machine).
  const filters = Array.from({ length: height }, (_, y) => raw[y * stride]);
  expect(filters.every((f) => f === 0)).toBe(true);
  return {
    width,
    height,
    at(x, y) {
      const o = y * stride + 1 + x * 4;
      return [raw[o] ?? 0, raw[o + 1] ?? 0, raw[o + 2] ?? 0, raw[o + 3] ?? 0];
    },
  };
}

function load(file: string): Image {
  return decodePng(readFileSync(join(ICONS, file)));
}

/** Largest distance from the centre of a white pixel, as a fraction of the side. */
function markReach(image: Image): number {
  let reach = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const [r, g, b] = image.at(x, y);
      if (r > 200 && g > 200 && b > 200) {
        reach = Math.max(reach, Math.hypot(x + 0.5 - image.width / 2, y + 0.5 - image.height / 2) / image.width);
      }
    }
  }
  return reach;
}

describe("the generated icons", () => {
  test.each([
    ["icon-192.png", 192],
    ["icon-512.png", 512],
    ["maskable-192.png", 192],
    ["maskable-512.png", 512],
    ["apple-touch-icon.png", 180],
    ["favicon-32.png", 32],
  ])("%s is a %dpx square PNG", (file, size) => {
    const image = load(file);
    expect([image.width, image.height]).toEqual([size, size]);
  });

  test.each(["icon-192.png", "icon-512.png"])("%s (purpose any) has transparent rounded corners", (file) => {
    const image = load(file);
    const last = image.width - 1;
    for (const [x, y] of [[0, 0], [last, 0], [0, last], [last, last]] as const) {
      expect(image.at(x, y)[3]).toBe(0);
    }
    expect(image.at(image.width >> 1, 2)[3]).toBe(255);
  });

  test.each(["maskable-192.png", "maskable-512.png", "apple-touch-icon.png"])(
    "%s is opaque to the edges, for the platform's own mask",
    (file) => {
      const image = load(file);
      for (let i = 0; i < image.width; i++) {
        expect(image.at(i, 0)[3]).toBe(255);
        expect(image.at(0, i)[3]).toBe(255);
        expect(image.at(i, image.height - 1)[3]).toBe(255);
      }
    },
  );

  test.each(["maskable-192.png", "maskable-512.png"])("%s keeps the mark inside the 80%% safe zone", (file) => {
    const reach = markReach(load(file));
    expect(reach).toBeGreaterThan(0.1); // the mark is there
    expect(reach).toBeLessThan(0.4);
  });

  test("favicon.ico holds 16, 32 and 48 px PNG images", () => {
    const ico = readFileSync(join(ICONS, "..", "favicon.ico"));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 3]);
    const sizes = [0, 1, 2].map((i) => {
      const entry = 6 + 16 * i;
      const png = ico.subarray(ico.readUInt32LE(entry + 12), ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8));
      const image = decodePng(png);
      expect(image.width).toBe(ico[entry]);
      return image.width;
    });
    expect(sizes).toEqual([16, 32, 48]);
  });
});
