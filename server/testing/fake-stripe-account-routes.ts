/**
 * More endpoints of the fake Stripe server (fake-stripe.ts), beside fake-stripe-routes.ts: updates
 * of customers, products, invoices and refunds (metadata, a customer's e-mail and name) and the
 * deletion of a customer, in Stripe's shapes. An update of an id Stripe does not know is 404
 * resource_missing, which is also what the connection check's probes (stripe-check.ts) expect
 * from a key that may make them.
 */
import { metadataOf, obj, route, str, type Route } from "./fake-stripe-routes";
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
