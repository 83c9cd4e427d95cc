/**
 * The one import runner, whatever the source (docs/migration.md): read the file once
 * (`prepare`), then plan and apply its items batch by batch, and say what happened.
 *
 * - **Per item, all or nothing.** A batch's items are applied in one transaction. When anything
 *   in it fails unexpectedly, the transaction rolls back and the batch is applied again one item
 *   per transaction: the item that fails is refused with its error, the others land. An item
 *   never lands half-written.
 * - **Idempotent.** Each item records what it created (import_records) in its own transaction;
 *   a second run plans "skip: imported before" for all of it and changes nothing. A run killed
 *   mid-way loses at most the batch in flight, which the next run applies: the result is the
 *   same as an uninterrupted run's.
 * - **A dry run** plans every item without a transaction and writes nothing: no run record, no
 *   audit entry, no import record. Later items see what earlier plans would have created.
 * - **Quiet.** Sources write rows directly (no webhook event, no e-mail); the database's
 *   triggers keep the counts and announce the changes to caches, as for any write.
 * - **Recorded.** A real run is an import_runs row (running → completed, interrupted or failed)
 *   and two audit entries, `import.started` and `import.finished`, naming the actor (a staff user,
 *   or the system), the source and the file.
 */
import "server-only";

import { getEnv } from "../../env.js";
import { recordAudit } from "../audit/audit-log";
import { actorUserId, type Actor } from "../auth/actor";
import type { Db, TransactionClient } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { getPublisher } from "../publishing/publisher";
import { withFileName } from "./limits";
import { MappingStore } from "./mappings";
import {
  addNote,
  addProblem,
  addTally,
  countAction,
  importedItemLink,
  newReport,
  reportCounts,
  type ImportReport,
} from "./report";
import {
  ImportAborted,
  ImportFileError,
  siteScope,
  type ImportContext,
  type ImportFile,
  type ImportItem,
  type ImportSource,
  type ItemPlan,
  type PreparedSource,
} from "./types";

/** Items per transaction: few enough that live comments wait little for the counts' rows. */
export const DEFAULT_BATCH_SIZE = 100;

/** The longest a dry run reads before it is stopped (it writes nothing; a real run may take longer). */
const DRY_RUN_MAX_MS = 10 * 60 * 1000;

export type RunImportArgs = {
  source: ImportSource;
  file: ImportFile;
  accountId: number;
  actor: Actor;
  dryRun: boolean;
  /** The site the file's ids belong to, instead of the one the file says (--site). */
  site?: string;
  /** Send what a live write sends (--announce): the stories' webhooks, comment notifications. */
  announce?: boolean;
  now?: () => Date;
  /** The instant the items' decisions are taken at (--as-of: when the file was exported); default: the run's start. */
  asOf?: Date;
  batchSize?: number;
  /** Stop between batches (the CLI's Ctrl-C): the run ends "interrupted", what is done stays. */
  signal?: AbortSignal;
  /** Called in each item's transaction once it is applied; throwing ImportAborted stops the run as a kill would. */
  afterItem?: (applied: number) => void;
  /**
   * Once before the first batch (at 0) and after each batch: items done of the file's total, and
   * the run's id (null in a dry run). The run waits for it (a dashboard job persists it).
   */
  onProgress?: (done: number, total: number, runId: string | null) => void | Promise<void>;
};

/** Planned and, in a real run, applied: what the report counts once its transaction committed. */
type Outcome = { item: ImportItem; plan: ItemPlan; notes: string[] };

/** Import `file` from `source` into the account (see the file's comment). ImportFileError when it cannot be read. */
export async function runImport(db: Db, args: RunImportArgs): Promise<ImportReport> {
  const clock = args.now ?? (() => new Date());
  const startedAt = clock();
  const account = await db.account.findUnique({ where: { id: args.accountId }, select: { id: true, slug: true } });
  if (!account) throw new AppError("NOT_FOUND", `Account ${args.accountId} not found.`);
  if (args.actor.accountId !== account.id) throw new AppError("FORBIDDEN", "The actor belongs to another account.");
  const publisher = await getPublisher(db, account.id, { appUrl: getEnv().APP_URL });
  const siteUrl = publisher.siteUrlSet ? publisher.siteUrl : null;
  const prepared = await args.source.prepare(args.file, { siteUrl }).catch((error: unknown) => {
    // Messages name the uploaded file, never where the server keeps it (limits.ts).
    if (error instanceof ImportFileError) error.message = withFileName(error.message, args.file);
    throw error;
  });
  const report = newReport({
    source: args.source.name,
    kinds: args.source.kinds,
    file: args.file.name,
    digest: prepared.digest,
    account: account.slug,
    dryRun: args.dryRun,
    site: args.site !== undefined ? siteScope(args.site) : (prepared.site ?? ""),
    announce: args.announce ?? false,
  });
  for (const problem of prepared.problems) {
    addProblem(report, {
      ...problem,
      where: withFileName(problem.where, args.file),
      message: withFileName(problem.message, args.file),
    });
  }
  const runId = args.dryRun ? null : await startRun(db, args, prepared, startedAt);
  report.runId = runId;

  const store = new MappingStore(account.id, args.source.name, report.site);
  let notes: string[] = [];
  const ctx: ImportContext = {
    accountId: account.id,
    publisher,
    source: args.source.name,
    actor: args.actor,
    dryRun: args.dryRun,
    site: report.site,
    announce: report.announce,
    now: args.asOf ?? startedAt,
    runId,
    lookup: (q, m) => store.lookup(q, m),
    preload: (q, kind, ids) => store.preload(q, kind, ids),
    record: (tx, row) => store.record(tx, { ...row, runId }),
    recordMany: (tx, rows, options) => store.recordMany(tx, rows, runId, options),
    note: (message) => notes.push(message),
  };
  const runner = { db, args, prepared, ctx, store, report, applied: 0 };
  const takeNotes = () => {
    const taken = notes;
    notes = [];
    return taken;
  };

  let done = 0;
  try {
    await args.onProgress?.(0, prepared.itemCount, runId);
    let batch: ImportItem[] = [];
    const flush = async () => {
      await processBatch(runner, batch, takeNotes);
      done += batch.length;
      batch = [];
      if (runId) await saveProgress(db, runId, done, clock());
      await args.onProgress?.(done, prepared.itemCount, runId);
    };
    for await (const item of prepared.items()) {
      if (args.dryRun && clock().getTime() - startedAt.getTime() > DRY_RUN_MAX_MS) {
        throw new ImportFileError(
          `The dry run of ${args.file.name} took longer than ${DRY_RUN_MAX_MS / 60000} minutes: it is stopped (split the file).`,
        );
      }
      batch.push(item);
      if (batch.length >= (args.batchSize ?? DEFAULT_BATCH_SIZE)) {
        await flush();
        if (args.signal?.aborted) {
          report.status = "interrupted";
          break;
        }
      }
    }
    if (report.status !== "interrupted" && batch.length > 0) await flush();
  } catch (error) {
    // A simulated kill leaves everything as a kill would: the run stays "running".
    if (error instanceof ImportAborted) throw error;
    report.status = "failed";
    report.error = withFileName(error instanceof Error ? error.message : String(error), args.file);
  }
  report.seconds = (clock().getTime() - startedAt.getTime()) / 1000;
  if (runId) await finishRun(db, args, runId, report, clock());
  return report;
}

type Runner = {
  db: Db;
  args: RunImportArgs;
  prepared: PreparedSource;
  ctx: ImportContext;
  store: MappingStore;
  report: ImportReport;
  applied: number;
};

/** Plan (and apply) a batch; see the file's comment for what happens when an item fails. */
async function processBatch(r: Runner, batch: ImportItem[], takeNotes: () => string[]): Promise<void> {
  const { db, prepared, ctx, store } = r;
  if (ctx.dryRun) {
    await prepared.prefetch?.(db, batch, ctx);
    for (const item of batch) {
      const plan = await prepared.plan(db, item, ctx);
      for (const m of plan.remember ?? []) store.simulate(m);
      count(r.report, { item, plan, notes: takeNotes() });
    }
    store.commit();
    return;
  }
  const appliedBefore = r.applied;
  try {
    const outcomes = await withTransaction(
      db,
      async (tx) => {
        await prepared.prefetch?.(tx, batch, ctx);
        const planned: Outcome[] = [];
        for (const item of batch) planned.push(await applyItem(r, tx, item, takeNotes));
        await prepared.flush?.(tx, ctx);
        return planned;
      },
      { timeout: 120_000 },
    );
    store.commit();
    const link = (item: ImportItem) => {
      const target = store.known({ kind: item.kind, sourceId: item.sourceId });
      return target === null ? null : importedItemLink(getEnv().APP_URL, item.kind, target);
    };
    for (const outcome of outcomes) count(r.report, outcome, link);
  } catch (error) {
    store.rollback();
    prepared.discard?.();
    takeNotes();
    r.applied = appliedBefore;
    if (error instanceof ImportAborted) throw error;
    if (batch.length > 1) {
      for (const item of batch) await processBatch(r, [item], takeNotes);
      return;
    }
    const message = error instanceof Error ? error.message.split("\n").slice(-1)[0]!.trim() : String(error);
    count(r.report, { item: batch[0]!, plan: { action: "refuse", reason: `failed: ${message}` }, notes: [] });
  }
}

async function applyItem(r: Runner, tx: TransactionClient, item: ImportItem, takeNotes: () => string[]) {
  const plan = await r.prepared.plan(tx, item, r.ctx);
  if (plan.apply) {
    await plan.apply(tx);
    r.applied++;
    r.args.afterItem?.(r.applied);
  }
  return { item, plan, notes: takeNotes() };
}

function count(report: ImportReport, { item, plan, notes }: Outcome, link?: (item: ImportItem) => string | null): void {
  countAction(report, plan.action, {
    kind: item.kind,
    sourceId: item.sourceId,
    label: item.label,
    reason: plan.reason,
    href: plan.action === "refuse" ? null : (link?.(item) ?? null),
  });
  for (const effect of plan.effects ?? []) {
    countAction(report, effect.action, { kind: effect.kind, sourceId: null, label: effect.label, reason: "" });
  }
  for (const note of notes) addNote(report, note);
  if (plan.tally) addTally(report, plan.tally.name, plan.tally.line);
}

/** The run record and its audit entry; notes the earlier unfinished run of the same file it resumes. */
async function startRun(db: Db, args: RunImportArgs, prepared: PreparedSource, at: Date): Promise<string> {
  return withTransaction(db, async (tx) => {
    const unfinished = await tx.importRun.findFirst({
      where: { accountId: args.accountId, source: args.source.name, fileDigest: prepared.digest, status: "running" },
      orderBy: { startedAt: "desc" },
      select: { id: true },
    });
    const run = await tx.importRun.create({
      data: {
        accountId: args.accountId,
        source: args.source.name,
        fileName: args.file.name,
        fileDigest: prepared.digest,
        actorId: actorUserId(args.actor),
        startedAt: at,
        updatedAt: at,
        progressTotal: prepared.itemCount,
      },
      select: { id: true },
    });
    await recordAudit(tx, {
      actor: args.actor,
      action: "import.started",
      targetType: "import_run",
      targetId: run.id,
      metadata: {
        source: args.source.name,
        file: args.file.name,
        digest: prepared.digest,
        site: siteOf(args, prepared),
        announce: args.announce ?? false,
        ...(unfinished ? { resumes: unfinished.id } : {}),
      },
      now: at,
    });
    return run.id;
  });
}

const siteOf = (args: RunImportArgs, prepared: PreparedSource) =>
  args.site !== undefined ? siteScope(args.site) : (prepared.site ?? "");

/** The run's progress after a batch (import_runs.progress_done, updated_at): what the dashboard polls. */
async function saveProgress(db: Db, runId: string, done: number, at: Date): Promise<void> {
  await db.importRun.update({ where: { id: runId }, data: { progressDone: done, updatedAt: at } });
}

async function finishRun(db: Db, args: RunImportArgs, runId: string, report: ImportReport, at: Date) {
  const counts = reportCounts(report);
  await withTransaction(db, async (tx) => {
    await tx.importRun.update({
      where: { id: runId },
      data: { status: report.status, counts, error: report.error, finishedAt: at, updatedAt: at },
    });
    await recordAudit(tx, {
      actor: args.actor,
      action: "import.finished",
      targetType: "import_run",
      targetId: runId,
      metadata: { source: args.source.name, file: args.file.name, status: report.status, ...counts },
      now: at,
    });
  });
}
