/**
 * The conformance kit's fake Stripe: the fake Stripe server (../fake-stripe.ts), reached by the
 * adapter through the real SDK, driven as the kit asks. The reader pays in the browser with
 * `fake.pay` (Stripe.js confirmPayment); webhooks are Stripe's events signed with the SDK's helper.
 *
 * Stripe takes no payment of another amount than its PaymentIntent's; `takesOtherAmounts` models a
 * PaymentIntent whose amount was changed on Stripe after the preview (its update endpoint allows
 * that before payment), which the adapter must refuse. The adapter makes automatically captured
 * PaymentIntents only, so there is no authorized-only state (`authorizes: false`). The kit names a
 * cancelled subscription "cancelled"; Stripe spells it "canceled".
 */
import type { FakeStripe } from "../fake-stripe";
import type { Obj } from "../fake-stripe-state";
import type { FakeGateway } from "./conformance";

export function fakeStripeGateway(fake: FakeStripe): FakeGateway {
  // Each check starts on an empty Stripe account: the kit reuses its attempt ids, and Stripe
  // answers a repeated idempotency key with the first answer.
  fake.reset();
  const latestInvoice = (subscriptionId: string) => {
    const sub = fake.state.get(fake.state.subscriptions, "subscription", subscriptionId);
    return fake.state.get(fake.state.invoices, "invoice", sub.latest_invoice as string);
  };
  return {
    credentials: {
      app_key: fake.publishableKey,
      secret: fake.secretKey,
      enabled: true,
      webhook_secret: fake.webhookSecret,
      environment: "sandbox",
    },
    intent: { currency: "USD", amountCents: 4_900 },
    takesOtherAmounts: true,
    authorizes: false,
    pay({ intent, prepared, outcome, amountCents }) {
      const reference = prepared.externalReferenceId!;
      const piId = intent.recurring ? (latestInvoice(reference).payment_intent_id as string) : reference;
      if (amountCents !== undefined)
        fake.state.get(fake.state.paymentIntents, "payment_intent", piId).amount = amountCents;
      const pi = fake.state.get(fake.state.paymentIntents, "payment_intent", piId);
      // The kit prepares one attempt several times: Stripe answers its idempotency key with the
      // same PaymentIntent, which the reader paid already.
      if (!(pi.status === "succeeded" && outcome === "captured"))
        fake.pay(
          piId,
          outcome === "declined" ? "declined" : outcome === "authorized" ? "requires_capture" : "succeeded",
        );
      return { paymentToken: reference, externalReferenceId: reference, extra: {} };
    },
    webhooks: {
      signatureHeader: "stripe-signature",
      send(event, payment, secret) {
        const reference = payment.prepared.externalReferenceId!;
        let object: Obj;
        let previousAttributes: Obj | undefined;
        const paid = () => fake.state.get(fake.state.paymentIntents, "payment_intent", reference);
        if (event.startsWith("payment_intent.")) object = { ...paid() };
        else if (event.startsWith("refund."))
          object = {
            id: `re_${reference.slice(3)}`,
            object: "refund",
            amount: paid().amount,
            currency: paid().currency,
            payment_intent: reference,
            status: "succeeded",
            metadata: {},
          };
        else if (event.startsWith("charge.dispute."))
          object = {
            id: `du_${reference.slice(3)}`,
            object: "dispute",
            amount: paid().amount,
            currency: paid().currency,
            payment_intent: reference,
            reason: "fraudulent",
            status: event === "charge.dispute.closed" ? "lost" : "needs_response",
          };
        else if (event.startsWith("invoice.")) object = fake.invoice(latestInvoice(reference).id as string);
        else {
          object = fake.subscription(reference);
          if (event === "customer.subscription.deleted") object = { ...object, status: "canceled" };
          if (event === "customer.subscription.updated") previousAttributes = { default_payment_method: null };
        }
        const signed = fake.webhook(event, object, { secret, previousAttributes });
        return { rawBody: signed.body, headers: new Headers(signed.headers) };
      },
    },
    refundedCents: (paymentIntentId) =>
      [...fake.state.refunds.values()]
        .filter((r) => r.payment_intent === paymentIntentId)
        .reduce((sum, r) => sum + (r.amount as number), 0),
    recurring: {
      intent: {
        recurring: true,
        period: { length: 1, unit: "MONTHS" },
        plan: { id: 4, title: "Monthly (recurring)", metadata: {} },
      },
      subscriptionStatus(id) {
        const status = fake.state.subscriptions.get(id)?.status;
        return status === "canceled" ? "cancelled" : typeof status === "string" ? status : null;
      },
      setCurrentEnd(id, end) {
        const sub = fake.state.get(fake.state.subscriptions, "subscription", id);
        for (const item of (sub.items as { data: Obj[] }).data)
          item.current_period_end = Math.floor(end.getTime() / 1000);
      },
    },
  };
}
