/**
 * One import at a time per account. A dashboard operation (a dry run, an import) is a background
 * job under the key `import:<account id>`: the jobs table holds at most one pending job per key
 * until it ends, so a second operation queued while one is queued or running finds the first's
 * job instead of its own and is refused (409), whichever transaction commits first. A run of the
 * command line is refused against too while its progress still moves.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import type { StaffActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import { enqueueJob } from "../../jobs/queue";
import { IMPORT_SOURCES, importSourceNames } from "../sources";
import type { ImportSource } from "../types";
import { importOperationJob, ZImportJobPayload, type TImportJobPayload } from "./job";

/** A running run whose progress has not moved for this long was killed (its batch never ended). */
export const IMPORT_STALE_MS = 120_000;

export function importJobKey(accountId: number): string {
  return `import:${accountId}`;
}

/** The registry's source of that name; 400 naming the known ones otherwise. */
export function getImportSourceOrThrow(name: string): ImportSource {
  const source = Object.hasOwn(IMPORT_SOURCES, name) ? IMPORT_SOURCES[name] : undefined;
  if (!source) {
    const known = importSourceNames().join(", ");
    throw new AppError("BAD_REQUEST", `Unknown source "${name}": choose one of ${known}.`, {
      details: [{ field: "source", issue: `is not one of ${known}` }],
    });
  }
  if (source.commandLineOnly)
    throw new AppError("BAD_REQUEST", `"${name}" is imported from the command line only: ${source.commandLineOnly}.`, {
      details: [{ field: "source", issue: `is for the command line only: ${source.commandLineOnly}` }],
    });
  return source;
}

async function conflictWith(db: Db, payload: TImportJobPayload): Promise<AppError> {
  const upload = await db.importUpload.findUnique({
    where: { id: payload.uploadId },
    select: { source: true, fileName: true },
  });
  const what = payload.operation === "dry-run" ? "A dry run" : "An import";
  const of = upload ? ` of ${upload.fileName} (${upload.source})` : "";
  return new AppError(
    "CONFLICT",
    `${what}${of} is already under way for this account: wait for it to finish, or cancel it, before starting another.`,
  );
}

/** 409 when a command-line import of the account is running (its progress moved lately). */
async function assertNoCommandLineRun(db: Db, accountId: number, now: Date): Promise<void> {
  const run = await db.importRun.findFirst({
    where: {
      accountId,
      status: "running",
      uploadId: null,
      updatedAt: { gt: new Date(now.getTime() - IMPORT_STALE_MS) },
    },
    select: { source: true, fileName: true },
  });
  if (run)
    throw new AppError(
      "CONFLICT",
      `An import of ${run.fileName} (${run.source}) is running from the command line: wait for it to finish before starting another.`,
    );
}

/** 409 when an import of the account is queued or running (the cheap check before an upload is read). */
export async function assertNoImportUnderWay(db: Db, args: { accountId: number; now: Date }): Promise<void> {
  const job = await db.job.findUnique({ where: { key: importJobKey(args.accountId) }, select: { payload: true } });
  const held = job ? ZImportJobPayload.safeParse(job.payload) : null;
  if (held?.success) throw await conflictWith(db, held.data);
  await assertNoCommandLineRun(db, args.accountId, args.now);
}

/**
 * Queue `operation` on an upload, in `tx` (see the file's comment). The same operation of the same
 * upload, waiting for a worker after its process died, is made due now instead (Resume).
 */
export async function queueOperation(
  tx: TransactionClient,
  args: {
    actor: StaffActor;
    upload: { id: string; accountId: number };
    operation: TImportJobPayload["operation"];
    now: Date;
  },
): Promise<void> {
  const { upload, now } = args;
  await assertNoCommandLineRun(tx, upload.accountId, now);
  const payload: TImportJobPayload = {
    uploadId: upload.id,
    operation: args.operation,
    requestId: randomUUID(),
    actorId: args.actor.id,
  };
  const { id } = await enqueueJob(tx, importOperationJob, payload, {
    key: importJobKey(upload.accountId),
    accountId: upload.accountId,
    now,
  });
  const job = await tx.job.findUniqueOrThrow({ where: { id }, select: { payload: true, lockedUntil: true } });
  const held = ZImportJobPayload.parse(job.payload);
  if (held.requestId !== payload.requestId) {
    const sameWork = held.uploadId === upload.id && held.operation === args.operation;
    const workerHolds = job.lockedUntil !== null && job.lockedUntil > now;
    if (!sameWork || workerHolds) throw await conflictWith(tx, held);
    await tx.job.update({ where: { id }, data: { runAt: now } });
  }
  await tx.importUpload.update({
    where: { id: upload.id },
    data: {
      operation: args.operation,
      state: "queued",
      progressDone: 0,
      progressTotal: 0,
      error: null,
      cancelRequestedAt: null,
      updatedAt: now,
    },
  });
}
