/**
 * The checkout preview (docs/subscriptions.md "Checkout"): previewSubscription checks the plan,
 * computes the terms (./terms.ts), asks the payment adapter to prepare the payment (a gateway
 * order: `external_reference_id`) and freezes all of it in a subscription_attempts row. The
 * client gets "<attempt id>.<signature>" (attempt-token.ts), valid 30 minutes, and the
 * subscription it would make. Beside it, two previews of a part: a coupon's price
 * (validateCoupon) and the deprecated external_subscription_token.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import type { SubscriptionStatus } from "../../generated/prisma/enums";
import type { MemberRecord } from "../../members/members";
import { centsToDecimal } from "../money.schema";
import { credentialsFor } from "../payments/credentials";
import { memberGatewayCustomers } from "../payments/gateway-customers";
import { paymentAdapterFor } from "../payments/registry";
import { loadSubscriber } from "../subscribers/subscribers";
import type { TSubscriberWire } from "../subscribers/subscribers.schema";
import { subscriptionToWire, type SubscriptionRow } from "../subscribers/subscription-view";
import { ATTEMPT_TTL_MS, signAttemptToken, verifyAttemptToken } from "./attempt-token";
import { findBuyer, type CheckoutWho } from "./buyer";
import { adapterError, intentOf, rowFields, timing } from "./from-terms";
import { couponDiscount, couponIssue, planPriceIn } from "./pricing";
import type { CheckoutRequest } from "./request";
import { computeTerms, TOKEN_FIELD, unprocessable, type AttemptTerms } from "./terms";

export async function previewSubscription(
  db: Db,
  args: { accountId: number; who: CheckoutWho; req: CheckoutRequest; now: Date },
) {
  const { accountId, who, req, now } = args;
  const member = await findBuyer(db, accountId, who);
  const { terms, adapter } = await computeTerms(db, { accountId, who, req, member, now });
  const attemptId = randomUUID();
  const creds = await credentialsFor(db, accountId, adapter);
  const prepared = await adapter
    .preparePayment(creds, {
      ...intentOf(accountId, attemptId, terms, who, member),
      // A known reader's gateway customer is made once and reused (guests: per attempt).
      ...(member ? { customers: memberGatewayCustomers(db, accountId, member.id) } : {}),
    })
    .catch(adapterError);
  await withTransaction(db, async (tx) => {
    await tx.subscriptionAttempt.create({
      data: {
        id: attemptId,
        accountId,
        memberId: member?.id ?? null,
        terms: terms as unknown as Prisma.InputJsonObject,
        paymentType: terms.payment_type,
        amountCents: terms.amount_cents,
        currency: terms.currency,
        externalReferenceId: prepared.externalReferenceId,
        expiresAt: new Date(now.getTime() + ATTEMPT_TTL_MS),
        createdAt: now,
      },
    });
  });
  return {
    subscription: await previewWire(db, { accountId, attemptId, terms, member, now }),
    attempt_token: signAttemptToken(attemptId),
    external_reference_id: prepared.externalReferenceId,
    expires_at: new Date(now.getTime() + ATTEMPT_TTL_MS).toISOString(),
    ...(terms.gift ? { recipient_subscriber: terms.gift.recipient, custom_message: terms.gift.custom_message } : {}),
    ...(prepared.clientOptions ? { payment_options: prepared.clientOptions } : {}),
  };
}

/** What a preview shows: the subscription it would make (not saved: id null, payment_type "preview"). */
async function previewWire(
  db: Db,
  args: { accountId: number; attemptId: string; terms: AttemptTerms; member: MemberRecord | null; now: Date },
) {
  const { terms, now } = args;
  const assets =
    terms.kind === "plan"
      ? await db.subscriptionPlan.findUnique({
          where: { id: terms.plan_id },
          select: {
            assets: { include: { asset: true }, orderBy: [{ position: "asc" }, { assetId: "asc" }] },
            group: {
              select: { assets: { include: { asset: true }, orderBy: [{ position: "asc" }, { assetId: "asc" }] } },
            },
          },
        })
      : null;
  const { start, end, trialEndsAt, nextPaymentDueDate } = timing(terms, now);
  const row = {
    ...rowFields(args.accountId, terms, { start, end, trialEndsAt, nextPaymentDueDate }),
    id: 0,
    memberId: args.member?.id ?? 0,
    attemptId: args.attemptId,
    status: "PENDING" as SubscriptionStatus,
    createdAt: now,
    updatedAt: now,
    member: null,
    gifter: null,
    payments: [],
    invoices: [],
    plan: assets ? { assets: assets.assets } : null,
    group: assets ? { assets: assets.group.assets } : null,
  } as unknown as SubscriptionRow;
  const subscriber: TSubscriberWire | Record<string, unknown> = args.member
    ? (await loadSubscriber(db, args.accountId, args.member.id))!
    : {
        id: null,
        name: terms.name,
        created_at: null,
        updated_at: null,
        metadata: null,
        cumulative_end_timestamps: {
          standard_subscriptions_cumulative_end_timestamp: null,
          campaign_subscriptions_cumulative_end_timestamp: null,
        },
        subscriber_identities: [terms.preferred_identity],
      };
  const wire = subscriptionToWire(row, subscriber as TSubscriberWire, now);
  return {
    ...wire,
    id: null,
    subscriber_id: args.member?.id ?? null,
    created_at: null,
    updated_at: null,
    payment_id: null,
    payment_type: "preview",
    status: null,
    active: false,
    /** What this payment is (with a trial: the authorization); the periods cost total_amount_cents. */
    payment_amount: centsToDecimal(terms.amount_cents, terms.currency),
    payment_amount_cents: terms.amount_cents,
    /** The price before discount and tax, and the total of a period after them. */
    price_cents: terms.price_cents,
    discount_cents: terms.discount_cents,
    total_amount_cents: terms.total_cents,
  };
}

// ─── Coupon validation (browser SDK's validateCoupon) ────────────────────────────────────────

/** Whether a coupon applies to a public, enabled plan now, and what it makes the price. */
export async function validateCoupon(
  db: Db,
  args: { accountId: number; planId: number; code: string; currency?: string; now: Date },
) {
  const plan = await db.subscriptionPlan.findFirst({
    where: { id: args.planId, accountId: args.accountId, deletedAt: null, enabled: true },
    include: { group: true },
  });
  if (!plan || plan.group.deletedAt || !plan.group.public)
    throw unprocessable("subscription_plan_id", "is not a plan on sale");
  if (plan.group.subscriptionType === "CAMPAIGN") throw unprocessable("coupon_code", "cannot be used on this plan");
  const price = planPriceIn(plan, args.currency);
  if (!price) throw unprocessable("currency", "is not a currency this plan is sold in");
  const coupon = await db.coupon.findUnique({
    where: { accountId_code: { accountId: args.accountId, code: args.code } },
  });
  if (!coupon) throw unprocessable("coupon_code", "is not a coupon of this publisher");
  const issue = couponIssue(coupon, {
    planId: plan.id,
    groupId: plan.groupId,
    currency: price.currency,
    now: args.now,
    subscriberRedemptions: null,
  });
  if (issue) throw unprocessable("coupon_code", issue);
  const d = couponDiscount(coupon, price.amountCents, price.currency);
  return {
    valid: true,
    coupon_code: coupon.code,
    discount_detail: d.detail,
    price_cents: price.amountCents,
    discounted_price_cents: price.amountCents - d.discountCents,
    price_currency: price.currency,
    discounted_price: centsToDecimal(price.amountCents - d.discountCents, price.currency),
  };
}

// ─── external_subscription_token (deprecated) ────────────────────────────────────────────────

/**
 * POST /api/v1/subscription_plans/<id>/external_subscription_token.json (deprecated by the spec:
 * preview covers it): the gateway's order/subscription id for a plan. With an attempt token, the
 * one its preview made; without, the adapter prepares one for the plan's default price.
 */
export async function externalSubscriptionToken(
  db: Db,
  args: { accountId: number; planId: number; paymentType: string; attemptToken?: string; now: Date },
) {
  const plan = await db.subscriptionPlan.findFirst({
    where: { id: args.planId, accountId: args.accountId, deletedAt: null, enabled: true },
  });
  if (!plan) throw new AppError("NOT_FOUND", "Subscription plan not found.");
  const adapter = paymentAdapterFor(args.paymentType);
  if (!adapter) throw unprocessable("type", "is not a payment type of this service");
  if (args.attemptToken) {
    const id = verifyAttemptToken(args.attemptToken);
    const attempt = id ? await db.subscriptionAttempt.findFirst({ where: { id, accountId: args.accountId } }) : null;
    const terms = attempt?.terms as AttemptTerms | undefined;
    if (!attempt || terms?.kind !== "plan" || terms.plan_id !== plan.id)
      throw unprocessable(TOKEN_FIELD, "is not a valid attempt token for this plan");
    if (attempt.paymentType !== args.paymentType)
      throw unprocessable("type", `differs from the preview (${attempt.paymentType})`);
    return { subscription: { id: attempt.externalReferenceId } };
  }
  const creds = await credentialsFor(db, args.accountId, adapter);
  const prepared = await adapter
    .preparePayment(creds, {
      accountId: args.accountId,
      attemptId: randomUUID(),
      amountCents: plan.priceCents,
      currency: plan.priceCurrency,
      recurring: plan.recurring,
      plan: { id: plan.id, title: plan.title },
      subscriber: { id: null, name: null, email: null, phone: null },
    })
    .catch(adapterError);
  return { subscription: { id: prepared.externalReferenceId } };
}
