/**
 * The self-service page's API in tests (app/api/member/subscriptions): "selfpay", a gateway that
 * charges renewals itself and takes new payment methods, recording the charges
 * (`withSelfpayGateway`, called at the top of a test file); a publisher with two recurring plans
 * (or one-time ones) and a member subscribed to the first, signed in both as a page session and as
 * a JWT reader of the client API (`createSelfServiceFixture`, on the test database
 * `setupSelfService`); an answer's JSON read loosely; a
 * renewal run as the lifecycle job runs it.
 */
import { beforeAll, beforeEach } from "vitest";

import { getDb } from "../db";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { forgetPublisherCache } from "../publishing/publisher";
import { PaymentAdapterError, type PaymentAdapter, type RecurringCharge } from "../subscriptions/payments/adapter";
import { paymentAdapterFor, registerPaymentAdapter } from "../subscriptions/payments/registry";
import { advanceSubscription } from "../subscriptions/recurring/lifecycle";
import { createCheckoutFixture } from "./checkout";
import { call } from "./engagement";
import { insertSelfServiceSubscription, insertTestPlan } from "./subscription-fixtures";

/** "selfpay": a gateway that charges renewals itself and takes new payment methods, recording both. */
const charges: RecurringCharge[] = [];
const selfpay: PaymentAdapter = {
  paymentTypes: ["selfpay"],
  provider: null,
  takesPayment: true,
  callers: "any",
  async preparePayment() {
    return { externalReferenceId: null };
  },
  async verifyPayment() {
    return { status: "failed", externalPaymentId: null, externalOrderId: null, reason: "not in these tests" };
  },
  async chargeRecurring(_creds, charge) {
    charges.push(charge);
    return { status: "captured", externalPaymentId: `selfpay_${charge.idempotencyKey}` };
  },
  async refund(_creds, request) {
    return { externalRefundId: `selfpay_refund_${request.refundId}` };
  },
  async updatePaymentMethod(_creds, update) {
    if (update.proof.paymentToken === "pm_declined")
      throw new PaymentAdapterError("The card was declined.", "declined");
    return { paymentToken: update.proof.paymentToken, label: `Card ${update.proof.paymentToken.slice(3)}` };
  },
  webhookRequestAuthorized: () => false,
  webhookEventTypeMapping: () => ({}),
  webhookEventDetails() {
    throw new PaymentAdapterError("no webhooks", "invalid");
  },
};

/** Registers selfpay for the file's tests and empties its charges before each; answers the charges. */
export function withSelfpayGateway(): RecurringCharge[] {
  beforeAll(() => {
    if (!paymentAdapterFor("selfpay")) registerPaymentAdapter(selfpay);
  });
  // Ids restart with every test's empty database: the charges are this test's.
  beforeEach(() => {
    charges.length = 0;
  });
  return charges;
}

/** An answer's JSON, read loosely in assertions (the routes' own types are the services'). */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

type SelfServiceOptions = { recurring?: boolean; paymentType?: string };

export async function createSelfServiceFixture(db: Db, opts: SelfServiceOptions = {}) {
  forgetPublisherCache();
  const f = await createCheckoutFixture(db);
  const recurring = opts.recurring ?? true;
  const monthly = await insertTestPlan(db, f.group, { title: "Standard", priceCents: 1000, recurring });
  const premium = await insertTestPlan(db, f.group, { title: "Premium", priceCents: 1200, recurring });
  // The JWT reader of the client API and the session member of the page are one member.
  const {
    member: ada,
    jwt,
    token,
    sub,
  } = await insertSelfServiceSubscription(db, {
    accountId: f.account.id,
    planId: monthly.id,
    paymentType: opts.paymentType ?? "selfpay",
  });
  const page = (handler: Parameters<typeof call>[0], method: string, tail: string, body?: unknown, t = token) =>
    call(handler, method, `/api/member/subscriptions/${sub.id}${tail}`, { subscription_id: String(sub.id) }, body, {
      "X-QT-AUTH": t,
    });
  return { db, f, monthly, premium, ada, jwt, token, sub, page };
}

/** createSelfServiceFixture on the test database. */
export async function setupSelfService(opts?: SelfServiceOptions) {
  return createSelfServiceFixture(await getDb(), opts);
}

export async function read(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

export async function renew(db: Db, subscriptionId: number, now: Date) {
  return withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId, now }));
}
