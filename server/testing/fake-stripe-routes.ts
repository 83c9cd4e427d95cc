/**
 * The endpoints of the fake Stripe server (fake-stripe.ts): each takes the decoded form (or query)
 * parameters and answers the object as Stripe renders it, expansions included (`expand[]`), or
 * throws a FakeStripeError. Parameters are checked as Stripe checks them: a missing required one is
 * `parameter_missing`, a non-integer amount `parameter_invalid_integer`, an unknown id
 * `resource_missing` (404 for the path's own object, 400 for a referenced one).
 */
import { FakeStripeError, invalid, type Obj, type StripeState } from "./fake-stripe-state";

type Params = Obj;
type Route = { method: string; pattern: RegExp; handle: (s: StripeState, p: Params, id: string) => Obj };

const INTERVAL_SECONDS: Record<string, number> = {
  day: 86_400,
  week: 7 * 86_400,
  month: 30 * 86_400,
  year: 365 * 86_400,
};

export function addInterval(from: number, interval: string, count: number): number {
  if (interval === "month" || interval === "year") {
    const d = new Date(from * 1000);
    if (interval === "month") d.setUTCMonth(d.getUTCMonth() + count);
    else d.setUTCFullYear(d.getUTCFullYear() + count);
    return Math.floor(d.getTime() / 1000);
  }
  return from + (INTERVAL_SECONDS[interval] ?? 0) * count;
}

// ─── Parameters ──────────────────────────────────────────────────────────────────────────────

export function str(p: Params, name: string, required: true): string;
export function str(p: Params, name: string, required?: false): string | undefined;
export function str(p: Params, name: string, required = false): string | undefined {
  const v = Object.hasOwn(p, name) ? p[name] : undefined;
  if (v === undefined || v === "") {
    if (required) throw invalid("parameter_missing", `Missing required param: ${name}.`, name);
    return undefined;
  }
  if (typeof v !== "string") throw invalid("parameter_invalid_string", `Invalid string: ${name}`, name);
  return v;
}

export function int(p: Params, name: string, required: true): number;
export function int(p: Params, name: string, required?: false): number | undefined;
export function int(p: Params, name: string, required = false): number | undefined {
  const v = str(p, name, required as true);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw invalid("parameter_invalid_integer", `Invalid integer: ${v}`, name);
  return Number(v);
}

export const obj = (p: Params, name: string): Params | undefined => {
  const v = Object.hasOwn(p, name) ? p[name] : undefined;
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw invalid("parameter_invalid_object", `Invalid object: ${name}`, name);
  return v as Params;
};
export const list = (p: Params, name: string): Params[] => {
  const v = Object.hasOwn(p, name) ? p[name] : undefined;
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw invalid("parameter_invalid_array", `Invalid array: ${name}`, name);
  return v as Params[];
};
const bool = (p: Params, name: string): boolean | undefined => {
  const v = str(p, name);
  if (v === undefined) return undefined;
  if (v !== "true" && v !== "false") throw invalid("parameter_invalid_boolean", `Invalid boolean: ${v}`, name);
  return v === "true";
};
const metadataOf = (p: Params): Obj => ({ ...(obj(p, "metadata") ?? {}) });
export const expands = (p: Params): string[] => list(p, "expand").map((e) => (typeof e === "string" ? e : ""));

function currency(p: Params, name = "currency"): string {
  const c = str(p, name, true);
  if (!/^[a-z]{3}$/.test(c)) throw invalid("parameter_invalid_string", `Invalid currency: ${c}.`, name);
  return c;
}

/** A referenced object that does not exist: 400 resource_missing, naming the parameter. */
function ref(map: Map<string, Obj>, kind: string, id: string, param: string): Obj {
  const found = map.get(id);
  if (!found)
    throw new FakeStripeError(400, "invalid_request_error", "resource_missing", `No such ${kind}: '${id}'`, { param });
  return found;
}

// ─── Rendering (internal fields out, expansions in) ──────────────────────────────────────────

/** The invoice's payment by its PaymentIntent, as Stripe's InvoicePayment object. */
function invoicePayment(invoice: Obj, pi: Obj): Obj {
  return {
    id: `inpay_${String(pi.id).slice(3)}`,
    object: "invoice_payment",
    amount_paid: invoice.status === "paid" ? invoice.amount_paid : null,
    amount_requested: invoice.amount_due,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: "payment_intent", payment_intent: pi.id },
    status: invoice.status === "paid" ? "paid" : "open",
    created: invoice.created,
  };
}

export function renderInvoice(s: StripeState, invoice: Obj, expand: string[]): Obj {
  const { payment_intent_id: piId, ...out } = invoice;
  const pi = typeof piId === "string" ? s.paymentIntents.get(piId) : undefined;
  if (expand.includes("confirmation_secret"))
    out.confirmation_secret = pi ? { client_secret: pi.client_secret, type: "payment_intent" } : null;
  if (expand.includes("payments"))
    out.payments = {
      object: "list",
      has_more: false,
      url: `/v1/invoices/${String(invoice.id)}/payments`,
      data: pi ? [invoicePayment(invoice, pi)] : [],
    };
  return out;
}

export function renderSubscription(s: StripeState, sub: Obj, expand: string[]): Obj {
  const out = { ...sub };
  const nested = expand.filter((e) => e.startsWith("latest_invoice.")).map((e) => e.slice("latest_invoice.".length));
  if ((expand.includes("latest_invoice") || nested.length) && typeof sub.latest_invoice === "string")
    out.latest_invoice = renderInvoice(s, s.get(s.invoices, "invoice", sub.latest_invoice), nested);
  if (expand.includes("default_payment_method") && typeof sub.default_payment_method === "string")
    out.default_payment_method = s.paymentMethods.get(sub.default_payment_method) ?? null;
  return out;
}

function renderPaymentIntent(s: StripeState, pi: Obj, expand: string[]): Obj {
  const out = { ...pi };
  if (expand.includes("latest_charge") && typeof pi.latest_charge === "string")
    out.latest_charge = s.charges.get(pi.latest_charge) ?? null;
  if (expand.includes("payment_method") && typeof pi.payment_method === "string")
    out.payment_method = s.paymentMethods.get(pi.payment_method) ?? null;
  return out;
}

function renderSetupIntent(s: StripeState, si: Obj, expand: string[]): Obj {
  const out = { ...si };
  if (expand.includes("payment_method") && typeof si.payment_method === "string")
    out.payment_method = s.paymentMethods.get(si.payment_method) ?? null;
  return out;
}

// ─── Subscriptions ───────────────────────────────────────────────────────────────────────────

export function priceFrom(s: StripeState, item: Params, where: string): Obj {
  const priceId = str(item, "price");
  if (priceId) return ref(s.prices, "price", priceId, `${where}[price]`);
  const data = obj(item, "price_data");
  if (!data) throw invalid("parameter_missing", `Missing required param: ${where}[price].`, `${where}[price]`);
  const product = str(data, "product", true);
  ref(s.products, "product", product, `${where}[price_data][product]`);
  const recurring = obj(data, "recurring");
  const price: Obj = {
    id: s.newId("price"),
    object: "price",
    active: false,
    currency: currency(data),
    product,
    unit_amount: int(data, "unit_amount", true),
    type: recurring ? "recurring" : "one_time",
    recurring: recurring
      ? {
          interval: str(recurring, "interval", true),
          interval_count: int(recurring, "interval_count") ?? 1,
          usage_type: "licensed",
        }
      : null,
    livemode: false,
    created: s.now(),
  };
  s.prices.set(price.id as string, price);
  return price;
}

function createSubscription(s: StripeState, p: Params): Obj {
  const customer = str(p, "customer", true);
  ref(s.customers, "customer", customer, "customer");
  const items = list(p, "items");
  if (items.length !== 1) throw invalid("parameter_missing", "Missing required param: items.", "items");
  const price = priceFrom(s, items[0]!, "items[0]");
  const recurring = price.recurring as { interval: string; interval_count: number } | null;
  if (!recurring)
    throw invalid(
      null,
      "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.",
      "items[0][price]",
    );
  if (!["day", "week", "month", "year"].includes(recurring.interval))
    throw invalid(
      "parameter_invalid_string",
      "Invalid recurring[interval]",
      "items[0][price_data][recurring][interval]",
    );
  const now = s.now();
  const trialDays = int(p, "trial_period_days");
  const trialEndRaw = str(p, "trial_end");
  let trialEnd: number | null = null;
  if (trialEndRaw !== undefined && trialEndRaw !== "now") {
    trialEnd = int(p, "trial_end")!;
    if (trialEnd <= now + 45)
      throw invalid(null, "Invalid timestamp: must be an integer Unix timestamp in the future.", "trial_end");
  } else if (trialDays !== undefined) trialEnd = now + trialDays * 86_400;
  const extras = list(p, "add_invoice_items").map((item, i) => {
    const extra = priceFrom(s, item, `add_invoice_items[${i}]`);
    return (extra.unit_amount as number) * (int(item, "quantity") ?? 1);
  });
  const periodEnd = trialEnd ?? addInterval(now, recurring.interval, recurring.interval_count);
  const id = s.newId("sub");
  const sub: Obj = {
    id,
    object: "subscription",
    customer,
    currency: price.currency,
    status: trialEnd ? "trialing" : "incomplete",
    metadata: metadataOf(p),
    items: {
      object: "list",
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
      data: [
        {
          id: s.newId("si"),
          object: "subscription_item",
          price,
          quantity: 1,
          subscription: id,
          current_period_start: now,
          current_period_end: periodEnd,
          created: now,
          metadata: {},
        },
      ],
    },
    latest_invoice: null,
    default_payment_method: null,
    pending_setup_intent: null,
    payment_settings: {
      save_default_payment_method: str(obj(p, "payment_settings") ?? {}, "save_default_payment_method") ?? "off",
    },
    trial_start: trialEnd ? now : null,
    trial_end: trialEnd,
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    pause_collection: null,
    collection_method: "charge_automatically",
    billing_cycle_anchor: periodEnd,
    start_date: now,
    created: now,
    livemode: false,
  };
  s.subscriptions.set(id, sub);
  const amount = (trialEnd ? 0 : (price.unit_amount as number)) + extras.reduce((a, b) => a + b, 0);
  const invoice = s.createInvoice(sub, { amount, reason: "subscription_create", start: now, end: now });
  sub.latest_invoice = invoice.id;
  if (amount === 0 && !trialEnd) sub.status = "active";
  return renderSubscription(s, sub, expands(p));
}

function updateSubscription(s: StripeState, p: Params, id: string): Obj {
  const sub = s.get(s.subscriptions, "subscription", id);
  if (sub.status === "canceled")
    throw invalid(null, "A canceled subscription can only update its cancellation_details and metadata.");
  const atEnd = bool(p, "cancel_at_period_end");
  if (atEnd !== undefined) {
    // Stripe sets (or clears) when it will cancel: the current period's end, asked now.
    const item = (sub.items as { data: Obj[] }).data[0]!;
    Object.assign(sub, {
      cancel_at_period_end: atEnd,
      cancel_at: atEnd ? item.current_period_end : null,
      canceled_at: atEnd ? s.now() : null,
    });
  }
  if (Object.hasOwn(p, "pause_collection")) {
    const pause = p.pause_collection;
    if (pause === "") sub.pause_collection = null;
    else {
      const behavior = str(obj(p, "pause_collection")!, "behavior", true);
      if (!["keep_as_draft", "mark_uncollectible", "void"].includes(behavior))
        throw invalid(
          "parameter_invalid_string",
          `Invalid pause_collection[behavior]: ${behavior}`,
          "pause_collection[behavior]",
        );
      sub.pause_collection = { behavior, resumes_at: int(obj(p, "pause_collection")!, "resumes_at") ?? null };
    }
  }
  const pm = str(p, "default_payment_method");
  if (pm !== undefined) {
    const method = ref(s.paymentMethods, "PaymentMethod", pm, "default_payment_method");
    if (method.customer !== sub.customer)
      throw new FakeStripeError(
        400,
        "invalid_request_error",
        "resource_missing",
        `The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`,
        { param: "default_payment_method" },
      );
    sub.default_payment_method = pm;
  }
  if (obj(p, "metadata")) sub.metadata = { ...(sub.metadata as Obj), ...metadataOf(p) };
  return renderSubscription(s, sub, expands(p));
}

// ─── Routes ──────────────────────────────────────────────────────────────────────────────────

const ID = "([A-Za-z0-9_]+)";
const route = (method: string, path: string, handle: Route["handle"]): Route => ({
  method,
  pattern: new RegExp(`^${path.replace(":id", ID)}$`),
  handle,
});

export const ROUTES: Route[] = [
  route("POST", "/v1/payment_intents", (s, p) => {
    const amount = int(p, "amount", true);
    if (amount < 50) throw invalid("amount_too_small", "Amount must be at least 50 cents", "amount");
    const customer = str(p, "customer");
    if (customer) ref(s.customers, "customer", customer, "customer");
    const capture = str(p, "capture_method");
    const pi = s.createPaymentIntent({
      amount,
      currency: currency(p),
      metadata: metadataOf(p),
      customer: customer ?? null,
      captureMethod: capture === "manual" ? "manual" : "automatic",
      description: str(p, "description") ?? null,
    });
    return renderPaymentIntent(s, pi, expands(p));
  }),
  route("GET", "/v1/payment_intents/:id", (s, p, id) =>
    renderPaymentIntent(s, s.get(s.paymentIntents, "payment_intent", id), expands(p)),
  ),
  route("POST", "/v1/payment_intents/:id", (s, p, id) => {
    const pi = s.get(s.paymentIntents, "payment_intent", id);
    const amount = int(p, "amount");
    if (amount !== undefined) {
      if (pi.status !== "requires_payment_method")
        throw invalid(
          "payment_intent_unexpected_state",
          "You cannot update this PaymentIntent's amount in its status.",
        );
      pi.amount = amount;
    }
    if (obj(p, "metadata")) pi.metadata = { ...(pi.metadata as Obj), ...metadataOf(p) };
    return renderPaymentIntent(s, pi, expands(p));
  }),
  route("POST", "/v1/customers", (s, p) => {
    const customer: Obj = {
      id: s.newId("cus"),
      object: "customer",
      email: str(p, "email") ?? null,
      name: str(p, "name") ?? null,
      phone: str(p, "phone") ?? null,
      metadata: metadataOf(p),
      invoice_settings: { default_payment_method: null },
      created: s.now(),
      livemode: false,
    };
    s.customers.set(customer.id as string, customer);
    return customer;
  }),
  route("GET", "/v1/customers/:id", (s, _p, id) => s.get(s.customers, "customer", id)),
  route("POST", "/v1/products", (s, p) => {
    const wanted = str(p, "id");
    if (wanted && s.products.has(wanted))
      throw invalid("resource_already_exists", `Product already exists with ID: ${wanted}`, "id");
    const product: Obj = {
      id: wanted ?? s.newId("prod"),
      object: "product",
      name: str(p, "name", true),
      metadata: metadataOf(p),
      active: true,
      created: s.now(),
      livemode: false,
    };
    s.products.set(product.id as string, product);
    return product;
  }),
  route("GET", "/v1/prices/:id", (s, _p, id) => s.get(s.prices, "price", id)),
  route("POST", "/v1/subscriptions", createSubscription),
  route("GET", "/v1/subscriptions/:id", (s, p, id) =>
    renderSubscription(s, s.get(s.subscriptions, "subscription", id), expands(p)),
  ),
  route("POST", "/v1/subscriptions/:id", updateSubscription),
  route("DELETE", "/v1/subscriptions/:id", (s, p, id) => {
    const sub = s.get(s.subscriptions, "subscription", id);
    if (sub.status === "canceled")
      throw invalid(null, "A canceled subscription can only update its cancellation_details and metadata.");
    Object.assign(sub, { status: "canceled", canceled_at: s.now(), ended_at: s.now() });
    return renderSubscription(s, sub, expands(p));
  }),
  route("GET", "/v1/invoices/:id", (s, p, id) => renderInvoice(s, s.get(s.invoices, "invoice", id), expands(p))),
  // The invoice payments of one invoice, or of one PaymentIntent (`payment[payment_intent]`).
  route("GET", "/v1/invoice_payments", (s, p) => {
    const payment = obj(p, "payment");
    const byIntent = payment ? str(payment, "payment_intent") : undefined;
    const byInvoice = str(p, "invoice");
    const data = [...s.invoices.values()]
      .filter(
        (i) =>
          (byInvoice === undefined || i.id === byInvoice) &&
          (byIntent === undefined || i.payment_intent_id === byIntent),
      )
      .flatMap((i) => {
        const pi = typeof i.payment_intent_id === "string" ? s.paymentIntents.get(i.payment_intent_id) : undefined;
        return pi ? [invoicePayment(i, pi)] : [];
      });
    return { object: "list", has_more: false, url: "/v1/invoice_payments", data };
  }),
  route("POST", "/v1/invoices/:id/pay", (s, p, id) => {
    const invoice = s.get(s.invoices, "invoice", id);
    if (invoice.status !== "open")
      throw invalid("invoice_not_open", `Invoice ${id} is ${String(invoice.status)}: it cannot be paid.`);
    const sub = s.subscriptionOfInvoice(invoice);
    const pmId = str(p, "payment_method") ?? (sub?.default_payment_method as string | null);
    if (!pmId) throw invalid("invoice_no_payment_method_types", "There is no payment method to pay this invoice with.");
    const pm = ref(s.paymentMethods, "PaymentMethod", pmId, "payment_method");
    const card = pm.card as { last4: string };
    // Stripe's test card 4000 0000 0000 0002 is declined.
    const paid = s.pay(invoice.payment_intent_id as string, card.last4 === "0002" ? "declined" : "succeeded", card);
    if (paid.status !== "succeeded") {
      const error = paid.last_payment_error as { message: string; decline_code?: string };
      throw new FakeStripeError(402, "card_error", "card_declined", error.message, {
        ...(error.decline_code ? { decline_code: error.decline_code } : {}),
      });
    }
    return renderInvoice(s, invoice, expands(p));
  }),
  route("POST", "/v1/refunds", (s, p) => {
    const pi = str(p, "payment_intent");
    const chargeId = str(p, "charge");
    if (!pi && !chargeId)
      throw invalid("parameter_missing", "Missing required param: payment_intent.", "payment_intent");
    const target = pi ?? (ref(s.charges, "charge", chargeId!, "charge").payment_intent as string);
    if (pi) ref(s.paymentIntents, "payment_intent", pi, "payment_intent");
    const reason = str(p, "reason");
    if (reason && !["duplicate", "fraudulent", "requested_by_customer"].includes(reason))
      throw invalid("parameter_invalid_string", `Invalid reason: ${reason}`, "reason");
    return s.refund({
      paymentIntent: target,
      amount: int(p, "amount"),
      metadata: metadataOf(p),
      reason: reason ?? null,
    });
  }),
  route("POST", "/v1/setup_intents", (s, p) => {
    const customer = str(p, "customer");
    if (customer) ref(s.customers, "customer", customer, "customer");
    const id = s.newId("seti");
    const si: Obj = {
      id,
      object: "setup_intent",
      customer: customer ?? null,
      status: "requires_payment_method",
      client_secret: `${id}_secret_${s.newId("x").slice(2)}`,
      payment_method: null,
      usage: str(p, "usage") ?? "off_session",
      metadata: metadataOf(p),
      last_setup_error: null,
      created: s.now(),
      livemode: false,
    };
    s.setupIntents.set(id, si);
    return si;
  }),
  route("GET", "/v1/setup_intents/:id", (s, p, id) =>
    renderSetupIntent(s, s.get(s.setupIntents, "setup_intent", id), expands(p)),
  ),
  route("GET", "/v1/balance", () => ({
    object: "balance",
    available: [{ amount: 0, currency: "usd", source_types: { card: 0 } }],
    pending: [{ amount: 0, currency: "usd", source_types: { card: 0 } }],
    livemode: false,
  })),
  route("POST", "/v1/billing_portal/sessions", (s, p) => {
    const customer = str(p, "customer", true);
    ref(s.customers, "customer", customer, "customer");
    const id = s.newId("bps");
    return {
      id,
      object: "billing_portal.session",
      customer,
      return_url: str(p, "return_url") ?? null,
      url: `https://billing.stripe.com/p/session/test_${id.slice(4)}`,
      flow: null,
      created: s.now(),
      livemode: false,
    };
  }),
];

export { currency, metadataOf, route, type Route };
