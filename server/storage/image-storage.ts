/**
 * Where uploaded images' bytes live: one interface, two implementations, chosen by the
 * configuration (`imageStorageFromEnv`):
 * - "disk" (default, embedded): files under UPLOAD_DIR, the key being the path below it;
 * - "s3" (S3_BUCKET): objects in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO), the key
 *   being the object key.
 *
 * Which images exist is the database's business (ImageAsset): storage only keeps bytes by key.
 * Keys are made by server/publishing/editorial/images.ts ("<accountId>/<yyyy>/<mm>/<uuid>.<ext>")
 * and never reused, so a key's bytes never change. Stories' documents (FileAsset,
 * server/publishing/editorial/files.ts) share the storage under "<accountId>/files/<yyyy>/<mm>/…":
 * the "files" segment never matches an image key (IMAGE_KEY_PATTERN) nor the reverse
 * (FILE_KEY_PATTERN), and each route serves only the keys its own table records.
 *
 * The S3 secret key is passed to the SDK and nowhere else: not logged, not in errors we make.
 * (`turbopackIgnore` marks the file-system calls whose paths come from configuration, so the
 * build does not trace the whole project into the server bundle.)
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";

import { ownValue } from "@/server/own-keys";

import type { Env } from "../../env.js";
import { log } from "../log";

/** An object's bytes as a stream, with what serving it needs. */
type StoredObject = { body: ReadableStream<Uint8Array>; size: number; contentType: string };

export type ImageStorage = {
  /** "disk" or "s3", for logs and tests. */
  name: "disk" | "s3";
  /** Keep `data` under `key` (a key is written once; callers never reuse one). */
  put(key: string, data: Uint8Array, options: { contentType: string }): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<StoredObject | null>;
  /** Remove what is under `key`; nothing there is not an error. */
  delete(key: string): Promise<void>;
};

/** Storage keys: relative, "/"-separated, each segment plain (no "..", no encodings, no separators). */
const KEY_FORM = /^[A-Za-z0-9][A-Za-z0-9.-]{0,99}(?:\/[A-Za-z0-9][A-Za-z0-9.-]{0,99}){0,7}$/;

/**
 * Record bytes just stored: run `record` (the database write), and when it fails remove `keys`
 * (the bytes and anything stored beside them) so no unrecorded object stays behind, then rethrow.
 * Bytes go in first, so a recorded upload always has them.
 */
export async function recordOrRemove<T>(storage: ImageStorage, keys: string[], record: () => Promise<T>): Promise<T> {
  try {
    return await record();
  } catch (error) {
    for (const key of keys)
      await storage
        .delete(key)
        .catch((cleanup: unknown) => log.warn("could not remove an unrecorded upload", { key, error: cleanup }));
    throw error;
  }
}

/** The "<yyyy>/<mm>" part of an upload's key, the month in UTC. */
export function uploadMonth(now: Date): string {
  return `${String(now.getUTCFullYear()).padStart(4, "0")}/${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}

function assertStorageKey(key: string): void {
  if (!KEY_FORM.test(key) || key.split("/").some((segment) => segment.includes("..")))
    throw new Error("Not a storage key.");
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  txt: "text/plain",
  csv: "text/csv",
};

/** The content type a key's extension names (disk keeps no metadata besides the name). */
function contentTypeOf(key: string): string {
  return ownValue(CONTENT_TYPES, key.slice(key.lastIndexOf(".") + 1).toLowerCase()) ?? "application/octet-stream";
}

// ─── Disk ────────────────────────────────────────────────────────────────────────────────────

/** The file a key names under `root`, or null when it would not lie inside it. */
export function diskPath(root: string, key: string): string | null {
  if (!KEY_FORM.test(key) || key.split("/").some((segment) => segment.includes(".."))) return null;
  const base = path.resolve(/*turbopackIgnore: true*/ root);
  const file = path.resolve(/*turbopackIgnore: true*/ base, ...key.split("/"));
  return file.startsWith(base + path.sep) ? file : null;
}

/**
 * Files under `root`. A file is written under a temporary name and renamed, so a half-written
 * file is never served.
 */
export function diskImageStorage(root: string): ImageStorage {
  const fileOf = (key: string) => {
    const file = diskPath(root, key);
    if (!file) throw new Error("Not a storage key.");
    return file;
  };
  return {
    name: "disk",
    async put(key, data) {
      const file = fileOf(key);
      await fs.mkdir(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.partial`;
      await fs.writeFile(/*turbopackIgnore: true*/ temporary, data, { flag: "wx" });
      await fs.rename(/*turbopackIgnore: true*/ temporary, file);
    },
    async get(key) {
      const file = diskPath(root, key);
      if (!file) return null;
      try {
        const stat = await fs.stat(/*turbopackIgnore: true*/ file);
        if (!stat.isFile()) return null;
        const body = Readable.toWeb(createReadStream(/*turbopackIgnore: true*/ file)) as ReadableStream<Uint8Array>;
        return { body, size: stat.size, contentType: contentTypeOf(key) };
      } catch {
        return null;
      }
    },
    async delete(key) {
      await fs.rm(/*turbopackIgnore: true*/ fileOf(key), { force: true });
    },
  };
}

// ─── S3 ──────────────────────────────────────────────────────────────────────────────────────

type S3StorageConfig = {
  bucket: string;
  region: string;
  /** The S3 API's address (R2, MinIO, a test server); unset: AWS. */
  endpoint?: string;
  /** Both, or neither (the SDK's chain: IAM role, AWS_* variables). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** <endpoint>/<bucket>/<key> (MinIO and most local servers) instead of <bucket>.<endpoint>/<key>. */
  forcePathStyle?: boolean;
};

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Objects in an S3-compatible bucket. Each object carries its content type and a long immutable
 * Cache-Control, so a public bucket or a CDN in front of it (IMAGE_PUBLIC_BASE_URL) serves it with
 * the same headers as GET /images/<key>.
 */
export function s3ImageStorage(config: S3StorageConfig, client?: S3Client): ImageStorage {
  const s3 =
    client ??
    new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle ?? false,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // The SDK retries throttling and 5xx answers itself (3 attempts) before an upload fails.
      maxAttempts: 3,
    });
  const Bucket = config.bucket;
  return {
    name: "s3",
    async put(key, data, options) {
      assertStorageKey(key);
      await s3.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: data,
          ContentLength: data.byteLength,
          ContentType: options.contentType,
          CacheControl: "public, max-age=31536000, immutable",
        }),
      );
    },
    async get(key) {
      if (!KEY_FORM.test(key)) return null;
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) return null;
        return {
          body: object.Body.transformToWebStream() as ReadableStream<Uint8Array>,
          size: object.ContentLength ?? 0,
          contentType: object.ContentType ?? contentTypeOf(key),
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertStorageKey(key);
      // S3 answers 204 whether or not the key existed.
      await s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

// ─── From the configuration ──────────────────────────────────────────────────────────────────

type StorageEnv = Pick<
  Env,
  | "UPLOAD_DIR"
  | "S3_BUCKET"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
>;

const globalForStorage = globalThis as unknown as { mastheadImageStorage?: { config: string; storage: ImageStorage } };

/** The storage the configuration names: S3 with S3_BUCKET, else the disk under UPLOAD_DIR. One per configuration. */
export function imageStorageFromEnv(env: StorageEnv): ImageStorage {
  const config = JSON.stringify([
    env.UPLOAD_DIR,
    env.S3_BUCKET,
    env.S3_ENDPOINT,
    env.S3_REGION,
    env.S3_ACCESS_KEY_ID,
    env.S3_SECRET_ACCESS_KEY,
    env.S3_FORCE_PATH_STYLE,
  ]);
  const cached = globalForStorage.mastheadImageStorage;
  if (cached?.config === config) return cached.storage;
  const storage = env.S3_BUCKET
    ? s3ImageStorage({
        bucket: env.S3_BUCKET,
        region: env.S3_REGION,
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
      })
    : diskImageStorage(env.UPLOAD_DIR);
  globalForStorage.mastheadImageStorage = { config, storage };
  return storage;
}

/** Where an image is publicly read: IMAGE_PUBLIC_BASE_URL/<key> when set, else Masthead's own /images/<key>. */
export function publicImageUrl(key: string, env: Pick<Env, "APP_URL" | "IMAGE_PUBLIC_BASE_URL">): string {
  if (env.IMAGE_PUBLIC_BASE_URL) return `${env.IMAGE_PUBLIC_BASE_URL}/${key}`;
  return new URL(`/images/${key}`, env.APP_URL).toString();
}
