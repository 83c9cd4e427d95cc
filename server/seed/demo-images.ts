/**
 * The demo content's images: PNG gradients drawn in code, put in the image storage with an
 * ImageAsset row each, keyed and identified the same way on every run.
 */
import { createHash } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

import type { Db } from "../db/client";
import type { ImageStorage } from "../storage/image-storage";
import type { SeedReport } from "./demo";

const IMAGE_SIZE = { width: 640, height: 360 };

export type DemoImage = { key: string; width: number; height: number };

export async function ensureImage(
  db: Db,
  args: {
    accountId: number;
    images: ImageStorage;
    name: string;
    colours: [string, string];
    bands: number;
    report: SeedReport;
  },
): Promise<DemoImage> {
  const key = demoImageKey(args.accountId, args.name);
  const existing = await args.images.get(key);
  let bytes: number;
  if (!existing) {
    const png = gradientPng(IMAGE_SIZE.width, IMAGE_SIZE.height, args.colours[0], args.colours[1], args.bands);
    await args.images.put(key, png, { contentType: "image/png" });
    bytes = png.length;
  } else {
    bytes = existing.size;
    await existing.body.cancel();
  }
  const asset = await db.imageAsset.findUnique({ where: { key }, select: { id: true } });
  if (!asset) {
    await db.imageAsset.create({
      data: {
        id: stableUuid(`asset:${key}`),
        accountId: args.accountId,
        key,
        mimeType: "image/png",
        bytes,
        ...IMAGE_SIZE,
      },
    });
    args.report.created.push(`image ${key}`);
  }
  return { key, ...IMAGE_SIZE };
}

// ─── PNG drawing ─────────────────────────────────────────────────────────────────────────────

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const body = Buffer.concat([head.subarray(4), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([head.subarray(0, 4), body, crc]);
}

function hexToRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.replace("#", ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** An RGB PNG: a diagonal gradient from `from` to `to`, with bands that make each image distinct. */
export function gradientPng(width: number, height: number, from: string, to: string, bands = 5): Buffer {
  const a = hexToRgb(from);
  const b = hexToRgb(to);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const band = 0.92 + 0.08 * Math.sin((x + y) * ((bands * Math.PI) / (width + height)));
      for (let c = 0; c < 3; c++) raw[row + 1 + x * 3 + c] = Math.round((a[c]! + (b[c]! - a[c]!) * t) * band);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array()),
  ]);
}

/** A stable UUID (version-5 layout) from a name, so re-running the seed finds the same rows. */
function stableUuid(name: string): string {
  const hex = createHash("sha1").update(`masthead-demo:${name}`).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The demo images live in one fixed month so their keys never change between runs. */
function demoImageKey(accountId: number, name: string): string {
  return `${accountId}/2025/01/${stableUuid(`image:${name}`)}.png`;
}
