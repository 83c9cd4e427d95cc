/**
 * What the revenue dashboard shows about one subscriber beside their identities and
 * subscriptions: their payments (with refunds), their renewal charges that failed
 * (../recurring/failed-charges.ts) and the subscription webhooks sent about them
 * (events whose payload names one of their subscriptions, or them as `data.subscriber`), each
 * with its deliveries' status.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import { failedChargesOf, type FailedChargeView } from "../recurring/failed-charges";

const EVENT_LIMIT = 100;

type SubscriberPaymentView = {
  id: number;
  subscription_id: number | null;
  plan_name: string | null;
  payment_type: string;
  external_payment_id: string | null;
  amount_cents: number;
  refunded_cents: number;
  currency: string;
  status: string;
  created_at: string;
  refunds: {
    id: number;
    amount_cents: number;
    status: string;
    external_refund_id: string | null;
    reason: string | null;
    error: string | null;
    by: string | null;
    created_at: string;
  }[];
  /** Disputes (chargebacks) the gateway reported (../payments/gateway-disputes.ts). */
  disputes: {
    id: number;
    status: string;
    amount_cents: number;
    reason: string | null;
    opened_at: string;
    closed_at: string | null;
  }[];
};

type SubscriberWebhookView = {
  id: string;
  name: string;
  subscription_id: number | null;
  occurred_at: string;
  deliveries: { id: string; endpoint_url: string; status: string; attempts: number; last_status_code: number | null }[];
};

export async function getSubscriberActivity(
  db: Db,
  args: { accountId: number; memberId: number },
): Promise<{
  payments: SubscriberPaymentView[];
  failed_charges: FailedChargeView[];
  webhooks: SubscriberWebhookView[];
}> {
  const member = await db.member.findFirst({
    where: { id: args.memberId, accountId: args.accountId },
    select: { id: true },
  });
  if (!member) throw new AppError("NOT_FOUND", "No such subscriber.");
  const subscriptions = await db.subscription.findMany({
    where: { accountId: args.accountId, memberId: member.id },
    select: { id: true, planName: true },
  });
  const ids = subscriptions.map((s) => s.id);
  const planOf = new Map(subscriptions.map((s) => [s.id, s.planName]));

  const payments = ids.length
    ? await db.payment.findMany({
        where: { accountId: args.accountId, subscriptionId: { in: ids } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        include: {
          refunds: { orderBy: { id: "asc" } },
          disputes: { orderBy: { id: "asc" } },
        },
      })
    : [];
  const failedCharges = await failedChargesOf(db, { accountId: args.accountId, subscriptionIds: ids });
  const actorIds = [
    ...new Set(payments.flatMap((p) => p.refunds.map((r) => r.actorId)).filter((x): x is string => !!x)),
  ];
  const actors = actorIds.length
    ? await db.adminUser.findMany({ where: { id: { in: actorIds } }, select: { id: true, name: true, email: true } })
    : [];
  const actorName = new Map(actors.map((a) => [a.id, a.name || a.email]));

  const idTexts = ids.map(String);
  const events = await db.$queryRaw<{ id: bigint; name: string; occurred_at: Date; subscription_id: string | null }[]>`
    SELECT id, name, occurred_at, payload->'subscription'->>'id' AS subscription_id
    FROM webhook_events
    WHERE account_id = ${args.accountId} AND kind = 'subscription'
      AND (${idTexts.length ? Prisma.sql`payload->'subscription'->>'id' IN (${Prisma.join(idTexts)}) OR` : Prisma.empty}
           payload->'subscriber'->>'id' = ${String(member.id)}
           OR payload->'subscription'->'subscriber'->>'id' = ${String(member.id)})
    ORDER BY occurred_at DESC, id DESC
    LIMIT ${EVENT_LIMIT}`;
  const deliveries = events.length
    ? await db.webhookDelivery.findMany({
        where: { eventId: { in: events.map((e) => e.id) } },
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          eventId: true,
          status: true,
          attemptCount: true,
          lastStatusCode: true,
          endpoint: { select: { url: true } },
        },
      })
    : [];

  return {
    payments: payments.map((p) => ({
      id: p.id,
      subscription_id: p.subscriptionId,
      plan_name: p.subscriptionId ? (planOf.get(p.subscriptionId) ?? null) : null,
      payment_type: p.paymentType,
      external_payment_id: p.externalPaymentId,
      amount_cents: p.amountCents,
      refunded_cents: p.refundedCents,
      currency: p.currency,
      status: p.status.toLowerCase(),
      created_at: p.createdAt.toISOString(),
      refunds: p.refunds.map((r) => ({
        id: r.id,
        amount_cents: r.amountCents,
        status: r.status.toLowerCase(),
        external_refund_id: r.externalRefundId,
        reason: r.reason,
        error: r.error,
        by: r.actorId ? (actorName.get(r.actorId) ?? null) : null,
        created_at: r.createdAt.toISOString(),
      })),
      disputes: p.disputes.map((d) => ({
        id: d.id,
        status: d.status,
        amount_cents: d.amountCents,
        reason: d.reason,
        opened_at: d.openedAt.toISOString(),
        closed_at: d.closedAt?.toISOString() ?? null,
      })),
    })),
    failed_charges: failedCharges,
    webhooks: events.map((e) => ({
      id: String(e.id),
      name: e.name,
      subscription_id: e.subscription_id === null ? null : Number(e.subscription_id),
      occurred_at: e.occurred_at.toISOString(),
      deliveries: deliveries
        .filter((d) => d.eventId === e.id)
        .map((d) => ({
          id: d.id,
          endpoint_url: d.endpoint.url,
          status: d.status.toLowerCase(),
          attempts: d.attemptCount,
          last_status_code: d.lastStatusCode,
        })),
    })),
  };
}
