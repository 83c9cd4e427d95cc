/**
 * The frozen terms of a checkout (interface-spec §4.2 rule 1, §4.3): what a preview decides from
 * the catalogue as it is (price in the currency, coupon discount, tax, trial, campaign
 * contribution, pay-per-asset assets), kept in a subscription_attempts row; the create makes the
 * subscription from them, whatever the catalogue says by then (./preview.ts, ./create.ts).
 * What a create makes from the kept terms (the payment intent, the subscription's row and dates)
 * is ./from-terms.ts.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError, type ErrorDetail } from "../../errors";
import type { DurationUnit, SubscriptionType } from "../../generated/prisma/enums";
import type { MemberRecord } from "../../members/members";
import { checkoutOffer, type FrozenOffer } from "../offers/checkout-offer";
import type { PaymentAdapter } from "../payments/adapter";
import { paymentAdapterFor } from "../payments/registry";
import { resolveSubscriber } from "../subscribers/subscribers";
import { normaliseIdentityValue } from "../subscribers/subscribers.schema";
import { bindingOf, preferredIdentityOf, type CheckoutWho } from "./buyer";
import {
  contributionAmount,
  couponDiscount,
  couponIssue,
  planPriceIn,
  trialAuthorizationCents,
  trialTerms,
  type DiscountDetail,
  type TaxLine,
} from "./pricing";
import type { CheckoutRequest } from "./request";
import { checkoutTax, type TaxPlace } from "./tax";
import { earlierTrialOf } from "./trial-history";

/** The body field that carries the attempt token. */
export const TOKEN_FIELD = "attempt_token";

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
  /**
   * Where the tax was computed for (country, region; with Stripe Tax also the postal code), when
   * the account had tax rules or Stripe Tax; the create's address must agree.
   */
  tax_location?: TaxPlace | null;
  /** Stripe Tax: the Tax Calculation the tax lines come from (`taxcalc_…`). */
  stripe_tax_calculation?: string | null;
  /** What a period costs after discount and tax. */
  total_cents: number;
  /** What this payment is: the total, or the trial authorization. */
  amount_cents: number;
  trial: { length: number; unit: DurationUnit } | null;
  dynamic_assets: { id: string; type: "story" | "collection" }[];
  campaign: { id: number; name: string } | null;
  metadata: Record<string, unknown> | null;
  /** The plan's metadata, where the publisher names gateway mappings (`razorpay_plan_id`). */
  plan_metadata?: Record<string, unknown> | null;
  notes: string | null;
  name: string | null;
  /** A gift: who receives it (normalised identity) and the gifter's message. */
  gift?: { recipient: { provider: string; value: string }; custom_message: string | null } | null;
  /** The paywall offer (and test exposure) it was bought from (offers/checkout-offer.ts). */
  offer?: FrozenOffer | null;
  /** A renewal (renewals.ts): the subscription renewed and when the new one starts (ISO). */
  renewal_of?: { subscription_id: number; starts_at: string } | null;
};

export const unprocessable = (field: string, issue: string, message?: string) =>
  new AppError("UNPROCESSABLE", message ?? `${field} ${issue}.`, { details: [{ field, issue }] });

export function assertNone(problems: ErrorDetail[]) {
  if (problems.length)
    throw new AppError("UNPROCESSABLE", `${problems[0]!.field} ${problems[0]!.issue}.`, { details: problems });
}

export const toType = (t: string) => t.toUpperCase() as SubscriptionType;

/** What the plan decides: the terms' base and what the later steps look at. */
type PlanTerms = {
  base: Omit<
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
    | "tax_location"
    | "stripe_tax_calculation"
    | "total_cents"
    | "amount_cents"
    | "trial"
    | "metadata"
    | "plan_metadata"
    | "notes"
    | "name"
  >;
  couponTarget: { planId: number; groupId: number } | null;
  groupForCampaign: {
    targetAmountCents: number | null;
    targetAmountValidationEnabled: boolean;
    collectedAmountCents: number;
  } | null;
  trialPlan: Parameters<typeof trialTerms>[0] | null;
  supportedProviders: string[];
  planMetadata: Record<string, unknown> | null;
};

const field = (f: string) => `subscription.${f}`;

/** Everything the preview decides, from the catalogue as it is now. */
export async function computeTerms(
  db: Db,
  args: { accountId: number; who: CheckoutWho; req: CheckoutRequest; member: MemberRecord | null; now: Date },
): Promise<{ terms: AttemptTerms; adapter: PaymentAdapter }> {
  const { accountId, who, req, member, now } = args;

  const adapter = paymentAdapterFor(req.payment.payment_type);
  if (!adapter) throw unprocessable(field("payment.payment_type"), "is not a payment type of this service");

  const plan = req.dynamic
    ? await pricingPlanTerms(db, { accountId, req })
    : await subscriptionPlanTerms(db, { accountId, who, req });
  const { base, groupForCampaign } = plan;
  const { gift, holder } = await giftTerms(db, { accountId, who, req, member, base });
  const { coupon, discountCents, discountDetail } = await couponTerms(db, {
    accountId,
    req,
    member,
    now,
    plan,
    adapter,
  });
  const trial = await trialOfTerms(db, { accountId, req, now, holder, trialPlan: plan.trialPlan });

  // The paywall offer it is bought from (before the tax: a refused offer costs no Stripe Tax call).
  const offer = await checkoutOffer(db, { accountId, planId: base.plan_id, ...req.offer });

  // Tax (not on campaign contributions): the request's address first, then the subscriber's. After
  // the checks above, so that a refused request costs no Stripe Tax calculation.
  const tax = await checkoutTax(db, {
    accountId,
    member,
    metadata: req.metadata,
    amountCents: base.price_cents - discountCents,
    currency: base.currency,
    campaign: groupForCampaign !== null,
    provider: adapter.provider ?? null,
    reference: `${base.kind}_${base.plan_id}`,
  });
  const amountCents = trial ? trialAuthorizationCents(base.currency) : tax.totalCents;
  assertPaymentTypeAllowed({ adapter, who, req, amountCents, supportedProviders: plan.supportedProviders });

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
      tax_location: tax.location,
      stripe_tax_calculation: tax.stripeCalculation,
      total_cents: tax.totalCents,
      amount_cents: amountCents,
      trial,
      metadata: req.metadata,
      plan_metadata: plan.planMetadata,
      notes: req.notes,
      name: req.name,
      gift,
      offer,
    },
  };
}

/** Pay per asset: subscription_plan_id is a pricing plan; dynamic_assets name what it buys. */
async function pricingPlanTerms(db: Db, args: { accountId: number; req: CheckoutRequest }): Promise<PlanTerms> {
  const { accountId, req } = args;
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
  if (req.subscriptionType && req.subscriptionType !== "dynamic_asset")
    throw unprocessable(field("subscription_type"), "must be dynamic_asset for a pricing plan");
  return {
    base: {
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
    },
    couponTarget: null,
    groupForCampaign: null,
    trialPlan: null,
    supportedProviders: [],
    planMetadata: null,
  };
}

/** A plan of a group (on sale, public unless the publisher's server asks), in the request's currency. */
async function subscriptionPlanTerms(
  db: Db,
  args: { accountId: number; who: CheckoutWho; req: CheckoutRequest },
): Promise<PlanTerms> {
  const { accountId, who, req } = args;
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
  let groupForCampaign: PlanTerms["groupForCampaign"] = null;
  if (groupType === "CAMPAIGN") {
    if (plan.group.currency && plan.group.currency !== price.currency)
      throw unprocessable(field("payment.amount_currency"), `must be ${plan.group.currency}, the campaign's currency`);
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
  const meta = plan.metadata;
  return {
    base: {
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
    },
    couponTarget: { planId: plan.id, groupId: plan.groupId },
    groupForCampaign,
    trialPlan: plan,
    supportedProviders: (plan.supportedPaymentProviders as string[]) ?? [],
    planMetadata: meta && typeof meta === "object" && !Array.isArray(meta) ? meta : null,
  };
}

/**
 * Gift: a recipient other than the buyer (resolved, or created, at create). Answers who will hold
 * the subscription, when known: the buyer, or a gift's recipient.
 */
async function giftTerms(
  db: Db,
  args: {
    accountId: number;
    who: CheckoutWho;
    req: CheckoutRequest;
    member: MemberRecord | null;
    base: PlanTerms["base"];
  },
): Promise<{ gift: AttemptTerms["gift"]; holder: MemberRecord | null }> {
  const { accountId, who, req, member, base } = args;
  if (!req.gift) return { gift: null, holder: member };
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
  return { gift: { recipient, custom_message: req.gift.customMessage }, holder: recipientMember };
}

/** Coupon (not on campaign contributions). */
async function couponTerms(
  db: Db,
  args: {
    accountId: number;
    req: CheckoutRequest;
    member: MemberRecord | null;
    now: Date;
    plan: PlanTerms;
    adapter: PaymentAdapter;
  },
): Promise<{ coupon: AttemptTerms["coupon"]; discountCents: number; discountDetail: DiscountDetail }> {
  const { accountId, req, member, now, adapter } = args;
  const { base, couponTarget, groupForCampaign } = args.plan;
  if (!req.couponCode) return { coupon: null, discountCents: 0, discountDetail: {} };
  if (!couponTarget || groupForCampaign) throw unprocessable(field("coupon_code"), "cannot be used on this plan");
  if (base.recurring && adapter.recurringCouponRefusal)
    throw unprocessable(field("coupon_code"), adapter.recurringCouponRefusal);
  const row = await db.coupon.findUnique({ where: { accountId_code: { accountId, code: req.couponCode } } });
  if (!row) throw unprocessable(field("coupon_code"), "is not a coupon of this publisher");
  const used = member
    ? await db.couponRedemption.count({ where: { couponId: row.id, subscriberId: String(member.id) } })
    : null;
  const issue = couponIssue(row, { ...couponTarget, currency: base.currency, now, subscriberRedemptions: used });
  if (issue) throw unprocessable(field("coupon_code"), issue);
  const d = couponDiscount(row, base.price_cents, base.currency);
  return { coupon: { id: row.id, code: row.code }, discountCents: d.discountCents, discountDetail: d.detail };
}

/** The plan's trial, unless the holder had one already or the request declines it. */
async function trialOfTerms(
  db: Db,
  args: {
    accountId: number;
    req: CheckoutRequest;
    now: Date;
    holder: MemberRecord | null;
    trialPlan: PlanTerms["trialPlan"];
  },
): Promise<AttemptTerms["trial"]> {
  const { accountId, req, now, holder, trialPlan } = args;
  if (trialPlan) {
    const earlier = holder && req.trial.trial_period !== false ? await earlierTrialOf(db, accountId, holder.id) : null;
    const t = trialTerms(trialPlan, req.trial, now, earlier);
    assertNone(t.problems);
    return t.trial;
  }
  if (req.trial.trial_period === true || req.trial.trial_period_length !== undefined)
    throw unprocessable(field("trial_period"), "this plan has no trial");
  return null;
}

/** Who may use the payment type: a back end's own type only when nothing is paid, and the plan's providers. */
function assertPaymentTypeAllowed(args: {
  adapter: PaymentAdapter;
  who: CheckoutWho;
  req: CheckoutRequest;
  amountCents: number;
  supportedProviders: string[];
}) {
  const { adapter, who, req, amountCents, supportedProviders } = args;
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
}
