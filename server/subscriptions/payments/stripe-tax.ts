/**
 * Stripe Tax (docs/subscriptions.md, "Taxes" → "Stripe Tax"): where the account turns it on (its
 * Stripe gateway's `stripe_tax`), the checkout preview asks Stripe for the tax of the price with a
 * Tax Calculation (`tax.calculations.create`) instead of applying the account's tax rules, and
 * freezes Stripe's breakdown: one line per jurisdiction, with Stripe's display name, its exact rate
 * (`percentage_decimal`) and its exact amount in cents (decision 0038).
 *
 * Stripe's refusals in words: Stripe Tax not active on the Stripe account (`stripe_tax_inactive`)
 * and an address Stripe cannot place (`customer_tax_location_invalid`) are "invalid" with what to
 * do; Stripe unreachable or failing is "unavailable" (stripe-client.ts).
 */
import "server-only";

import Stripe from "stripe";

import type { TaxLine } from "../checkout/pricing";
import { PaymentAdapterError, type GatewayCredentials } from "./adapter";
import { stripeAdapterError, stripeClient, stripeErrorCode, type StripeConnection } from "./stripe-client";

/** The reader's billing address, as the preview froze it (country: ISO 3166-1 alpha-2). */
type StripeTaxAddress = { country: string; state: string | null; postal_code: string | null };

type StripeTaxQuestion = {
  /** The price of a period after discount, in the currency's minor units. */
  amountCents: number;
  currency: string;
  /** What is sold, for Stripe's records (`line_items[].reference`): "plan_12". */
  reference: string;
  /** Whether the price includes the tax (`tax_behavior` inclusive) or the tax is added to it. */
  inclusive: boolean;
  address: StripeTaxAddress;
};

type StripeTaxAnswer = {
  /** The Tax Calculation's id (`taxcalc_…`). */
  calculationId: string;
  taxCents: number;
  /** What a period costs: Stripe's `amount_total` (the price, plus the tax when it is added). */
  totalCents: number;
  lines: TaxLine[];
};

export const STRIPE_TAX_INACTIVE =
  "Stripe Tax is not active on the publisher's Stripe account, so the tax cannot be computed. The publisher must activate it in Stripe (Settings → Tax), or turn Stripe Tax off in Masthead's payment gateway settings.";
const LOCATION_INVALID =
  "Stripe could not place the billing address for tax: send the reader's full billing address (metadata.address.country, and where Stripe needs them, address.state and address.postal_code).";

/**
 * A Stripe rate ("8.875", a percentage) in whole basis points, rounded half up (887.5 → 888): the
 * rate the spec's fields carry. The exact rate stays in the line's `rate_percentage`.
 */
export function percentageToBasisPoints(percentage: string): number {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(percentage.trim());
  if (!m) return 0;
  const tenThousandths = Number(m[1]) * 10_000 + Number(((m[2] ?? "") + "0000").slice(0, 4));
  return Math.floor((tenThousandths + 50) / 100);
}

/** "8.8750" → "8.875", "20.0" → "20". */
const exactPercentage = (p: string) => (p.includes(".") ? p.replace(/0+$/, "").replace(/\.$/, "") : p);

/** Stripe's calculation as Masthead's tax lines: one per jurisdiction that taxes (amount > 0). */
function stripeTaxLines(calculation: Stripe.Tax.Calculation): TaxLine[] {
  const lines: TaxLine[] = [];
  for (const item of calculation.line_items?.data ?? []) {
    const inclusive = item.tax_behavior === "inclusive";
    for (const b of item.tax_breakdown ?? []) {
      if (b.amount === 0) continue;
      const rate = b.tax_rate_details;
      const percentage = exactPercentage(rate?.percentage_decimal ?? "0");
      lines.push({
        name: rate?.display_name ? `${b.jurisdiction.display_name} ${rate.display_name}` : b.jurisdiction.display_name,
        rate_basis_points: percentageToBasisPoints(percentage),
        rate_percentage: percentage,
        amount_cents: b.amount,
        inclusive,
        country: b.jurisdiction.country,
        region: b.jurisdiction.state,
        source: "stripe",
      });
    }
  }
  return lines;
}

/** Ask Stripe for the tax of one period's price. */
export async function calculateStripeTax(
  creds: GatewayCredentials,
  question: StripeTaxQuestion,
  options: { connection?: StripeConnection; maxNetworkRetries?: number } = {},
): Promise<StripeTaxAnswer> {
  const stripe = stripeClient(creds, options);
  const { address } = question;
  let calculation: Stripe.Tax.Calculation;
  try {
    calculation = await stripe.tax.calculations.create({
      currency: question.currency.toLowerCase(),
      line_items: [
        {
          amount: question.amountCents,
          reference: question.reference,
          tax_behavior: question.inclusive ? "inclusive" : "exclusive",
        },
      ],
      customer_details: {
        address: {
          country: address.country,
          ...(address.state ? { state: address.state } : {}),
          ...(address.postal_code ? { postal_code: address.postal_code } : {}),
        },
        address_source: "billing",
      },
      expand: ["line_items.data.tax_breakdown"],
    });
  } catch (error) {
    const code = stripeErrorCode(error);
    if (code === "stripe_tax_inactive") throw new PaymentAdapterError(STRIPE_TAX_INACTIVE, "invalid");
    if (code === "customer_tax_location_invalid") throw new PaymentAdapterError(LOCATION_INVALID, "invalid");
    return stripeAdapterError(error);
  }
  const lines = stripeTaxLines(calculation);
  const taxCents = calculation.tax_amount_exclusive + calculation.tax_amount_inclusive;
  if (!calculation.id || lines.reduce((sum, l) => sum + l.amount_cents, 0) !== taxCents)
    throw new PaymentAdapterError("Stripe's tax calculation did not add up; try again.", "unavailable");
  return { calculationId: calculation.id, taxCents, totalCents: calculation.amount_total, lines };
}

/** The connection check's word on Stripe Tax (stripe-check.ts), when the account turned it on. */
export async function stripeTaxStatus(
  stripe: Stripe,
): Promise<{ problem: { code: string; message: string } | null; note: string | null }> {
  try {
    const settings = await stripe.tax.settings.retrieve();
    if (settings.status === "active") return { problem: null, note: "Stripe Tax is active: Stripe computes the tax." };
    const missing = settings.status_details.pending?.missing_fields ?? [];
    return {
      problem: {
        code: "stripe_tax_inactive",
        message: `Stripe Tax is turned on here but is not active on the Stripe account${missing.length ? ` (Stripe still needs: ${missing.join(", ")})` : ""}, so every checkout through Stripe is refused. Finish setting it up in Stripe (Settings → Tax), or turn Stripe Tax off here.`,
      },
      note: null,
    };
  } catch (error) {
    if (error instanceof Stripe.errors.StripePermissionError || stripeErrorCode(error) === "secret_key_required")
      return {
        problem: {
          code: "permission_missing",
          message:
            "The restricted key may not read Stripe Tax's settings (“Tax Settings: Read”) or make tax calculations (“Tax Calculations and Transactions: Write”). In Stripe (Developers → API keys), edit the key and give it both.",
        },
        note: null,
      };
    return {
      problem: {
        code: "stripe_unavailable",
        message: "Stripe did not say whether Stripe Tax is active (an error on its side). Try again in a few minutes.",
      },
      note: null,
    };
  }
}
