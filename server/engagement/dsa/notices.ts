/**
 * Illegal-content notices about comments (EU Digital Services Act art. 16; docs/privacy.md,
 * "Illegal-content notices").
 *
 * - A reader, signed in (a publisher JWT) or not (a solved captcha, single use), notifies a visible
 *   comment of the page with a category (a DSA Transparency Database key), the law or reason, a
 *   name and e-mail (the e-mail required without sign-in) and a statement of good faith. The
 *   comment is not hidden: the notice waits in the moderators' "Illegal-content notices" queue.
 * - The comment's row is locked for the insert, so one notifier's undecided notice of a comment is
 *   one row whatever they send, even at once; only the insert queues the confirmation of receipt.
 * - Every notice is audited (by the system: the reader is not staff).
 */
import "server-only";

import { getEnv } from "../../../env.js";
import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { ApiUser } from "../../auth/api-auth";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { findOrCreateJwtMember } from "../../members/identities";
import { captchaSecrets, captchaUsedError, verifyCaptcha, type VerifiedCaptcha } from "../captcha";
import { visibleCommentOnPage } from "../reports";
import { memberAddress, queueReceiptMail } from "./dsa-mail";
import type { TDsaNoticeBody, TDsaNoticeReceipt } from "./dsa.schema";

type Notifier = { memberId: number | null; name: string | null; email: string | null; locale: string | null };

async function notifierOf(
  db: Db,
  args: { accountId: number; user: ApiUser | null; input: TDsaNoticeBody; now: Date },
): Promise<{ notifier: Notifier; captcha: VerifiedCaptcha | null }> {
  const { accountId, user, input, now } = args;
  if (user) {
    const member = await findOrCreateJwtMember(db, { accountId, user, now });
    const full = await db.member.findUniqueOrThrow({
      where: { id: member.id },
      select: { email: true, communicationEmail: true, name: true, locale: true },
    });
    return {
      notifier: {
        memberId: member.id,
        name: input.name ?? full.name ?? null,
        email: input.email ?? memberAddress(full),
        locale: full.locale ?? input.locale ?? null,
      },
      captcha: null,
    };
  }
  if (!input.email) {
    throw new AppError("BAD_REQUEST", "Give your e-mail address: the decision is sent to it.", {
      details: [{ field: "email", issue: "is required without jwt" }],
    });
  }
  if (!input.captcha_response) {
    throw new AppError("BAD_REQUEST", "Solve the captcha: a notice without sign-in needs one.", {
      details: [{ field: "captcha_response", issue: "is required without jwt" }],
    });
  }
  const captcha = await verifyCaptcha({
    accountId,
    response: input.captcha_response,
    now,
    secrets: captchaSecrets(getEnv()),
  });
  return {
    notifier: { memberId: null, name: input.name ?? null, email: input.email, locale: input.locale ?? null },
    captcha,
  };
}

/** Receive a notice about a visible comment of the page (404 otherwise). */
export async function submitDsaNotice(
  db: Db,
  args: {
    accountId: number;
    user: ApiUser | null;
    encodedUrl: string;
    commentId: number;
    input: TDsaNoticeBody;
    now: Date;
  },
): Promise<TDsaNoticeReceipt> {
  const { accountId, now, input } = args;
  const { page, comment: found } = await visibleCommentOnPage(db, { ...args, accountId });
  const { notifier, captcha } = await notifierOf(db, { accountId, user: args.user, input, now });

  return withTransaction(db, async (tx) => {
    await tx.$queryRaw`SELECT id FROM comments WHERE id = ${found.id} FOR UPDATE`;
    if (captcha) {
      const used = await tx.usedCaptcha.createMany({
        data: [{ digest: captcha.digest, expiresAt: captcha.expiresAt, createdAt: now }],
        skipDuplicates: true,
      });
      if (used.count === 0) throw captchaUsedError();
    }
    const same = notifier.memberId
      ? { notifierMemberId: notifier.memberId }
      : { notifierMemberId: null, notifierEmail: notifier.email };
    const open = await tx.dsaNotice.findFirst({
      where: { accountId, commentId: found.id, decidedAt: null, ...same },
      orderBy: { id: "asc" },
    });
    if (open) return receipt(open, false);
    const notice = await tx.dsaNotice.create({
      data: {
        accountId,
        commentId: found.id,
        authorMemberId: found.authorId,
        category: input.category,
        lawOrReason: input.law_or_reason,
        notifierMemberId: notifier.memberId,
        notifierName: notifier.name,
        notifierEmail: notifier.email,
        notifierLocale: notifier.locale,
        goodFaith: input.good_faith,
        receiptMailedAt: notifier.email ? now : null,
        createdAt: now,
      },
    });
    await recordAudit(tx, {
      actor: systemActor(accountId, "dsa.notice"),
      action: "dsa.notice.received",
      targetType: "dsa_notice",
      targetId: notice.id,
      metadata: { commentId: found.id, category: input.category, signedIn: notifier.memberId !== null },
      now,
    });
    if (notifier.email) {
      await queueReceiptMail(tx, {
        accountId,
        to: { email: notifier.email, locale: notifier.locale, memberId: notifier.memberId, name: notifier.name },
        notice: { id: notice.id, category: notice.category, headline: page.headline || page.url },
        now,
      });
    }
    return receipt(notice, true);
  });
}

function receipt(
  notice: { id: number; commentId: number | null; category: string; createdAt: Date },
  created: boolean,
): TDsaNoticeReceipt {
  return {
    notice: {
      id: notice.id,
      comment_id: notice.commentId ?? 0,
      category: notice.category,
      created_at: notice.createdAt.toISOString(),
    },
    created,
  };
}
