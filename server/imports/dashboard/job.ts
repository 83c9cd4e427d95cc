/**
 * "import.operation": a dry run or an import of an uploaded file (import_uploads), run by the job
 * engine so it outlives the request that asked for it and a restart of the process.
 *
 * - It is an external job: the runner writes in transactions of its own, batch by batch, and the
 *   job's completion is recorded after. While it runs, a heartbeat each second renews the job's
 *   lease (a killed process stops renewing it: within a minute another worker takes the job up),
 *   marks the upload alive, and reads whether the owner asked it to stop; a real run also reads it
 *   after each batch (the runner's signal: it stops after the batch in flight, the run ends
 *   "interrupted").
 * - Taken up again after a kill, the job runs the same file again: the runner is idempotent per
 *   batch, so the second run skips what the first did and does the rest; the first run's row,
 *   still "running", is marked interrupted.
 * - The dry run's progress is the upload's; a real run's is its import_runs row's (the runner
 *   writes it after each batch). Each finished operation keeps its whole report.
 */
import "server-only";

import { z } from "zod";

import { getEnv } from "../../../env.js";
import { staffActor, systemActor, type Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { defineJob, type HeldJob, type JobContext, type Performed } from "../../jobs/define";
import { log } from "../../log";
import { ImportLimitError } from "../limits";
import { pagePlanMapping, sourceWithOptions } from "../options";
import type { ImportReport } from "../report";
import { runImport } from "../runner";
import { ImportFileError } from "../types";
import { ZImportOptions } from "./dashboard.schema";
import { digestOfFile, isGzipFile, uploadPath } from "./files";

export const ZImportJobPayload = z.object({
  uploadId: z.uuid(),
  operation: z.enum(["dry-run", "import"]),
  /** Tells this request's job from one queued before it under the same key (queue.ts). */
  requestId: z.uuid(),
  /** The owner who asked: the runner's actor, in the audit log. */
  actorId: z.uuid().nullable(),
});
export type TImportJobPayload = z.infer<typeof ZImportJobPayload>;

/** How long a claim lasts without a heartbeat. */
const LEASE_MS = 60_000;
const HEARTBEAT_MS = 1_000;
/** The dry run's progress is written at most this often. */
const PROGRESS_EVERY_MS = 1_000;

async function actorFor(db: Db, accountId: number, actorId: string | null): Promise<Actor> {
  const user = actorId
    ? await db.adminUser.findFirst({ where: { id: actorId, accountId }, select: { id: true, roles: true } })
    : null;
  return user ? staffActor({ id: user.id, accountId, roles: user.roles }) : systemActor(accountId, "dashboard import");
}

/**
 * Each second: renew the job's lease, mark the upload alive, and abort when the owner asked to
 * stop or another worker took the job. `stop` waits for the beat in flight.
 */
function startHeartbeat(db: Db, job: HeldJob<TImportJobPayload>, ctx: JobContext, controller: AbortController) {
  let beating: Promise<void> | null = null;
  const beat = async () => {
    const now = ctx.clock();
    const renewed = await db.job.updateMany({
      where: { id: job.id, lockedBy: ctx.workerId },
      data: { lockedUntil: new Date(now.getTime() + LEASE_MS) },
    });
    const upload = await db.importUpload.update({
      where: { id: job.payload.uploadId },
      data: { updatedAt: now },
      select: { cancelRequestedAt: true },
    });
    if (renewed.count === 0 || upload.cancelRequestedAt) controller.abort();
  };
  const timer = setInterval(() => {
    if (beating) return;
    beating = beat()
      .catch((error: unknown) => log.warn("import heartbeat failed", { job: job.id, error }))
      .finally(() => (beating = null));
  }, HEARTBEAT_MS);
  timer.unref?.();
  return async () => {
    clearInterval(timer);
    await beating;
  };
}

/** The report as stored, with the old plans the file names (what the Import page's plan mapping maps). */
const asJson = (report: ImportReport, oldPlans: Map<string, number> | null = null) =>
  ({
    ...report,
    oldPlans: [...(oldPlans ?? new Map<string, number>())].map(([plan, rows]) => ({ plan, rows })),
  }) as unknown as Prisma.InputJsonValue;

/** Run one operation to its end (see the file's comment). */
async function runImportOperation(db: Db, job: HeldJob<TImportJobPayload>, ctx: JobContext): Promise<void> {
  const { uploadId, operation } = job.payload;
  const upload = await db.importUpload.findUnique({ where: { id: uploadId } });
  if (!upload) return;
  const fail = (error: string) =>
    db.importUpload.update({ where: { id: uploadId }, data: { state: "failed", error, updatedAt: ctx.clock() } });
  // The options were checked on upload; stored by an older version, or changed since: read as none.
  const parsedOptions = ZImportOptions.safeParse(upload.options);
  const options = parsedOptions.success ? parsedOptions.data : ZImportOptions.parse({});
  let oldPlans: Map<string, number> | null = null;
  const source = sourceWithOptions(upload.source, {
    ghostUrl: options.ghostUrl,
    newsletter: options.newsletter,
    plans: pagePlanMapping(options.plans),
    onPlans: (plans) => (oldPlans = plans),
  });
  if (!source) return void (await fail(`This installation has no source "${upload.source}".`));
  const file = uploadPath(getEnv().IMPORT_DIR, upload.accountId, upload.id);
  const startedAt = ctx.clock();
  // Taken up again after a kill, but the owner had asked it to stop meanwhile.
  if (upload.cancelRequestedAt)
    return void (await db.importUpload.update({
      where: { id: uploadId },
      data: { state: "interrupted", updatedAt: startedAt },
    }));
  await db.importUpload.update({
    where: { id: uploadId },
    data: { state: "running", error: null, updatedAt: startedAt },
  });

  if (operation === "import") {
    const digest = await digestOfFile(file);
    if (digest === null) return void (await fail("The uploaded file is no longer stored: upload it again."));
    if (digest !== upload.fileDigest)
      return void (await fail(
        `The stored file changed since its dry run (SHA-256 ${digest}, not ${upload.fileDigest}): upload it again.`,
      ));
    // This job holds the account's import key: a run of this upload still "running" was killed.
    await db.importRun.updateMany({
      where: { uploadId, status: "running" },
      data: { status: "interrupted", finishedAt: startedAt, updatedAt: startedAt },
    });
  }

  const controller = new AbortController();
  const stopHeartbeat = startHeartbeat(db, job, ctx, controller);
  let lastProgress = 0;
  try {
    const report = await runImport(db, {
      source,
      file: { path: file, name: upload.fileName },
      accountId: upload.accountId,
      actor: await actorFor(db, upload.accountId, job.payload.actorId),
      dryRun: operation === "dry-run",
      site: options.site,
      announce: options.announce,
      asOf: options.asOf === undefined ? undefined : new Date(options.asOf),
      now: ctx.clock,
      signal: controller.signal,
      onProgress: async (done, total, runId) => {
        if (runId && done === 0) {
          await db.importRun.update({ where: { id: runId }, data: { uploadId } });
          return;
        }
        // A real run reads after each batch whether the owner asked it to stop, so it stops after
        // the batch in flight rather than at the next heartbeat.
        if (runId && done > 0 && done < total && !controller.signal.aborted) {
          const asked = await db.importUpload.findUnique({
            where: { id: uploadId },
            select: { cancelRequestedAt: true },
          });
          if (asked?.cancelRequestedAt) controller.abort();
          return;
        }
        const now = ctx.clock().getTime();
        if (runId || (done > 0 && done < total && now - lastProgress < PROGRESS_EVERY_MS)) return;
        lastProgress = now;
        await db.importUpload.update({ where: { id: uploadId }, data: { progressDone: done, progressTotal: total } });
      },
    });
    await stopHeartbeat();
    await withTransaction(db, async (tx) => {
      if (report.runId) await tx.importRun.update({ where: { id: report.runId }, data: { report: asJson(report) } });
      await tx.importUpload.update({
        where: { id: uploadId },
        data: {
          state: report.status,
          error: report.error,
          updatedAt: ctx.clock(),
          ...(operation === "dry-run" ? { dryReport: asJson(report, oldPlans) } : {}),
        },
      });
    });
  } catch (error) {
    // The file cannot be read at all (truncated before its first item, not this format): said, not retried.
    if (error instanceof ImportFileError && !(error instanceof ImportLimitError) && (await isGzipFile(file)))
      return void (await fail(
        `${upload.fileName} is gzip-compressed and the ${source.name} source cannot read it so: unpack it (gunzip) and upload the file inside.`,
      ));
    if (error instanceof ImportFileError || error instanceof AppError) return void (await fail(error.message));
    throw error;
  } finally {
    await stopHeartbeat();
  }
}

/** An unexpected error's text (shown on the Import page once retries run out) without the upload folder's paths. */
function withoutStoredPath(message: string): string {
  const dir = getEnv().IMPORT_DIR.replace(/[/\\]+$/, "");
  if (!dir) return message;
  const escaped = dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return message.replace(new RegExp(`${escaped}[^\\s'"]*`, "g"), "the uploaded file");
}

export const importOperationJob = defineJob<TImportJobPayload, null>({
  name: "import.operation",
  kind: "external",
  payload: ZImportJobPayload,
  maxAttempts: 3,
  leaseMs: LEASE_MS,
  // One import at a time per process: a large file takes hundreds of MB while it is read.
  concurrency: 1,
  long: true,
  async perform(db, jobs, ctx) {
    const performed: Performed<TImportJobPayload, null>[] = [];
    for (const job of jobs) {
      try {
        await runImportOperation(db, job, ctx);
        performed.push({ job, result: { status: "done" }, data: null });
      } catch (error) {
        // Retried with backoff (the database went away…); the next attempt resumes the run.
        performed.push({
          job,
          result: { status: "error", error: withoutStoredPath(error instanceof Error ? error.message : String(error)) },
        });
      }
    }
    return performed;
  },
  async record() {
    // The runner recorded everything as it went (import_runs, import_records, the upload).
  },
  async onFailed(tx, job, error, ctx) {
    const now = ctx.clock();
    await tx.importUpload.updateMany({
      where: { id: job.payload.uploadId },
      data: { state: "failed", error: `The operation failed after ${job.attempts} attempts: ${error}`, updatedAt: now },
    });
    await tx.importRun.updateMany({
      where: { uploadId: job.payload.uploadId, status: "running" },
      data: { status: "interrupted", finishedAt: now, updatedAt: now },
    });
  },
});
