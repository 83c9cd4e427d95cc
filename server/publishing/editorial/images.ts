/**
 * Uploaded images, stored on the local disk under UPLOAD_DIR (the caller passes it in).
 *
 * The key, "<accountId>/<yyyy>/<mm>/<uuid>.<ext>", is the file's path under UPLOAD_DIR and the
 * spec's *-s3-key (hero-image-s3-key, avatar-s3-key): front ends append it to the publisher's
 * image CDN host, and GET /images/<key> serves it. Files are never overwritten (a new upload
 * gets a new uuid), which is what lets the serving route cache them forever.
 *
 * What a file is comes from its first bytes, not from the name or type the browser declared:
 * only JPEG, PNG, WebP and GIF are kept (415 otherwise), at most `maxBytes` (413).
 *
 * (`turbopackIgnore` marks the file-system calls whose paths come from configuration, so the
 * build does not trace the whole project into the server bundle.)
 */
import "server-only";

import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { imageSize } from "image-size";

import { recordAudit } from "../../audit/audit-log";
import { actorUserId, type Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { IMAGE_KEY_PATTERN, IMAGE_TYPES, type TImageMimeType, type TUploadedImage } from "./organise.schema";

// ─── Pure rules ──────────────────────────────────────────────────────────────────────────────

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type the content's magic bytes announce, or null when it is none of the accepted ones. */
export function sniffImageType(bytes: Uint8Array): TImageMimeType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

/** "<accountId>/<yyyy>/<mm>/<uuid>.<ext>", the month in UTC. */
export function imageKey(accountId: number, now: Date, id: string, mimeType: TImageMimeType): string {
  const yyyy = String(now.getUTCFullYear()).padStart(4, "0");
  const mm = String(now.getUTCMonth() + 1).padStart(2, "0");
  return `${accountId}/${yyyy}/${mm}/${id}.${IMAGE_TYPES[mimeType]}`;
}

/**
 * The file a key names under `uploadDir`, or null for anything that is not exactly a key this
 * module makes: no "..", no absolute paths, no encoded separators, nothing outside the folder.
 */
export function imagePath(uploadDir: string, key: string): string | null {
  if (!IMAGE_KEY_PATTERN.test(key)) return null;
  const root = path.resolve(/*turbopackIgnore: true*/ uploadDir);
  const file = path.resolve(/*turbopackIgnore: true*/ root, ...key.split("/"));
  return file.startsWith(root + path.sep) ? file : null;
}

// ─── Storing ─────────────────────────────────────────────────────────────────────────────────

export type StoredImage = {
  id: string;
  key: string;
  mimeType: TImageMimeType;
  bytes: number;
  width: number | null;
  height: number | null;
};

/**
 * Keep an uploaded image: check its size and content, write it under `uploadDir` and record it
 * (ImageAsset). The file is written to a temporary name and renamed, so a half-written file is
 * never served; if recording fails, the file is removed.
 */
export async function storeImage(
  db: Db,
  args: { actor: Actor; data: Uint8Array; uploadDir: string; maxBytes: number; now: Date },
): Promise<StoredImage> {
  const { actor, data, now } = args;
  if (data.byteLength > args.maxBytes)
    throw new AppError("PAYLOAD_TOO_LARGE", `The image is larger than ${args.maxBytes} bytes.`);
  if (data.byteLength === 0)
    throw new AppError("BAD_REQUEST", "The file is empty.", { details: [{ field: "file", issue: "is empty" }] });
  const mimeType = sniffImageType(data);
  if (!mimeType) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Upload a JPEG, PNG, WebP or GIF image.");
  let size: { width: number; height: number };
  try {
    size = imageSize(data);
  } catch {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `The file starts like a ${IMAGE_TYPES[mimeType].toUpperCase()} image but cannot be read as one.`,
    );
  }

  const id = randomUUID();
  const key = imageKey(actor.accountId, now, id, mimeType);
  const file = imagePath(args.uploadDir, key);
  if (!file) throw new AppError("INTERNAL", "Could not make a storage path for the image.");
  await fs.mkdir(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.partial`;
  await fs.writeFile(/*turbopackIgnore: true*/ temporary, data, { flag: "wx" });
  await fs.rename(/*turbopackIgnore: true*/ temporary, file);
  try {
    await db.imageAsset.create({
      data: {
        id,
        accountId: actor.accountId,
        key,
        mimeType,
        bytes: data.byteLength,
        width: size.width ?? null,
        height: size.height ?? null,
        uploadedById: actorUserId(actor),
        createdAt: now,
      },
    });
    await recordAudit(db, {
      actor,
      action: "image.upload",
      targetType: "image",
      targetId: id,
      metadata: { key, bytes: data.byteLength, mimeType },
      now,
    });
  } catch (error) {
    await fs.rm(/*turbopackIgnore: true*/ file, { force: true });
    throw error;
  }
  return { id, key, mimeType, bytes: data.byteLength, width: size.width ?? null, height: size.height ?? null };
}

// ─── Serving ─────────────────────────────────────────────────────────────────────────────────

export type ImageFile = { id: string; key: string; mimeType: string; bytes: number; file: string };

/** The recorded image a key names and its file, or null (unknown key, or the file is gone). */
export async function findImageFile(db: Db, args: { uploadDir: string; key: string }): Promise<ImageFile | null> {
  const file = imagePath(args.uploadDir, args.key);
  if (!file) return null;
  const asset = await db.imageAsset.findUnique({
    where: { key: args.key },
    select: { id: true, key: true, mimeType: true, bytes: true },
  });
  if (!asset) return null;
  try {
    const stat = await fs.stat(/*turbopackIgnore: true*/ file);
    if (!stat.isFile()) return null;
    return { ...asset, bytes: stat.size, file };
  } catch {
    return null;
  }
}

/** An uploaded image as the upload endpoint answers it: its key, where Masthead serves it, its size and type. */
export function uploadedImageToWire(image: StoredImage, appUrl: string): TUploadedImage {
  return {
    key: image.key,
    url: new URL(`/images/${image.key}`, appUrl).toString(),
    width: image.width,
    height: image.height,
    "mime-type": image.mimeType,
  };
}
