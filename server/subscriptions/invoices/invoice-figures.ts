/**
 * An invoice's figures (interface-spec §2.2 Invoice), as pure functions: no IO, unit-tested in
 * invoice-figures.test.ts. Every amount is an integer number of minor units ("cents") of the
 * payment's currency.
 *
 * Vocabulary:
 * - base price: what a period of the plan costs before discount, as checkout priced it (prices
 *   may include inclusive taxes);
 * - net: the taxable amount, after discount and without any tax
 *   (`amount_after_discount_before_tax`);
 * - taxes: one line per tax rule checkout froze in the subscription's `tax_detail`;
 * - round off: amount − (net + taxes), what rounding left between the terms and the charge.
 */
import { nullPrototypeRecord } from "@/server/own-keys";

import { computeTax, type DiscountDetail, type TaxLine } from "../checkout/pricing";
import { centsToDecimal } from "../money.schema";
import type { ServicePeriod } from "./invoices.schema";

export { servicePeriodWords, type ServicePeriod } from "./invoices.schema";

export type InvoiceTaxLine = {
  name: string;
  rate_basis_points: number;
  /** Stripe Tax: the exact rate ("8.875"); the percentage shown is this one when present. */
  rate_percentage?: string;
  amount_cents: number;
  inclusive: boolean;
};

type InvoiceFigures = {
  basePriceCents: number;
  discountCents: number;
  couponCode: string | null;
  /** A percent coupon's value; null for a fixed amount off, or no coupon. */
  discountPercentage: number | null;
  netCents: number;
  taxLines: InvoiceTaxLine[];
  roundOffCents: number;
  amountCents: number;
};

/** What the subscription froze at checkout, and what this payment charged. */
type InvoiceTerms = {
  amountCents: number;
  /** The plan's price of a period in the payment's currency (the subscription's plan copy). */
  planAmountCents: number;
  /** The subscription's `discount_detail` ({} without a coupon). */
  discountDetail: DiscountDetail | Record<string, unknown>;
  /** The subscription's `tax_detail` lines. */
  taxDetail: unknown;
};

const isTaxLine = (v: unknown): v is TaxLine =>
  !!v &&
  typeof v === "object" &&
  typeof (v as TaxLine).name === "string" &&
  Number.isSafeInteger((v as TaxLine).rate_basis_points) &&
  typeof (v as TaxLine).inclusive === "boolean";

const cents = (v: unknown): number | null => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : null);

/**
 * The figures of an invoice for a charge of `amountCents` under the subscription's frozen terms.
 *
 * When the charge is what the terms make a period cost (price − discount + exclusive tax: a
 * checkout's payment, a renewal at the same terms), the invoice shows those terms: the base price,
 * the coupon's discount, and the tax lines recomputed with ../checkout/pricing.ts's `computeTax` from the
 * frozen rules (the same lines checkout stored); Stripe Tax's lines (`source: "stripe"`) are not
 * recomputed but shown as Stripe computed them, its amounts and exact rates. Otherwise (a campaign contribution above the plan's
 * price, a gateway charge of another amount) the charge is taken as it is: no discount, and the
 * frozen tax rules counted inside it, as inclusive taxes are (so the lines add up to the charge).
 */
export function invoiceFigures(terms: InvoiceTerms): InvoiceFigures {
  const rules = (Array.isArray(terms.taxDetail) ? terms.taxDetail : []).filter(isTaxLine).map((l, i) => ({
    id: i,
    name: l.name,
    rateBasisPoints: l.rate_basis_points,
    country: null,
    region: null,
    inclusive: l.inclusive,
    enabled: true,
    deletedAt: null,
  }));
  const detail = terms.discountDetail as Record<string, unknown>;
  const price = cents(detail.price_cents) ?? terms.planAmountCents;
  const discounted = Math.min(cents(detail.discounted_price_cents) ?? price, price);
  const coupon = typeof detail.code === "string" ? detail.code : null;

  const asPriced = stripeTaxAsPriced(terms.taxDetail, discounted) ?? computeTax(discounted, rules);
  const matches = asPriced.totalCents === terms.amountCents;
  const tax = matches
    ? asPriced
    : computeTax(
        terms.amountCents,
        rules.map((r) => ({ ...r, inclusive: true })),
      );
  const taxLines = tax.lines.map((l) => ({
    name: l.name,
    rate_basis_points: l.rate_basis_points,
    ...(l.rate_percentage ? { rate_percentage: l.rate_percentage } : {}),
    amount_cents: l.amount_cents,
    inclusive: l.inclusive,
  }));
  const taxes = taxLines.reduce((sum, l) => sum + l.amount_cents, 0);
  return {
    basePriceCents: matches ? price : terms.amountCents,
    discountCents: matches ? price - discounted : 0,
    couponCode: matches ? coupon : null,
    discountPercentage:
      matches && coupon && detail.discount_type === "percent" && Number.isSafeInteger(detail.value)
        ? (detail.value as number)
        : null,
    netCents: tax.netCents,
    taxLines,
    roundOffCents: terms.amountCents - tax.netCents - taxes,
    amountCents: terms.amountCents,
  };
}

/**
 * Stripe Tax's frozen lines as checkout priced them: Stripe's amounts (not recomputed from the
 * rounded rates), the inclusive ones inside the price, the exclusive ones added. Null when the
 * lines are not all Stripe's.
 */
function stripeTaxAsPriced(taxDetail: unknown, discounted: number) {
  const lines = (Array.isArray(taxDetail) ? taxDetail : []).filter(isTaxLine);
  if (!lines.length || !lines.every((l) => l.source === "stripe" && cents(l.amount_cents) !== null)) return null;
  const inside = lines.filter((l) => l.inclusive).reduce((sum, l) => sum + l.amount_cents, 0);
  const added = lines.filter((l) => !l.inclusive).reduce((sum, l) => sum + l.amount_cents, 0);
  return { netCents: discounted - inside, taxCents: inside + added, totalCents: discounted + added, lines };
}

/** What the wire and the documents need of an invoice row. */
type InvoiceRecord = {
  id: number;
  sequenceNumber: number;
  currency: string;
  basePriceCents: number;
  discountCents: number;
  couponCode: string | null;
  discountPercentage: number | null;
  netCents: number;
  taxLines: unknown;
  roundOffCents: number;
  /** Credit from a plan switch taken off this charge (0: none). */
  creditCents?: number;
  amountCents: number;
  externalPaymentId: string | null;
  subscriptionId: number;
  sellerName: string;
  sellerAddress: string | null;
  sellerTaxId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  createdAt: Date;
};

/**
 * The period a payment paid for: a recurring charge records it on the payment
 * (`details.recurring_charge.period_start/period_end`, ../recurring/lifecycle.ts `recordCharge`); any other
 * captured payment (the first one, at checkout or by the gateway) pays for the subscription's
 * period as it stands when it is captured.
 */
export function invoiceServicePeriod(
  paymentDetails: unknown,
  subscription: { startTimestamp: Date; endTimestamp: Date | null },
): ServicePeriod {
  const charge =
    paymentDetails && typeof paymentDetails === "object"
      ? (paymentDetails as Record<string, unknown>).recurring_charge
      : undefined;
  if (charge && typeof charge === "object") {
    const { period_start: start, period_end: end } = charge as Record<string, unknown>;
    const date = (v: unknown) => (typeof v === "string" && !Number.isNaN(Date.parse(v)) ? new Date(v) : null);
    if (date(start)) return { start: date(start), end: date(end) };
  }
  return { start: subscription.startTimestamp, end: subscription.endTimestamp };
}

/**
 * The credit balance a recurring charge used (../recurring/lifecycle.ts records it on the payment as
 * `details.recurring_charge.credit_applied_cents`); 0 when none. Its invoice prices the period in
 * full and shows the credit as a line before the total paid.
 */
export function invoiceCreditApplied(paymentDetails: unknown): number {
  const charge =
    paymentDetails && typeof paymentDetails === "object"
      ? (paymentDetails as Record<string, unknown>).recurring_charge
      : undefined;
  const credit = charge && typeof charge === "object" ? (charge as Record<string, unknown>).credit_applied_cents : 0;
  return cents(credit) ?? 0;
}

export function invoiceTaxLines(record: Pick<InvoiceRecord, "taxLines">): InvoiceTaxLine[] {
  return (Array.isArray(record.taxLines) ? record.taxLines : []).filter(
    (l): l is InvoiceTaxLine => isTaxLine(l) && Number.isSafeInteger((l as InvoiceTaxLine).amount_cents),
  );
}

/** A rate in basis points as the spec's percentage number: 1800 → 18, 1250 → 12.5. */
const basisPointsToPercentage = (bp: number) => bp / 100;

/** A tax line's percentage: Stripe Tax's exact rate (8.875) when it has one, else its basis points'. */
export const taxLinePercentage = (line: Pick<InvoiceTaxLine, "rate_basis_points" | "rate_percentage">) =>
  line.rate_percentage && Number.isFinite(Number(line.rate_percentage))
    ? Number(line.rate_percentage)
    : basisPointsToPercentage(line.rate_basis_points);

/**
 * Spec §2.2 Invoice. Amounts the spec types as strings are decimals in the currency's minor units
 * ("118.00"; JPY "118"); `discount_details` is {} without a discount, as the Discount detail is;
 * `invoice_taxes` maps each tax's name (a second line of one name gets " (2)") to
 * {percentage, amount, currency}.
 */
export function invoiceToWire(record: InvoiceRecord) {
  const money = (c: number) => centsToDecimal(c, record.currency);
  const taxes = nullPrototypeRecord<{ percentage: number; amount: string; currency: string }>();
  for (const line of invoiceTaxLines(record)) {
    let name = line.name;
    for (let n = 2; name in taxes; n++) name = `${line.name} (${n})`;
    taxes[name] = {
      percentage: taxLinePercentage(line),
      amount: money(line.amount_cents),
      currency: record.currency,
    };
  }
  return {
    id: record.id,
    sequenced_invoice_number: record.sequenceNumber,
    subscription_id: record.subscriptionId,
    base_price: money(record.basePriceCents),
    amount_cents: record.amountCents,
    amount_currency: record.currency,
    amount_after_discount_before_tax: money(record.netCents),
    discount_details:
      record.discountCents > 0 || record.couponCode
        ? {
            code: record.couponCode,
            discount_percentage: record.discountPercentage,
            discount_amount: money(record.discountCents),
          }
        : {},
    invoice_taxes: taxes,
    round_off: money(record.roundOffCents),
    /** Credit from an earlier plan switch taken off this charge ("0.00": none). */
    credit_applied: money(record.creditCents ?? 0),
    external_payment_id: record.externalPaymentId,
    downloadable: true,
    created_at: record.createdAt.toISOString(),
    /** The seller as frozen at issue (address lines separated by "\n"; null when not set). */
    seller: { name: record.sellerName, address: record.sellerAddress, tax_id: record.sellerTaxId },
    /** What the payment paid for: [start, end) in UTC (end null: no end); null for older rows. */
    service_period: record.periodStart
      ? { start: record.periodStart.toISOString(), end: record.periodEnd?.toISOString() ?? null }
      : null,
  };
}

export type TInvoiceWire = ReturnType<typeof invoiceToWire>;
