/**
 * Dunning (docs/subscriptions.md "Dunning"): what happens when a recurring period goes unpaid,
 * run by the lifecycle (./lifecycle.ts) inside its step's transaction, under the subscription's
 * row lock. The rules are ./dunning-rules.ts.
 *
 * - `beginDunning`: the period's charge failed (or nobody charged it by its end). One
 *   `dunning_episodes` row per subscription and unpaid period (unique), holding the plan's retry
 *   schedule as it was then; the subscription's access runs to the grace end (`grace_ends_at`,
 *   the plan's grace_period_days after the paid end) and its next retry is `charge_retry_at`. The
 *   reader gets the "update your card" e-mail once per episode: only the insert that created the
 *   row queues it, in the same transaction.
 * - `recordFailedRetry`: a retry was declined: the episode counts it, the next retry is set (or none).
 * - `endDunning`: the period was paid (recovered) or the grace period ran out (lost).
 */
import "server-only";

import { getEnv } from "../../../env.js";
import type { TransactionClient } from "../../db/client";
import { queueEmail } from "../../mail/outbox";
import { readerMail, renderSimpleMail, type MailBlock } from "../../mail/reader-mail";
import { hostedMemberOrigin } from "../../members/reset-link";
import { getPublisher } from "../../publishing/publisher";
import type { DunningEpisode, Subscription } from "../../generated/prisma/client";
import { cardLinkUrl } from "../self-service/card-link";
import {
  chargeRetryDaysOf,
  DEFAULT_DUNNING,
  dunningSettingsOf,
  graceEndOf,
  nextChargeRetryAt,
  remainingChargeRetries,
} from "./dunning-rules";

/** The e-mail's kind in the outbox. */
const PAYMENT_FAILED_MAIL_KIND = "subscription.payment_failed";
/** The e-mail's signed "update your card" link (../self-service/card-link.ts): works without a password or session. */
export async function updateCardLink(
  tx: TransactionClient,
  args: { accountId: number; subscriptionId: number; appUrl: string; now: Date },
): Promise<string> {
  const publisher = await getPublisher(tx, args.accountId, { appUrl: args.appUrl });
  const origin =
    (await hostedMemberOrigin(tx, { publisher, appUrl: args.appUrl, fallbackSlug: getEnv().PUBLISHING_ACCOUNT })) ??
    new URL(args.appUrl).origin;
  return (await cardLinkUrl(tx, { origin, subscriptionId: args.subscriptionId, now: args.now }))!;
}

async function settingsFor(tx: TransactionClient, sub: Pick<Subscription, "planId">) {
  if (sub.planId === null) return DEFAULT_DUNNING;
  const plan = await tx.subscriptionPlan.findUnique({
    where: { id: sub.planId },
    select: { chargeRetryDays: true, gracePeriodDays: true },
  });
  return dunningSettingsOf(plan);
}

/** The subscription's open episode, if any. */
export async function openDunningEpisode(
  tx: TransactionClient,
  subscriptionId: number,
): Promise<DunningEpisode | null> {
  return tx.dunningEpisode.findFirst({ where: { subscriptionId, outcome: "OPEN" }, orderBy: { id: "desc" } });
}

/**
 * A recurring period went unpaid: its charge failed (`charged`: we asked the gateway, so we may
 * retry) or its end came without a payment. Sets the grace end and the first retry, opens the
 * episode (once per period) and, when this call opened it, queues the "update your card" e-mail.
 */
export async function beginDunning(
  tx: TransactionClient,
  args: { sub: Subscription; paidThrough: Date; charged: boolean; reason: string; now: Date; appUrl: string },
): Promise<{ graceEndsAt: Date; chargeRetryAt: Date | null; opened: boolean }> {
  const { sub, now } = args;
  const settings = await settingsFor(tx, sub);
  const graceEndsAt = graceEndOf(args.paidThrough, settings.graceDays);
  const periodStart = sub.nextPaymentDueDate ?? args.paidThrough;
  const retryDays = args.charged ? settings.retryDays : [];
  const [inserted] = await tx.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO dunning_episodes (account_id, subscription_id, period_start, amount_cents, currency, retry_days,
                                   last_error, started_at, grace_ends_at)
     VALUES ($1, $2, $3::timestamptz, $4, $5, $6::jsonb, $7, $8::timestamptz, $9::timestamptz)
     ON CONFLICT (subscription_id, period_start) DO NOTHING
     RETURNING id`,
    sub.accountId,
    sub.id,
    periodStart.toISOString(),
    sub.paymentAmountCents,
    sub.paymentAmountCurrency,
    JSON.stringify(retryDays),
    args.reason.slice(0, 500),
    now.toISOString(),
    graceEndsAt.toISOString(),
  );
  // The same period failing again (a gateway's event put it back in grace): its schedule goes on.
  const episode = await tx.dunningEpisode.findUniqueOrThrow({
    where: { subscriptionId_periodStart: { subscriptionId: sub.id, periodStart } },
  });
  const schedule = {
    startedAt: episode.startedAt,
    retryDays: chargeRetryDaysOf(episode.retryDays),
    retriesDone: episode.retries,
    graceEndsAt,
  };
  const chargeRetryAt = episode.outcome === "OPEN" ? nextChargeRetryAt(schedule) : null;
  await tx.subscription.update({
    where: { id: sub.id },
    data: { endTimestamp: args.paidThrough, graceEndsAt, chargeRetryAt, gatewayWordDueAt: null },
  });
  if (inserted) {
    await queuePaymentFailedMail(tx, {
      sub,
      reason: args.reason,
      graceEndsAt,
      retries: remainingChargeRetries(schedule),
      now,
      appUrl: args.appUrl,
    });
  }
  return { graceEndsAt, chargeRetryAt, opened: inserted !== undefined };
}

/** A retry of the open episode was declined: count it and set the next retry (or none). */
export async function recordFailedRetry(
  tx: TransactionClient,
  args: { sub: Subscription; episode: DunningEpisode; reason: string },
): Promise<Date | null> {
  const retries = args.episode.retries + 1;
  await tx.dunningEpisode.update({
    where: { id: args.episode.id },
    data: { retries, lastError: args.reason.slice(0, 500) },
  });
  const next = args.sub.graceEndsAt
    ? nextChargeRetryAt({
        startedAt: args.episode.startedAt,
        retryDays: chargeRetryDaysOf(args.episode.retryDays),
        retriesDone: retries,
        graceEndsAt: args.sub.graceEndsAt,
      })
    : null;
  await tx.subscription.update({ where: { id: args.sub.id }, data: { chargeRetryAt: next } });
  return next;
}

/**
 * Close the subscription's open episode: `recovered` (its period was paid: `paymentId`) or `lost`
 * (the grace period ran out). Returns whether one was open (the caller then emits its event).
 */
export async function endDunning(
  tx: TransactionClient,
  args: { subscriptionId: number; outcome: "RECOVERED" | "LOST"; paymentId?: number | null; now: Date },
): Promise<boolean> {
  const { count } = await tx.dunningEpisode.updateMany({
    where: { subscriptionId: args.subscriptionId, outcome: "OPEN" },
    data: { outcome: args.outcome, endedAt: args.now, paymentId: args.paymentId ?? null },
  });
  return count > 0;
}

async function queuePaymentFailedMail(
  tx: TransactionClient,
  args: { sub: Subscription; reason: string; graceEndsAt: Date; retries: Date[]; now: Date; appUrl: string },
): Promise<void> {
  const { sub } = args;
  const member = await tx.member.findUnique({
    where: { id: sub.memberId },
    select: { email: true, communicationEmail: true, name: true },
  });
  const to = member?.communicationEmail ?? member?.email ?? null;
  if (!to) return;
  const [account, mail] = await Promise.all([
    tx.account.findUniqueOrThrow({ where: { id: sub.accountId }, select: { name: true } }),
    readerMail(tx, sub.accountId, sub.memberId),
  ]);
  const { t } = mail;
  const link = await updateCardLink(tx, {
    accountId: sub.accountId,
    subscriptionId: sub.id,
    appUrl: args.appUrl,
    now: args.now,
  });
  // Times in the reader's locale and the account's zone, named: the reader's own zone is not known to a mail.
  const amount = mail.money(sub.paymentAmountCents, sub.paymentAmountCurrency);
  const blocks: MailBlock[] = [
    { p: t("dunningCouldNotCharge", { amount, plan: sub.planName, publisher: account.name }) },
    { p: `${t("dunningKeepReadingUntil", { date: mail.dateTime(args.graceEndsAt) })} ${t("dunningUpdateCard")}` },
    { link, label: t("dunningButton") },
    // One date a line: a date and time already holds commas in most locales.
    ...(args.retries.length > 0
      ? [{ p: [t("dunningRetries"), ...args.retries.map((d) => mail.dateTime(d))].join("\n") }]
      : []),
    { p: t("dunningContinues") },
  ];
  await queueEmail(tx, {
    accountId: sub.accountId,
    to,
    kind: PAYMENT_FAILED_MAIL_KIND,
    now: args.now,
    ...renderSimpleMail(mail, { subject: t("dunningSubject", { plan: sub.planName }), name: member?.name, blocks }),
  });
}
