/**
 * The fake Stripe server's price changes of a subscription (fake-stripe.ts; the Stripe adapter's
 * plan switches, server/subscriptions/payments/stripe-switch.ts), as Stripe documents them for
 * subscriptions in classic billing mode:
 *
 * - `POST /v1/subscriptions/:id` with `items[0][id]` and a new `price`/`price_data`: with
 *   `proration_behavior=none` the item's price changes and nothing is invoiced now; with
 *   `always_invoice` (or another billing interval, which always starts a new period and invoices
 *   it) an invoice (`billing_reason: subscription_update`) is made and charged to the default card
 *   at once (card 4000 0000 0000 0002, last4 0002, is declined). The proration, by seconds at
 *   `proration_date` (default now): a credit line for the unused time on the old price
 *   (−round(old × unused)) and, same interval, a charge for the remaining time on the new one
 *   (round(new × unused)), both `proration: true`; another interval, the new price's whole period
 *   from `proration_date` instead. A negative total is left on the customer's balance.
 *   `payment_behavior=pending_if_incomplete` takes only the parameters pending updates take and,
 *   when the payment fails, leaves the subscription as it was with a `pending_update` and the
 *   invoice open; `allow_incomplete` (the default) applies the change and makes it `past_due`.
 *   `create_prorations` for a price change is not modelled (pending invoice items): refused.
 *   Other parameters go on to the base route (fake-stripe-routes.ts).
 * - `POST /v1/invoices/create_preview` {subscription, subscription_details {items,
 *   proration_behavior, proration_date}}: the invoice that change would make (always_invoice or a
 *   new interval), or the next period's invoice with the prorations on it, not saved.
 * - `POST /v1/invoices/:id/void`: an open invoice voided, its PaymentIntent canceled, and the
 *   subscription's pending update waiting for it discarded.
 */
import { addInterval, expands, int, list, obj, priceFrom, renderInvoice, ROUTES, str } from "./fake-stripe-routes";
import { FakeStripeError, invalid, type Obj, type StripeState } from "./fake-stripe-state";

type Route = (typeof ROUTES)[number];

const PENDING_UPDATE_PARAMS = new Set([
  "expand",
  "payment_behavior",
  "proration_behavior",
  "proration_date",
  "billing_cycle_anchor",
  "items",
  "trial_end",
  "trial_from_plan",
  "add_invoice_items",
]);
const PRORATION_BEHAVIORS = ["always_invoice", "create_prorations", "none"];
const PENDING_UPDATE_SECONDS = 23 * 3600;

type Recurring = { interval: string; interval_count: number };
type Item = Obj & { id: string; price: Obj; current_period_start: number; current_period_end: number };

/** The subscription's one item and the price `items[0]` names for it. */
function itemChange(s: StripeState, sub: Obj, items: Obj[]): { item: Item; price: Obj } {
  const item = (sub.items as { data: Item[] }).data[0]!;
  if (items.length !== 1 || str(items[0]!, "id") !== item.id)
    throw invalid(null, "The fake Stripe server changes only the subscription's one item (items[0][id]).", "items");
  const price = priceFrom(s, items[0]!, "items[0]");
  if (!price.recurring)
    throw invalid(
      null,
      "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.",
      "items[0][price]",
    );
  if (price.currency !== sub.currency)
    throw invalid(null, "Currency of the price must match the subscription's currency.", "items[0][price]");
  return { item, price };
}

function prorationBehavior(p: Obj): string {
  const behavior = str(p, "proration_behavior") ?? "create_prorations";
  if (!PRORATION_BEHAVIORS.includes(behavior))
    throw invalid("parameter_invalid_string", `Invalid proration_behavior: ${behavior}`, "proration_behavior");
  return behavior;
}

type Line = Obj & { amount: number };

/** An invoice line of the subscription's item, in Stripe's shape (its parent names the item and whether it is a proration). */
function lineOf(
  s: StripeState,
  sub: Obj,
  item: Item,
  l: { amount: number; price: Obj; period: { start: number; end: number }; proration: boolean; words: string },
): Line {
  return {
    id: s.newId("il"),
    object: "line_item",
    amount: l.amount,
    currency: sub.currency,
    description: l.words,
    period: l.period,
    quantity: 1,
    parent: {
      type: "subscription_item_details",
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: l.proration ? s.newId("ii") : null,
        proration: l.proration,
        proration_details: null,
        subscription: sub.id,
        subscription_item: item.id,
      },
    },
    pricing: {
      type: "price_details",
      price_details: { price: l.price.id, product: l.price.product },
      unit_amount_decimal: null,
    },
    metadata: {},
    livemode: false,
  };
}

/** The lines of changing `item` to `price` at `at`, as Stripe prorates (classic billing mode). */
function prorate(s: StripeState, sub: Obj, item: Item, price: Obj, at: number, behavior: string) {
  const start = item.current_period_start;
  const end = item.current_period_end;
  if (at < start || at > end)
    throw invalid(null, "proration_date must be within the subscription's current period.", "proration_date");
  const old = item.price.recurring as Recurring;
  const next = price.recurring as Recurring;
  const resets = old.interval !== next.interval || old.interval_count !== next.interval_count;
  const unused = end === start ? 0 : (end - at) / (end - start);
  const trialing = sub.status === "trialing";
  const line = (amount: number, p: Obj, period: { start: number; end: number }, proration: boolean, words: string) =>
    lineOf(s, sub, item, { amount, price: p, period, proration, words });
  const lines: Line[] = [];
  if (behavior !== "none" && !trialing) {
    const credit = Math.round((item.price.unit_amount as number) * unused);
    if (credit > 0) lines.push(line(-credit, item.price, { start: at, end }, true, "Unused time on the old price"));
    if (!resets) {
      const rest = Math.round((price.unit_amount as number) * unused);
      if (rest > 0) lines.push(line(rest, price, { start: at, end }, true, "Remaining time on the new price"));
    }
  }
  const newEnd = addInterval(at, next.interval, next.interval_count);
  if (resets) lines.push(line(price.unit_amount as number, price, { start: at, end: newEnd }, false, "1 × new price"));
  return { lines, resets, newEnd, total: lines.reduce((sum, l) => sum + l.amount, 0) };
}

/** The new price on the item (a new period from `at` when the interval changed). */
function apply(sub: Obj, item: Item, price: Obj, at: number, pr: { resets: boolean; newEnd: number }) {
  item.price = price;
  if (pr.resets) {
    Object.assign(item, { current_period_start: at, current_period_end: pr.newEnd });
    sub.billing_cycle_anchor = at;
  }
  sub.pending_update = null;
}

/** The subscription's price change (`items`), then the base route for the rest. */
function changeSubscription(base: Route["handle"]): Route["handle"] {
  return (s, p, id) => {
    const items = list(p, "items");
    if (!items.length) return base(s, p, id);
    const sub = s.get(s.subscriptions, "subscription", id);
    if (sub.status === "canceled")
      throw invalid(null, "A canceled subscription can only update its cancellation_details and metadata.");
    const paymentBehavior = str(p, "payment_behavior") ?? "allow_incomplete";
    if (paymentBehavior === "pending_if_incomplete")
      for (const key of Object.keys(p))
        if (!PENDING_UPDATE_PARAMS.has(key))
          throw invalid(
            null,
            `When payment_behavior is pending_if_incomplete, ${key} cannot be updated (only the parameters pending updates support).`,
            key,
          );
    const { item, price } = itemChange(s, sub, items);
    const behavior = prorationBehavior(p);
    const at = int(p, "proration_date") ?? s.now();
    const pr = prorate(s, sub, item, price, at, behavior);
    if (!pr.resets && behavior === "none") {
      apply(sub, item, price, at, pr);
      return base(s, p, id);
    }
    if (!pr.resets && behavior === "create_prorations")
      throw invalid(null, "The fake Stripe server does not model pending proration items (create_prorations).");
    const invoice = s.createInvoice(sub, {
      amount: Math.max(0, pr.total),
      reason: "subscription_update",
      start: at,
      end: at,
    });
    Object.assign(invoice, { total: pr.total, subtotal: pr.total });
    (invoice.lines as { data: Obj[] }).data = pr.lines.map((l) => ({ ...l, invoice: invoice.id }));
    if (pr.total < 0) {
      const customer = s.customers.get(sub.customer as string);
      if (customer) customer.balance = ((customer.balance as number | undefined) ?? 0) + pr.total;
    }
    sub.latest_invoice = invoice.id;
    let paid = invoice.status === "paid";
    if (!paid) {
      const pm = s.paymentMethods.get(sub.default_payment_method as string);
      const card = (pm?.card as { last4?: string; brand?: string } | undefined) ?? {};
      if (pm)
        paid =
          s.pay(invoice.payment_intent_id as string, card.last4 === "0002" ? "declined" : "succeeded", card).status ===
          "succeeded";
    }
    if (paid) apply(sub, item, price, at, pr);
    else if (paymentBehavior === "pending_if_incomplete")
      sub.pending_update = {
        billing_cycle_anchor: pr.resets ? at : null,
        cancel_at_period_end: null,
        discount: null,
        discounts: null,
        expires_at: Math.min(s.now() + PENDING_UPDATE_SECONDS, item.current_period_end),
        metadata: null,
        subscription_items: [{ ...item, price }],
        trial_end: null,
        trial_from_plan: null,
      };
    else if (paymentBehavior === "error_if_incomplete") {
      voidInvoice(s, invoice);
      throw new FakeStripeError(402, "card_error", "card_declined", "Your card was declined.");
    } else {
      apply(sub, item, price, at, pr);
      sub.status = "past_due";
    }
    return base(s, p, id);
  };
}

function voidInvoice(s: StripeState, invoice: Obj) {
  if (invoice.status !== "open")
    throw invalid(null, `You can only pass in open invoices. This invoice is ${String(invoice.status)}.`);
  Object.assign(invoice, {
    status: "void",
    status_transitions: { ...(invoice.status_transitions as Obj), voided_at: s.now() },
  });
  const pi = s.paymentIntents.get(invoice.payment_intent_id as string);
  if (pi) Object.assign(pi, { status: "canceled", canceled_at: s.now(), cancellation_reason: "void_invoice" });
  const sub = s.subscriptionOfInvoice(invoice);
  if (sub?.pending_update && sub.latest_invoice === invoice.id) sub.pending_update = null;
}

/** The invoice the change would make, not saved: the immediate one, or the next period's with the prorations. */
function createPreview(s: StripeState, p: Obj): Obj {
  const id = str(p, "subscription", true);
  const sub = s.get(s.subscriptions, "subscription", id);
  const details = obj(p, "subscription_details") ?? {};
  const item0 = (sub.items as { data: Item[] }).data[0]!;
  const items = list(details, "items");
  const { item, price } = items.length ? itemChange(s, sub, items) : { item: item0, price: item0.price };
  const behavior = prorationBehavior(details);
  const at = int(details, "proration_date") ?? s.now();
  const pr = prorate(s, sub, item, price, at, behavior);
  const lines: Line[] = [...pr.lines];
  if (!pr.resets && behavior !== "always_invoice") {
    const next = price.recurring as Recurring;
    const period = {
      start: item.current_period_end,
      end: addInterval(item.current_period_end, next.interval, next.interval_count),
    };
    lines.push(
      lineOf(s, sub, item, {
        amount: price.unit_amount as number,
        price,
        period,
        proration: false,
        words: "1 × next period",
      }),
    );
  }
  const total = lines.reduce((sum, l) => sum + l.amount, 0);
  const upcoming = {
    id: `upcoming_${s.newId("in")}`,
    object: "invoice",
    customer: sub.customer,
    currency: sub.currency,
    status: "draft",
    billing_reason: "upcoming",
    amount_due: Math.max(0, total),
    amount_paid: 0,
    amount_remaining: Math.max(0, total),
    subtotal: total,
    total,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { subscription: sub.id, metadata: sub.metadata },
    },
    lines: { object: "list", data: lines, has_more: false, url: "/v1/invoices/upcoming/lines" },
    metadata: {},
    created: s.now(),
    livemode: false,
  };
  return renderInvoice(s, upcoming, expands(p));
}

const baseUpdate = ROUTES.find((r) => r.method === "POST" && r.pattern.test("/v1/subscriptions/sub_x"))!;

/** Checked before the base routes (fake-stripe.ts): the subscription update here takes price changes first. */
export const SUBSCRIPTION_CHANGE_ROUTES: Route[] = [
  { method: "POST", pattern: /^\/v1\/invoices\/create_preview$/, handle: createPreview },
  { ...baseUpdate, handle: changeSubscription(baseUpdate.handle) },
  {
    method: "POST",
    pattern: /^\/v1\/invoices\/([A-Za-z0-9_]+)\/void$/,
    handle: (s, p, id) => {
      const invoice = s.get(s.invoices, "invoice", id);
      voidInvoice(s, invoice);
      return renderInvoice(s, invoice, expands(p));
    },
  },
];
