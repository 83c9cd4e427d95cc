/**
 * Checkout's server API in tests (app/api/v1/subscribers/…/subscriptions.json): preview and create
 * calls as the reader "ada" unless told otherwise, the subscription of a testpay payment (`paid`),
 * a paid plan previewed and its create's body with a testpay payment (`previewPaid`), and the
 * answer read as a success (`ok`) or as a refusal naming its field (`refused`); a reader's checkout
 * of the monthly plan on the client API (`readerCheckout`); the coupon HALF and India's GST on the
 * fixture's account (`halfOffAndGst`).
 */
import { expect } from "vitest";

import { POST as CLIENT_PREVIEW } from "@/app/api/access/v1/members/me/subscriptions/preview/route";
import { POST as CLIENT_CREATE } from "@/app/api/access/v1/members/me/subscriptions/route";
import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import type { TInvoiceWire } from "@/server/subscriptions/invoices/invoice-figures";

import { testpayPayment, type CheckoutFixture } from "./checkout";
import { call, readerJwt } from "./engagement";

export type Json = Record<string, unknown>;
export type Sub = {
  id: number | null;
  subscriber_id: number | null;
  subscriber: { id: number | null; name?: string | null; subscriber_identities: { provider: string; value: string }[] };
  payment_amount_cents: number;
  start_timestamp: string;
  end_timestamp: string | null;
  [k: string]: unknown;
};
/** A preview's or a create's answer (the fields a test reads). */
export type Answer = { subscription: Sub; attempt_token: string; external_reference_id: string; [k: string]: unknown };
type CreateBody = {
  subscription: Json & { payment: Json & { payment_token: string } };
  attempt_token: string;
  [k: string]: unknown;
};
export type Err = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

export const ada = { provider: "email", identity: "ada@example.com" };

export function serverPreview(f: CheckoutFixture, subscription: Json, extra: Json = {}, who = ada) {
  return call(SERVER_PREVIEW, "POST", "/x", who, { subscription, ...extra }, { "x-subauth": f.serverKey });
}
export function serverCreate(f: CheckoutFixture, body: Json, who = ada, key = f.serverKey) {
  return call(SERVER_CREATE, "POST", "/x", who, body, { "x-subauth": key });
}
export const paid = (planId: number, amount?: number, currency = "USD") => ({
  subscription_plan_id: planId,
  payment: {
    payment_type: "testpay",
    amount_currency: currency,
    ...(amount === undefined ? {} : { amount_cents: amount }),
  },
});

export async function ok<T = Answer>(res: Response, status = 200): Promise<T> {
  const body = (await res.json()) as T;
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(status);
  return body;
}
export async function refused(res: Response, status: number, field?: string) {
  const body = (await res.json()) as Err;
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(status);
  if (field) expect(body.error.details?.map((d) => d.field)).toContain(field);
  return body;
}

/** Preview a paid plan on the server API, then the body of its create with a captured payment. */
export async function previewPaid(
  f: CheckoutFixture,
  planId: number,
  state: "captured" | "authorized" = "captured",
  who = ada,
) {
  const preview = await ok(await serverPreview(f, paid(planId), {}, who));
  const amount = preview.subscription.payment_amount_cents;
  const payment = testpayPayment(preview.external_reference_id, amount, "USD", state);
  const body: CreateBody = {
    subscription: {
      ...paid(planId, amount),
      payment: { ...paid(planId, amount).payment, ...payment },
    },
    attempt_token: preview.attempt_token,
  };
  return { preview, body };
}

/** A create's answer on the client API, with the invoices it issued. */
export type Made = {
  subscription: { id: number; status: string; invoices: TInvoiceWire[]; payment_amount_cents: number };
};

/** A reader (JWT id) checks out the monthly plan on the client API: one captured, invoiced payment. */
export async function readerCheckout(f: CheckoutFixture, id: string) {
  const jwt = await readerJwt({ id, name: `Reader ${id}`, email: `${id}@example.com` });
  const q = `/x?key=${f.key}&svc_jwt=${jwt}`;
  const sub = paid(f.monthly.id);
  const preview = (await (await call(CLIENT_PREVIEW, "POST", q, {}, { subscription: sub })).json()) as {
    attempt_token: string;
    external_reference_id: string;
  };
  const payment = testpayPayment(preview.external_reference_id, 1000, "USD");
  const res = await call(
    CLIENT_CREATE,
    "POST",
    q,
    {},
    {
      subscription: { ...sub, payment: { ...sub.payment, amount_cents: 1000, ...payment } },
      attempt_token: preview.attempt_token,
    },
  );
  const made = (await res.json()) as Made;
  expect(res.status, JSON.stringify(made).slice(0, 300)).toBe(201);
  return { jwt, q, invoice: made.subscription.invoices[0]!, subscription: made.subscription };
}

/** The coupon HALF (50% off, valid since the epoch) and an 18% GST for India, on the fixture's account. */
export async function halfOffAndGst(f: CheckoutFixture) {
  await f.db.coupon.create({
    data: {
      accountId: f.account.id,
      code: "HALF",
      title: "Half",
      discountType: "PERCENT",
      percentOff: 50,
      validFrom: new Date(0),
    },
  });
  await f.db.taxRule.create({ data: { accountId: f.account.id, name: "GST", rateBasisPoints: 1800, country: "IN" } });
}
