/**
 * The Stripe adapter's calls on a payment made (./stripe.ts): refunds (a subscription's charge
 * through its invoice's PaymentIntent), the clean-up of a payment nobody holds, and the card of a
 * subscription changed in Masthead's card form or on Stripe's billing portal.
 */
import "server-only";

import type Stripe from "stripe";

import { PaymentAdapterError, type GatewayEventDetails, type PaymentAdapter } from "./adapter";
import { stripeIdOf as idOf, stripeAdapterError, stripeCall, stripeErrorCode } from "./stripe-client";
import { cardBrand } from "./stripe-events";

type Method<K extends keyof PaymentAdapter> = NonNullable<PaymentAdapter[K]>;
type RefundRequest = Parameters<Method<"refund">>[1];
type RefundResult = Awaited<ReturnType<Method<"refund">>>;
type PaymentMethodUpdate = Parameters<Method<"updatePaymentMethod">>[1];
type UpdatedPaymentMethod = Awaited<ReturnType<Method<"updatePaymentMethod">>>;
type HostedPaymentMethodRequest = Parameters<Method<"hostedPaymentMethodUpdate">>[1];

/** beforeExitOnSubscriptionAbsence: the subscription cancelled, a captured one-time payment refunded. */
export async function stripeBeforeExitOnSubscriptionAbsence(
  stripe: Stripe,
  details: GatewayEventDetails,
): Promise<void> {
  if (details.externalSubscriptionId) {
    const sub = await stripeCall(() => stripe.subscriptions.retrieve(details.externalSubscriptionId!));
    if (sub.status !== "canceled" && sub.status !== "incomplete_expired")
      await stripeCall(() => stripe.subscriptions.cancel(sub.id));
  }
  // A captured one-time payment nobody holds: refunded in full ("already refunded" is done).
  if (details.externalPaymentId?.startsWith("pi_") && details.status === "captured") {
    try {
      await stripe.refunds.create(
        { payment_intent: details.externalPaymentId, metadata: { reason: "no subscription for this payment" } },
        { idempotencyKey: `masthead-absence-${details.externalPaymentId}` },
      );
    } catch (error) {
      if (stripeErrorCode(error) !== "charge_already_refunded") stripeAdapterError(error);
    }
  }
}

/** The PaymentIntent of a payment we recorded: itself (one-time), or the one that paid an invoice. */
async function paymentIntentOf(stripe: Stripe, externalPaymentId: string): Promise<string> {
  if (externalPaymentId.startsWith("pi_")) return externalPaymentId;
  if (!externalPaymentId.startsWith("in_")) throw new PaymentAdapterError("The payment has no Stripe id.", "invalid");
  const invoice = await stripeCall(() => stripe.invoices.retrieve(externalPaymentId, { expand: ["payments"] }));
  const payment = invoice.payments?.data.find((p) => p.status === "paid") ?? invoice.payments?.data[0];
  const pi = idOf(payment?.payment.payment_intent);
  if (!pi) throw new PaymentAdapterError("Stripe reports no payment of this invoice.", "declined");
  return pi;
}

export async function stripeRefund(stripe: Stripe, request: RefundRequest): Promise<RefundResult> {
  if (!request.externalPaymentId) throw new PaymentAdapterError("The payment has no Stripe id.", "invalid");
  const paymentIntent = await paymentIntentOf(stripe, request.externalPaymentId);
  const refund = await stripeCall(() =>
    stripe.refunds.create(
      {
        payment_intent: paymentIntent,
        amount: request.amountCents,
        reason: "requested_by_customer",
        metadata: {
          refund_id: String(request.refundId),
          account_id: String(request.accountId),
          ...(request.reason ? { reason: request.reason.slice(0, 500) } : {}),
        },
      },
      { idempotencyKey: `masthead-refund-${request.refundId}` },
    ),
  );
  return {
    externalRefundId: refund.id,
    details: { status: refund.status, stripe_payment_intent_id: paymentIntent },
  };
}

/** updatePaymentMethod: the card a SetupIntent confirmed becomes the subscription's (an open invoice paid with it first). */
export async function updateStripePaymentMethod(
  stripe: Stripe,
  update: PaymentMethodUpdate,
): Promise<UpdatedPaymentMethod> {
  const subscriptionId = update.gatewayReference;
  const setupIntentId = update.proof.paymentToken;
  if (!subscriptionId?.startsWith("sub_"))
    throw new PaymentAdapterError("This subscription has no Stripe subscription.", "declined");
  if (!/^seti_[A-Za-z0-9]+$/.test(setupIntentId))
    throw new PaymentAdapterError(
      "payment_token must be the Stripe SetupIntent (seti_…) the card form confirmed.",
      "invalid",
    );
  const [setup, sub] = await Promise.all([
    stripeCall(() => stripe.setupIntents.retrieve(setupIntentId, { expand: ["payment_method"] })),
    stripeCall(() => stripe.subscriptions.retrieve(subscriptionId, { expand: ["latest_invoice"] })),
  ]);
  if (idOf(setup.customer) !== idOf(sub.customer))
    throw new PaymentAdapterError("The new card is not this subscriber's.", "declined");
  if (setup.status !== "succeeded")
    throw new PaymentAdapterError(setup.last_setup_error?.message ?? "The new card was not confirmed.", "declined");
  const method = setup.payment_method as Stripe.PaymentMethod | null;
  if (!method) throw new PaymentAdapterError("The SetupIntent names no card.", "declined");
  // An unpaid invoice (a failed renewal): paid with the new card at once, before the card
  // becomes the subscription's (a card Stripe declines changes nothing).
  const invoice = sub.latest_invoice as Stripe.Invoice | null;
  const openInvoice = invoice?.status === "open" ? invoice.id : undefined;
  if (openInvoice)
    await stripeCall(() =>
      stripe.invoices.pay(
        openInvoice,
        { payment_method: method.id },
        { idempotencyKey: `masthead-pay-${openInvoice}-${method.id}` },
      ),
    );
  await stripeCall(() => stripe.subscriptions.update(subscriptionId, { default_payment_method: method.id }));
  const card = method.card;
  // The card's PaymentMethod, as Stripe's customer.subscription.updated names it: that event,
  // which follows this change, then finds the method unchanged.
  return { paymentToken: method.id, label: card ? `${cardBrand(card.brand)} ending ${card.last4}` : null };
}

/** hostedPaymentMethodUpdate: a session of Stripe's billing portal for the subscription's customer. */
export async function stripeHostedPaymentMethodUpdate(
  stripe: Stripe,
  request: HostedPaymentMethodRequest,
): Promise<{ url: string }> {
  const subscriptionId = request.gatewayReference;
  if (!subscriptionId?.startsWith("sub_"))
    throw new PaymentAdapterError("This subscription has no Stripe subscription.", "declined");
  const sub = await stripeCall(() => stripe.subscriptions.retrieve(subscriptionId));
  if (sub.status === "canceled" || sub.status === "incomplete_expired")
    throw new PaymentAdapterError(
      `Stripe reports this subscription as ${sub.status}: its card cannot change.`,
      "declined",
    );
  const session = await stripeCall(() => stripe.billingPortal.sessions.create({ customer: idOf(sub.customer)! }));
  const url = new URL(session.url);
  if (url.protocol !== "https:") throw new PaymentAdapterError("Stripe gave no hosted page.", "unavailable");
  return { url: url.toString() };
}
