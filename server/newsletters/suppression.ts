/**
 * Suppressed addresses (email_suppressions): addresses an account no longer mails newsletters to.
 * An address is stored lower-cased, once per account, with the reason it was suppressed:
 *
 * - "bounce": the SMTP server refused it permanently (a 5xx at sending), or a bounce report said so;
 * - "complaint": the reader marked a mail as spam (a feedback-loop report);
 * - "manual": staff's choice.
 *
 * Suppressing an address also ends its newsletter subscriptions in the account (UNSUBSCRIBED, source
 * "complaint" for a complaint, "bounce" for a bounce, "suppressed" for staff's choice), so an address
 * that bounced or complained stops receiving even where a sender forgot to check. A later reason
 * replaces an earlier one only when it is stronger (complaint > bounce > manual): a complaint is
 * never turned back into a bounce.
 *
 * A suppression is lifted only by a confirmed opt-in (./subscriptions.ts `confirmSubscription`):
 * the reader followed the link of a confirmation mail, which proves both the address and the wish.
 */
import "server-only";

import { ownValue } from "@/server/own-keys";

import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { recordConsent } from "../privacy/consent/consent";
import { newsletterPurpose } from "../privacy/consent/consent.schema";

export const SUPPRESSION_REASONS = ["bounce", "complaint", "manual"] as const;
type TSuppressionReason = (typeof SUPPRESSION_REASONS)[number];

const STRENGTH: Record<TSuppressionReason, number> = { manual: 0, bounce: 1, complaint: 2 };

/** The unsubscribe source a suppression writes on the subscriptions it ends. */
const SUPPRESSION_UNSUBSCRIBE_SOURCE: Record<TSuppressionReason, string> = {
  bounce: "bounce",
  complaint: "complaint",
  manual: "suppressed",
};

const DETAIL_MAX = 1000;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Suppress `email` in the account: writes (or strengthens) its suppression and ends its ACTIVE and
 * PENDING subscriptions, in one transaction (the caller's when `db` is one). Idempotent: a second
 * call changes nothing but a stronger reason. Answers the number of subscriptions it ended.
 */
export async function suppress(
  db: Db,
  args: { accountId: number; email: string; reason: TSuppressionReason; detail?: string | null; now?: Date },
): Promise<{ unsubscribed: number }> {
  const email = normaliseEmail(args.email);
  const now = args.now ?? new Date();
  const detail = args.detail ? args.detail.slice(0, DETAIL_MAX) : null;
  return withTransaction(db, async (tx) => {
    const key = { accountId_email: { accountId: args.accountId, email } };
    const existing = await tx.emailSuppression.findUnique({ where: key, select: { reason: true } });
    if (!existing) {
      // Two reports of one address at once: the second insert finds the first's row and does nothing.
      await tx.$executeRaw`INSERT INTO email_suppressions (account_id, email, reason, detail, created_at)
        VALUES (${args.accountId}, ${email}, ${args.reason}, ${detail}, ${now})
        ON CONFLICT (account_id, email) DO NOTHING`;
    } else if (STRENGTH[args.reason] > (ownValue(STRENGTH, existing.reason) ?? 0)) {
      await tx.emailSuppression.update({ where: key, data: { reason: args.reason, detail } });
    }
    const ended = await tx.newsletterSubscription.updateManyAndReturn({
      where: {
        accountId: args.accountId,
        status: { in: ["ACTIVE", "PENDING"] },
        member: {
          accountId: args.accountId,
          OR: [{ email }, { communicationEmail: { equals: email, mode: "insensitive" } }],
        },
      },
      data: {
        status: "UNSUBSCRIBED",
        unsubscribedAt: now,
        unsubscribeSource: SUPPRESSION_UNSUBSCRIBE_SOURCE[args.reason],
      },
      select: { memberId: true, newsletterId: true },
    });
    // A complaint is the reader's withdrawal, a manual suppression staff's; a bounce is no one's choice.
    const channel = args.reason === "complaint" ? "complaint" : args.reason === "manual" ? "staff" : null;
    for (const row of ended) {
      if (!channel) break;
      await recordConsent(tx, {
        accountId: args.accountId,
        memberId: row.memberId,
        purpose: newsletterPurpose(row.newsletterId),
        given: false,
        channel,
        now,
      });
    }
    return { unsubscribed: ended.length };
  });
}

/** The suppression of `email` in the account, or null. */
export async function findSuppression(
  db: Db,
  args: { accountId: number; email: string },
): Promise<{ reason: TSuppressionReason; detail: string | null; createdAt: Date } | null> {
  const row = await db.emailSuppression.findUnique({
    where: { accountId_email: { accountId: args.accountId, email: normaliseEmail(args.email) } },
    select: { reason: true, detail: true, createdAt: true },
  });
  return row ? { ...row, reason: row.reason as TSuppressionReason } : null;
}

/** Whether the account no longer mails `email`. */
export async function isSuppressed(db: Db, args: { accountId: number; email: string }): Promise<boolean> {
  return (await findSuppression(db, args)) !== null;
}

/** Which of `emails` (any case) the account suppresses, lower-cased: one query for a sender's batch. */
export async function suppressedAmong(
  db: Db,
  args: { accountId: number; emails: readonly string[] },
): Promise<Set<string>> {
  if (args.emails.length === 0) return new Set();
  const rows = await db.emailSuppression.findMany({
    where: { accountId: args.accountId, email: { in: [...new Set(args.emails.map(normaliseEmail))] } },
    select: { email: true },
  });
  return new Set(rows.map((r) => r.email));
}

/** Lift the suppression of `email` (a confirmed opt-in, ./subscriptions.ts). */
export async function liftSuppression(db: Db, args: { accountId: number; email: string }): Promise<boolean> {
  const { count } = await db.emailSuppression.deleteMany({
    where: { accountId: args.accountId, email: normaliseEmail(args.email) },
  });
  return count > 0;
}
