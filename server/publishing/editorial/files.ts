/**
 * Uploaded documents for stories' file elements: the record (FileAsset) in the database, the bytes
 * in the same storage as images (server/storage/image-storage.ts: UPLOAD_DIR or the bucket), under
 * "<accountId>/files/<yyyy>/<mm>/<uuid>.<ext>" (FILE_KEY_PATTERN; never reused, so the serving
 * route caches them for good).
 *
 * What a file is comes from its bytes (files.schema.ts, sniffFileType): PDF, Word, Excel,
 * PowerPoint, plain text or CSV (415 otherwise), at most `maxBytes` (413). GET /files/<key>
 * serves only recorded keys, always as a download in a sandbox: nothing uploaded runs on our origin.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import { recordAudit } from "../../audit/audit-log";
import { actorUserId, type Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { afterCommit, isTransaction, withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { log } from "../../log";
import { recordOrRemove, uploadMonth, type ImageStorage } from "../../storage/image-storage";
import {
  ACCEPTED_FILES_LABEL,
  FILE_KEY_PATTERN,
  FILE_TYPES,
  sniffFileType,
  type TFileMimeType,
  type TUploadedFile,
} from "./files.schema";
import { cleanFileName } from "./media.schema";

/** "<accountId>/files/<yyyy>/<mm>/<uuid>.<ext>", the month in UTC. */
function fileKey(accountId: number, now: Date, id: string, mimeType: TFileMimeType): string {
  return `${accountId}/files/${uploadMonth(now)}/${id}.${FILE_TYPES[mimeType]}`;
}

/** Check an upload's size (413 over `maxBytes`, 400 empty) and content (415 unless an accepted type). */
function inspectFile(data: Uint8Array, fileName: string, maxBytes: number): TFileMimeType {
  if (data.byteLength > maxBytes) throw new AppError("PAYLOAD_TOO_LARGE", `The file is larger than ${maxBytes} bytes.`);
  if (data.byteLength === 0)
    throw new AppError("BAD_REQUEST", "The file is empty.", { details: [{ field: "file", issue: "is empty" }] });
  const mimeType = sniffFileType(data, fileName);
  if (!mimeType)
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Upload a ${ACCEPTED_FILES_LABEL} file.`, {
      details: [{ field: "file", issue: `must be one of: ${ACCEPTED_FILES_LABEL}` }],
    });
  return mimeType;
}

type StoredFile = { id: string; key: string; fileName: string; mimeType: TFileMimeType; bytes: number };

/**
 * Keep a staff upload: inspected, its bytes stored under a new key, then recorded and audited
 * ("file.upload") in one transaction. The bytes are stored first, so a recorded file always has
 * them; if recording fails, they are removed.
 */
export async function storeFile(
  db: Db,
  args: {
    actor: Actor;
    data: Uint8Array;
    /** The file's name as the browser sent it (cleaned here; it also tells CSV from text). */
    fileName: string;
    storage: ImageStorage;
    maxBytes: number;
    now: Date;
  },
): Promise<StoredFile> {
  const { actor, data, now } = args;
  const mimeType = inspectFile(data, args.fileName, args.maxBytes);
  const id = randomUUID();
  const key = fileKey(actor.accountId, now, id, mimeType);
  const fileName = cleanFileName(args.fileName);
  await args.storage.put(key, data, { contentType: mimeType });
  await recordOrRemove(args.storage, [key], () =>
    withTransaction(db, async (tx) => {
      await tx.fileAsset.create({
        data: {
          id,
          accountId: actor.accountId,
          key,
          fileName,
          mimeType,
          bytes: data.byteLength,
          uploadedById: actorUserId(actor),
          createdAt: now,
        },
      });
      await recordAudit(tx, {
        actor,
        action: "file.upload",
        targetType: "file",
        targetId: id,
        metadata: { key, bytes: data.byteLength, mimeType, fileName },
        now,
      });
    }),
  );
  return { id, key, fileName, mimeType, bytes: data.byteLength };
}

/** Where a file is read: always Masthead's own /files/<key> (its headers make it a safe download). */
function publicFileUrl(key: string, env: { APP_URL: string }): string {
  return new URL(`/files/${key}`, env.APP_URL).toString();
}

/** An uploaded file as the upload endpoint answers it, in the file element's own field names. */
export function uploadedFileToWire(file: StoredFile, env: { APP_URL: string }): TUploadedFile {
  return {
    key: file.key,
    url: publicFileUrl(file.key, env),
    "file-name": file.fileName || `file.${FILE_TYPES[file.mimeType]}`,
    "content-type": file.mimeType,
    bytes: file.bytes,
  };
}

// ─── Serving ─────────────────────────────────────────────────────────────────────────────────

type FileObject = { id: string; key: string; fileName: string; mimeType: TFileMimeType; bytes: number };

/** The recorded file a key names, or null (not a file key, or no file has it). */
export async function findFile(db: Db, args: { key: string }): Promise<FileObject | null> {
  if (!FILE_KEY_PATTERN.test(args.key)) return null;
  const file = await db.fileAsset.findUnique({
    where: { key: args.key },
    select: { id: true, key: true, fileName: true, mimeType: true, bytes: true },
  });
  // Only types this module accepts are ever recorded; anything else is not served.
  if (!file || !Object.hasOwn(FILE_TYPES, file.mimeType)) return null;
  return { ...file, mimeType: file.mimeType as TFileMimeType };
}

// ─── Deleting ────────────────────────────────────────────────────────────────────────────────

/**
 * The account's stories whose cards name the key (a file element's link, or any other link to
 * it): the cards' JSON is searched as text. Keys hold only digits, hex, "/", "-" and ".", none of
 * them LIKE wildcards.
 */
async function storiesUsingFile(db: Db, accountId: number, key: string): Promise<{ id: string; headline: string }[]> {
  if (!FILE_KEY_PATTERN.test(key)) return [];
  return db.$queryRaw<{ id: string; headline: string }[]>`
    SELECT id::text AS id, headline FROM stories
    WHERE account_id = ${accountId} AND cards::text LIKE ${`%${key}%`}
    ORDER BY updated_at DESC LIMIT 20`;
}

/**
 * Delete one of the account's files: its record and audit entry ("file.delete") in one
 * transaction, then its bytes once that has committed. NOT_FOUND for a key the account has no
 * file under; CONFLICT, naming the stories, while a story still links to it.
 */
export async function deleteFile(
  db: Db,
  args: { actor: Actor; key: string; storage: ImageStorage; now: Date },
): Promise<void> {
  const { actor, key, now } = args;
  if (!FILE_KEY_PATTERN.test(key)) throw new AppError("NOT_FOUND", "No file has this key.");
  await withTransaction(db, async (tx) => {
    const file = await tx.fileAsset.findFirst({
      where: { key, accountId: actor.accountId },
      select: { id: true, bytes: true, mimeType: true, fileName: true },
    });
    if (!file) throw new AppError("NOT_FOUND", "No file has this key.");
    const stories = await storiesUsingFile(tx, actor.accountId, key);
    if (stories.length)
      throw new AppError(
        "CONFLICT",
        `This file is still linked from ${stories
          .slice(0, 3)
          .map((story) => `“${story.headline}”`)
          .join(", ")}${stories.length > 3 ? "…" : ""}: take it out of there first.`,
        {
          details: stories.map((story) => ({
            field: "key",
            issue: `is used by story "${story.headline}" (${story.id})`,
          })),
        },
      );
    await tx.fileAsset.delete({ where: { id: file.id } });
    await recordAudit(tx, {
      actor,
      action: "file.delete",
      targetType: "file",
      targetId: file.id,
      metadata: { key, bytes: file.bytes, mimeType: file.mimeType, fileName: file.fileName },
      now,
    });
  });
  const removeBytes = () =>
    args.storage
      .delete(key)
      .catch((error: unknown) =>
        log.warn("could not remove a deleted file's bytes", { key, storage: args.storage.name, error }),
      );
  if (isTransaction(db)) afterCommit(db, removeBytes);
  else await removeBytes();
}
