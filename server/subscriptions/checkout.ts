/**
 * Checkout (interface-spec §4.2 rule 1, §4.3; docs/subscriptions.md "Checkout"): a preview then a
 * create, for the server API (X-SUBAUTH, a subscriber named by identity), the client API (the
 * reader of a publisher-signed JWT) and guest checkout (an e-mail and/or a phone number).
 *
 * - previewSubscription: checks the plan, computes the terms (price in the currency, coupon
 *   discount, tax, trial, campaign contribution, pay-per-asset assets), asks the payment adapter to
 *   prepare the payment (a gateway order: `external_reference_id`), and freezes all of it in a
 *   subscription_attempts row. The client gets "<attempt id>.<signature>" (attempt-token.ts),
 *   valid 30 minutes.
 * - createSubscription: the token must be Masthead's, unexpired, of this account and this
 *   subscriber; the request must match the frozen terms (plan, type, payment type, amount,
 *   currency, coupon, assets: 422 naming the field otherwise). Later catalogue edits change
 *   nothing: the subscription is made from the terms. The adapter verifies the payment; then one
 *   transaction marks the attempt used (a conditional UPDATE … WHERE used_at IS NULL: of concurrent
 *   creates exactly one passes), counts the coupon (conditional UPDATE under its limit), writes the
 *   subscription, its payment and the coupon redemption, raises a campaign's collected amount,
 *   audits, and emits subscriber.created / subscription.created / subscription.activated. The same
 *   create repeated (same request hash) answers the subscription already made.
 */
import "server-only";

import { createHash, randomUUID } from "node:crypto";

import { recordAudit } from "../audit/audit-log";
import { systemActor } from "../auth/actor";
import type { ApiUser } from "../auth/api-auth";
import type { Db, TransactionClient } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError, type ErrorDetail } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import type { DurationUnit, SubscriptionStatus, SubscriptionType } from "../generated/prisma/enums";
import { enqueueJob } from "../jobs/queue";
import { findJwtMember, findOrCreateJwtMember, PUBLISHER_JWT_PROVIDER } from "../members/identities";
import type { MemberRecord } from "../members/members";
import { ATTEMPT_TTL_MS, signAttemptToken, verifyAttemptToken } from "./attempt-token";
import type { TCheckoutBody } from "./checkout.schema";
import { issueInvoiceForPayment } from "./invoices";
import { scheduleSubscriptionLifecycle } from "./lifecycle";
import { centsToDecimal } from "./money.schema";
import { PaymentAdapterError, type PaymentAdapter, type PaymentIntent } from "./payments/adapter";
import { gatewayCredentialsFor } from "./payments/credentials";
import { paymentAdapterFor } from "./payments/registry";
import {
  applicableTaxRules,
  computeTax,
  contributionAmount,
  couponDiscount,
  couponIssue,
  planPriceIn,
  taxLocation,
  trialAuthorizationCents,
  trialTerms,
  type DiscountDetail,
  type TaxLine,
} from "./pricing";
import {
  getSubscriberMetadata,
  loadSubscriber,
  resolveGuestSubscriber,
  resolveSubscriber,
  resolveSubscriberCreated,
  type IdentityRef,
} from "./subscribers";
import { normaliseIdentityValue, type TSubscriberWire } from "./subscribers.schema";
import { addDuration } from "./subscription-state";
import {
  emitSubscriberCreated,
  emitSubscriptionEvent,
  loadSubscriptionWire,
  subscriptionToWire,
  type SubscriptionRow,
} from "./subscription-view";
import { trialRefundJob, trialRefundKey } from "./trial-refund";

// ─── Who is buying ───────────────────────────────────────────────────────────────────────────

export type CheckoutWho =
  | { channel: "server"; at: IdentityRef; alternate: IdentityRef | null }
  | { channel: "client"; user: ApiUser }
  | { channel: "guest"; email: string | null; phone: string | null };

const CREATED_BY = { server: "server_api", client: "client_api", guest: "guest_checkout" } as const;

/** The text the attempt is bound to: the same buyer must come back with its token. */
export function bindingOf(who: CheckoutWho): string {
  switch (who.channel) {
    case "server":
      return `server:${who.at.provider}/${normaliseIdentityValue(who.at.provider, who.at.identity)}`;
    case "client":
      return `client:${who.user.id}`;
    case "guest":
      return `guest:${who.email ? normaliseIdentityValue("email", who.email) : ""}|${who.phone ?? ""}`;
  }
}

function preferredIdentityOf(who: CheckoutWho): { provider: string; value: string } {
  switch (who.channel) {
    case "server":
      return { provider: who.at.provider, value: normaliseIdentityValue(who.at.provider, who.at.identity) };
    case "client":
      return { provider: PUBLISHER_JWT_PROVIDER, value: who.user.id };
    case "guest":
      return who.email
        ? { provider: "email", value: normaliseIdentityValue("email", who.email) }
        : { provider: "phone", value: who.phone! };
  }
}

/** The existing subscriber, without creating one (preview). Guests are found at create. */
async function findBuyer(db: Db, accountId: number, who: CheckoutWho): Promise<MemberRecord | null> {
  if (who.channel === "server")
    return resolveSubscriber(db, {
      accountId,
      ...who.at,
      alternate_provider: who.alternate?.provider,
      alternate_identity: who.alternate?.identity,
    });
  if (who.channel === "client") return findJwtMember(db, { accountId, userId: who.user.id });
  return null;
}

/** The subscriber, created when new (create, in its transaction). */
async function resolveBuyer(
  tx: TransactionClient,
  accountId: number,
  who: CheckoutWho,
  now: Date,
): Promise<{ member: MemberRecord; created: boolean }> {
  if (who.channel === "server")
    return (await resolveSubscriberCreated(tx, {
      accountId,
      ...who.at,
      alternate_provider: who.alternate?.provider,
      alternate_identity: who.alternate?.identity,
      create: true,
      now,
    }))!;
  if (who.channel === "client") {
    const existing = await findJwtMember(tx, { accountId, userId: who.user.id });
    const member = await findOrCreateJwtMember(tx, { accountId, user: who.user, now, linkProviderClaim: true });
    return { member, created: !existing };
  }
  return resolveGuestSubscriber(tx, { accountId, email: who.email, phone: who.phone, now });
}

// ─── The request, normalised ─────────────────────────────────────────────────────────────────

/** The body's fields, wherever the spec row put them (subscription first). */
export function checkoutRequest(body: TCheckoutBody) {
  const s = body.subscription;
  const dynamic =
    s.subscription_type === "dynamic_asset" ||
    body.type === "dynamic_assets" ||
    body.type === "dynamic_asset" ||
    (s.subscription_type === undefined && (s.dynamic_assets ?? body.dynamic_assets) !== undefined);
  const { payment_type, amount_cents, amount_currency, payment_token, ...extra } = s.payment;
  const recipient = s.recipient_subscriber ?? body.recipient_subscriber ?? null;
  const customMessage = s.custom_message ?? body.custom_message ?? null;
  return {
    dynamic,
    subscriptionType: s.subscription_type,
    /** Gifts (spec §4.2 rule 4): a recipient_subscriber given (a custom_message alone asks for one). */
    gift: recipient !== null || customMessage !== null ? { recipient, customMessage } : null,
    planId: s.subscription_plan_id,
    couponCode: s.coupon_code || null,
    payment: { payment_type, amount_cents, amount_currency, payment_token: payment_token ?? null, extra },
    metadata: s.metadata ?? null,
    notes: s.notes ?? null,
    trial: {
      trial_period: s.trial_period,
      trial_period_length: s.trial_period_length,
      trial_period_unit: s.trial_period_unit,
    },
    dynamicAssets: s.dynamic_assets ?? body.dynamic_assets,
    campaignId: s.campaign_id ?? body.campaign_id ?? null,
    attemptToken: s.attempt_token ?? body.attempt_token ?? null,
    alternate:
      (s.alternate_provider && s.alternate_identity
        ? { provider: s.alternate_provider, identity: s.alternate_identity }
        : null) ??
      (body.alternate_provider && body.alternate_identity
        ? { provider: body.alternate_provider, identity: body.alternate_identity }
        : null),
    name: s.name ?? body.name ?? null,
  };
}
export type CheckoutRequest = ReturnType<typeof checkoutRequest>;

// ─── The frozen terms ────────────────────────────────────────────────────────────────────────

export type AttemptTerms = {
  v: 1;
  channel: CheckoutWho["channel"];
  binding: string;
  member_id: number | null;
  preferred_identity: { provider: string; value: string };
  kind: "plan" | "pricing_plan";
  plan_id: number;
  group_id: number | null;
  subscription_type: SubscriptionType;
  plan_name: string;
  plan_description: string;
  group_name: string | null;
  group_description: string | null;
  duration_length: number;
  duration_unit: DurationUnit;
  recurring: boolean;
  plan_amount_cents: number;
  payment_type: string;
  currency: string;
  /** The price of a period before discount (a campaign: the contribution). */
  price_cents: number;
  coupon: { id: number; code: string } | null;
  discount_cents: number;
  discount_detail: DiscountDetail;
  tax_cents: number;
  tax_lines: TaxLine[];
  /** What a period costs after discount and tax. */
  total_cents: number;
  /** What this payment is: the total, or the trial authorization. */
  amount_cents: number;
  trial: { length: number; unit: DurationUnit } | null;
  dynamic_assets: { id: string; type: "story" | "collection" }[];
  campaign: { id: number; name: string } | null;
  metadata: Record<string, unknown> | null;
  notes: string | null;
  name: string | null;
  /** A gift: who receives it (normalised identity) and the gifter's message. */
  gift?: { recipient: { provider: string; value: string }; custom_message: string | null } | null;
  /** A renewal (renewals.ts): the subscription renewed and when the new one starts (ISO). */
  renewal_of?: { subscription_id: number; starts_at: string } | null;
};

const unprocessable = (field: string, issue: string, message?: string) =>
  new AppError("UNPROCESSABLE", message ?? `${field} ${issue}.`, { details: [{ field, issue }] });

function assertNone(problems: ErrorDetail[]) {
  if (problems.length)
    throw new AppError("UNPROCESSABLE", `${problems[0]!.field} ${problems[0]!.issue}.`, { details: problems });
}

const toType = (t: string) => t.toUpperCase() as SubscriptionType;

/** Everything the preview decides, from the catalogue as it is now. */
export async function computeTerms(
  db: Db,
  args: { accountId: number; who: CheckoutWho; req: CheckoutRequest; member: MemberRecord | null; now: Date },
): Promise<{ terms: AttemptTerms; adapter: PaymentAdapter }> {
  const { accountId, who, req, member, now } = args;
  const field = (f: string) => `subscription.${f}`;

  const adapter = paymentAdapterFor(req.payment.payment_type);
  if (!adapter) throw unprocessable(field("payment.payment_type"), "is not a payment type of this service");

  let base: Omit<
    AttemptTerms,
    | "v"
    | "channel"
    | "binding"
    | "member_id"
    | "preferred_identity"
    | "payment_type"
    | "coupon"
    | "discount_cents"
    | "discount_detail"
    | "tax_cents"
    | "tax_lines"
    | "total_cents"
    | "amount_cents"
    | "trial"
    | "metadata"
    | "notes"
    | "name"
  >;
  let couponTarget: { planId: number; groupId: number } | null = null;
  let groupForCampaign: {
    targetAmountCents: number | null;
    targetAmountValidationEnabled: boolean;
    collectedAmountCents: number;
  } | null = null;
  let trialPlan: Parameters<typeof trialTerms>[0] | null = null;
  let supportedProviders: string[] = [];

  if (req.dynamic) {
    // Pay per asset: subscription_plan_id is a pricing plan; dynamic_assets name what it buys.
    const plan = await db.pricingPlan.findFirst({
      where: { id: req.planId, accountId, deletedAt: null, enabled: true },
    });
    if (!plan) throw unprocessable(field("subscription_plan_id"), "is not a pricing plan on sale");
    const price = planPriceIn(
      { priceCents: plan.priceCents, priceCurrency: plan.priceCurrency, prices: {} },
      req.payment.amount_currency,
    );
    if (!price) throw unprocessable(field("payment.amount_currency"), `must be ${plan.priceCurrency} for this plan`);
    const assets = req.dynamicAssets ?? [];
    if (!assets.length) throw unprocessable("dynamic_assets", "must name the asset bought");
    const type = plan.assetType === "STORY" ? "story" : "collection";
    const priced = (plan.assetIds as string[]).map(String);
    const problems: ErrorDetail[] = [];
    for (const [i, a] of assets.entries()) {
      if (a.type && a.type !== type) problems.push({ field: `dynamic_assets.${i}.type`, issue: `must be ${type}` });
      else if (priced.length && !priced.includes(a.id))
        problems.push({ field: `dynamic_assets.${i}.id`, issue: "is not priced by this plan" });
    }
    assertNone(problems);
    const ids = [...new Set(assets.map((a) => a.id))];
    const found =
      type === "story"
        ? ids.every((id) => /^[0-9a-f-]{36}$/i.test(id))
          ? await db.story.count({ where: { accountId, id: { in: ids } } })
          : -1
        : ids.every((id) => /^\d{1,9}$/.test(id))
          ? await db.collection.count({ where: { accountId, id: { in: ids.map(Number) } } })
          : -1;
    if (found !== ids.length) throw unprocessable("dynamic_assets", `names a ${type} that does not exist`);
    base = {
      kind: "pricing_plan",
      plan_id: plan.id,
      group_id: null,
      subscription_type: "DYNAMIC_ASSET",
      plan_name: plan.title || `Pay per ${type}`,
      plan_description: "",
      group_name: null,
      group_description: null,
      duration_length: plan.durationLength,
      duration_unit: plan.durationUnit,
      recurring: false,
      plan_amount_cents: price.amountCents,
      currency: price.currency,
      price_cents: price.amountCents,
      dynamic_assets: ids.map((id) => ({ id, type })),
      campaign: null,
    };
    if (req.subscriptionType && req.subscriptionType !== "dynamic_asset")
      throw unprocessable(field("subscription_type"), "must be dynamic_asset for a pricing plan");
  } else {
    const plan = await db.subscriptionPlan.findFirst({
      where: { id: req.planId, accountId, deletedAt: null },
      include: { group: true },
    });
    if (!plan || !plan.enabled || plan.group.deletedAt || (who.channel !== "server" && !plan.group.public))
      throw unprocessable(field("subscription_plan_id"), "is not a plan on sale");
    const groupType = plan.group.subscriptionType;
    if (req.subscriptionType && toType(req.subscriptionType) !== groupType)
      throw unprocessable(field("subscription_type"), `must be ${groupType.toLowerCase()}, the plan's group's type`);
    const price = planPriceIn(plan, req.payment.amount_currency);
    if (!price) throw unprocessable(field("payment.amount_currency"), `is not a currency this plan is sold in`);
    let priceCents = price.amountCents;
    let campaign: AttemptTerms["campaign"] = null;
    if (groupType === "CAMPAIGN") {
      if (plan.group.currency && plan.group.currency !== price.currency)
        throw unprocessable(
          field("payment.amount_currency"),
          `must be ${plan.group.currency}, the campaign's currency`,
        );
      if (req.campaignId !== null && req.campaignId !== plan.groupId)
        throw unprocessable("campaign_id", "is not the campaign of this plan");
      const contribution = contributionAmount({
        chosenCents: req.payment.amount_cents,
        priceCents,
        group: plan.group,
      });
      assertNone(contribution.problems);
      priceCents = contribution.amountCents;
      campaign = { id: plan.groupId, name: plan.group.name };
      groupForCampaign = plan.group;
    } else if (req.campaignId !== null) {
      throw unprocessable("campaign_id", "is only for campaign plans");
    }
    if (req.dynamicAssets?.length) throw unprocessable("dynamic_assets", "are only for pay per asset");
    base = {
      kind: "plan",
      plan_id: plan.id,
      group_id: plan.groupId,
      subscription_type: groupType,
      plan_name: plan.title,
      plan_description: plan.description,
      group_name: plan.group.name,
      group_description: plan.group.description,
      duration_length: plan.durationLength,
      duration_unit: plan.durationUnit,
      recurring: plan.recurring,
      plan_amount_cents: price.amountCents,
      currency: price.currency,
      price_cents: priceCents,
      dynamic_assets: [],
      campaign,
    };
    couponTarget = { planId: plan.id, groupId: plan.groupId };
    trialPlan = plan;
    supportedProviders = (plan.supportedPaymentProviders as string[]) ?? [];
  }

  // Gift: a recipient other than the buyer (resolved, or created, at create).
  let gift: AttemptTerms["gift"] = null;
  if (req.gift) {
    const r = req.gift.recipient;
    if (!r) throw unprocessable("recipient_subscriber", "is required for a gift");
    if (base.kind !== "plan" || base.campaign)
      throw unprocessable("recipient_subscriber", "is only for plan subscriptions (not campaigns or pay per asset)");
    const recipient = {
      provider: r.recipient_identity_provider,
      value: normaliseIdentityValue(r.recipient_identity_provider, r.recipient_identity),
    };
    const buyer = preferredIdentityOf(who);
    const recipientMember = await resolveSubscriber(db, {
      accountId,
      provider: r.recipient_identity_provider,
      identity: r.recipient_identity,
    });
    if (
      (buyer.provider === recipient.provider && buyer.value === recipient.value) ||
      (member && recipientMember?.id === member.id)
    )
      throw unprocessable("recipient_subscriber", "must differ from the gifter");
    gift = { recipient, custom_message: req.gift.customMessage };
  }

  // Coupon (not on campaign contributions).
  let coupon: AttemptTerms["coupon"] = null;
  let discountCents = 0;
  let discountDetail: DiscountDetail = {};
  if (req.couponCode) {
    if (!couponTarget || groupForCampaign) throw unprocessable(field("coupon_code"), "cannot be used on this plan");
    const row = await db.coupon.findUnique({ where: { accountId_code: { accountId, code: req.couponCode } } });
    if (!row) throw unprocessable(field("coupon_code"), "is not a coupon of this publisher");
    const used = member
      ? await db.couponRedemption.count({ where: { couponId: row.id, subscriberId: String(member.id) } })
      : null;
    const issue = couponIssue(row, { ...couponTarget, currency: base.currency, now, subscriberRedemptions: used });
    if (issue) throw unprocessable(field("coupon_code"), issue);
    const d = couponDiscount(row, base.price_cents, base.currency);
    coupon = { id: row.id, code: row.code };
    discountCents = d.discountCents;
    discountDetail = d.detail;
  }

  // Tax (not on campaign contributions): the request's address first, then the subscriber's.
  let tax = { taxCents: 0, totalCents: base.price_cents - discountCents, lines: [] as TaxLine[] };
  if (!groupForCampaign) {
    const rules = await db.taxRule.findMany({ where: { accountId, enabled: true, deletedAt: null } });
    if (rules.length) {
      const stored = member ? await getSubscriberMetadata(db, member.id) : null;
      const where = taxLocation(req.metadata, stored);
      const t = computeTax(base.price_cents - discountCents, applicableTaxRules(rules, where));
      tax = { taxCents: t.taxCents, totalCents: t.totalCents, lines: t.lines };
    }
  }

  // Trial.
  let trial: AttemptTerms["trial"] = null;
  if (trialPlan) {
    const t = trialTerms(trialPlan, req.trial, now);
    assertNone(t.problems);
    trial = t.trial;
  } else if (req.trial.trial_period === true || req.trial.trial_period_length !== undefined) {
    throw unprocessable(field("trial_period"), "this plan has no trial");
  }
  const amountCents = trial ? trialAuthorizationCents(base.currency) : tax.totalCents;

  // Who may use the payment type.
  if (adapter.callers === "server" && who.channel !== "server" && amountCents > 0)
    throw unprocessable(
      field("payment.payment_type"),
      `${req.payment.payment_type} is for the publisher's back end; this plan must be paid`,
    );
  if (
    adapter.takesPayment &&
    adapter.provider &&
    supportedProviders.length &&
    !supportedProviders.includes(adapter.provider)
  )
    throw unprocessable(field("payment.payment_type"), `is not a payment provider of this plan`);

  return {
    adapter,
    terms: {
      v: 1,
      channel: who.channel,
      binding: bindingOf(who),
      member_id: member?.id ?? null,
      preferred_identity: preferredIdentityOf(who),
      ...base,
      payment_type: req.payment.payment_type,
      coupon,
      discount_cents: discountCents,
      discount_detail: discountDetail,
      tax_cents: tax.taxCents,
      tax_lines: tax.lines,
      total_cents: tax.totalCents,
      amount_cents: amountCents,
      trial,
      metadata: req.metadata,
      notes: req.notes,
      name: req.name,
      gift,
    },
  };
}

export function intentOf(
  accountId: number,
  attemptId: string,
  terms: AttemptTerms,
  who: CheckoutWho,
  member: MemberRecord | null,
): PaymentIntent {
  return {
    accountId,
    attemptId,
    amountCents: terms.amount_cents,
    currency: terms.currency,
    recurring: terms.recurring,
    plan: { id: terms.plan_id, title: terms.plan_name },
    subscriber: {
      id: member?.id ?? null,
      name: member?.name ?? terms.name,
      email: who.channel === "guest" ? who.email : (member?.communicationEmail ?? null),
      phone: who.channel === "guest" ? who.phone : null,
    },
  };
}

export async function credentialsFor(db: Db, accountId: number, adapter: PaymentAdapter) {
  if (!adapter.provider) return null;
  const creds = await gatewayCredentialsFor(db, accountId, adapter.provider);
  if (!creds)
    throw unprocessable(
      "subscription.payment.payment_type",
      `has no enabled ${adapter.provider} credentials on this account`,
    );
  return creds;
}

/** An adapter's refusal as the client sees it: 422 (declined, invalid) or 503 (gateway unreachable). */
function adapterError(error: unknown): never {
  if (error instanceof PaymentAdapterError) {
    if (error.kind === "unavailable")
      throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.", {
        cause: error,
      });
    throw unprocessable("subscription.payment", error.message, `The payment was refused: ${error.message}`);
  }
  throw error;
}

// ─── The wire shape of a preview ─────────────────────────────────────────────────────────────

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
    /** The price before discount and tax, and the total of a period after them. */
    price_cents: terms.price_cents,
    discount_cents: terms.discount_cents,
    total_amount_cents: terms.total_cents,
  };
}

function timing(terms: AttemptTerms, now: Date) {
  // A renewal starts when the subscription it renews ends, or now if that has passed.
  const renewalStart = terms.renewal_of ? Date.parse(terms.renewal_of.starts_at) : 0;
  const start = renewalStart > now.getTime() ? new Date(renewalStart) : now;
  const trialEndsAt = terms.trial ? addDuration(start, terms.trial.length, terms.trial.unit) : null;
  const periodStart = trialEndsAt ?? start;
  const end = addDuration(periodStart, terms.duration_length, terms.duration_unit);
  return {
    start,
    end,
    trialEndsAt,
    nextPaymentDueDate: terms.recurring ? (trialEndsAt ?? end) : null,
  };
}

/** The subscription's columns from the frozen terms (plan copy, payment, discount, tax…). */
function rowFields(
  accountId: number,
  terms: AttemptTerms,
  t: { start: Date; end: Date | null; trialEndsAt: Date | null; nextPaymentDueDate: Date | null },
) {
  return {
    accountId,
    subscriptionType: terms.subscription_type,
    planId: terms.kind === "plan" ? terms.plan_id : null,
    groupId: terms.group_id,
    pricingPlanId: terms.kind === "pricing_plan" ? terms.plan_id : null,
    preferredIdentity: terms.preferred_identity,
    externalId: null,
    createdBy: CREATED_BY[terms.channel],
    referrer: null,
    gifterMemberId: null,
    code: null,
    startTimestamp: t.start,
    endTimestamp: t.end,
    cancelledAt: null,
    nextPaymentDueDate: t.nextPaymentDueDate,
    renewalReminderSentAt: null,
    trialEndsAt: t.trialEndsAt,
    trialPeriodLength: terms.trial?.length ?? null,
    trialPeriodUnit: terms.trial?.unit ?? null,
    graceEndsAt: null,
    planName: terms.plan_name,
    planDescription: terms.plan_description,
    groupName: terms.group_name,
    groupDescription: terms.group_description,
    durationLength: terms.duration_length,
    durationUnit: terms.duration_unit,
    planAmountCents: terms.plan_amount_cents,
    planAmountCurrency: terms.currency,
    recurring: terms.recurring,
    paymentType: terms.payment_type,
    paymentToken: null as string | null,
    paymentAmountCents: terms.amount_cents,
    paymentAmountCurrency: terms.currency,
    taxAmountCents: terms.tax_cents,
    taxDetail: terms.tax_lines,
    couponId: terms.coupon?.id ?? null,
    couponCode: terms.coupon?.code ?? null,
    discountDetail: terms.discount_detail,
    dynamicAssets: terms.dynamic_assets,
    campaignId: terms.campaign?.id ?? null,
    campaignName: terms.campaign?.name ?? null,
    metadata: terms.metadata ?? {},
    notes: terms.notes,
    deletedAt: null,
  };
}

// ─── Preview ─────────────────────────────────────────────────────────────────────────────────

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
    .preparePayment(creds, intentOf(accountId, attemptId, terms, who, member))
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

// ─── Create ──────────────────────────────────────────────────────────────────────────────────

/** Canonical JSON (keys sorted), for the request hash. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
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

const TOKEN_FIELD = "attempt_token";

/**
 * Create the subscription a preview promised. Answers `{subscription, created}`: created false
 * when this is the same create repeated (its subscription is answered again).
 */
export async function createSubscription(
  db: Db,
  args: { accountId: number; who: CheckoutWho; req: CheckoutRequest; now: Date },
): Promise<{ subscription: NonNullable<Awaited<ReturnType<typeof loadSubscriptionWire>>>; created: boolean }> {
  const { accountId, who, req, now } = args;
  const attemptId = req.attemptToken ? verifyAttemptToken(req.attemptToken) : null;
  if (!attemptId) throw unprocessable(TOKEN_FIELD, "is not a valid attempt token");
  const attempt = await db.subscriptionAttempt.findFirst({ where: { id: attemptId, accountId } });
  if (!attempt) throw unprocessable(TOKEN_FIELD, "is not a valid attempt token");
  const hash = requestHash(who, req);

  const made = async () => {
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
  };
  if (attempt.usedAt) return made();
  if (attempt.expiresAt.getTime() <= now.getTime())
    throw unprocessable(TOKEN_FIELD, "has expired", "This attempt token has expired: preview again.");

  const terms = attempt.terms as unknown as AttemptTerms;
  if (terms.v !== 1 || terms.channel !== who.channel || terms.binding !== bindingOf(who))
    throw unprocessable(TOKEN_FIELD, "was issued to another subscriber");
  assertNone(termsMismatch(terms, req));

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

  let subscriptionId: number;
  try {
    subscriptionId = await withTransaction(
      db,
      async (tx) => {
        const claimed = await tx.subscriptionAttempt.updateMany({
          where: { id: attemptId, accountId, usedAt: null },
          data: { usedAt: now, createRequestHash: hash },
        });
        if (claimed.count !== 1) throw new AttemptAlreadyUsed();

        const { member, created } = await resolveBuyer(tx, accountId, who, now);
        if (terms.member_id !== null && member.id !== terms.member_id)
          throw unprocessable(TOKEN_FIELD, "was issued to another subscriber");
        // A gift is held by its recipient (found or created: one reader, one record); the buyer is its gifter.
        let holder = member;
        let holderCreated = false;
        if (terms.gift) {
          const r = (await resolveSubscriberCreated(tx, {
            accountId,
            provider: terms.gift.recipient.provider,
            identity: terms.gift.recipient.value,
            create: true,
            now,
          }))!;
          if (r.member.id === member.id) throw unprocessable("recipient_subscriber", "must differ from the gifter");
          holder = r.member;
          holderCreated = r.created;
        }

        if (verified.externalPaymentId) {
          const paid = await tx.payment.findFirst({
            where: { accountId, paymentType: terms.payment_type, externalPaymentId: verified.externalPaymentId },
            select: { id: true },
          });
          if (paid) throw unprocessable("subscription.payment.payment_token", "has already paid for a subscription");
        }

        if (terms.coupon) await redeemCoupon(tx, { accountId, couponId: terms.coupon.id, memberId: member.id, now });

        const t = timing(terms, now);
        const row = await tx.subscription.create({
          data: {
            ...rowFields(accountId, terms, t),
            memberId: holder.id,
            gifterMemberId: terms.gift ? member.id : null,
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
        if (terms.coupon)
          await tx.couponRedemption.create({
            data: {
              accountId,
              couponId: terms.coupon.id,
              subscriberId: String(member.id),
              subscriptionId: String(row.id),
              redeemedAt: now,
            },
          });
        const payment = await tx.payment.create({
          data: {
            accountId,
            subscriptionId: row.id,
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
        // Its next lifecycle step (reminder, charge, expiry…), queued with the write (lifecycle.ts).
        await scheduleSubscriptionLifecycle(tx, { subscriptionId: row.id, now });
        if (status === "ACTIVE" && terms.campaign)
          await tx.subscriptionGroup.update({
            where: { id: terms.campaign.id },
            data: { collectedAmountCents: { increment: terms.amount_cents } },
          });
        await recordAudit(tx, {
          actor: systemActor(accountId, CREATED_BY[terms.channel]),
          action: terms.renewal_of ? "subscription.renew" : "subscription.create",
          targetType: "subscription",
          targetId: row.id,
          metadata: {
            subscriber_id: member.id,
            plan_id: terms.plan_id,
            payment_type: terms.payment_type,
            amount_cents: terms.amount_cents,
            currency: terms.currency,
            status: status.toLowerCase(),
            ...(terms.renewal_of ? { renewal_of: terms.renewal_of.subscription_id } : {}),
          },
          now,
        });
        if (created) {
          const subscriber = await loadSubscriber(tx, accountId, member.id);
          await emitSubscriberCreated(tx, { subscriber: subscriber!, accountId, occurredAt: now });
        }
        if (holderCreated) {
          const subscriber = await loadSubscriber(tx, accountId, holder.id);
          await emitSubscriberCreated(tx, { subscriber: subscriber!, accountId, occurredAt: now });
        }
        await emitSubscriptionEvent(tx, {
          accountId,
          name: "subscription.created",
          subscriptionId: row.id,
          occurredAt: now,
        });
        if (terms.renewal_of)
          await emitSubscriptionEvent(tx, {
            accountId,
            name: "subscription.renewed",
            subscriptionId: row.id,
            occurredAt: now,
          });
        if (status === "ACTIVE")
          await emitSubscriptionEvent(tx, {
            accountId,
            name: "subscription.activated",
            subscriptionId: row.id,
            occurredAt: now,
          });
        return row.id;
      },
      { retryUniqueClashes: true },
    );
  } catch (error) {
    if (error instanceof AttemptAlreadyUsed) return made();
    if ((error as { code?: string }).code === "P2002")
      throw new AppError("CONFLICT", "A concurrent checkout made the same change; repeat the request.");
    throw error;
  }
  return { subscription: (await loadSubscriptionWire(db, { accountId, id: subscriptionId, now }))!, created: true };
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
