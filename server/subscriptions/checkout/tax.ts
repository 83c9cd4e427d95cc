/**
 * The tax of a checkout (docs/subscriptions.md, "Taxes"): what the preview freezes in the attempt's
 * terms (./terms.ts). Not on campaign contributions. The place is the request's address first,
 * then the subscriber's.
 *
 * - The account's enabled tax rules for that place apply (pricing.ts computeTax).
 * - Stripe Tax instead, when the payment type is Stripe's and the account turned Stripe Tax on
 *   (its Stripe gateway's setting): Stripe's Tax Calculation for the billing address (country,
 *   state, postal code), its lines and total, and the calculation's id (../payments/stripe-tax.ts).
 *   The price includes the tax when the account's tax rules for the buyer's country are inclusive,
 *   or, without such a rule, when the Stripe gateway's "prices include the tax" is on.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { MemberRecord } from "../../members/members";
import { PaymentAdapterError } from "../payments/adapter";
import { gatewayCredentialsFor } from "../payments/credentials";
import { calculateStripeTax } from "../payments/stripe-tax";
import { getSubscriberMetadata } from "../subscribers/subscribers";
import { applicableTaxRules, computeTax, taxLocation, type TaxLine, type TaxRuleTerms } from "./pricing";

/**
 * Where the tax was computed for, frozen in the terms; the create's address must agree.
 * `postal_code` is frozen with Stripe Tax only (the tax rules do not look at it).
 */
export type TaxPlace = { country: string | null; region: string | null; postal_code?: string | null };

type CheckoutTax = {
  taxCents: number;
  /** What a period costs after discount and tax. */
  totalCents: number;
  lines: TaxLine[];
  /** Null when no tax was computed (no rules, a campaign). */
  location: TaxPlace | null;
  /** Stripe Tax: the Tax Calculation's id (`taxcalc_…`). */
  stripeCalculation: string | null;
};

/** The tax on `amountCents` (the price after discount) for this buyer. */
export async function checkoutTax(
  db: Db,
  args: {
    accountId: number;
    member: MemberRecord | null;
    metadata: unknown;
    amountCents: number;
    currency: string;
    campaign: boolean;
    /** The payment type's gateway ("stripe"), or null. */
    provider: string | null;
    /** What is sold, for Stripe's records: "plan_12", "pricing_plan_3". */
    reference: string;
  },
): Promise<CheckoutTax> {
  const { accountId, member, amountCents } = args;
  const none: CheckoutTax = {
    taxCents: 0,
    totalCents: amountCents,
    lines: [],
    location: null,
    stripeCalculation: null,
  };
  if (args.campaign) return none;
  const creds = args.provider === "stripe" ? await gatewayCredentialsFor(db, accountId, "stripe") : null;
  const stripeTax = creds?.stripe_tax?.enabled ? creds : null;
  const rules = await db.taxRule.findMany({ where: { accountId, enabled: true, deletedAt: null } });
  if (!rules.length && !stripeTax) return none;
  const stored = member ? await getSubscriberMetadata(db, member.id) : null;
  const location = taxLocation(args.metadata, stored);
  if (!stripeTax) {
    const t = computeTax(amountCents, applicableTaxRules(rules, location));
    return {
      taxCents: t.taxCents,
      totalCents: t.totalCents,
      lines: t.lines,
      location: { country: location.country, region: location.region },
      stripeCalculation: null,
    };
  }
  if (!location.country)
    throw new AppError(
      "UNPROCESSABLE",
      "The publisher's tax is computed by Stripe Tax, which needs the reader's billing address: send metadata.address.country (and, where Stripe needs them, address.state and address.postal_code).",
      { details: [{ field: "subscription.metadata.address.country", issue: "is required for Stripe Tax" }] },
    );
  const answer = await calculateStripeTax(stripeTax, {
    amountCents,
    currency: args.currency,
    reference: args.reference,
    inclusive: pricesIncludeTax(rules, location.country, stripeTax.stripe_tax!.inclusive),
    address: { country: location.country, state: location.region, postal_code: location.postal_code },
  }).catch(stripeTaxError);
  return {
    taxCents: answer.taxCents,
    totalCents: answer.totalCents,
    lines: answer.lines,
    location,
    stripeCalculation: answer.calculationId,
  };
}

/** The inclusive flag of the account's tax rules for `country`, if it has any; else the Stripe setting. */
function pricesIncludeTax(rules: readonly TaxRuleTerms[], country: string, fallback: boolean): boolean {
  const ofCountry = rules.find((r) => r.country !== null && r.country.toUpperCase() === country);
  return ofCountry ? ofCountry.inclusive : fallback;
}

/** Stripe Tax's refusal: 503 when Stripe cannot answer, 422 with Stripe Tax's words otherwise. */
function stripeTaxError(error: unknown): never {
  if (!(error instanceof PaymentAdapterError)) throw error;
  if (error.kind === "unavailable")
    throw new AppError("SERVICE_UNAVAILABLE", "Stripe could not be reached to compute the tax; try again.", {
      cause: error,
    });
  throw new AppError("UNPROCESSABLE", error.message, {
    details: [{ field: "subscription.payment.payment_type", issue: `cannot be taxed: ${error.message}` }],
  });
}
