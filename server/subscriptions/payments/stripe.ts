/**
 * The Stripe adapter (docs/subscriptions.md, "Stripe"), through the official SDK only
 * (./stripe-client.ts, API version pinned to the SDK's). payment_type `stripe` (one-time: a
 * PaymentIntent) and `stripe_recurring` (a Stripe Subscription that Stripe charges by itself).
 *
 * Credentials: `app_key` = the publishable key (pk_…, handed to Stripe.js in the browser),
 * `secret` = the secret or restricted key (sk_…/rk_…, never leaves the server), `webhook_secret` =
 * the endpoint's signing secret (whsec_…).
 *
 * - preview, one-time: `paymentIntents.create` {amount, currency, metadata {attempt_id, account_id}},
 *   idempotent on the attempt; the PaymentIntent id is the external_reference_id, its client_secret
 *   goes to the Payment Element (3-D Secure happens there).
 * - preview, recurring: the reader's Customer (one per reader: ./stripe-customers.ts; a guest's,
 *   per attempt), then `subscriptions.create` with `payment_behavior:
 *   default_incomplete`, the period's price (the plan's `stripe_price_id`, checked against the
 *   price, or `price_data` on a product made per plan), `trial_end` at the trial's end plus the
 *   trial's authorization as an invoice item, metadata {attempt_id}; the first invoice's
 *   `confirmation_secret` goes to the browser. The subscription id is the external_reference_id.
 * - create: the PaymentIntent (or the subscription and its first invoice) is read back from
 *   Stripe and must carry this attempt, this amount and this currency before anything is granted.
 * - Stripe charges each period itself and says so with `invoice.paid` (no chargeRecurring); a
 *   subscription's charge is known by its invoice id (`in_…`), refunded through the invoice's
 *   PaymentIntent. Cancels, undos, pauses and resumes made in Masthead are told to Stripe
 *   (./stripe-subscription-controls.ts).
 */
import "server-only";

import type Stripe from "stripe";

import { addDuration } from "../subscribers/subscription-state";
import {
  PaymentAdapterError,
  type GatewayCredentials,
  type PaymentAdapter,
  type PaymentIntent,
  type PaymentProof,
  type VerifiedPayment,
} from "./adapter";
import { stripeBrowserOptions } from "./stripe-browser";
import { checkStripeConnection } from "./stripe-check";
import { stripeAdapterError, stripeCall, stripeClient, stripeErrorCode, type StripeConnection } from "./stripe-client";
import { stripeCustomerSubscriptions } from "./stripe-customer-subscriptions";
import { stripeCustomerOf } from "./stripe-customers";
import { cardBrand, STRIPE_EVENT_JOBS, stripeEventDetails, stripeSignatureValid } from "./stripe-events";
import { stripeSubscriptionControls } from "./stripe-subscription-controls";
import { stripePlanChanges } from "./stripe-switch";

const STRIPE_PROVIDER = "stripe";
const STRIPE_PAYMENT_TYPES = ["stripe", "stripe_recurring"] as const;
const STRIPE_RENEWAL_CHARGE_WAIT_MS = 24 * 60 * 60_000;

type StripeAdapterOptions = {
  /** Default: STRIPE_API_BASE_URL (Stripe itself). */
  connection?: () => StripeConnection | undefined;
  maxNetworkRetries?: number;
  /** Webhook signatures' clock (Unix seconds); default: now. */
  nowSeconds?: () => number | undefined;
};

const INTERVALS = { DAYS: "day", WEEKS: "week", MONTHS: "month", YEARS: "year" } as const;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const idOf = (v: string | { id: string } | null | undefined): string | null =>
  typeof v === "string" ? v : (v?.id ?? null);

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

export function createStripeAdapter(options: StripeAdapterOptions = {}): PaymentAdapter {
  const client = (creds: GatewayCredentials) =>
    stripeClient(creds, { connection: options.connection?.(), maxNetworkRetries: options.maxNetworkRetries });

  function needCredentials(creds: GatewayCredentials | null): GatewayCredentials {
    if (!creds || !creds.enabled) throw new PaymentAdapterError("Stripe is not set up for this account.", "invalid");
    return creds;
  }

  /** The product a plan's Stripe prices belong to: the plan's `stripe_product_id`, or one made once per plan. */
  async function productFor(stripe: Stripe, intent: PaymentIntent): Promise<string> {
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
  async function itemFor(stripe: Stripe, intent: PaymentIntent, product: () => Promise<string>) {
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

  async function prepareSubscription(creds: GatewayCredentials, intent: PaymentIntent) {
    const stripe = client(creds);
    const metadata = { attempt_id: intent.attemptId, account_id: String(intent.accountId) };
    const currency = intent.currency.toLowerCase();
    if (!intent.trial && intent.periodCents !== undefined && intent.periodCents !== intent.amountCents)
      throw new PaymentAdapterError(
        "Stripe charges the period's price at once: the first payment must be it.",
        "invalid",
      );
    const { item, product } = await itemFor(stripe, intent, () => productFor(stripe, intent));
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

  return {
    paymentTypes: STRIPE_PAYMENT_TYPES,
    provider: STRIPE_PROVIDER,
    displayName: "Stripe",
    // Stripe finalizes a renewal's invoice about an hour after the period renews and charges it
    // then (up to 72 h when the invoice.created webhook is not acknowledged); a day covers the usual case.
    renewalReportedWithinMs: STRIPE_RENEWAL_CHARGE_WAIT_MS,
    takesPayment: true,
    callers: "any",
    // Disabled keys still stop or pause what Stripe charges (readers can no longer pay through them).
    subscriptionControls: stripeSubscriptionControls((creds) =>
      client(needCredentials(creds && { ...creds, enabled: true })),
    ),
    ...stripePlanChanges({ client, needCredentials, itemFor, productFor }),
    browserOptions: stripeBrowserOptions,

    async preparePayment(credentials, intent) {
      const creds = needCredentials(credentials);
      if (intent.recurring) return prepareSubscription(creds, intent);
      const stripe = client(creds);
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
    },

    async verifyPayment(credentials, intent, proof) {
      const stripe = client(needCredentials(credentials));
      return intent.recurring ? verifySubscription(stripe, intent, proof) : verifyOneTime(stripe, intent, proof);
    },

    webhookRequestAuthorized(creds, request) {
      return stripeSignatureValid(request, creds.webhook_secret, options.nowSeconds?.());
    },

    webhookEventTypeMapping() {
      return STRIPE_EVENT_JOBS;
    },

    webhookEventDetails(request) {
      return stripeEventDetails(request);
    },

    async beforeExitOnSubscriptionAbsence(creds, details) {
      const stripe = client(creds);
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
    },

    async refund(credentials, request) {
      const stripe = client(needCredentials(credentials));
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
    },

    async updatePaymentMethod(credentials, update) {
      const stripe = client(needCredentials(credentials));
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
    },

    async hostedPaymentMethodUpdate(credentials, request) {
      const stripe = client(needCredentials(credentials));
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
    },

    async paymentAliases(creds, externalPaymentId) {
      if (!externalPaymentId.startsWith("pi_")) return [];
      const stripe = client(creds);
      // The invoices this PaymentIntent paid: a subscription's charges are recorded by their invoice.
      const listed = await stripeCall(() =>
        stripe.invoicePayments.list({ payment: { type: "payment_intent", payment_intent: externalPaymentId } }),
      );
      return listed.data.map((p) => idOf(p.invoice)).filter((id): id is string => id !== null);
    },
    checkConnection: (creds) => checkStripeConnection(client(creds), creds),

    customerSubscriptions: (creds, customerId) => stripeCustomerSubscriptions(client(creds), customerId),

    async renewal(creds, details) {
      if (!details.externalSubscriptionId) return { endTimestamp: null };
      const sub = await stripeCall(() => client(creds).subscriptions.retrieve(details.externalSubscriptionId!));
      // Since API 2025-03-31 the period lives on each item: the subscription is paid to the latest one.
      const ends = sub.items.data.map((item) => item.current_period_end).filter((n) => Number.isInteger(n));
      return { endTimestamp: ends.length ? new Date(Math.max(...ends) * 1000) : null };
    },
  };
}

export const stripeAdapter = createStripeAdapter();
