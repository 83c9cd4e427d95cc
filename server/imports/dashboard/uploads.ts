/**
 * Files uploaded to the dashboard's Import page: streamed to IMPORT_DIR/<account>/<upload id>
 * while their SHA-256 is computed, never held whole in memory (a 200,000-comment Disqus export is
 * ~150 MB). The row (import_uploads) and the file's dry run are written in one transaction once
 * the bytes are on disk; when anything refuses (too large, not a text file, another import under
 * way), the file is deleted and nothing is recorded.
 */
import "server-only";

import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { importOptionsProblems } from "../options";
import type { TImportOptions } from "./dashboard.schema";
import { uploadPath } from "./files";
import { assertNoImportUnderWay, getImportSourceOrThrow, queueOperation } from "./queue";

/** Bytes read to tell a text export from a compressed or binary file. */
const HEAD_BYTES = 4096;

/** What the first bytes say about the file: exports are text (XML, JSON, CSV) or gzipped text, never a ZIP archive or binary. */
function assertTextExport(head: Buffer): void {
  if (head.length === 0)
    throw new AppError("BAD_REQUEST", "The file is empty: send the export's bytes as the request body.", {
      details: [{ field: "body", issue: "is empty" }],
    });
  // Gzip is read by the sources that take it (a Remark42 backup); the others' dry run says the file is not theirs.
  if (head[0] === 0x1f && head[1] === 0x8b) return;
  if (head[0] === 0x50 && head[1] === 0x4b)
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The file is a ZIP archive: unpack it and upload the export inside.");
  if (head.includes(0))
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      "The file is not a text export (XML, JSON or CSV): it holds binary data.",
    );
}

/** Stream `body` to `target`, at most `maxBytes`; the SHA-256 and size of what was written. */
async function writeLimited(
  body: ReadableStream<Uint8Array>,
  target: string,
  maxBytes: number,
): Promise<{ digest: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  let head = Buffer.alloc(0);
  const check = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) {
        callback(
          new AppError("PAYLOAD_TOO_LARGE", `The file may be at most ${maxBytes} bytes (IMPORT_UPLOAD_MAX_BYTES).`),
        );
        return;
      }
      if (head.length < HEAD_BYTES) {
        head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
        if (head.length >= HEAD_BYTES) {
          try {
            assertTextExport(head);
          } catch (error) {
            callback(error as Error);
            return;
          }
        }
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  // Node's stream from the web one: the request body is read as it arrives, never whole.
  await pipeline(
    Readable.fromWeb(body as WebReadableStream<Uint8Array>),
    check,
    createWriteStream(target, { flags: "wx" }),
  );
  assertTextExport(head);
  return { digest: hash.digest("hex"), bytes };
}

/** 400 naming each option the source does not take (or that cannot hold), before a byte is read. */
function assertImportOptions(source: string, options: TImportOptions, now: Date): void {
  const problems = importOptionsProblems(source, options, now);
  if (problems.length === 0) return;
  throw new AppError(
    "BAD_REQUEST",
    `These options do not go with a ${source} file: ${problems.map((p) => `${p.field} ${p.issue}`).join("; ")}.`,
    { details: problems },
  );
}

type StoreUploadArgs = {
  actor: StaffActor;
  source: string;
  /** The options the owner chose (checked here against the source); none by default. */
  options?: TImportOptions;
  fileName: string;
  body: ReadableStream<Uint8Array> | null;
  /** The request's Content-Length, when it sent one: refused at once when over the limit. */
  contentLength: number | null;
  maxBytes: number;
  dir: string;
  now: Date;
};

/** Store an uploaded export and queue its dry run (see the file's comment). */
export async function storeImportUpload(db: Db, args: StoreUploadArgs) {
  const source = getImportSourceOrThrow(args.source);
  const options = args.options ?? { announce: false };
  assertImportOptions(source.name, options, args.now);
  if (args.contentLength !== null && args.contentLength > args.maxBytes)
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `The file may be at most ${args.maxBytes} bytes (IMPORT_UPLOAD_MAX_BYTES).`,
    );
  if (!args.body || args.contentLength === 0)
    throw new AppError("BAD_REQUEST", "The file is empty: send the export's bytes as the request body.", {
      details: [{ field: "body", issue: "is empty" }],
    });
  // Refuse before reading 150 MB for nothing; queueOperation checks again, atomically.
  await assertNoImportUnderWay(db, { accountId: args.actor.accountId, now: args.now });

  const id = randomUUID();
  const target = uploadPath(args.dir, args.actor.accountId, id);
  await fs.mkdir(path.dirname(target), { recursive: true });
  try {
    const { digest, bytes } = await writeLimited(args.body, target, args.maxBytes);
    return await withTransaction(db, async (tx) => {
      const upload = await tx.importUpload.create({
        data: {
          id,
          accountId: args.actor.accountId,
          source: source.name,
          fileName: args.fileName,
          options,
          fileDigest: digest,
          bytes: BigInt(bytes),
          uploadedById: args.actor.id,
          createdAt: args.now,
          updatedAt: args.now,
        },
      });
      await queueOperation(tx, { actor: args.actor, upload, operation: "dry-run", now: args.now });
      return { id, source: source.name, fileName: args.fileName, digest, bytes };
    });
  } catch (error) {
    await fs.rm(target, { force: true });
    throw error;
  }
}
