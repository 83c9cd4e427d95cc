/**
 * The checkout create (docs/subscriptions.md "Checkout"): createSubscription makes the
 * subscription a preview promised (./preview.ts).
 *
 * The token must be Masthead's, unexpired, of this account and this subscriber; the request must
 * match the frozen terms (plan, type, payment type, amount, currency, coupon, assets: 422 naming
 * the field otherwise). Later catalogue edits change nothing: the subscription is made from the
 * terms. The adapter verifies the payment; then one transaction marks the attempt used (a
 * conditional UPDATE … WHERE used_at IS NULL: of concurrent creates exactly one passes), counts
 * the coupon (conditional UPDATE under its limit), writes the subscription, its payment and the
 * coupon redemption, raises a campaign's collected amount, audits, and emits subscriber.created /
 * subscription.created / subscription.activated. The same create repeated (same request hash)
 * answers the subscription already made.
 */
import "server-only";

import { createHash } from "node:crypto";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError, type ErrorDetail } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import type { SubscriptionStatus } from "../../generated/prisma/enums";
import { enqueueJob } from "../../jobs/queue";
import { issueInvoiceForPayment } from "../invoices/invoices";
import { recordOfferConversion } from "../offers/checkout-offer";
import type { PaymentAdapter, VerifiedPayment } from "../payments/adapter";
import { credentialsFor } from "../payments/credentials";
import { adoptGatewayCustomer } from "../payments/gateway-customers";
import { paymentAdapterFor } from "../payments/registry";
import { scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import { loadSubscriber, resolveSubscriberCreated } from "../subscribers/subscribers";
import { normaliseIdentityValue } from "../subscribers/subscribers.schema";
import { emitSubscriberCreated, emitSubscriptionEvent, loadSubscriptionWire } from "../subscribers/subscription-view";
import { verifyAttemptToken } from "./attempt-token";
import { bindingOf, CREATED_BY, findBuyer, resolveBuyer, type CheckoutWho } from "./buyer";
import { adapterError, intentOf, rowFields, timing } from "./from-terms";
import { taxLocation } from "./pricing";
import type { CheckoutRequest } from "./request";
import { assertNone, TOKEN_FIELD, toType, unprocessable, type AttemptTerms } from "./terms";
import { claimTheTrial } from "./trial-history";
import { trialRefundJob, trialRefundKey } from "./trial-refund";

/** Canonical JSON (keys sorted), for the request hash. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  return JSON.stringify(value ?? null);
}

/** SHA-256 of what makes two creates the same: the buyer and every field of the request. */
function requestHash(who: CheckoutWho, req: CheckoutRequest): string {
  return createHash("sha256")
    .update(canonical({ who: bindingOf(who), req: { ...req, attemptToken: null } }))
    .digest("hex");
}

/** The create must ask for what the preview promised: each difference is named. */
function termsMismatch(terms: AttemptTerms, req: CheckoutRequest): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const differs = (field: string, what: string) =>
    problems.push({ field, issue: `differs from the preview (${what})` });
  if (req.planId !== terms.plan_id || req.dynamic !== (terms.kind === "pricing_plan"))
    differs("subscription.subscription_plan_id", String(terms.plan_id));
  if (req.subscriptionType && toType(req.subscriptionType) !== terms.subscription_type)
    differs("subscription.subscription_type", terms.subscription_type.toLowerCase());
  if (req.payment.payment_type !== terms.payment_type) differs("subscription.payment.payment_type", terms.payment_type);
  if (req.payment.amount_cents !== undefined && req.payment.amount_cents !== terms.amount_cents)
    differs("subscription.payment.amount_cents", String(terms.amount_cents));
  if (req.payment.amount_currency !== undefined && req.payment.amount_currency !== terms.currency)
    differs("subscription.payment.amount_currency", terms.currency);
  if ((req.couponCode ?? null) !== (terms.coupon?.code ?? null))
    differs("subscription.coupon_code", terms.coupon?.code ?? "none");
  // The tax was computed for the preview's place: an address of another one would change it.
  if (terms.tax_location && req.metadata) {
    const frozen = terms.tax_location;
    const sent = taxLocation(req.metadata, frozen);
    // Stripe Tax froze the postal code too (undefined: the tax rules, which do not look at it).
    const postal = frozen.postal_code !== undefined && sent.postal_code !== frozen.postal_code;
    if (sent.country !== frozen.country || sent.region !== frozen.region || postal)
      differs(
        "subscription.metadata",
        `tax of ${[frozen.country ?? "no country", frozen.region, frozen.postal_code].filter(Boolean).join("/")}`,
      );
  }
  if (terms.kind === "pricing_plan" && req.dynamicAssets) {
    const sent = [...new Set(req.dynamicAssets.map((a) => a.id))].sort().join(",");
    if (
      sent !==
      terms.dynamic_assets
        .map((a) => a.id)
        .sort()
        .join(",")
    )
      differs("dynamic_assets", terms.dynamic_assets.map((a) => a.id).join(","));
  }
  if (req.offer.offerId !== null && req.offer.offerId !== (terms.offer?.offer_id ?? null))
    differs("subscription.offer_id", String(terms.offer?.offer_id ?? "none"));
  if (req.campaignId !== null && req.campaignId !== (terms.campaign?.id ?? null))
    differs("campaign_id", String(terms.campaign?.id ?? "none"));
  if (req.trial.trial_period === false && terms.trial) differs("subscription.trial_period", "with a trial");
  const sentRecipient = req.gift?.recipient
    ? `${req.gift.recipient.recipient_identity_provider}/${normaliseIdentityValue(req.gift.recipient.recipient_identity_provider, req.gift.recipient.recipient_identity)}`
    : null;
  const frozenRecipient = terms.gift ? `${terms.gift.recipient.provider}/${terms.gift.recipient.value}` : null;
  if (sentRecipient !== frozenRecipient) differs("recipient_subscriber", frozenRecipient ?? "no gift");
  if (
    req.trial.trial_period_length !== undefined &&
    (req.trial.trial_period_length !== terms.trial?.length ||
      req.trial.trial_period_unit?.toUpperCase() !== terms.trial?.unit)
  )
    differs(
      "subscription.trial_period_length",
      terms.trial ? `${terms.trial.length} ${terms.trial.unit.toLowerCase()}` : "no trial",
    );
  return problems;
}

class AttemptAlreadyUsed extends Error {}

type SubscriptionAnswer = {
  subscription: NonNullable<Awaited<ReturnType<typeof loadSubscriptionWire>>>;
  created: boolean;
};
type Attempt = { externalReferenceId: string | null };
/** What the payment step settled, for the transaction that writes the subscription. */
type Paid = {
  adapter: PaymentAdapter;
  creds: Awaited<ReturnType<typeof credentialsFor>>;
  verified: VerifiedPayment;
  status: SubscriptionStatus;
};
/** Everything one create writes from: the request, its frozen terms and the verified payment. */
type CreateContext = {
  accountId: number;
  who: CheckoutWho;
  req: CheckoutRequest;
  now: Date;
  attemptId: string;
  attempt: Attempt;
  hash: string;
  terms: AttemptTerms;
} & Paid;

/**
 * Create the subscription a preview promised. Answers `{subscription, created}`: created false
 * when this is the same create repeated (its subscription is answered again).
 */
export async function createSubscription(
  db: Db,
  args: { accountId: number; who: CheckoutWho; req: CheckoutRequest; now: Date },
): Promise<SubscriptionAnswer> {
  const { accountId, who, req, now } = args;
  const attemptId = req.attemptToken ? verifyAttemptToken(req.attemptToken) : null;
  if (!attemptId) throw unprocessable(TOKEN_FIELD, "is not a valid attempt token");
  const attempt = await db.subscriptionAttempt.findFirst({ where: { id: attemptId, accountId } });
  if (!attempt) throw unprocessable(TOKEN_FIELD, "is not a valid attempt token");
  const hash = requestHash(who, req);
  const made = () => answerRepeatedCreate(db, { accountId, attemptId, hash, now });
  if (attempt.usedAt) return made();
  if (attempt.expiresAt.getTime() <= now.getTime())
    throw unprocessable(TOKEN_FIELD, "has expired", "This attempt token has expired: preview again.");

  const terms = attempt.terms as unknown as AttemptTerms;
  if (terms.v !== 1 || terms.channel !== who.channel || terms.binding !== bindingOf(who))
    throw unprocessable(TOKEN_FIELD, "was issued to another subscriber");
  assertNone(termsMismatch(terms, req));

  const paid = await verifyCheckoutPayment(db, { accountId, who, req, attemptId, attempt, terms });
  const ctx: CreateContext = { accountId, who, req, now, attemptId, attempt, hash, terms, ...paid };
  let subscriptionId: number;
  try {
    subscriptionId = await withTransaction(db, (tx) => writeSubscription(tx, ctx), { retryUniqueClashes: true });
  } catch (error) {
    if (error instanceof AttemptAlreadyUsed) return made();
    if ((error as { code?: string }).code === "P2002")
      throw new AppError("CONFLICT", "A concurrent checkout made the same change; repeat the request.");
    throw error;
  }
  return { subscription: (await loadSubscriptionWire(db, { accountId, id: subscriptionId, now }))!, created: true };
}

/** The same create repeated answers the subscription it made; another request on a used token is refused. */
async function answerRepeatedCreate(
  db: Db,
  args: { accountId: number; attemptId: string; hash: string; now: Date },
): Promise<SubscriptionAnswer> {
  const { accountId, attemptId, hash, now } = args;
  const again = await db.subscriptionAttempt.findUniqueOrThrow({
    where: { id: attemptId },
    select: { createRequestHash: true, subscription: { select: { id: true } } },
  });
  if (again.createRequestHash !== hash || !again.subscription)
    throw unprocessable(TOKEN_FIELD, "has already been used", "This attempt token has already been used.");
  return {
    subscription: (await loadSubscriptionWire(db, { accountId, id: again.subscription.id, now }))!,
    created: false,
  };
}

/** The adapter proves the payment; a failed one is refused, a captured (or free) one is ACTIVE. */
async function verifyCheckoutPayment(
  db: Db,
  args: {
    accountId: number;
    who: CheckoutWho;
    req: CheckoutRequest;
    attemptId: string;
    attempt: Attempt;
    terms: AttemptTerms;
  },
): Promise<Paid> {
  const { accountId, who, req, attemptId, attempt, terms } = args;
  const adapter = paymentAdapterFor(terms.payment_type);
  if (!adapter) throw unprocessable("subscription.payment.payment_type", "is not a payment type of this service");
  const creds = await credentialsFor(db, accountId, adapter);
  const known = await findBuyer(db, accountId, who);
  const verified = await adapter
    .verifyPayment(creds, intentOf(accountId, attemptId, terms, who, known), {
      paymentToken: req.payment.payment_token,
      externalReferenceId: attempt.externalReferenceId,
      extra: req.payment.extra,
    })
    .catch(adapterError);
  if (verified.status === "failed")
    throw unprocessable(
      "subscription.payment.payment_token",
      verified.reason ?? "is not a completed payment",
      `The payment was not accepted${verified.reason ? `: ${verified.reason}` : "."}`,
    );
  const status: SubscriptionStatus = !adapter.takesPayment || verified.status === "captured" ? "ACTIVE" : "PENDING";
  return { adapter, creds, verified, status };
}

/** The one transaction of a create: claim the attempt, then write everything it makes. */
async function writeSubscription(tx: TransactionClient, ctx: CreateContext): Promise<number> {
  const { accountId, who, now, attemptId, hash, terms, verified } = ctx;
  const claimed = await tx.subscriptionAttempt.updateMany({
    where: { id: attemptId, accountId, usedAt: null },
    data: { usedAt: now, createRequestHash: hash },
  });
  if (claimed.count !== 1) throw new AttemptAlreadyUsed();

  const { member, created } = await resolveBuyer(tx, accountId, who, now);
  if (terms.member_id !== null && member.id !== terms.member_id)
    throw unprocessable(TOKEN_FIELD, "was issued to another subscriber");
  const { holder, holderCreated } = await resolveHolder(tx, { accountId, terms, member, now });
  if (verified.externalPaymentId) await assertPaymentUnused(tx, ctx, verified.externalPaymentId);

  if (terms.coupon) await redeemCoupon(tx, { accountId, couponId: terms.coupon.id, memberId: member.id, now });
  if (terms.trial) await claimTheTrial(tx, accountId, holder.id);

  const subscriptionId = await insertSubscription(tx, ctx, { buyerId: member.id, holderId: holder.id });
  await recordOfferConversion(tx, { accountId, subscriptionId, offer: terms.offer });
  if (terms.coupon)
    await tx.couponRedemption.create({
      data: {
        accountId,
        couponId: terms.coupon.id,
        subscriberId: String(member.id),
        subscriptionId: String(subscriptionId),
        redeemedAt: now,
      },
    });
  await recordFirstPayment(tx, ctx, subscriptionId);
  // Its next lifecycle step (reminder, charge, expiry…), queued with the write (lifecycle.ts).
  await scheduleSubscriptionLifecycle(tx, { subscriptionId, now });
  if (ctx.status === "ACTIVE" && terms.campaign)
    await tx.subscriptionGroup.update({
      where: { id: terms.campaign.id },
      data: { collectedAmountCents: { increment: terms.amount_cents } },
    });
  await auditCreate(tx, ctx, { subscriptionId, buyerId: member.id });
  await emitCreateEvents(tx, ctx, {
    subscriptionId,
    newSubscriberIds: [...(created ? [member.id] : []), ...(holderCreated ? [holder.id] : [])],
  });
  // The gateway customer that paid becomes the buyer's, unless they have one (a new reader's first checkout).
  if (verified.gatewayCustomerId && ctx.adapter.provider && ctx.creds)
    await adoptGatewayCustomer(tx, {
      accountId,
      memberId: member.id,
      provider: ctx.adapter.provider,
      environment: ctx.creds.environment,
      externalId: verified.gatewayCustomerId,
    });
  return subscriptionId;
}

type Buyer = Awaited<ReturnType<typeof resolveBuyer>>["member"];

/** A gift is held by its recipient (found or created: one reader, one record); the buyer is its gifter. */
async function resolveHolder(
  tx: TransactionClient,
  args: { accountId: number; terms: AttemptTerms; member: Buyer; now: Date },
): Promise<{ holder: Buyer; holderCreated: boolean }> {
  const { accountId, terms, member, now } = args;
  if (!terms.gift) return { holder: member, holderCreated: false };
  const r = (await resolveSubscriberCreated(tx, {
    accountId,
    provider: terms.gift.recipient.provider,
    identity: terms.gift.recipient.value,
    create: true,
    now,
  }))!;
  if (r.member.id === member.id) throw unprocessable("recipient_subscriber", "must differ from the gifter");
  return { holder: r.member, holderCreated: r.created };
}

/** One gateway payment pays for one subscription. */
async function assertPaymentUnused(tx: TransactionClient, ctx: CreateContext, externalPaymentId: string) {
  const paid = await tx.payment.findFirst({
    where: { accountId: ctx.accountId, paymentType: ctx.terms.payment_type, externalPaymentId },
    select: { id: true },
  });
  if (paid) throw unprocessable("subscription.payment.payment_token", "has already paid for a subscription");
}

/** The subscription's row, made from the frozen terms. */
async function insertSubscription(
  tx: TransactionClient,
  ctx: CreateContext,
  args: { buyerId: number; holderId: number },
): Promise<number> {
  const { accountId, req, now, attemptId, terms, status } = ctx;
  const row = await tx.subscription.create({
    data: {
      ...rowFields(accountId, terms, timing(terms, now)),
      memberId: args.holderId,
      gifterMemberId: terms.gift ? args.buyerId : null,
      customMessage: terms.gift?.custom_message ?? null,
      attemptId,
      status,
      paymentToken: req.payment.payment_token,
      metadata: (req.metadata ?? terms.metadata ?? {}) as Prisma.InputJsonObject,
      notes: req.notes ?? terms.notes,
      taxDetail: terms.tax_lines,
      discountDetail: terms.discount_detail,
      dynamicAssets: terms.dynamic_assets,
      preferredIdentity: terms.preferred_identity,
      createdAt: now,
    },
    select: { id: true },
  });
  return row.id;
}

/** The checkout's payment; a captured one is invoiced, and a trial's authorization is refunded. */
async function recordFirstPayment(tx: TransactionClient, ctx: CreateContext, subscriptionId: number) {
  const { accountId, now, attemptId, attempt, terms, adapter, verified } = ctx;
  const payment = await tx.payment.create({
    data: {
      accountId,
      subscriptionId,
      attemptId,
      paymentType: terms.payment_type,
      externalPaymentId: verified.externalPaymentId,
      externalOrderId: verified.externalOrderId ?? attempt.externalReferenceId,
      amountCents: terms.amount_cents,
      currency: terms.currency,
      status: !adapter.takesPayment ? "CAPTURED" : (verified.status.toUpperCase() as "CAPTURED"),
      details: (verified.details ?? {}) as Prisma.InputJsonObject,
      createdAt: now,
    },
    select: { id: true, status: true },
  });
  if (payment.status === "CAPTURED") await issueInvoiceForPayment(tx, payment.id, { now });
  // A trial's authorization is refunded by the gateway (spec §4.2 rule 6): queued with the write.
  if (terms.trial && payment.status === "CAPTURED" && verified.externalPaymentId)
    await enqueueJob(
      tx,
      trialRefundJob,
      { paymentId: payment.id },
      { key: trialRefundKey(payment.id), accountId, now },
    );
}

async function auditCreate(
  tx: TransactionClient,
  ctx: CreateContext,
  args: { subscriptionId: number; buyerId: number },
) {
  const { accountId, now, terms, status } = ctx;
  await recordAudit(tx, {
    actor: systemActor(accountId, CREATED_BY[terms.channel]),
    action: terms.renewal_of ? "subscription.renew" : "subscription.create",
    targetType: "subscription",
    targetId: args.subscriptionId,
    metadata: {
      subscriber_id: args.buyerId,
      plan_id: terms.plan_id,
      payment_type: terms.payment_type,
      amount_cents: terms.amount_cents,
      currency: terms.currency,
      status: status.toLowerCase(),
      ...(terms.renewal_of ? { renewal_of: terms.renewal_of.subscription_id } : {}),
    },
    now,
  });
}

/** subscriber.created for each reader the create made, then subscription.created / renewed / activated. */
async function emitCreateEvents(
  tx: TransactionClient,
  ctx: CreateContext,
  args: { subscriptionId: number; newSubscriberIds: number[] },
) {
  const { accountId, now, terms, status } = ctx;
  for (const memberId of args.newSubscriberIds) {
    const subscriber = await loadSubscriber(tx, accountId, memberId);
    await emitSubscriberCreated(tx, { subscriber: subscriber!, accountId, occurredAt: now });
  }
  const names = [
    "subscription.created" as const,
    ...(terms.renewal_of ? ["subscription.renewed" as const] : []),
    ...(status === "ACTIVE" ? ["subscription.activated" as const] : []),
  ];
  for (const name of names)
    await emitSubscriptionEvent(tx, { accountId, name, subscriptionId: args.subscriptionId, occurredAt: now });
}

/**
 * Count one use of a coupon: its limits hold under concurrency because the counter is raised by
 * one conditional UPDATE (row-locked, re-checked after a concurrent writer commits).
 */
async function redeemCoupon(
  tx: TransactionClient,
  args: { accountId: number; couponId: number; memberId: number; now: Date },
) {
  const coupon = await tx.coupon.findUniqueOrThrow({
    where: { id: args.couponId },
    select: { maxRedemptionsPerSubscriber: true },
  });
  if (coupon.maxRedemptionsPerSubscriber !== null) {
    // Lock the subscriber's row: two creates of one subscriber count its uses one after the other.
    await tx.$executeRaw`SELECT 1 FROM members WHERE id = ${args.memberId} FOR UPDATE`;
    const used = await tx.couponRedemption.count({
      where: { couponId: args.couponId, subscriberId: String(args.memberId) },
    });
    if (used >= coupon.maxRedemptionsPerSubscriber)
      throw unprocessable("subscription.coupon_code", "has been used by this subscriber as many times as it may be");
  }
  const raised = await tx.$executeRaw`
    UPDATE coupons SET redemptions_count = redemptions_count + 1, updated_at = ${args.now}
    WHERE id = ${args.couponId} AND account_id = ${args.accountId}
      AND (max_redemptions IS NULL OR redemptions_count < max_redemptions)`;
  if (raised !== 1) throw unprocessable("subscription.coupon_code", "has been used as many times as it may be");
}
