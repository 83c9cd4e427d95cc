/**
 * The Stripe adapter's checkout (./stripe.ts): the PaymentIntent or subscription made at preview
 * and its checks at create, and the price item a plan's subscription charges (plan switches make
 * theirs the same way: ./stripe-switch.ts).
 */
import "server-only";

import type Stripe from "stripe";

import { addDuration } from "../subscribers/subscription-state";
import {
  PaymentAdapterError,
  type GatewayCredentials,
  type PaymentIntent,
  type PaymentProof,
  type PreparedPayment,
  type VerifiedPayment,
} from "./adapter";
import { stripeIdOf as idOf, stripeAdapterError, stripeCall, stripeErrorCode } from "./stripe-client";
import { stripeCustomerOf } from "./stripe-customers";

const INTERVALS = { DAYS: "day", WEEKS: "week", MONTHS: "month", YEARS: "year" } as const;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The failure of a PaymentIntent in words: Stripe's own message for the reader. */
function failureReason(pi: Stripe.PaymentIntent): string {
  const error = pi.last_payment_error;
  if (error?.message) return error.message;
  if (pi.status === "canceled") return "The Stripe payment was canceled.";
  return "The Stripe payment has not been made.";
}

/** A PaymentIntent's status as the contract's. */
function verifiedStatus(pi: Stripe.PaymentIntent): VerifiedPayment["status"] {
  if (pi.status === "succeeded") return "captured";
  if (pi.status === "requires_capture") return "authorized";
  if (pi.status === "processing" || pi.status === "requires_action" || pi.status === "requires_confirmation")
    return "pending";
  return "failed";
}

/** The product a plan's Stripe prices belong to: the plan's `stripe_product_id`, or one made once per plan. */
export async function stripeProductFor(stripe: Stripe, intent: PaymentIntent): Promise<string> {
  const named = str(intent.plan.metadata?.stripe_product_id);
  if (named) return named;
  const id = `masthead_${intent.accountId}_plan_${intent.plan.id ?? "none"}`;
  try {
    await stripe.products.create({
      id,
      name: intent.plan.title,
      metadata: { account_id: String(intent.accountId) },
    });
  } catch (error) {
    // Made by an earlier checkout of the plan: Stripe keeps product ids unique.
    if (stripeErrorCode(error) !== "resource_already_exists") return stripeAdapterError(error);
  }
  return id;
}

/** The subscription item: the plan's Stripe price (checked: the period's amount and currency), or price_data. */
export async function stripeItemFor(stripe: Stripe, intent: PaymentIntent, product: () => Promise<string>) {
  const currency = intent.currency.toLowerCase();
  const periodCents = intent.periodCents ?? intent.amountCents;
  const priceId = str(intent.plan.metadata?.stripe_price_id);
  if (priceId) {
    const price = await stripeCall(() => stripe.prices.retrieve(priceId));
    if (price.unit_amount !== periodCents || price.currency !== currency || !price.recurring)
      throw new PaymentAdapterError(
        `The plan's Stripe price ${priceId} is not a recurring ${periodCents} ${intent.currency}: Stripe would charge another amount.`,
        "invalid",
      );
    return { item: { price: priceId }, product: idOf(price.product)! };
  }
  if (!intent.period || intent.period.unit === "LIFETIME")
    throw new PaymentAdapterError("A Stripe subscription needs the plan's billing period.", "invalid");
  const productId = await product();
  return {
    item: {
      price_data: {
        currency,
        product: productId,
        unit_amount: periodCents,
        recurring: { interval: INTERVALS[intent.period.unit], interval_count: intent.period.length },
      },
    },
    product: productId,
  };
}

async function prepareSubscription(stripe: Stripe, creds: GatewayCredentials, intent: PaymentIntent) {
  const metadata = { attempt_id: intent.attemptId, account_id: String(intent.accountId) };
  const currency = intent.currency.toLowerCase();
  if (!intent.trial && intent.periodCents !== undefined && intent.periodCents !== intent.amountCents)
    throw new PaymentAdapterError(
      "Stripe charges the period's price at once: the first payment must be it.",
      "invalid",
    );
  const { item, product } = await stripeItemFor(stripe, intent, () => stripeProductFor(stripe, intent));
  // The reader's own customer (stripe-customers.ts); a guest's, for this attempt only.
  const customer: string =
    (await stripeCustomerOf(stripe, creds, intent)) ??
    (
      await stripeCall(() =>
        stripe.customers.create(
          {
            ...(intent.subscriber.email ? { email: intent.subscriber.email } : {}),
            ...(intent.subscriber.name ? { name: intent.subscriber.name } : {}),
            metadata: { ...metadata, ...(intent.subscriber.id ? { member_id: String(intent.subscriber.id) } : {}) },
          },
          { idempotencyKey: `masthead-customer-${intent.attemptId}` },
        ),
      )
    ).id;
  const trialEnd = intent.trial ? addDuration(new Date(), intent.trial.length, intent.trial.unit) : null;
  const subscription = await stripeCall(() =>
    stripe.subscriptions.create(
      {
        customer,
        items: [item],
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription" },
        metadata,
        ...(trialEnd
          ? {
              trial_end: Math.floor(trialEnd.getTime() / 1000),
              // The trial's authorization is the first invoice's charge (refunded by the trial refund).
              add_invoice_items: [{ price_data: { currency, product, unit_amount: intent.amountCents } }],
            }
          : {}),
        expand: ["latest_invoice.confirmation_secret"],
      },
      { idempotencyKey: `masthead-subscription-${intent.attemptId}` },
    ),
  );
  const invoice = subscription.latest_invoice as Stripe.Invoice | null;
  const secret = invoice?.confirmation_secret?.client_secret;
  if (!invoice || !secret || invoice.total !== intent.amountCents)
    throw new PaymentAdapterError(
      "Stripe made a subscription whose first invoice does not match the payment.",
      "unavailable",
    );
  return {
    externalReferenceId: subscription.id,
    clientOptions: {
      publishable_key: creds.app_key,
      mode: "subscription",
      subscription_id: subscription.id,
      client_secret: secret,
    },
  };
}

/** preparePayment: a PaymentIntent (one-time) or a subscription whose first invoice the browser pays. */
export async function prepareStripePayment(
  stripe: Stripe,
  creds: GatewayCredentials,
  intent: PaymentIntent,
): Promise<PreparedPayment> {
  if (intent.recurring) return prepareSubscription(stripe, creds, intent);
  const currency = intent.currency.toLowerCase();
  const customer = await stripeCustomerOf(stripe, creds, intent);
  const pi = await stripeCall(() =>
    stripe.paymentIntents.create(
      {
        ...(customer ? { customer } : {}),
        amount: intent.amountCents,
        currency,
        automatic_payment_methods: { enabled: true },
        description: intent.plan.title,
        metadata: { attempt_id: intent.attemptId, account_id: String(intent.accountId) },
        ...(intent.subscriber.email ? { receipt_email: intent.subscriber.email } : {}),
      },
      { idempotencyKey: `masthead-payment-${intent.attemptId}` },
    ),
  );
  if (pi.amount !== intent.amountCents || pi.currency !== currency || !pi.client_secret)
    throw new PaymentAdapterError("Stripe made a PaymentIntent that does not match the payment.", "unavailable");
  return {
    externalReferenceId: pi.id,
    clientOptions: {
      publishable_key: creds.app_key,
      mode: "payment",
      payment_intent_id: pi.id,
      client_secret: pi.client_secret,
    },
  };
}

async function verifySubscription(
  stripe: Stripe,
  intent: PaymentIntent,
  proof: PaymentProof,
): Promise<VerifiedPayment> {
  const reference = proof.externalReferenceId;
  const token = proof.paymentToken;
  const failed = (reason: string): VerifiedPayment => ({
    status: "failed",
    externalPaymentId: null,
    externalOrderId: reference,
    reason,
  });
  if (!reference?.startsWith("sub_")) return failed("This payment has no Stripe subscription: preview it again.");
  if (!token || !/^(sub|pi)_[A-Za-z0-9]+$/.test(token))
    return failed("payment.payment_token must be the Stripe subscription (sub_…) or its PaymentIntent (pi_…).");
  let sub: Stripe.Subscription;
  try {
    sub = await stripe.subscriptions.retrieve(reference, { expand: ["latest_invoice.payments"] });
  } catch (error) {
    if (stripeErrorCode(error) === "resource_missing") return failed("Stripe knows no such subscription.");
    return stripeAdapterError(error);
  }
  if (sub.metadata?.attempt_id !== intent.attemptId) return failed("The Stripe subscription is not this checkout's.");
  const invoice = sub.latest_invoice as Stripe.Invoice | null;
  if (!invoice || invoice.billing_reason !== "subscription_create")
    return failed("The subscription's first invoice is missing.");
  if (invoice.currency !== intent.currency.toLowerCase())
    return failed("The payment's currency differs from the subscription's.");
  if (invoice.total !== intent.amountCents) return failed("The payment's amount differs from the subscription's.");
  const payment = invoice.payments?.data.find((p) => p.is_default) ?? invoice.payments?.data[0];
  const piId = idOf(payment?.payment.payment_intent);
  const pi = piId ? await stripeCall(() => stripe.paymentIntents.retrieve(piId)) : null;
  if (token.startsWith("pi_") && pi?.id !== token) return failed("The payment is not this subscription's.");
  if (token.startsWith("sub_") && token !== reference) return failed("The payment is not this subscription's.");
  const status = invoice.status === "paid" ? "captured" : pi ? verifiedStatus(pi) : "pending";
  return {
    status,
    externalPaymentId: invoice.id ?? null,
    externalOrderId: reference,
    gatewayCustomerId: idOf(sub.customer),
    ...(status === "failed" && pi ? { reason: failureReason(pi) } : {}),
    details: {
      stripe_subscription_id: sub.id,
      stripe_invoice_id: invoice.id ?? null,
      stripe_payment_intent_id: pi?.id ?? null,
      status: sub.status,
    },
  };
}

async function verifyOneTime(stripe: Stripe, intent: PaymentIntent, proof: PaymentProof): Promise<VerifiedPayment> {
  const reference = proof.externalReferenceId;
  const token = proof.paymentToken;
  const failed = (reason: string): VerifiedPayment => ({
    status: "failed",
    externalPaymentId: token,
    externalOrderId: reference,
    reason,
  });
  if (!reference?.startsWith("pi_")) return failed("This payment has no Stripe PaymentIntent: preview it again.");
  if (!token || !/^pi_[A-Za-z0-9]+$/.test(token))
    return failed("payment.payment_token must be the Stripe PaymentIntent id (pi_…).");
  // The PaymentIntent frozen in the attempt, never one the client names instead.
  if (token !== reference) return failed("The payment is not this checkout's PaymentIntent.");
  let pi: Stripe.PaymentIntent;
  try {
    pi = await stripe.paymentIntents.retrieve(reference);
  } catch (error) {
    if (stripeErrorCode(error) === "resource_missing") return failed("Stripe knows no such payment.");
    return stripeAdapterError(error);
  }
  if (pi.metadata?.attempt_id !== intent.attemptId) return failed("The payment is not for this checkout.");
  if (pi.currency !== intent.currency.toLowerCase())
    return failed("The payment's currency differs from the subscription's.");
  if (pi.amount !== intent.amountCents) return failed("The payment's amount differs from the subscription's.");
  const status = verifiedStatus(pi);
  return {
    status,
    externalPaymentId: pi.id,
    externalOrderId: reference,
    ...(status === "failed" ? { reason: failureReason(pi) } : {}),
    details: { stripe_payment_intent_id: pi.id, status: pi.status, stripe_charge_id: idOf(pi.latest_charge) },
  };
}

/** verifyPayment: what Stripe reports of the attempt's PaymentIntent or subscription. */
export function verifyStripePayment(
  stripe: Stripe,
  intent: PaymentIntent,
  proof: PaymentProof,
): Promise<VerifiedPayment> {
  return intent.recurring ? verifySubscription(stripe, intent, proof) : verifyOneTime(stripe, intent, proof);
}
