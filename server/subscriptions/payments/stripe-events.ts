/**
 * Stripe's webhooks, for the Stripe adapter (interface-spec §6): the signature check and the
 * details of an event. No network: both read only the request.
 *
 * - Signature: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` under the
 *   endpoint's `whsec_…` secret, checked by the SDK's `webhooks.signature.verifyHeader` (its own
 *   constant-time comparison), with a tolerance of 300 s: an older timestamp is a replay and refused.
 * - Event id: Stripe's `evt_…` (the same on every redelivery): the deduplication key.
 * - Mapped events (the jobs of ./jobs.ts): a one-time PaymentIntent that succeeded; a subscription's
 *   invoice paid (its period's charge, known by the invoice id) or its charge failed; a
 *   subscription deleted; a subscription whose default payment method changed; a refund; a dispute.
 */
import "server-only";

import Stripe from "stripe";

import { ownValue } from "@/server/own-keys";

import { PaymentAdapterError, type GatewayEventDetails, type GatewayRequest } from "./adapter";
import type { GatewayJobName } from "./jobs";

/** How old a signed webhook may be (seconds): Stripe's SDK default, stated here so it cannot drift. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Stripe event → job. Not mapped, since no job fits (the event is stored as `ignored`):
 * `payment_intent.payment_failed` (a one-time payment that failed pays nothing; checkout's create
 * already answers the failure). `customer.subscription.updated` (a card change, a cancel at period
 * end set or taken back, collection paused or resumed: in the Customer Portal, Stripe's dashboard,
 * or by Masthead itself) and `customer.subscription.paused`/`resumed` make Masthead follow the
 * subscription's state (recurring_subscription_updated). A renewal's failed charge (`invoice.payment_failed`) starts the grace period at once, with
 * its one mail; Stripe's own retries then settle it (`invoice.paid`) or give up
 * (`customer.subscription.deleted`). Refunds (`refund.created`, `refund.updated`: recorded once
 * succeeded) and disputes (`charge.dispute.*`) name the PaymentIntent: a one-time payment's own id,
 * or, for a subscription's charge (recorded by its invoice), found through paymentAliases.
 */
export const STRIPE_EVENT_JOBS: Readonly<Record<string, GatewayJobName>> = Object.freeze({
  "payment_intent.succeeded": "one_time_subscription_charged",
  "invoice.paid": "recurring_subscription_charged",
  "customer.subscription.deleted": "recurring_subscription_cancelled",
  "customer.subscription.updated": "recurring_subscription_updated",
  "customer.subscription.paused": "recurring_subscription_updated",
  "customer.subscription.resumed": "recurring_subscription_updated",
  "invoice.payment_failed": "recurring_subscription_payment_failed",
  "refund.created": "payment_refunded",
  "refund.updated": "payment_refunded",
  "charge.dispute.created": "payment_disputed",
  "charge.dispute.updated": "payment_disputed",
  "charge.dispute.closed": "payment_disputed",
});

/** Whether the raw body carries a valid, recent Stripe signature under `secret`. Never throws. */
export function stripeSignatureValid(request: GatewayRequest, secret: string | null, nowSeconds?: number): boolean {
  const header = request.headers.get("stripe-signature");
  if (!secret || !header) return false;
  try {
    return Stripe.webhooks.signature!.verifyHeader(
      request.rawBody,
      header,
      secret,
      STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      nowSeconds,
    );
  } catch {
    return false;
  }
}

type Entity = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const int = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) ? v : null);
const objectOf = (v: unknown): Entity | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Entity) : null;
/** An expandable field: its id, whether Stripe sent the id or the object. */
const idOf = (v: unknown): string | null => str(v) ?? str(objectOf(v)?.id);
const upper = (v: unknown): string | null => str(v)?.toUpperCase() ?? null;

/** A PaymentIntent's status in the words settleOneTimeCharge acts on. */
const PAYMENT_INTENT_STATUS: Record<string, string> = { succeeded: "captured", requires_capture: "authorized" };

/** Spec §6 webhook_event_details of a Stripe event (its snapshot payload). */
export function stripeEventDetails(request: GatewayRequest): GatewayEventDetails {
  let body: Entity | null = null;
  try {
    body = objectOf(JSON.parse(request.rawBody));
  } catch {
    body = null;
  }
  const eventId = str(body?.id);
  const type = str(body?.type);
  const object = objectOf(objectOf(body?.data)?.object);
  if (!body || body.object !== "event" || !eventId?.startsWith("evt_") || !type || !object)
    throw new PaymentAdapterError("The body is not a Stripe event.", "invalid");
  const base = {
    eventId,
    event: type,
    externalPaymentId: null,
    externalOrderId: null,
    externalSubscriptionId: null,
    amountCents: null,
    currency: upper(object.currency),
    notes: { ...(objectOf(object.metadata) ?? {}) },
    status: str(object.status),
    occurredAt: int(body.created) === null ? null : new Date(int(body.created)! * 1000),
  } satisfies GatewayEventDetails;

  switch (object.object) {
    case "payment_intent": {
      const id = str(object.id);
      const status = str(object.status) ?? "";
      return {
        ...base,
        externalPaymentId: id,
        externalOrderId: id,
        amountCents: int(object.amount),
        status: ownValue(PAYMENT_INTENT_STATUS, status) ?? status,
        // Our one-time PaymentIntents carry the attempt; a subscription invoice's do not.
        recurring: typeof base.notes.attempt_id !== "string",
        email: str(object.receipt_email),
      };
    }
    case "invoice": {
      const parent = objectOf(objectOf(object.parent)?.subscription_details);
      return {
        ...base,
        // A subscription's charge is known by its invoice: one invoice, one period.
        externalPaymentId: str(object.id),
        externalSubscriptionId: idOf(parent?.subscription),
        amountCents: type === "invoice.paid" ? int(object.amount_paid) : int(object.amount_due),
        notes: { ...(objectOf(parent?.metadata) ?? {}), ...(objectOf(object.metadata) ?? {}) },
        recurring: parent !== null,
        email: str(object.customer_email),
      };
    }
    case "subscription": {
      const previous = objectOf(objectOf(body.data)?.previous_attributes);
      const method = idOf(object.default_payment_method);
      const changed = previous !== null && Object.hasOwn(previous, "default_payment_method") && method !== null;
      const card = objectOf(objectOf(object.default_payment_method)?.card);
      const label = card && str(card.last4) ? `${cardBrand(str(card.brand))} ending ${str(card.last4)}` : null;
      return {
        ...base,
        externalSubscriptionId: str(object.id),
        recurring: true,
        paymentMethod: changed ? { token: method, label } : null,
        gatewaySubscription: subscriptionState(object),
      };
    }
    case "charge":
      return {
        ...base,
        externalPaymentId: idOf(object.payment_intent) ?? str(object.id),
        amountCents: type === "charge.refunded" ? int(object.amount_refunded) : int(object.amount),
      };
    case "dispute": {
      const id = str(object.id);
      const amount = int(object.amount);
      const status = str(object.status);
      return {
        ...base,
        externalPaymentId: idOf(object.payment_intent) ?? idOf(object.charge),
        amountCents: amount,
        dispute:
          id && amount !== null
            ? {
                id,
                amountCents: amount,
                status: status === "won" || status === "lost" ? status : "open",
                reason: str(object.reason),
              }
            : null,
      };
    }
    case "refund": {
      const id = str(object.id);
      const amount = int(object.amount);
      const ours = /^\d{1,9}$/.exec(str(base.notes.refund_id) ?? "");
      return {
        ...base,
        externalPaymentId: idOf(object.payment_intent),
        amountCents: amount,
        // Recorded once it went through: a pending refund is recorded by its later update.
        refund:
          id && amount !== null && object.status === "succeeded"
            ? { id, amountCents: amount, mastheadRefundId: ours ? Number(ours[0]) : null }
            : null,
      };
    }
    default:
      return base;
  }
}

/** A Stripe subscription's state as Masthead follows it: ended, paused (collection), cancelling, renewing. */
function subscriptionState(sub: Entity): NonNullable<GatewayEventDetails["gatewaySubscription"]> {
  const status = str(sub.status);
  const pause = objectOf(sub.pause_collection);
  if (status === "canceled" || status === "incomplete_expired") return { state: "ended", resumesAt: null };
  if (pause || status === "paused") {
    const resumes = int(pause?.resumes_at);
    return { state: "paused", resumesAt: resumes === null ? null : new Date(resumes * 1000) };
  }
  if (sub.cancel_at_period_end === true || int(sub.cancel_at) !== null) return { state: "cancelling", resumesAt: null };
  if (status === "active" || status === "trialing" || status === "past_due" || status === "unpaid")
    return { state: "active", resumesAt: null };
  return { state: "other", resumesAt: null };
}

/** "Visa", "Mastercard"… from Stripe's card brand ("visa", "mastercard", "amex", …). */
export function cardBrand(brand: string | null): string {
  if (!brand || brand === "unknown") return "Card";
  if (brand === "amex") return "American Express";
  return brand.charAt(0).toUpperCase() + brand.slice(1);
}
