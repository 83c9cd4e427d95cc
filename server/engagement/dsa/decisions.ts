/**
 * Moderators' side of the DSA notice and action (docs/privacy.md, "Illegal-content notices"):
 * the "Illegal-content notices" queue, the decision with its statement of reasons (art. 17), and
 * the decision on an appeal (art. 20). Owners and moderators only; every step audited.
 *
 * - Deciding a notice is one transaction: the update that sets `decided_at` where it is null (a
 *   second decision, even at the same moment, is 409 and changes nothing), the comment's change
 *   (remove: unpublished and rejected; restrict: unpublished, reason "dsa.restricted"; none), the
 *   appeal rows with their links' hashes, the audit entry, and the two mails: the statement of
 *   reasons to the author and the decision to the notifier, each with its appeal link.
 * - Deciding an appeal: the update that sets its outcome where it is null; "reversed" restores the
 *   comment as it was before the decision (remove, restrict) or removes it (none); each party with
 *   an address gets the final decision once.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { CommentModerationState } from "../../generated/prisma/enums";
import { parseInput } from "../../validation";
import { requireModerator } from "../moderation/moderator";
import { announceVisibilityChange, lockComment } from "../moderation/queue/queue";
import { appealDeadline, appealUrl, newAppealSecret } from "./appeals";
import { memberAddress, queueAppealDecisionMail, queueDecisionMail, type DsaRecipient } from "./dsa-mail";
import { ZDsaDecideAppealInput, ZDsaDecideInput, type TDsaDecideAppealInput, type TDsaDecideInput } from "./dsa.schema";

const DSA_RESTRICTED = "dsa.restricted";
const STATES = new Set<string>(["UNDECIDED", "APPROVED", "REJECTED", "SPAM"]);

/** Make the comment what `action` says, or put it back as it was (`restore`). */
async function applyToComment(
  tx: TransactionClient,
  args: {
    actor: StaffActor;
    commentId: number | null;
    action: string;
    restore?: { published: boolean; state: string | null };
    now: Date;
  },
): Promise<{ published: boolean; state: CommentModerationState } | null> {
  const { actor, now } = args;
  if (args.commentId === null) return null;
  const before = await lockComment(tx, actor.accountId, args.commentId);
  const was = { published: before.isPublished, state: before.moderationState };
  const reasons = before.moderationReasons.filter((r) => r !== DSA_RESTRICTED);
  let data: { isPublished?: boolean; moderationState?: CommentModerationState; moderationReasons?: string[] } | null;
  if (args.restore) {
    const state = args.restore.state && STATES.has(args.restore.state) ? args.restore.state : "UNDECIDED";
    data = {
      isPublished: args.restore.published,
      moderationState: state as CommentModerationState,
      moderationReasons: reasons,
    };
  } else if (args.action === "remove") data = { isPublished: false, moderationState: "REJECTED" };
  else if (args.action === "restrict") data = { isPublished: false, moderationReasons: [...reasons, DSA_RESTRICTED] };
  else data = null;
  if (data) {
    const after = await tx.comment.update({
      where: { id: before.id },
      data: { ...data, decidedById: actor.id, decidedAt: now, openReports: 0 },
      include: { page: true },
    });
    await announceVisibilityChange(tx, { before, after, moderatorId: actor.id, now });
  }
  return was;
}

async function recipientOf(tx: TransactionClient, accountId: number, memberId: number | null) {
  if (memberId === null) return null;
  const member = await tx.member.findFirst({
    where: { id: memberId, accountId },
    select: { email: true, communicationEmail: true, name: true, locale: true },
  });
  const email = memberAddress(member);
  return email ? { email, locale: member?.locale ?? null, memberId, name: member?.name ?? null } : null;
}

/** Decide a notice (409 when it was decided already). */
export async function decideDsaNotice(
  db: Db,
  args: { actor: StaffActor; input: TDsaDecideInput; now: Date },
): Promise<{ noticeId: number; decidedAt: string }> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZDsaDecideInput, args.input);
  return withTransaction(db, async (tx) => {
    const notice = await tx.dsaNotice.findFirst({
      where: { id: input.noticeId, accountId: actor.accountId },
      include: { comment: { include: { page: true } } },
    });
    if (!notice) throw new AppError("NOT_FOUND", "Notice not found.");
    const moved = await tx.dsaNotice.updateMany({
      where: { id: notice.id, decidedAt: null },
      data: {
        action: input.action,
        decisionCategory: input.category,
        ground: input.ground,
        groundReference: input.groundReference,
        facts: input.facts,
        automated: input.automated,
        decidedById: actor.id,
        decidedAt: now,
      },
    });
    if (moved.count === 0) throw new AppError("CONFLICT", "This notice was decided already.");
    const was = await applyToComment(tx, { actor, commentId: notice.commentId, action: input.action, now });
    if (was) {
      await tx.dsaNotice.update({
        where: { id: notice.id },
        data: { commentWasPublished: was.published, commentStateBefore: was.state },
      });
    }
    await recordAudit(tx, {
      actor,
      action: "dsa.notice.decided",
      targetType: "dsa_notice",
      targetId: notice.id,
      metadata: {
        commentId: notice.commentId,
        action: input.action,
        category: input.category,
        ground: input.ground,
        automated: input.automated,
      },
      now,
    });
    const author = await recipientOf(tx, actor.accountId, notice.authorMemberId);
    const notifier: DsaRecipient | null = notice.notifierEmail
      ? {
          email: notice.notifierEmail,
          locale: notice.notifierLocale,
          memberId: notice.notifierMemberId,
          name: notice.notifierName,
        }
      : null;
    const until = appealDeadline(now);
    const facts = { id: notice.id, category: notice.category, headline: headlineOf(notice.comment) };
    for (const [party, to] of [
      ["author", author],
      ["notifier", notifier],
    ] as const) {
      if (!to) continue;
      const { secret, hash } = newAppealSecret();
      const appeal = await tx.dsaAppeal.create({
        data: {
          accountId: actor.accountId,
          noticeId: notice.id,
          party,
          tokenHash: hash,
          email: to.email,
          locale: to.locale,
          memberId: to.memberId,
          expiresAt: until,
          createdAt: now,
        },
      });
      await queueDecisionMail(tx, {
        accountId: actor.accountId,
        to,
        party,
        notice: facts,
        decision: { ...input },
        appealUrl: await appealUrl(tx, { accountId: actor.accountId, appealId: appeal.id, secret }),
        appealUntil: until,
        now,
      });
    }
    return { noticeId: notice.id, decidedAt: now.toISOString() };
  });
}

function headlineOf(comment: { page: { headline: string | null; url: string } } | null): string {
  return comment ? comment.page.headline || comment.page.url : "";
}

/** Decide a submitted appeal (404 unknown or not submitted; 409 decided already). */
export async function decideDsaAppeal(
  db: Db,
  args: { actor: StaffActor; input: TDsaDecideAppealInput; now: Date },
): Promise<{ appealId: number; outcome: string }> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZDsaDecideAppealInput, args.input);
  return withTransaction(db, async (tx) => {
    const appeal = await tx.dsaAppeal.findFirst({
      where: { id: input.appealId, accountId: actor.accountId, submittedAt: { not: null } },
      include: { notice: { include: { comment: { include: { page: true } } } } },
    });
    if (!appeal) throw new AppError("NOT_FOUND", "Appeal not found.");
    const moved = await tx.dsaAppeal.updateMany({
      where: { id: appeal.id, outcome: null },
      data: { outcome: input.outcome, reasons: input.reasons, decidedById: actor.id, decidedAt: now },
    });
    if (moved.count === 0) throw new AppError("CONFLICT", "This appeal was decided already.");
    const { notice } = appeal;
    let action = notice.action ?? "none";
    if (input.outcome === "reversed") {
      if (action === "none") {
        await applyToComment(tx, { actor, commentId: notice.commentId, action: "remove", now });
        action = "remove";
      } else {
        const restore = { published: notice.commentWasPublished ?? true, state: notice.commentStateBefore };
        await applyToComment(tx, { actor, commentId: notice.commentId, action: "none", restore, now });
        action = "restored";
      }
    }
    await recordAudit(tx, {
      actor,
      action: "dsa.appeal.decided",
      targetType: "dsa_notice",
      targetId: notice.id,
      metadata: { appealId: appeal.id, party: appeal.party, outcome: input.outcome, commentAction: action },
      now,
    });
    const parties = await tx.dsaAppeal.findMany({ where: { noticeId: notice.id }, orderBy: { id: "asc" } });
    const facts = { id: notice.id, category: notice.category, headline: headlineOf(notice.comment) };
    for (const party of parties) {
      if (!party.email) continue;
      await queueAppealDecisionMail(tx, {
        accountId: actor.accountId,
        to: { email: party.email, locale: party.locale, memberId: party.memberId, name: null },
        notice: facts,
        outcome: input.outcome,
        action,
        reasons: input.reasons,
        now,
      });
    }
    return { appealId: appeal.id, outcome: input.outcome };
  });
}
