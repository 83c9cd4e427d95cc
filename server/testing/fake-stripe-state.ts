/**
 * The objects of the fake Stripe server (fake-stripe.ts), in Stripe's documented shapes for API
 * version 2026-10-28.endive (the `stripe` SDK's types): PaymentIntents, Charges, Customers,
 * Products, Prices, Subscriptions (with their items' current periods), Invoices (with the
 * includable `confirmation_secret` and `payments`), Refunds, SetupIntents and PaymentMethods.
 * Ids carry Stripe's prefixes, amounts are integer minor units, times Unix seconds. What Stripe
 * would refuse is refused with a FakeStripeError in Stripe's error shape.
 */
import { randomBytes } from "node:crypto";

export type Obj = Record<string, unknown>;

/** A refusal in Stripe's error shape: `{error: {type, code, decline_code, message, param}}` with its HTTP status. */
export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string | null,
    message: string,
    readonly extra: { param?: string; decline_code?: string } = {},
  ) {
    super(message);
  }
  body(): Obj {
    return {
      error: { type: this.type, code: this.code, message: this.message, ...this.extra },
    };
  }
}

export const missing = (kind: string, id: string, param = "id") =>
  new FakeStripeError(404, "invalid_request_error", "resource_missing", `No such ${kind}: '${id}'`, { param });
export const invalid = (code: string | null, message: string, param?: string) =>
  new FakeStripeError(400, "invalid_request_error", code, message, param ? { param } : {});

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** The cards a test reader can pay with, by Stripe's test card brands. */
const CARD_BRANDS = ["visa", "mastercard", "amex"] as const;

// eslint-disable-next-line max-lines-per-function -- a fake gateway: one closure over its state; each handler in it is short
export function stripeState(clock: () => number) {
  const paymentIntents = new Map<string, Obj>();
  const charges = new Map<string, Obj>();
  const customers = new Map<string, Obj>();
  const products = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const setupIntents = new Map<string, Obj>();
  const paymentMethods = new Map<string, Obj>();
  const now = () => seconds(clock());

  function get(map: Map<string, Obj>, kind: string, id: string): Obj {
    const found = map.get(id);
    if (!found) throw missing(kind, id);
    return found;
  }

  function createPaymentMethod(args: { brand?: string; last4?: string; customer?: string | null } = {}): Obj {
    const pm: Obj = {
      id: newId("pm"),
      object: "payment_method",
      type: "card",
      card: {
        brand: args.brand ?? CARD_BRANDS[0],
        last4: args.last4 ?? "4242",
        exp_month: 12,
        exp_year: new Date(clock()).getUTCFullYear() + 3,
      },
      customer: args.customer ?? null,
      created: now(),
      livemode: false,
      metadata: {},
    };
    paymentMethods.set(pm.id as string, pm);
    return pm;
  }

  function createPaymentIntent(args: {
    amount: number;
    currency: string;
    metadata?: Obj;
    customer?: string | null;
    captureMethod?: "automatic" | "manual";
    description?: string | null;
  }): Obj {
    const id = newId("pi");
    const pi: Obj = {
      id,
      object: "payment_intent",
      amount: args.amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: args.currency,
      status: "requires_payment_method",
      client_secret: `${id}_secret_${randomBytes(12).toString("hex")}`,
      capture_method: args.captureMethod ?? "automatic_async",
      confirmation_method: "automatic",
      customer: args.customer ?? null,
      description: args.description ?? null,
      metadata: args.metadata ?? {},
      last_payment_error: null,
      next_action: null,
      payment_method: null,
      latest_charge: null,
      canceled_at: null,
      cancellation_reason: null,
      created: now(),
      livemode: false,
    };
    paymentIntents.set(id, pi);
    return pi;
  }

  /** A charge of `pi` that succeeded: its charge, and the invoice it pays moved to paid. */
  function succeed(pi: Obj, pm: Obj, capture: boolean) {
    const charge: Obj = {
      id: newId("ch"),
      object: "charge",
      amount: pi.amount,
      amount_captured: capture ? pi.amount : 0,
      amount_refunded: 0,
      captured: capture,
      currency: pi.currency,
      customer: pi.customer,
      payment_intent: pi.id,
      payment_method: pm.id,
      paid: true,
      refunded: false,
      status: "succeeded",
      disputed: false,
      metadata: pi.metadata,
      created: now(),
      livemode: false,
    };
    charges.set(charge.id as string, charge);
    Object.assign(pi, {
      status: capture ? "succeeded" : "requires_capture",
      amount_received: capture ? pi.amount : 0,
      amount_capturable: capture ? 0 : pi.amount,
      latest_charge: charge.id,
      payment_method: pm.id,
      last_payment_error: null,
      next_action: null,
    });
    if (!capture) return;
    const invoice = [...invoices.values()].find((i) => i.payment_intent_id === pi.id);
    if (invoice) markInvoicePaid(invoice, pm);
  }

  function markInvoicePaid(invoice: Obj, pm: Obj | null) {
    Object.assign(invoice, {
      status: "paid",
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      attempted: true,
      attempt_count: (invoice.attempt_count as number) + 1,
      status_transitions: { ...(invoice.status_transitions as Obj), paid_at: now() },
    });
    const sub = subscriptionOfInvoice(invoice);
    if (!sub) return;
    if (sub.status === "incomplete" || sub.status === "past_due" || sub.status === "unpaid")
      sub.status = sub.trial_end && (sub.trial_end as number) > now() ? "trialing" : "active";
    if (pm && !sub.default_payment_method) sub.default_payment_method = pm.id;
  }

  function subscriptionOfInvoice(invoice: Obj): Obj | null {
    const parent = invoice.parent as { subscription_details?: { subscription?: string } } | null;
    const id = parent?.subscription_details?.subscription;
    return id ? (subscriptions.get(id) ?? null) : null;
  }

  /**
   * The reader pays in the browser (Stripe.js confirmPayment): `declined` leaves the intent
   * `requires_payment_method` with Stripe's `last_payment_error`; `requires_action` waits for the
   * 3-D Secure challenge (`completeAction`).
   */
  function pay(
    id: string,
    outcome: "succeeded" | "requires_capture" | "declined" | "requires_action",
    card: { brand?: string; last4?: string } = {},
  ): Obj {
    const pi = get(paymentIntents, "payment_intent", id);
    if (pi.status === "succeeded" || pi.status === "canceled")
      throw invalid(
        "payment_intent_unexpected_state",
        `This PaymentIntent's status is ${String(pi.status)}, so it cannot be confirmed.`,
      );
    const pm = createPaymentMethod({ ...card, customer: (pi.customer as string | null) ?? null });
    if (outcome === "declined") {
      Object.assign(pi, {
        status: "requires_payment_method",
        payment_method: null,
        last_payment_error: {
          type: "card_error",
          code: "card_declined",
          decline_code: "insufficient_funds",
          message: "Your card has insufficient funds.",
          payment_method: pm,
        },
      });
      const invoice = [...invoices.values()].find((i) => i.payment_intent_id === pi.id);
      if (invoice) {
        invoice.attempted = true;
        invoice.attempt_count = (invoice.attempt_count as number) + 1;
      }
      return pi;
    }
    if (outcome === "requires_action") {
      Object.assign(pi, {
        status: "requires_action",
        payment_method: pm.id,
        next_action: { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect" } },
      });
      return pi;
    }
    succeed(pi, pm, outcome === "succeeded" || pi.capture_method !== "manual");
    return pi;
  }

  /** The reader answers the 3-D Secure challenge: passed (succeeded) or failed. */
  function completeAction(id: string, passed: boolean): Obj {
    const pi = get(paymentIntents, "payment_intent", id);
    if (pi.status !== "requires_action") throw invalid("payment_intent_unexpected_state", "Nothing to authenticate.");
    if (!passed) {
      Object.assign(pi, {
        status: "requires_payment_method",
        next_action: null,
        last_payment_error: {
          type: "card_error",
          code: "payment_intent_authentication_failure",
          message:
            "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
        },
      });
      return pi;
    }
    succeed(pi, get(paymentMethods, "payment_method", pi.payment_method as string), true);
    return pi;
  }

  function createInvoice(sub: Obj, args: { amount: number; reason: string; start: number; end: number }): Obj {
    const id = newId("in");
    const invoice: Obj = {
      id,
      object: "invoice",
      customer: sub.customer,
      currency: sub.currency,
      status: "open",
      billing_reason: args.reason,
      collection_method: "charge_automatically",
      amount_due: args.amount,
      amount_paid: 0,
      amount_remaining: args.amount,
      subtotal: args.amount,
      total: args.amount,
      attempt_count: 0,
      attempted: false,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      period_start: args.start,
      period_end: args.end,
      lines: { object: "list", data: [], has_more: false, url: `/v1/invoices/${id}/lines` },
      status_transitions: { finalized_at: now(), paid_at: null, voided_at: null },
      metadata: {},
      created: now(),
      livemode: false,
      payment_intent_id: null,
    };
    if (args.amount > 0) {
      const pi = createPaymentIntent({
        amount: args.amount,
        currency: sub.currency as string,
        customer: sub.customer as string,
      });
      invoice.payment_intent_id = pi.id;
    } else markInvoicePaid(invoice, null);
    invoices.set(id, invoice);
    return invoice;
  }

  function refund(args: { paymentIntent: string; amount?: number; metadata?: Obj; reason?: string | null }): Obj {
    const pi = get(paymentIntents, "payment_intent", args.paymentIntent);
    const charge = pi.latest_charge ? charges.get(pi.latest_charge as string) : undefined;
    if (!charge || pi.status !== "succeeded")
      throw invalid(
        "charge_not_refundable",
        `This PaymentIntent (${String(pi.id)}) does not have a successful charge to refund.`,
      );
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    if (left <= 0) throw invalid("charge_already_refunded", `Charge ${String(charge.id)} has already been refunded.`);
    const amount = args.amount ?? left;
    if (amount > left)
      throw invalid(
        "amount_too_large",
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        "amount",
      );
    const re: Obj = {
      id: newId("re"),
      object: "refund",
      amount,
      currency: pi.currency,
      payment_intent: pi.id,
      charge: charge.id,
      status: "succeeded",
      reason: args.reason ?? null,
      metadata: args.metadata ?? {},
      created: now(),
    };
    refunds.set(re.id as string, re);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return re;
  }

  return {
    paymentIntents,
    charges,
    customers,
    products,
    prices,
    subscriptions,
    invoices,
    refunds,
    setupIntents,
    paymentMethods,
    now,
    newId,
    get,
    createPaymentIntent,
    createPaymentMethod,
    createInvoice,
    markInvoicePaid,
    subscriptionOfInvoice,
    pay,
    completeAction,
    refund,
  };
}

export type StripeState = ReturnType<typeof stripeState>;
