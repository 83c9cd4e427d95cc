/**
 * More endpoints of the fake Stripe server (fake-stripe.ts), beside fake-stripe-routes.ts: updates
 * of customers, products, invoices and refunds (metadata, a customer's e-mail and name), the
 * deletion of a customer and the list of a customer's subscriptions, in Stripe's shapes. An update of an id Stripe does not know is 404
 * resource_missing, which is also what the connection check's probes (stripe-check.ts) expect
 * from a key that may make them.
 */
import { metadataOf, obj, renderSubscription, route, str, type Route } from "./fake-stripe-routes";
import { missing, type Obj, type StripeState } from "./fake-stripe-state";

/** Merge the request's metadata into an object's, as Stripe does (an empty value removes a key). */
function mergeMetadata(target: Obj, p: Obj) {
  if (!obj(p, "metadata")) return;
  const merged: Obj = { ...(target.metadata as Obj) };
  for (const [k, v] of Object.entries(metadataOf(p))) {
    if (v === "") delete merged[k];
    else merged[k] = v;
  }
  target.metadata = merged;
}

function liveCustomer(s: StripeState, id: string): Obj {
  const customer = s.get(s.customers, "customer", id);
  if (customer.deleted) throw missing("customer", id);
  return customer;
}

export const ACCOUNT_ROUTES: Route[] = [
  // A customer's subscriptions, newest first, by page (`status` all: canceled ones too).
  route("GET", "/v1/subscriptions", (s, p) => {
    const customer = str(p, "customer");
    const status = str(p, "status");
    const limit = Math.min(100, Math.max(1, Number(str(p, "limit") ?? "10") || 10));
    const after = str(p, "starting_after");
    let all = [...s.subscriptions.values()]
      .filter((sub) => customer === undefined || sub.customer === customer)
      .filter((sub) => (status === "all" ? true : status ? sub.status === status : sub.status !== "canceled"))
      .reverse();
    if (after !== undefined) all = all.slice(all.findIndex((sub) => sub.id === after) + 1);
    return {
      object: "list",
      has_more: all.length > limit,
      url: "/v1/subscriptions",
      data: all.slice(0, limit).map((sub) => renderSubscription(s, sub, [])),
    };
  }),
  route("POST", "/v1/customers/:id", (s, p, id) => {
    const customer = liveCustomer(s, id);
    for (const field of ["email", "name", "phone"] as const) {
      const value = str(p, field);
      if (value !== undefined) customer[field] = value;
      else if (Object.hasOwn(p, field)) customer[field] = null;
    }
    mergeMetadata(customer, p);
    return customer;
  }),
  route("DELETE", "/v1/customers/:id", (s, _p, id) => {
    liveCustomer(s, id);
    const tombstone: Obj = { id, object: "customer", deleted: true };
    // Stripe answers a deleted customer's id with this stub from then on.
    s.customers.set(id, tombstone);
    return tombstone;
  }),
  route("POST", "/v1/products/:id", (s, p, id) => {
    const product = s.get(s.products, "product", id);
    const name = str(p, "name");
    if (name !== undefined) product.name = name;
    mergeMetadata(product, p);
    return product;
  }),
  route("POST", "/v1/invoices/:id", (s, p, id) => {
    const invoice = s.get(s.invoices, "invoice", id);
    mergeMetadata(invoice, p);
    const { payment_intent_id: _pi, ...out } = invoice;
    return out;
  }),
  route("POST", "/v1/refunds/:id", (s, p, id) => {
    const refund = s.get(s.refunds, "refund", id);
    mergeMetadata(refund, p);
    return refund;
  }),
];
