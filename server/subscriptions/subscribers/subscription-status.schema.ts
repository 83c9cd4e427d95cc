/**
 * A subscription's status in one word for the dashboard (pure; safe in the browser). A pause is
 * not a stored status: a paused subscription is stored `cancelled` (no renewal) or, once its
 * paid period is over, `expired`, with an open pause on its cancellation row that wakes it at
 * `paused_until` (../self-service/retention-offers.ts, ../recurring/pauses.ts). Every view reads the word from here, so a
 * paused subscription never reads "Cancelled".
 */

type SubscriptionStatusTone = "amber" | "green" | "gray" | "red" | "blue";

const STATUS_WORDS = new Map<string, { label: string; tone: SubscriptionStatusTone }>([
  ["pending", { label: "Pending", tone: "amber" }],
  ["active", { label: "Active", tone: "green" }],
  ["cancelled", { label: "Cancelled", tone: "gray" }],
  ["failed", { label: "Failed", tone: "red" }],
  ["expired", { label: "Expired", tone: "gray" }],
]);

/** "Paused" while a pause is open; otherwise the stored status's word. */
export function subscriptionStatusLabel(s: { status: string; paused_until: string | null }): {
  label: string;
  tone: SubscriptionStatusTone;
  paused: boolean;
} {
  if (s.paused_until) return { label: "Paused", tone: "blue", paused: true };
  const word = STATUS_WORDS.get(s.status);
  return { label: word?.label ?? s.status, tone: word?.tone ?? "gray", paused: false };
}

const PAYMENT_WORDS = new Map<string, string>([
  ["pending", "Pending"],
  ["authorized", "Authorized"],
  ["captured", "Paid"],
  ["failed", "Failed"],
  ["refunded", "Refunded"],
  ["partially_refunded", "Partly refunded"],
]);

/** A payment's or a refund's stored status as staff read it ("captured" → "Paid"); unknown: capitalised, "_" as spaces. */
export function paymentStatusLabel(status: string): string {
  const word = PAYMENT_WORDS.get(status);
  if (word) return word;
  const spaced = status.replaceAll("_", " ").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
