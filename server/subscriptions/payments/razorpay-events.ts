/**
 * Razorpay's entities as far as Masthead reads them, and its webhook bodies as spec §6
 * webhook_event_details (razorpay.ts is the adapter): payments, orders, subscriptions, refunds and
 * disputes in their documented payloads. Pure.
 */
import { createHash } from "node:crypto";

import { ownValue } from "@/server/own-keys";

import { PaymentAdapterError, type GatewayEventDetails, type GatewayRequest } from "./adapter";

export type Entity = Record<string, unknown>;
export const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
export const int = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) ? v : null);
/** Razorpay sends `notes: []` when there are none. */
const notesOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const entityAt = (payload: Entity, name: string): Entity | null => {
  const wrapper = ownValue(payload, name);
  if (!wrapper || typeof wrapper !== "object") return null;
  const entity = (wrapper as Entity).entity;
  return entity && typeof entity === "object" ? (entity as Entity) : null;
};

/** Spec §6 webhook_event_details from a Razorpay webhook body (its documented payloads). */
export function razorpayEventDetails(request: GatewayRequest): GatewayEventDetails {
  let body: Entity;
  try {
    const parsed: unknown = JSON.parse(request.rawBody);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    body = parsed as Entity;
  } catch {
    throw new PaymentAdapterError("The Razorpay webhook body is not a JSON object.", "invalid");
  }
  const event = str(body.event);
  if (!event || body.entity !== "event") throw new PaymentAdapterError("The body is not a Razorpay event.", "invalid");
  const payload = notesOf(body.payload);
  const payment = entityAt(payload, "payment");
  const subscription = entityAt(payload, "subscription");
  const order = entityAt(payload, "order");
  const refund = entityAt(payload, "refund");
  const dispute = entityAt(payload, "dispute");
  const headerId = request.headers.get("x-razorpay-event-id")?.trim();
  const eventId =
    headerId && headerId.length <= 200
      ? headerId
      : `sha256:${createHash("sha256").update(request.rawBody, "utf8").digest("hex")}`;
  const fee = payment ? int(payment.fee) : null;
  const currency = str(payment?.currency) ?? str(order?.currency);
  // The card a subscription's update names: its token (else the card id) and a label.
  const card = payment?.card && typeof payment.card === "object" ? (payment.card as Entity) : null;
  const methodToken = str(payment?.token_id) ?? str(payment?.card_id) ?? str(card?.id);
  const last4 = str(card?.last4);
  const paymentMethod =
    event === "subscription.updated" && methodToken
      ? { token: methodToken, label: last4 ? `${str(card?.network) ?? "Card"} ending ${last4}` : null }
      : null;
  return {
    eventId,
    event,
    externalPaymentId: str(payment?.id) ?? str(refund?.payment_id) ?? str(dispute?.payment_id),
    externalOrderId: str(payment?.order_id) ?? str(order?.id),
    externalSubscriptionId: str(subscription?.id),
    amountCents: int(payment?.amount) ?? int(order?.amount),
    currency,
    notes: { ...notesOf(subscription?.notes), ...notesOf(order?.notes), ...notesOf(payment?.notes) },
    status: event.startsWith("subscription.")
      ? str(subscription?.status)
      : (str(payment?.status) ?? str(order?.status)),
    // A subscription's charges are payments of its invoices: not one-time orders.
    recurring: subscription !== null || str(payment?.invoice_id) !== null,
    paymentMethod,
    refund: refundOf(refund),
    dispute: disputeOf(dispute),
    occurredAt: int(body.created_at) === null ? null : new Date(int(body.created_at)! * 1000),
    gatewaySubscription: subscription ? gatewayStateOf(str(subscription.status)) : null,
    email: str(payment?.email),
    contact: str(payment?.contact),
    feeCents: fee,
    feeCurrency: fee === null ? null : currency,
  };
}

/** A dispute entity as GatewayEventDetails' dispute: won and lost decided, any other state open. */
function disputeOf(dispute: Entity | null): GatewayEventDetails["dispute"] {
  const id = str(dispute?.id);
  const amountCents = int(dispute?.amount);
  if (!id || amountCents === null) return null;
  const status = str(dispute?.status);
  return {
    id,
    amountCents,
    status: status === "won" || status === "lost" ? status : "open",
    reason: str(dispute?.reason_code) ?? str(dispute?.reason_description),
  };
}

/** A refund entity as GatewayEventDetails' refund: our refund's id from the receipt refund() gives it. */
function refundOf(refund: Entity | null): GatewayEventDetails["refund"] {
  const id = str(refund?.id);
  const amountCents = int(refund?.amount);
  if (!id || amountCents === null) return null;
  const receipt = /^refund_(\d{1,9})$/.exec(str(refund?.receipt) ?? "");
  return { id, amountCents, mastheadRefundId: receipt ? Number(receipt[1]) : null };
}

/** A Razorpay subscription's status as the state Masthead follows (a paused one resumes when told). */
function gatewayStateOf(status: string | null): GatewayEventDetails["gatewaySubscription"] {
  const state =
    status === "active"
      ? "active"
      : status === "paused"
        ? "paused"
        : status === "cancelled" || status === "completed" || status === "expired"
          ? "ended"
          : "other";
  return { state, resumesAt: null };
}
