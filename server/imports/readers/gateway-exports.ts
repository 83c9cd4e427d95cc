/**
 * The gateways' own subscription exports, taken by the subscriptions import as they are
 * (docs/migration.md "Subscriptions CSV"): told apart by their header, their columns renamed to
 * the import's (names compared trimmed and lower-cased), their values read as the gateway writes
 * them.
 *
 * - **Stripe** (Dashboard → Subscriptions → Export): `id`, `Customer ID`, `Customer Email`,
 *   `Customer Name`, `Plan` (or `Price ID`, `Product`), `Quantity`, `Currency`, `Amount` (in the
 *   currency's units: "9" is 9.00), `Status`, `Start Date (UTC)` (or `Start (UTC)`,
 *   `Created (UTC)`), `Current Period End (UTC)`, `Cancel At Period End`. Gateway: stripe.
 * - **Razorpay** (Dashboard → Reports → Subscriptions, the subscription entity's fields): `id` (or
 *   `subscription_id`), `plan_id`, `customer_id`, `customer_email`, `customer_name`, `status`,
 *   `current_end`, `start_at` (or `created_at`), `quantity`; times as Unix seconds or dates.
 *   No amount: the mapped plan's price. Gateway: razorpay.
 *
 * The customer id becomes the reader's identity `<gateway>:<customer id>` (the one Ghost's
 * members import gives a paying member), so no extra column is needed to find the reader.
 */
import { nullPrototypeRecord } from "@/server/own-keys";

import { minorUnits } from "../../subscriptions/money.schema";
import type { CsvFormat, CsvRow } from "./csv";

const STRIPE: CsvFormat = {
  name: "stripe",
  title: "Stripe's subscriptions export",
  detect: ["id", "customer id", "current period end (utc)"],
  columns: [
    ["gateway_subscription_id", ["id"]],
    ["gateway_customer_id", ["customer id"]],
    ["email", ["customer email"]],
    ["name", ["customer name"]],
    ["plan", ["plan", "price id", "product"]],
    ["quantity", ["quantity"]],
    ["amount", ["amount"]],
    ["currency", ["currency"]],
    ["status", ["status"]],
    ["started_at", ["start date (utc)", "start (utc)", "created (utc)"]],
    ["current_period_end", ["current period end (utc)"]],
    ["cancel_at_period_end", ["cancel at period end"]],
  ],
  required: ["gateway_customer_id", "plan", "status", "current_period_end", "amount", "currency", "started_at"],
};

const RAZORPAY: CsvFormat = {
  name: "razorpay",
  title: "Razorpay's subscriptions report",
  detect: ["plan_id", "customer_id", "current_end"],
  columns: [
    ["gateway_subscription_id", ["id", "subscription_id"]],
    ["gateway_customer_id", ["customer_id"]],
    ["email", ["customer_email", "email"]],
    ["name", ["customer_name", "name"]],
    ["plan", ["plan_id"]],
    ["quantity", ["quantity"]],
    ["status", ["status"]],
    ["started_at", ["start_at", "created_at"]],
    ["current_period_end", ["current_end"]],
  ],
  required: ["gateway_customer_id", "plan", "status", "current_period_end", "started_at"],
};

/** The exports the subscriptions import recognises. */
export const GATEWAY_EXPORTS: readonly CsvFormat[] = [STRIPE, RAZORPAY];

const DATE_COLUMNS = ["started_at", "current_period_end"] as const;

/** Unix seconds ("1735689600") as an ISO instant; any other text as it is. */
function unixSeconds(text: string): string {
  const value = text.trim();
  return /^\d{9,11}$/.test(value) ? new Date(Number(value) * 1000).toISOString() : text;
}

/** Stripe writes amounts in the currency's units, whole ones without decimals: "9" is 9.00. */
function stripeAmount(amount: string, currency: string): string {
  const value = amount.trim();
  const digits = /^[a-z]{3}$/i.test(currency.trim()) ? minorUnits(currency.trim().toUpperCase()) : 0;
  return /^\d+$/.test(value) && digits > 0 ? `${value}.${"0".repeat(digits)}` : amount;
}

/** `row` as the import's own columns say it, when it comes from `format`'s export. */
export function fromGatewayExport(format: CsvFormat | null, row: CsvRow): CsvRow {
  if (!format) return row;
  const values = nullPrototypeRecord<string>(Object.entries(row.values));
  values.gateway = format.name;
  if (format.name === "razorpay") for (const c of DATE_COLUMNS) values[c] = unixSeconds(values[c] ?? "");
  if (format.name === "stripe") values.amount = stripeAmount(values.amount ?? "", values.currency ?? "");
  return { ...row, values };
}

/** The import's statuses (see subscriptions.ts), and what each gateway's status comes to. */
export type ImportStatus = "active" | "trialing" | "past_due" | "cancelled" | "ended";

const STATUS_OF = new Map<string, ImportStatus | { refuse: string }>([
  ["active", "active"],
  ["trialing", "trialing"],
  ["past_due", "past_due"],
  // Razorpay: a charge failed and is being retried.
  ["pending", "past_due"],
  ["cancelled", "cancelled"],
  ["canceled", "cancelled"],
  // Over: retries exhausted (Stripe unpaid, Razorpay halted), every cycle charged, or expired.
  ["unpaid", "ended"],
  ["incomplete_expired", "ended"],
  ["halted", "ended"],
  ["completed", "ended"],
  ["expired", "ended"],
  ["incomplete", { refuse: "its first payment never went through (incomplete): nothing was paid" }],
  ["created", { refuse: "it was never paid for (created): nothing was paid" }],
  ["authenticated", { refuse: "its first charge is still to come (authenticated): import it once it is active" }],
  ["paused", { refuse: "it is paused at the gateway: import it once it is resumed, or give access by hand" }],
]);

/** A row's status as the import reads it, or why the row is refused. */
export function importStatusOf(text: string | undefined): ImportStatus | { refuse: string } {
  const value = (text ?? "").trim().toLowerCase();
  return (
    STATUS_OF.get(value) ?? {
      refuse: `its status "${text?.trim() ?? ""}" is not one of ${[...STATUS_OF.keys()].join(", ")}`,
    }
  );
}
