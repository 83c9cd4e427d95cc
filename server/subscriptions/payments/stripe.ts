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

import { PaymentAdapterError, type GatewayCredentials, type PaymentAdapter } from "./adapter";
import { stripeBrowserOptions } from "./stripe-browser";
import { checkStripeConnection } from "./stripe-check";
import { prepareStripePayment, verifyStripePayment } from "./stripe-checkout";
import { stripeCall, stripeClient, stripeIdOf, type StripeConnection } from "./stripe-client";
import { stripeCustomerSubscriptions } from "./stripe-customer-subscriptions";
import { STRIPE_EVENT_JOBS, stripeEventDetails, stripeSignatureValid } from "./stripe-events";
import {
  stripeBeforeExitOnSubscriptionAbsence,
  stripeHostedPaymentMethodUpdate,
  stripeRefund,
  updateStripePaymentMethod,
} from "./stripe-payments";
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

export function createStripeAdapter(options: StripeAdapterOptions = {}): PaymentAdapter {
  const client = (creds: GatewayCredentials) =>
    stripeClient(creds, { connection: options.connection?.(), maxNetworkRetries: options.maxNetworkRetries });

  function needCredentials(creds: GatewayCredentials | null): GatewayCredentials {
    if (!creds || !creds.enabled) throw new PaymentAdapterError("Stripe is not set up for this account.", "invalid");
    return creds;
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
    ...stripePlanChanges({ client, needCredentials }),
    browserOptions: stripeBrowserOptions,

    preparePayment: async (credentials, intent) => {
      const creds = needCredentials(credentials);
      return prepareStripePayment(client(creds), creds, intent);
    },
    verifyPayment: async (credentials, intent, proof) =>
      verifyStripePayment(client(needCredentials(credentials)), intent, proof),

    webhookRequestAuthorized(creds, request) {
      return stripeSignatureValid(request, creds.webhook_secret, options.nowSeconds?.());
    },

    webhookEventTypeMapping() {
      return STRIPE_EVENT_JOBS;
    },

    webhookEventDetails(request) {
      return stripeEventDetails(request);
    },

    beforeExitOnSubscriptionAbsence: async (creds, details) =>
      stripeBeforeExitOnSubscriptionAbsence(client(creds), details),
    refund: async (credentials, request) => stripeRefund(client(needCredentials(credentials)), request),
    updatePaymentMethod: async (credentials, update) =>
      updateStripePaymentMethod(client(needCredentials(credentials)), update),
    hostedPaymentMethodUpdate: async (credentials, request) =>
      stripeHostedPaymentMethodUpdate(client(needCredentials(credentials)), request),

    async paymentAliases(creds, externalPaymentId) {
      if (!externalPaymentId.startsWith("pi_")) return [];
      const stripe = client(creds);
      // The invoices this PaymentIntent paid: a subscription's charges are recorded by their invoice.
      const listed = await stripeCall(() =>
        stripe.invoicePayments.list({ payment: { type: "payment_intent", payment_intent: externalPaymentId } }),
      );
      return listed.data.map((p) => stripeIdOf(p.invoice)).filter((id): id is string => id !== null);
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
