/**
 * Checkout in integration tests: a publisher with keys and a catalogue, and "testpay", a payment
 * adapter that keeps the contract honestly. Its gateway signs each payment as
 * HMAC-SHA256(secret, "<order>|<payment id>") (what a real gateway's checkout widget hands the
 * browser), and its payment ids carry what the gateway recorded: "pay_<amount>_<CUR>_<state>_<n>"
 * (state "captured" or "authorized"). verifyPayment refuses a missing or wrong signature and a
 * payment of another amount or currency than the attempt's.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

import { createApiKey } from "../auth/api-keys";
import type { Db } from "../db/client";
import { encryptSecret } from "../security/encryption";
import { PaymentAdapterError, type PaymentAdapter } from "../subscriptions/payments/adapter";
import { GATEWAY_SECRET_PURPOSE } from "../subscriptions/payments/credentials";
import { paymentAdapterFor, registerPaymentAdapter } from "../subscriptions/payments/registry";
import { createTestPublisher, insertStory } from "./publishing-factories";

const TESTPAY_SECRET = "testpay-gateway-secret-0000000000";

export function testpaySignature(order: string, paymentId: string, secret = TESTPAY_SECRET): string {
  return createHmac("sha256", secret).update(`${order}|${paymentId}`).digest("hex");
}

let paymentCounter = 0;
/** A payment as the gateway's widget reports it: its id and signature over the preview's order. */
export function testpayPayment(
  order: string,
  amountCents: number,
  currency: string,
  state: "captured" | "authorized" = "captured",
) {
  const id = `pay_${amountCents}_${currency}_${state}_${++paymentCounter}${Date.now().toString(36)}`;
  return { payment_token: id, signature: testpaySignature(order, id) };
}

/** The refunds testpay was asked for (a trial's authorization…), in order. */
export const testpayRefunds: { externalPaymentId: string; amountCents: number; currency: string }[] = [];

export const testpayAdapter: PaymentAdapter = {
  paymentTypes: ["testpay"],
  provider: "testpay",
  takesPayment: true,
  callers: "any",
  async preparePayment(creds, intent) {
    if (!creds) throw new PaymentAdapterError("testpay needs credentials", "invalid");
    return { externalReferenceId: `order_${intent.attemptId}`, clientOptions: { key: creds.app_key } };
  },
  async verifyPayment(creds, intent, proof) {
    const fail = (reason: string) =>
      ({
        status: "failed",
        externalPaymentId: proof.paymentToken,
        externalOrderId: proof.externalReferenceId,
        reason,
      }) as const;
    if (!creds) throw new PaymentAdapterError("testpay needs credentials", "invalid");
    const signature = proof.extra.signature;
    if (!proof.paymentToken || !proof.externalReferenceId || typeof signature !== "string") return fail("no payment");
    const expected = Buffer.from(testpaySignature(proof.externalReferenceId, proof.paymentToken, creds.secret));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail("signature does not match");
    const [, amount, currency, state] = proof.paymentToken.split("_");
    if (Number(amount) !== intent.amountCents || currency !== intent.currency) return fail("amount differs");
    return {
      status: state === "authorized" ? "authorized" : "captured",
      externalPaymentId: proof.paymentToken,
      externalOrderId: proof.externalReferenceId,
      details: { gateway: "testpay" },
    };
  },
  async refund(creds, request) {
    if (!creds) throw new PaymentAdapterError("testpay needs credentials", "invalid");
    const { externalPaymentId, amountCents, currency } = request;
    if (!externalPaymentId) throw new PaymentAdapterError("testpay refunds its own payments only", "declined");
    if (!testpayRefunds.some((r) => r.externalPaymentId === externalPaymentId))
      testpayRefunds.push({ externalPaymentId, amountCents, currency });
    return { externalRefundId: `rfnd_${externalPaymentId}` };
  },
  webhookRequestAuthorized: () => false,
  webhookEventTypeMapping: () => ({}),
  webhookEventDetails() {
    throw new PaymentAdapterError("no webhooks", "invalid");
  },
};

/** Register testpay once per test process. */
function registerTestpay() {
  if (!paymentAdapterFor("testpay")) registerPaymentAdapter(testpayAdapter);
}

/** A publisher with a client key, a server key, testpay credentials and a catalogue. */
export async function createCheckoutFixture(db: Db) {
  registerTestpay();
  const account = await createTestPublisher(db);
  const { key } = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "web" });
  const { key: serverKey } = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "back end" });
  await db.paymentGateway.create({
    data: {
      accountId: account.id,
      provider: "testpay",
      appKey: "tp_key_1",
      secretEncrypted: encryptSecret(TESTPAY_SECRET, GATEWAY_SECRET_PURPOSE),
      environment: "sandbox",
    },
  });
  const group = await db.subscriptionGroup.create({
    data: { accountId: account.id, name: "Digital", description: "All stories", subscriptionType: "STANDARD" },
  });
  const monthly = await db.subscriptionPlan.create({
    data: {
      accountId: account.id,
      groupId: group.id,
      title: "Monthly",
      durationLength: 1,
      durationUnit: "MONTHS",
      priceCents: 1000,
      priceCurrency: "USD",
      prices: { USD: { amount_cents: 1000 }, EUR: { amount_cents: 900 } },
    },
  });
  const trial = await db.subscriptionPlan.create({
    data: {
      accountId: account.id,
      groupId: group.id,
      title: "Monthly with trial",
      durationLength: 1,
      durationUnit: "MONTHS",
      priceCents: 1000,
      priceCurrency: "USD",
      recurring: true,
      trialPeriodEnabled: true,
      maxTrialPeriodLength: 14,
      maxTrialPeriodUnit: "DAYS",
    },
  });
  const free = await db.subscriptionPlan.create({
    data: {
      accountId: account.id,
      groupId: group.id,
      title: "Free",
      durationLength: 1,
      durationUnit: "YEARS",
      priceCents: 0,
      priceCurrency: "USD",
    },
  });
  const privateGroup = await db.subscriptionGroup.create({
    data: { accountId: account.id, name: "Staff", public: false },
  });
  const privatePlan = await db.subscriptionPlan.create({
    data: {
      accountId: account.id,
      groupId: privateGroup.id,
      title: "Staff yearly",
      durationLength: 1,
      durationUnit: "YEARS",
      priceCents: 5000,
      priceCurrency: "USD",
    },
  });
  const campaign = await db.subscriptionGroup.create({
    data: {
      accountId: account.id,
      name: "Save the forest",
      subscriptionType: "CAMPAIGN",
      currency: "USD",
      targetAmountCents: 100_000,
      targetAmountValidationEnabled: true,
    },
  });
  const campaignPlan = await db.subscriptionPlan.create({
    data: {
      accountId: account.id,
      groupId: campaign.id,
      title: "Give",
      durationLength: 1,
      durationUnit: "LIFETIME",
      priceCents: 500,
      priceCurrency: "USD",
    },
  });
  const story = await insertStory(db, account.id);
  const pricing = await db.pricingPlan.create({
    data: {
      accountId: account.id,
      title: "This story",
      assetType: "STORY",
      assetIds: [story.id],
      priceCents: 199,
      priceCurrency: "USD",
      durationUnit: "LIFETIME",
    },
  });
  return {
    db,
    account,
    key,
    serverKey,
    group,
    monthly,
    trial,
    free,
    privatePlan,
    campaign,
    campaignPlan,
    story,
    pricing,
  };
}
export type CheckoutFixture = Awaited<ReturnType<typeof createCheckoutFixture>>;
