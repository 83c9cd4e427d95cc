/**
 * Uploaded images: the record (ImageAsset) in the database, the bytes in an ImageStorage
 * (server/storage/image-storage.ts: the local disk under UPLOAD_DIR, or an S3-compatible bucket;
 * the caller passes it in).
 *
 * The key, "<accountId>/<yyyy>/<mm>/<uuid>.<ext>", is the storage key (the file's path under
 * UPLOAD_DIR, or the object key) and the spec's *-s3-key (hero-image-s3-key, avatar-s3-key): front
 * ends append it to the publisher's image CDN host, and GET /images/<key> serves it. Keys are never
 * reused (a new upload gets a new uuid), which is what lets the serving route cache them forever.
 *
 * What a file is comes from its first bytes, not from the name or type the browser declared:
 * only JPEG, PNG, WebP and GIF are kept (415 otherwise), at most `maxBytes` (413).
 *
 * (`turbopackIgnore` marks the file-system calls whose paths come from configuration, so the
 * build does not trace the whole project into the server bundle.)
 */
import "server-only";

import { randomUUID } from "node:crypto";
import path from "node:path";

import { imageSize } from "image-size";

import { recordAudit } from "../../audit/audit-log";
import { actorUserId, type Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { afterCommit, isTransaction, withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { log } from "../../log";
import { publicImageUrl, recordOrRemove, uploadMonth, type ImageStorage } from "../../storage/image-storage";
import { cleanFileName } from "./media.schema";
import { IMAGE_KEY_PATTERN, IMAGE_TYPES, type TImageMimeType, type TUploadedImage } from "./organise.schema";
import { makeThumbnail, originalKeyOfThumbnail, thumbnailKey, withinThumbnailPixelLimit } from "./thumbnails";

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
  return `${accountId}/${uploadMonth(now)}/${id}.${IMAGE_TYPES[mimeType]}`;
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

type StoredImage = {
  id: string;
  key: string;
  mimeType: TImageMimeType;
  bytes: number;
  width: number | null;
  height: number | null;
  /** The thumbnail's key ("<key>.thumb.webp"), or null when none was made. */
  thumbKey?: string | null;
};

/** What an upload is, from its bytes: its type (magic bytes) and size in pixels. */
type InspectedImage = { mimeType: TImageMimeType; width: number | null; height: number | null };

/**
 * Check an upload's size (413 over `maxBytes`, 400 empty) and content: a JPEG, PNG, WebP or GIF
 * by its first bytes, readable as one (415 otherwise). Nothing else (SVG, HTML) is ever kept.
 */
export function inspectImage(data: Uint8Array, maxBytes: number): InspectedImage {
  if (data.byteLength > maxBytes)
    throw new AppError("PAYLOAD_TOO_LARGE", `The image is larger than ${maxBytes} bytes.`);
  if (data.byteLength === 0)
    throw new AppError("BAD_REQUEST", "The file is empty.", { details: [{ field: "file", issue: "is empty" }] });
  const mimeType = sniffImageType(data);
  if (!mimeType) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Upload a JPEG, PNG, WebP or GIF image.");
  try {
    const size = imageSize(data);
    return { mimeType, width: size.width ?? null, height: size.height ?? null };
  } catch {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `The file starts like a ${IMAGE_TYPES[mimeType].toUpperCase()} image but cannot be read as one.`,
    );
  }
}

/**
 * Keep an inspected image: put its bytes in `storage` under a new key, then record it
 * (ImageAsset, and whatever `record` adds in the same transaction). The bytes are stored first,
 * so a recorded image always has them; if recording fails, they are removed.
 */
export async function keepImage(
  db: Db,
  args: {
    accountId: number;
    data: Uint8Array;
    image: InspectedImage;
    storage: ImageStorage;
    now: Date;
    uploadedBy: { staffId: string | null } | { memberId: number };
    record?: (tx: Db, stored: StoredImage) => Promise<unknown>;
    /** Make a thumbnail next to it (staff uploads: the media library shows them). */
    thumbnail?: boolean;
    /** The file's name as the browser sent it (cleaned here). */
    fileName?: string;
  },
): Promise<StoredImage> {
  const { data, image, now } = args;
  const id = randomUUID();
  const key = imageKey(args.accountId, now, id, image.mimeType);
  await args.storage.put(key, data, { contentType: image.mimeType });
  const thumb = args.thumbnail ? await storeThumbnail(args.storage, key, data, image) : null;
  const stored: StoredImage = { id, key, bytes: data.byteLength, ...image, thumbKey: thumb?.key ?? null };
  await recordOrRemove(args.storage, [key, ...(thumb?.key ? [thumb.key] : [])], () =>
    withTransaction(db, async (tx) => {
      await tx.imageAsset.create({
        data: {
          id,
          accountId: args.accountId,
          key,
          mimeType: image.mimeType,
          bytes: data.byteLength,
          width: image.width,
          height: image.height,
          fileName: cleanFileName(args.fileName ?? ""),
          ...(thumb ? (thumb.key ? { thumbKey: thumb.key, thumbBytes: thumb.bytes } : { thumbFailedAt: now }) : {}),
          ...("memberId" in args.uploadedBy
            ? { uploadedByMemberId: args.uploadedBy.memberId }
            : { uploadedById: args.uploadedBy.staffId }),
          createdAt: now,
        },
      });
      await args.record?.(tx, stored);
    }),
  );
  return stored;
}

/**
 * Make and store an image's thumbnail ("<key>.thumb.webp"): its key and size, or `{ key: null }`
 * when sharp could not make one (corrupt, too many pixels) or storing it failed. Never throws:
 * the original is kept either way, and the library falls back to it.
 */
export async function storeThumbnail(
  storage: ImageStorage,
  key: string,
  data: Uint8Array,
  image: { width: number | null; height: number | null },
): Promise<{ key: string | null; bytes: number }> {
  if (!withinThumbnailPixelLimit(image.width, image.height)) return { key: null, bytes: 0 };
  const thumb = await makeThumbnail(data);
  if (!thumb) return { key: null, bytes: 0 };
  const thumbKey = thumbnailKey(key);
  try {
    await storage.put(thumbKey, thumb.data, { contentType: "image/webp" });
    return { key: thumbKey, bytes: thumb.data.byteLength };
  } catch (error) {
    log.warn("could not store a thumbnail", { key: thumbKey, storage: storage.name, error });
    return { key: null, bytes: 0 };
  }
}

/** Keep a staff (or system) upload: inspected, stored, recorded and audited ("image.upload"). */
export async function storeImage(
  db: Db,
  args: {
    actor: Actor;
    data: Uint8Array;
    storage: ImageStorage;
    maxBytes: number;
    now: Date;
    /** The file's name as the browser sent it. */
    fileName?: string;
  },
): Promise<StoredImage> {
  const { actor, data, now } = args;
  const image = inspectImage(data, args.maxBytes);
  return keepImage(db, {
    accountId: actor.accountId,
    data,
    image,
    storage: args.storage,
    now,
    thumbnail: true,
    fileName: args.fileName,
    uploadedBy: { staffId: actorUserId(actor) },
    record: (tx, stored) =>
      recordAudit(tx, {
        actor,
        action: "image.upload",
        targetType: "image",
        targetId: stored.id,
        metadata: { key: stored.key, bytes: data.byteLength, mimeType: image.mimeType },
        now,
      }),
  });
}

// ─── Serving ─────────────────────────────────────────────────────────────────────────────────

type ImageObject = { id: string; key: string; mimeType: string; bytes: number };

/** The recorded image a key names, or null (not a key, or no image has it). */
async function findImage(db: Db, args: { key: string }): Promise<ImageObject | null> {
  if (!IMAGE_KEY_PATTERN.test(args.key)) return null;
  return db.imageAsset.findUnique({
    where: { key: args.key },
    select: { id: true, key: true, mimeType: true, bytes: true },
  });
}

/** An uploaded image as the upload endpoint answers it: its key, where it is read (IMAGE_PUBLIC_BASE_URL or Masthead's /images), its size and type. */
export function uploadedImageToWire(
  image: StoredImage,
  env: { APP_URL: string; IMAGE_PUBLIC_BASE_URL?: string | undefined },
): TUploadedImage {
  return {
    key: image.key,
    url: publicImageUrl(image.key, env),
    width: image.width,
    height: image.height,
    "mime-type": image.mimeType,
  };
}

/**
 * What GET /images/<key> serves for a key: a recorded original, or the thumbnail a recorded
 * original has ("<key>.thumb.webp", as WebP). Null for anything else.
 */
export async function findServedImage(db: Db, args: { key: string }): Promise<ImageObject | null> {
  const original = originalKeyOfThumbnail(args.key);
  if (!original) return findImage(db, args);
  const asset = await db.imageAsset.findUnique({
    where: { key: original },
    select: { id: true, thumbKey: true, thumbBytes: true },
  });
  if (!asset?.thumbKey || asset.thumbKey !== args.key) return null;
  return { id: `${asset.id}.thumb`, key: asset.thumbKey, mimeType: "image/webp", bytes: asset.thumbBytes ?? 0 };
}

// ─── Deleting ────────────────────────────────────────────────────────────────────────────────

/**
 * Delete one of the account's images: its record and audit entry in one transaction, then its
 * bytes once that has committed (a rolled-back caller keeps them). NOT_FOUND for a key the
 * account has no image under. Stories, authors and front ends that still name the key get a 404
 * from then on. Its thumbnail's bytes go with it. Bytes that cannot be removed are logged and left behind: nothing serves them,
 * since only recorded keys are served.
 */
export async function deleteImage(
  db: Db,
  args: {
    actor: Actor;
    key: string;
    storage: ImageStorage;
    now: Date;
    /** Runs in the transaction before the row goes; throwing refuses the delete (the library: "still used"). */
    check?: (tx: Db) => Promise<void>;
  },
): Promise<void> {
  const { actor, key, now } = args;
  if (!IMAGE_KEY_PATTERN.test(key)) throw new AppError("NOT_FOUND", "No image has this key.");
  let thumbKey: string | null = null;
  await withTransaction(db, async (tx) => {
    const asset = await tx.imageAsset.findFirst({
      where: { key, accountId: actor.accountId },
      select: { id: true, bytes: true, mimeType: true, thumbKey: true },
    });
    if (!asset) throw new AppError("NOT_FOUND", "No image has this key.");
    thumbKey = asset.thumbKey;
    await args.check?.(tx);
    await tx.imageAsset.delete({ where: { id: asset.id } });
    await recordAudit(tx, {
      actor,
      action: "image.delete",
      targetType: "image",
      targetId: asset.id,
      metadata: { key, bytes: asset.bytes, mimeType: asset.mimeType },
      now,
    });
  });
  const removeBytes = async () => {
    for (const gone of [key, ...(thumbKey ? [thumbKey] : [])])
      await args.storage
        .delete(gone)
        .catch((error: unknown) =>
          log.warn("could not remove a deleted image's bytes", { key: gone, storage: args.storage.name, error }),
        );
  };
  if (isTransaction(db)) afterCommit(db, removeBytes);
  else await removeBytes();
}
