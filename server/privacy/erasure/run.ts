/**
 * Running an erasure: the steps of ./steps.ts in order, skipping those its request records as
 * done. A transaction step locks the request row, checks again that the step is not done (a
 * concurrent run may have done it meanwhile), runs, and records it, in one transaction; the
 * gateway step keeps its own (idempotent) transactions and is recorded once it returned. So a run
 * killed anywhere resumes where it stopped, and two runs at once do each step once. A step that
 * throws stops the run, leaves its message in `lastError` and is retried by the job.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { ImageStorage } from "../../storage/image-storage";
import type { CommentsRule } from "./rules";
import { ERASURE_STEPS } from "./steps";
import { readNeedles, type ErasureStep, type ErasureSubject } from "./subject";

/** A scrubbing step may read many rows of a large account. */
const STEP_TIMEOUT_MS = 120_000;

type RunErasureArgs = {
  requestId: string;
  commentsRule: CommentsRule;
  now: Date;
  storage: ImageStorage | null;
  /** Tests: called after each step commits (throw to stop the run there, as a kill would). */
  afterStep?: (name: string) => void | Promise<void>;
  /** Tests: another table (the default is ERASURE_STEPS). */
  steps?: readonly ErasureStep[];
};

async function lockRequest(tx: TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM erasure_requests WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.erasureRequest.findUniqueOrThrow({ where: { id } });
}

async function markDone(tx: TransactionClient, id: string, step: string, now: Date) {
  const row = await lockRequest(tx, id);
  if (row.stepsDone.includes(step)) return;
  await tx.erasureRequest.update({
    where: { id },
    data: { stepsDone: [...row.stepsDone, step], lastError: null, updatedAt: now },
  });
}

/** The request done: state, time, and the audit entry naming the member by id only. Once. */
async function finish(db: Db, id: string, now: Date): Promise<void> {
  await withTransaction(db, async (tx) => {
    const row = await lockRequest(tx, id);
    if (row.state === "done") return;
    await tx.erasureRequest.update({ where: { id }, data: { state: "done", completedAt: now, updatedAt: now } });
    await recordAudit(tx, {
      actor: systemActor(row.accountId, "erasure"),
      action: "privacy.erasure_done",
      targetType: "member",
      targetId: row.memberId,
      metadata: { steps: row.stepsDone.length },
      now,
    });
  });
}

/** Run (or resume) the erasure `requestId`. Returns "done"; throws what stopped it. */
export async function runErasure(db: Db, args: RunErasureArgs): Promise<"done"> {
  const request = await db.erasureRequest.findUnique({ where: { id: args.requestId } });
  if (!request) throw new AppError("NOT_FOUND", "No such erasure request.");
  if (request.state === "done") return "done";
  const subject: ErasureSubject = {
    requestId: request.id,
    accountId: request.accountId,
    memberId: request.memberId,
    needles: await readNeedles(db, request.memberId),
    commentsRule: args.commentsRule,
    now: args.now,
    storage: args.storage,
  };
  const steps = args.steps ?? ERASURE_STEPS;
  for (const step of steps) {
    if (request.stepsDone.includes(step.name)) continue;
    try {
      if (step.mode === "own") {
        await step.run(db, subject);
        await withTransaction(db, (tx) => markDone(tx, request.id, step.name, args.now));
      } else {
        await withTransaction(
          db,
          async (tx) => {
            const row = await lockRequest(tx, request.id);
            if (row.stepsDone.includes(step.name)) return;
            await step.run(tx, subject);
            await markDone(tx, request.id, step.name, args.now);
          },
          { timeout: STEP_TIMEOUT_MS },
        );
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db.erasureRequest.update({
        where: { id: request.id },
        data: { lastError: `${step.name}: ${message}`.slice(0, 1000), updatedAt: args.now },
      });
      throw error;
    }
    await args.afterStep?.(step.name);
  }
  await finish(db, request.id, args.now);
  return "done";
}
