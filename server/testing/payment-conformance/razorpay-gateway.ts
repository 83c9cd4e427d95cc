/**
 * The conformance kit's fake Razorpay: server/testing/razorpay-fixture.ts (Razorpay's documented
 * order, subscription, payment, refund and webhook shapes) driven as the kit asks.
 */
import { createHmac } from "node:crypto";

import { razorpayFixture, type RazorpayFixture } from "../razorpay-fixture";
import type { FakeGateway } from "./conformance";

type Entity = Record<string, unknown>;

/** What each mapped event says about its payment and subscription, as Razorpay sends it. */
const EVENT_STATES: Record<string, { payment?: string; subscription?: string }> = {
  "payment.authorized": { payment: "authorized" },
  "payment.captured": { payment: "captured" },
  "subscription.charged": { payment: "captured", subscription: "active" },
  "subscription.pending": { subscription: "pending" },
  "subscription.halted": { subscription: "halted" },
  "subscription.cancelled": { subscription: "cancelled" },
  "refund.processed": { payment: "refunded" },
};

export function fakeRazorpay(): FakeGateway & { fixture: RazorpayFixture } {
  const fx = razorpayFixture();
  return {
    fixture: fx,
    credentials: {
      app_key: fx.keyId,
      secret: fx.keySecret,
      enabled: true,
      webhook_secret: fx.webhookSecret,
      environment: "sandbox",
    },
    intent: { currency: "INR", amountCents: 49_900 },
    takesOtherAmounts: true,
    authorizes: true,
    pay({ intent, prepared, outcome, amountCents }) {
      const reference = prepared.externalReferenceId!;
      const { checkout } = fx.pay({
        ...(intent.recurring ? { subscriptionId: reference } : { orderId: reference }),
        amount: amountCents ?? intent.amountCents,
        currency: intent.currency,
        status: outcome === "declined" ? "failed" : outcome,
      });
      return {
        paymentToken: checkout.razorpay_payment_id,
        externalReferenceId: reference,
        extra: { razorpay_signature: checkout.razorpay_signature },
      };
    },
    webhooks: {
      signatureHeader: "x-razorpay-signature",
      send(event, payment, secret) {
        const states = EVENT_STATES[event] ?? {};
        const entities: { payment?: Entity; subscription?: Entity; refund?: Entity; dispute?: Entity } = {};
        const paid = fx.payments.get(payment.proof.paymentToken ?? "");
        if (paid && (states.payment || !states.subscription))
          entities.payment = {
            ...paid,
            ...(states.payment ? { status: states.payment, captured: states.payment === "captured" } : {}),
          };
        const subscription = payment.intent.recurring
          ? fx.subscriptions.get(payment.prepared.externalReferenceId!)
          : null;
        if (subscription)
          entities.subscription = { ...subscription, status: states.subscription ?? subscription.status };
        if (paid && event === "refund.processed")
          entities.refund = {
            id: `rfnd_${String(paid.id).slice(4)}`,
            entity: "refund",
            amount: paid.amount,
            currency: paid.currency,
            payment_id: paid.id,
            receipt: null,
            notes: [],
            status: "processed",
          };
        if (paid && event.startsWith("payment.dispute."))
          entities.dispute = {
            id: `disp_${String(paid.id).slice(4)}`,
            entity: "dispute",
            payment_id: paid.id,
            amount: paid.amount,
            currency: paid.currency,
            reason_code: "chargeback",
            status: event.split(".")[2],
            phase: "chargeback",
          };
        const { body, headers } = fx.webhook(event, entities);
        return {
          rawBody: body,
          headers: new Headers({
            ...headers,
            "x-razorpay-signature": createHmac("sha256", secret).update(body).digest("hex"),
          }),
        };
      },
    },
    refundedCents: (paymentId) =>
      fx.refunds.filter((r) => r.payment_id === paymentId).reduce((sum, r) => sum + (r.amount as number), 0),
    recurring: {
      intent: {
        recurring: true,
        plan: { id: 4, title: "Monthly (recurring)", metadata: { razorpay_plan_id: "plan_conf" } },
      },
      subscriptionStatus: (id) => (fx.subscriptions.get(id)?.status as string | undefined) ?? null,
      setCurrentEnd(id, end) {
        const subscription = fx.subscriptions.get(id);
        if (!subscription) throw new Error(`fake Razorpay: no subscription ${id}`);
        subscription.current_end = Math.floor(end.getTime() / 1000);
      },
    },
  };
}
