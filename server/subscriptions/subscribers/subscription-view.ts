/**
 * A subscription on the wire: the spec's Subscription shape (interface-spec §2.2, every group of
 * its table), with the Subscriber inside, and the subscription webhook events that carry it.
 * The one serialiser of subscriptions: checkout, the lists, cancel/extend and the webhooks all
 * answer through `loadSubscriptionWire`/`subscriptionToWire`.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { emitWebhookEvent } from "../../webhooks/deliveries";
import { assetToWire } from "../catalogue/catalogue-view";
import { invoiceToWire } from "../invoices/invoice-figures";
import { centsToDecimal } from "../money.schema";
import { listSubscriberIdentities, loadCumulativeEnds, subscriberToWire } from "./subscribers";
import type { TSubscriberWire } from "./subscribers.schema";
import { subscriptionFlags } from "./subscription-state";

const ASSET_LINKS = {
  include: { asset: true },
  orderBy: [{ position: "asc" as const }, { assetId: "asc" as const }],
};

const SUBSCRIPTION_INCLUDE = {
  member: {
    select: {
      id: true,
      name: true,
      email: true,
      createdAt: true,
      updatedAt: true,
      subscriberProfile: { select: { metadata: true } },
    },
  },
  gifter: { select: { id: true, name: true, email: true, communicationEmail: true } },
  payments: { orderBy: { id: "desc" }, take: 1, select: { id: true } },
  invoices: { orderBy: { sequenceNumber: "asc" } },
  plan: { select: { assets: ASSET_LINKS } },
  group: { select: { assets: ASSET_LINKS } },
} satisfies Prisma.SubscriptionInclude;

export type SubscriptionRow = Prisma.SubscriptionGetPayload<{ include: typeof SUBSCRIPTION_INCLUDE }>;

const lower = <T extends string>(value: T) => value.toLowerCase();
const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** What a subscription grants: its plan's assets and additional assets, and its group's assets. */
function grantedAssets(row: SubscriptionRow) {
  const links = [
    ...(row.plan?.assets.filter((l) => l.role === "ASSETS" || l.role === "ADDITIONAL_ASSETS") ?? []),
    ...(row.group?.assets.filter((l) => l.role === "ASSETS") ?? []),
  ];
  const seen = new Set<number>();
  return links.filter((l) => !seen.has(l.asset.id) && seen.add(l.asset.id)).map((l) => assetToWire(l.asset));
}

export function subscriptionToWire(row: SubscriptionRow, subscriber: TSubscriberWire, now: Date) {
  const flags = subscriptionFlags(row, now);
  return {
    // identity
    id: row.id,
    subscriber_id: row.memberId,
    subscription_plan_id: row.planId ?? row.pricingPlanId,
    subscription_group_id: row.groupId,
    subscription_attempt_id: row.attemptId,
    preferred_identity: (row.preferredIdentity as { provider: string; value: string } | null) ?? null,
    subscriber,
    subscriber_name: subscriber.name,
    external_id: row.externalId,
    account_id: row.accountId,
    created_by: row.createdBy,
    referrer: row.referrer,
    gifter: row.gifter
      ? { id: row.gifter.id, name: row.gifter.name || null, email: row.gifter.communicationEmail ?? row.gifter.email }
      : null,
    code: row.code,
    /** Gifts: the gifter's message to the recipient (null otherwise). */
    custom_message: row.customMessage ?? null,
    // timing
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    deleted_at: iso(row.deletedAt),
    start_timestamp: row.startTimestamp.toISOString(),
    end_timestamp: iso(row.endTimestamp),
    cancelled_at: iso(row.cancelledAt),
    next_payment_due_date: iso(row.nextPaymentDueDate),
    renewal_reminder_sent_date: iso(row.renewalReminderSentAt),
    expires_in_days: flags.expires_in_days,
    in_grace_period: flags.in_grace_period,
    /** Masthead's: when the grace period after an unpaid period ends (access until then), or null. */
    // Awaiting a gateway's word on the ended period is no grace period (../recurring/lifecycle-steps.ts await_gateway).
    grace_ends_at: row.gatewayWordDueAt ? null : iso(row.graceEndsAt),
    in_trial_period: flags.in_trial_period,
    // plan copy
    plan_name: row.planName,
    plan_description: row.planDescription,
    group_name: row.groupName,
    group_description: row.groupDescription,
    duration_length: row.durationLength,
    duration_unit: lower(row.durationUnit),
    plan_amount_cents: row.planAmountCents,
    plan_amount_currency: row.planAmountCurrency,
    plan_occurrence: row.recurring ? "Recurring" : "One Time",
    subscription_type: lower(row.subscriptionType),
    // payment
    payment_id: row.payments[0]?.id ?? null,
    payment_type: row.paymentType,
    payment_token: row.paymentToken,
    payment_amount: centsToDecimal(row.paymentAmountCents, row.paymentAmountCurrency),
    payment_amount_cents: row.paymentAmountCents,
    payment_amount_currency: row.paymentAmountCurrency,
    tax_amount_cents: row.taxAmountCents,
    tax_detail: row.taxDetail,
    // flags
    active: flags.active,
    expired: flags.expired,
    cancelled: flags.cancelled,
    renewable: flags.renewable,
    recurring: row.recurring,
    campaign_subscription: row.subscriptionType === "CAMPAIGN",
    status: lower(row.status),
    // discount
    coupon_code: row.couponCode,
    coupon_code_id: row.couponId,
    coupon_discount_id: row.couponId,
    discount_detail: row.discountDetail,
    // other
    assets: grantedAssets(row),
    dynamic_assets: row.dynamicAssets,
    metadata: row.metadata,
    notes: row.notes,
    trial_period_length: row.trialPeriodLength,
    trial_period_unit: row.trialPeriodUnit ? lower(row.trialPeriodUnit) : null,
    campaign_id: row.campaignId,
    campaign_name: row.campaignName,
    invoices: row.invoices.map(invoiceToWire),
  };
}

export type TSubscriptionWire = ReturnType<typeof subscriptionToWire>;

/**
 * The account's subscriptions matching `where`, in the wire shape, newest first. One query for
 * the rows, one for the subscribers' cumulative ends; the identities of each distinct subscriber once.
 */
export async function loadSubscriptionsWire(
  db: Db,
  args: {
    accountId: number;
    where: Prisma.SubscriptionWhereInput;
    now: Date;
    take?: number;
    /** "created" (default): created_at then id, newest first; "id": id only, newest first (keyset pages). */
    orderBy?: "created" | "id";
  },
): Promise<TSubscriptionWire[]> {
  const rows = await db.subscription.findMany({
    where: { ...args.where, accountId: args.accountId },
    include: SUBSCRIPTION_INCLUDE,
    orderBy: args.orderBy === "id" ? [{ id: "desc" }] : [{ createdAt: "desc" }, { id: "desc" }],
    take: args.take,
  });
  const subscribers = new Map<number, TSubscriberWire>();
  const cumulative = await loadCumulativeEnds(db, {
    accountId: args.accountId,
    memberIds: rows.map((row) => row.memberId),
    now: args.now,
  });
  for (const row of rows) {
    if (subscribers.has(row.memberId)) continue;
    subscribers.set(
      row.memberId,
      subscriberToWire(
        row.member,
        await listSubscriberIdentities(db, row.member),
        row.member.subscriberProfile,
        cumulative.get(row.memberId),
      ),
    );
  }
  return rows.map((row) => subscriptionToWire(row, subscribers.get(row.memberId)!, args.now));
}

/** A subscription that is not there, or not the caller's to see: one 404 for both. */
export const notFoundSubscription = () => new AppError("NOT_FOUND", "Subscription not found.");

/** One subscription of the account in the wire shape, or null (another account's: null). */
export async function loadSubscriptionWire(db: Db, args: { accountId: number; id: number; now: Date }) {
  const [wire] = await loadSubscriptionsWire(db, { accountId: args.accountId, where: { id: args.id }, now: args.now });
  return wire ?? null;
}

type SubscriptionEventName =
  | "subscription.created"
  | "subscription.activated"
  | "subscription.renewed"
  | "subscription.cancelled"
  | "subscription.expired"
  | "subscription.grace_period_entered"
  | "subscription.charge_failed"
  | "subscription.recovered";

/**
 * Emit a subscription webhook event inside the change's transaction (docs/webhooks.md): the body's
 * `data.subscription` is the wire shape, the Subscriber inside it (spec §6).
 */
export async function emitSubscriptionEvent(
  tx: Db,
  args: {
    accountId: number;
    name: SubscriptionEventName;
    subscriptionId: number;
    occurredAt: Date;
    /** More of the body beside `subscription` (a cancel's `cancellation`: the reader's reason). */
    extra?: Record<string, unknown>;
  },
) {
  const subscription = await loadSubscriptionWire(tx, {
    accountId: args.accountId,
    id: args.subscriptionId,
    now: args.occurredAt,
  });
  if (!subscription) throw new Error(`emitSubscriptionEvent: subscription ${args.subscriptionId} not found`);
  await emitWebhookEvent(tx, {
    accountId: args.accountId,
    kind: "SUBSCRIPTION",
    name: args.name,
    data: { ...args.extra, subscription },
    occurredAt: args.occurredAt,
  });
}

/** subscriber.created, with the Subscriber as `data.subscriber`, in the creating transaction. */
export async function emitSubscriberCreated(
  tx: Db,
  args: { subscriber: TSubscriberWire; accountId: number; occurredAt: Date },
) {
  await emitWebhookEvent(tx, {
    accountId: args.accountId,
    kind: "SUBSCRIPTION",
    name: "subscriber.created",
    data: { subscriber: args.subscriber },
    occurredAt: args.occurredAt,
  });
}
