/**
 * The dashboard's Import page, as services (tRPC `imports.*`; the upload itself is uploads.ts):
 * the sources, an upload and its operation's progress and report, confirming the import (and
 * resuming it), cancelling, and the account's runs. Everything is scoped to the actor's account:
 * another account's upload is NOT_FOUND.
 */
import "server-only";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { cancelJob } from "../../jobs/queue";
import { sourceOptionNames } from "../options";
import { formatReport } from "../report";
import { IMPORT_SOURCES } from "../sources";
import {
  ZImportOptions,
  ZImportReport,
  type TImportOptions,
  type TImportReportView,
  type TImportRunView,
  type TImportState,
  type TImportUploadView,
} from "./dashboard.schema";
import { IMPORT_STALE_MS, importJobKey, queueOperation } from "./queue";

/** Every source the registry holds, with its description: the page's choice. */
export function listImportSources() {
  return Object.values(IMPORT_SOURCES).map((s) => ({
    name: s.name,
    description: s.description,
    kinds: [...s.kinds],
    commandLineOnly: s.commandLineOnly ?? null,
    options: sourceOptionNames(s.name),
  }));
}

const staffName = (user: { name: string | null; email: string } | null) => (user ? user.name || user.email : null);

/** A stored report, with the text the command line prints for it. */
function reportOf(value: unknown): TImportReportView | null {
  const parsed = ZImportReport.safeParse(value);
  return parsed.success ? { ...parsed.data, text: formatReport(parsed.data) } : null;
}

/** An upload's stored options (none when unreadable: stored by an older version). */
function optionsOf(value: unknown): TImportOptions {
  const parsed = ZImportOptions.safeParse(value);
  return parsed.success ? parsed.data : { announce: false };
}

type RunRow = {
  id: string;
  source: string;
  fileName: string;
  fileDigest: string;
  status: string;
  counts: unknown;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  progressDone: number;
  progressTotal: number;
  updatedAt: Date;
  uploadId: string | null;
  actor: { name: string | null; email: string } | null;
};

const RUN_SELECT = {
  id: true,
  source: true,
  fileName: true,
  fileDigest: true,
  status: true,
  counts: true,
  error: true,
  startedAt: true,
  finishedAt: true,
  progressDone: true,
  progressTotal: true,
  updatedAt: true,
  uploadId: true,
  actor: { select: { name: true, email: true } },
} as const;

function runView(run: RunRow, now: Date): TImportRunView {
  const counts = (run.counts ?? {}) as { kinds?: TImportRunView["counts"]; problems?: number };
  // A run still "running" whose progress stopped moving was killed: interrupted, resumable.
  const stale = run.status === "running" && now.getTime() - run.updatedAt.getTime() > IMPORT_STALE_MS;
  return {
    id: run.id,
    source: run.source,
    fileName: run.fileName,
    fileDigest: run.fileDigest,
    actor: staffName(run.actor),
    status: stale ? "interrupted" : (run.status as TImportRunView["status"]),
    counts: counts.kinds ?? {},
    problems: counts.problems ?? 0,
    error: run.error,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    progress: { done: run.progressDone, total: run.progressTotal, at: run.updatedAt },
    uploadId: run.uploadId,
  };
}

export async function uploadView(db: Db, uploadId: string, accountId: number, now: Date): Promise<TImportUploadView> {
  const upload = await db.importUpload.findFirst({
    where: { id: uploadId, accountId },
    include: { uploadedBy: { select: { name: true, email: true } } },
  });
  if (!upload) throw new AppError("NOT_FOUND", "No such upload.");
  const run = await db.importRun.findFirst({
    where: { uploadId, accountId },
    orderBy: { startedAt: "desc" },
    select: { ...RUN_SELECT, report: true },
  });
  const operation = upload.operation as TImportUploadView["operation"];
  let state = upload.state as TImportState;
  // The worker died mid-way (its heartbeat stopped): interrupted until a worker takes it up again.
  if (state === "running" && now.getTime() - upload.updatedAt.getTime() > IMPORT_STALE_MS) state = "interrupted";
  const ofRun = operation === "import" && run && upload.state !== "queued";
  return {
    id: upload.id,
    source: upload.source,
    fileName: upload.fileName,
    fileDigest: upload.fileDigest,
    bytes: Number(upload.bytes),
    uploadedBy: staffName(upload.uploadedBy),
    createdAt: upload.createdAt,
    operation,
    state,
    cancelRequested: upload.cancelRequestedAt !== null && (state === "running" || state === "queued"),
    progress: ofRun
      ? { done: run.progressDone, total: run.progressTotal, at: run.updatedAt }
      : { done: upload.progressDone, total: upload.progressTotal, at: upload.updatedAt },
    error: upload.error,
    options: optionsOf(upload.options),
    dryReport: reportOf(upload.dryReport),
    run: run ? { ...runView(run, now), report: reportOf(run.report) } : null,
  };
}

/** One upload of the account, with its operation's state, progress and reports. */
export function getImportUpload(db: Db, args: { actor: StaffActor; uploadId: string; now: Date }) {
  return uploadView(db, args.uploadId, args.actor.accountId, args.now);
}

/** The account's latest upload (what the page shows when it opens), or null. */
export async function getLatestImportUpload(db: Db, args: { actor: StaffActor; now: Date }) {
  const latest = await db.importUpload.findFirst({
    where: { accountId: args.actor.accountId },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return latest ? uploadView(db, latest.id, args.actor.accountId, args.now) : null;
}

/**
 * Import an uploaded file for real (the page's Import, and Resume after an interruption), as a
 * job. `digest` is the dry run's the owner reviewed: a different one is refused (409), as is an
 * upload whose dry run has not completed, or another import under way.
 */
export async function startImport(db: Db, args: { actor: StaffActor; uploadId: string; digest: string; now: Date }) {
  await withTransaction(db, async (tx) => {
    const upload = await tx.importUpload.findFirst({
      where: { id: args.uploadId, accountId: args.actor.accountId },
      select: { id: true, accountId: true, fileDigest: true, dryReport: true },
    });
    if (!upload) throw new AppError("NOT_FOUND", "No such upload.");
    const dry = reportOf(upload.dryReport);
    if (!dry || dry.status !== "completed")
      throw new AppError("CONFLICT", "Its dry run has not completed: review the dry run's report before importing.");
    if (args.digest !== upload.fileDigest)
      throw new AppError(
        "CONFLICT",
        "The file is not the one whose dry run you reviewed (its SHA-256 differs): upload it again and review its dry run.",
      );
    await queueOperation(tx, { actor: args.actor, upload, operation: "import", now: args.now });
  });
  return uploadView(db, args.uploadId, args.actor.accountId, args.now);
}

/**
 * Stop an upload's operation: a job no worker has taken yet is withdrawn; one under way stops
 * after the batch in flight (its heartbeat reads the request) and ends "interrupted".
 */
export async function cancelImport(db: Db, args: { actor: StaffActor; uploadId: string; now: Date }) {
  const upload = await db.importUpload.findFirst({
    where: { id: args.uploadId, accountId: args.actor.accountId },
    select: { id: true, state: true },
  });
  if (!upload) throw new AppError("NOT_FOUND", "No such upload.");
  if (upload.state !== "queued" && upload.state !== "running")
    throw new AppError("CONFLICT", "Nothing is under way for this file: there is nothing to cancel.");
  await withTransaction(db, async (tx) => {
    const job = await tx.job.findUnique({
      where: { key: importJobKey(args.actor.accountId) },
      select: { payload: true },
    });
    const ofThisUpload = (job?.payload as { uploadId?: string } | undefined)?.uploadId === upload.id;
    const withdrawn = ofThisUpload && (await cancelJob(tx, { key: importJobKey(args.actor.accountId), now: args.now }));
    await tx.importUpload.update({
      where: { id: upload.id },
      data: withdrawn
        ? { state: "interrupted", cancelRequestedAt: args.now, updatedAt: args.now }
        : { cancelRequestedAt: args.now },
    });
  });
  return uploadView(db, upload.id, args.actor.accountId, args.now);
}

/** The account's runs, newest first: the dashboard's and the command line's. */
export async function listImportRuns(db: Db, args: { actor: StaffActor; limit: number; now: Date }) {
  const runs = await db.importRun.findMany({
    where: { accountId: args.actor.accountId },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: args.limit,
    select: RUN_SELECT,
  });
  return runs.map((run) => runView(run, args.now));
}
