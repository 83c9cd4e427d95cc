/**
 * Revenue staff's CSV exports (GET /api/admin/exports/<kind>.csv; docs/dashboard.md "Exports"):
 * the account's subscribers, subscriptions, payments and invoices, every row, oldest first, read
 * in keyset pages of PAGE rows so memory stays bounded however large the account. Money is
 * written twice: the decimal amount a person reads and the integer cents a program sums, beside
 * its currency; times in UTC (ISO 8601).
 */
import "server-only";

import type { CsvValue } from "../../csv";
import type { Db } from "../../db/client";
import { isPlaceholderEmail } from "../../members/identities";
import { isTrialAuthorization } from "../checkout/trial-history";
import { centsToDecimal } from "../money.schema";
import { pausedUntilOf } from "../recurring/pauses";
import { STANDING_SUBSCRIPTIONS, SUBSCRIBED_STATUSES, subscriberStanding } from "../subscribers/subscriber-standing";
import { EMAIL_PROVIDER } from "../subscribers/subscribers";
import type { TExportKind } from "./exports.schema";

const PAGE = 500;

type CsvExport = { header: readonly string[]; rows: AsyncIterable<readonly CsvValue[]> };

/** Every row `read` gives, page after page, each page the rows after the last id seen. */
async function* keyset<T extends { id: number }>(read: (afterId: number, take: number) => Promise<T[]>) {
  let after = 0;
  for (;;) {
    const rows = await read(after, PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

async function* mapRows<T>(rows: AsyncIterable<T>, row: (item: T) => readonly CsvValue[]) {
  for await (const item of rows) yield row(item);
}

const emailOf = (email: string) => (isPlaceholderEmail(email) ? null : email);

function subscribers(db: Db, accountId: number, who: "paying" | "all", now: Date): CsvExport {
  const rows = keyset(async (after, take) => {
    const members = await db.member.findMany({
      where: {
        accountId,
        id: { gt: after },
        ...(who === "paying"
          ? { subscriptions: { some: { status: { in: [...SUBSCRIBED_STATUSES] }, deletedAt: null } } }
          : {}),
      },
      orderBy: { id: "asc" },
      take,
      select: {
        id: true,
        name: true,
        email: true,
        createdAt: true,
        identities: { orderBy: { id: "asc" }, select: { provider: true, externalId: true } },
        subscriptions: STANDING_SUBSCRIPTIONS,
      },
    });
    // A paused subscription reads "paused" (../recurring/pauses.ts), as on the Subscribers page.
    const paused = await pausedUntilOf(
      db,
      members.flatMap((m) => m.subscriptions),
    );
    return members.map((m) => ({ ...m, paused }));
  });
  return {
    header: ["subscriber_id", "name", "email", "standing", "identities", "created_at"],
    rows: mapRows(rows, (m) => {
      const email = emailOf(m.email);
      // Every identity as the Subscribers page lists them: the sign-in e-mail first.
      const identities = [
        ...(email ? [`${EMAIL_PROVIDER}:${email}`] : []),
        ...m.identities.map((i) => `${i.provider}:${i.externalId}`),
      ];
      return [
        m.id,
        m.name,
        email,
        subscriberStanding(m.subscriptions, now, m.paused),
        identities.join(" "),
        m.createdAt,
      ];
    }),
  };
}

function subscriptions(db: Db, accountId: number): CsvExport {
  const rows = keyset((after, take) =>
    db.subscription.findMany({
      where: { accountId, id: { gt: after }, deletedAt: null },
      orderBy: { id: "asc" },
      take,
      include: { member: { select: { email: true } } },
    }),
  );
  return {
    header: [
      "subscription_id",
      "subscriber_id",
      "subscriber_email",
      "plan_id",
      "plan",
      "status",
      "start",
      "end",
      "cancelled_at",
      "trial_ends_at",
      "recurring",
      "payment_type",
      "amount",
      "amount_cents",
      "currency",
      "created_by",
      "external_id",
      "created_at",
    ],
    rows: mapRows(rows, (s) => [
      s.id,
      s.memberId,
      emailOf(s.member.email),
      s.planId,
      s.planName,
      s.status.toLowerCase(),
      s.startTimestamp,
      s.endTimestamp,
      s.cancelledAt,
      s.trialEndsAt,
      s.recurring,
      s.paymentType,
      centsToDecimal(s.paymentAmountCents, s.paymentAmountCurrency),
      s.paymentAmountCents,
      s.paymentAmountCurrency,
      s.createdBy,
      s.externalId,
      s.createdAt,
    ]),
  };
}

function payments(db: Db, accountId: number): CsvExport {
  const rows = keyset((after, take) =>
    db.payment.findMany({
      where: { accountId, id: { gt: after } },
      orderBy: { id: "asc" },
      take,
      include: { subscription: { select: { memberId: true, attemptId: true, trialEndsAt: true } } },
    }),
  );
  return {
    header: [
      "payment_id",
      "created_at",
      "subscription_id",
      "subscriber_id",
      "payment_type",
      "external_payment_id",
      "status",
      "amount",
      "amount_cents",
      "refunded_cents",
      "currency",
      "trial_authorization",
    ],
    rows: mapRows(rows, (p) => [
      p.id,
      p.createdAt,
      p.subscriptionId,
      p.subscription?.memberId,
      p.paymentType,
      p.externalPaymentId,
      p.status.toLowerCase(),
      centsToDecimal(p.amountCents, p.currency),
      p.amountCents,
      p.refundedCents,
      p.currency,
      p.subscription ? isTrialAuthorization(p, p.subscription) : false,
    ]),
  };
}

function invoices(db: Db, accountId: number): CsvExport {
  const rows = keyset((after, take) =>
    db.invoice.findMany({ where: { accountId, id: { gt: after } }, orderBy: { id: "asc" }, take }),
  );
  const taxOf = (lines: unknown) =>
    Array.isArray(lines)
      ? lines.reduce((sum: number, l) => sum + Number((l as { amount_cents?: number }).amount_cents ?? 0), 0)
      : 0;
  return {
    header: [
      "invoice_number",
      "invoice_id",
      "issued_at",
      "subscriber_id",
      "subscriber_name",
      "subscriber_email",
      "plan",
      "currency",
      "base_price_cents",
      "discount_cents",
      "coupon_code",
      "net_cents",
      "tax_cents",
      "amount",
      "amount_cents",
      "payment_type",
      "external_payment_id",
      "payment_id",
    ],
    rows: mapRows(rows, (i) => [
      i.sequenceNumber,
      i.id,
      i.createdAt,
      i.memberId,
      i.subscriberName,
      i.subscriberEmail,
      i.planName,
      i.currency,
      i.basePriceCents,
      i.discountCents,
      i.couponCode,
      i.netCents,
      taxOf(i.taxLines),
      centsToDecimal(i.amountCents, i.currency),
      i.amountCents,
      i.paymentType,
      i.externalPaymentId,
      i.paymentId,
    ]),
  };
}

/** One export of the account's: its header and its rows, read as the download streams. */
export function revenueExport(
  db: Db,
  args: { accountId: number; kind: TExportKind; who: "paying" | "all"; now: Date },
): CsvExport {
  switch (args.kind) {
    case "subscribers":
      return subscribers(db, args.accountId, args.who, args.now);
    case "subscriptions":
      return subscriptions(db, args.accountId);
    case "payments":
      return payments(db, args.accountId);
    case "invoices":
      return invoices(db, args.accountId);
  }
}
