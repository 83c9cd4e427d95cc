/**
 * Starting an erasure, by the reader (./reader-request.ts, once they confirmed from the mailed
 * link) or by an owner on the reader's request (`eraseByStaff`, with the reader's e-mail typed
 * again), and the "privacy.erase" job that runs it (./run.ts). One request per member (unique):
 * asking again, or twice at once, finds the same request and its one pending job. Audited with
 * the member's id only.
 */
import "server-only";

import { z } from "zod";

import { getEnv } from "../../../env.js";
import { recordAudit } from "../../audit/audit-log";
import { systemActor, type Actor, type StaffActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { isUniqueClash, withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { defineJob } from "../../jobs/define";
import { enqueueJob } from "../../jobs/queue";
import { log } from "../../log";
import { GUEST_PROVIDER } from "../../members/identities";
import { ERASED_SOURCE } from "../../members/members.schema";
import { imageStorageFromEnv, type ImageStorage } from "../../storage/image-storage";
import { erasedCommentsRule } from "./comments-rule";
import { runErasure } from "./run";

export type ErasureView = { id: string; state: string; steps_done: string[]; last_error: string | null };

const view = (r: { id: string; state: string; stepsDone: string[]; lastError: string | null }): ErasureView => ({
  id: r.id,
  state: r.state,
  steps_done: r.stepsDone,
  last_error: r.lastError,
});

function storageOrNull(): ImageStorage | null {
  try {
    return imageStorageFromEnv(getEnv());
  } catch {
    return null;
  }
}

/** "privacy.erase": run (or resume) one erasure; a step that fails is retried with backoff. */
export const erasureJob = defineJob<{ requestId: string }, null>({
  name: "privacy.erase",
  kind: "external",
  payload: z.object({ requestId: z.uuid() }),
  maxAttempts: 12,
  leaseMs: 10 * 60_000,
  backoffMs: (attempt) => Math.min(60_000 * 2 ** (attempt - 1), 6 * 3600_000),
  async perform(db, jobs, ctx) {
    const performed = [];
    for (const job of jobs) {
      try {
        const request = await db.erasureRequest.findUnique({ where: { id: job.payload.requestId } });
        if (request && request.state !== "done")
          await runErasure(db, {
            requestId: request.id,
            commentsRule: await erasedCommentsRule(db, request.accountId),
            now: ctx.clock(),
            storage: storageOrNull(),
          });
        performed.push({ job, result: { status: "done" as const }, data: null });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.warn("erasure stopped", { request: job.payload.requestId, error: message });
        performed.push({ job, result: { status: "error" as const, error: message } });
      }
    }
    return performed;
  },
  async record() {},
  async onFailed(tx, job, error, ctx) {
    const request = await tx.erasureRequest.findUnique({ where: { id: job.payload.requestId } });
    if (!request) return;
    await recordAudit(tx, {
      actor: systemActor(request.accountId, "erasure"),
      action: "privacy.erasure_failed",
      targetType: "member",
      targetId: request.memberId,
      metadata: { error: error.slice(0, 500), steps_done: request.stepsDone },
      now: ctx.clock(),
    });
  },
});

/**
 * In `tx`: the member's erasure request (created, or the one there is) and its job. The member
 * must be the account's, not its guest member. Audited when created.
 */
export async function startErasure(
  tx: TransactionClient,
  args: { accountId: number; memberId: number; actor: Actor; now: Date },
): Promise<ErasureView> {
  const member = await tx.member.findFirst({
    where: { id: args.memberId, accountId: args.accountId },
    select: { id: true, identities: { where: { provider: GUEST_PROVIDER }, select: { id: true } } },
  });
  if (!member) throw new AppError("NOT_FOUND", "No such reader.");
  if (member.identities.length) throw new AppError("UNPROCESSABLE", "The account's guest member is not a reader.");
  const existing = await tx.erasureRequest.findUnique({ where: { memberId: member.id } });
  if (existing) return view(existing);
  const request = await tx.erasureRequest.create({
    data: {
      accountId: args.accountId,
      memberId: member.id,
      requestedVia: args.actor.kind === "staff" ? "staff" : "reader",
      staffId: args.actor.kind === "staff" ? args.actor.id : null,
      createdAt: args.now,
      updatedAt: args.now,
    },
  });
  await enqueueJob(
    tx,
    erasureJob,
    { requestId: request.id },
    { key: `privacy.erase:${request.id}`, accountId: args.accountId, now: args.now },
  );
  await recordAudit(tx, {
    actor: args.actor,
    action: "privacy.erasure_request",
    targetType: "member",
    targetId: member.id,
    metadata: { via: request.requestedVia },
    now: args.now,
  });
  return view(request);
}

/** startErasure in its own transaction; two at once: the loser finds the winner's request. */
export async function requestErasure(
  db: Db,
  args: { accountId: number; memberId: number; actor: Actor; now: Date },
): Promise<ErasureView> {
  try {
    return await withTransaction(db, (tx) => startErasure(tx, args));
  } catch (error) {
    if (!isUniqueClash(error)) throw error;
    return withTransaction(db, (tx) => startErasure(tx, args));
  }
}

/**
 * An owner erases a reader of their account on the reader's request, typing the reader's e-mail
 * again (case and spaces aside) as the confirmation. Another account's reader: NOT_FOUND.
 */
export async function eraseByStaff(
  db: Db,
  args: { actor: StaffActor; memberId: number; confirmEmail: string; now: Date },
): Promise<ErasureView> {
  if (!args.actor.roles.includes("OWNER")) throw new AppError("FORBIDDEN", "Only an owner can erase a reader.");
  const member = await db.member.findFirst({
    where: { id: args.memberId, accountId: args.actor.accountId },
    select: { id: true, email: true, source: true },
  });
  if (!member) throw new AppError("NOT_FOUND", "No such reader.");
  if (member.source !== ERASED_SOURCE && member.email.toLowerCase() !== args.confirmEmail.trim().toLowerCase())
    throw new AppError("BAD_REQUEST", "Type the reader's e-mail exactly to confirm the erasure.", {
      details: [{ field: "confirm_email", issue: "does not match the reader's e-mail" }],
    });
  return requestErasure(db, { accountId: args.actor.accountId, memberId: member.id, actor: args.actor, now: args.now });
}

/** Where a member's erasure stands (null: none asked). Scoped to the account. */
export async function erasureStatus(
  db: Db,
  args: { accountId: number; memberId: number },
): Promise<ErasureView | null> {
  const row = await db.erasureRequest.findFirst({ where: { accountId: args.accountId, memberId: args.memberId } });
  return row ? view(row) : null;
}
