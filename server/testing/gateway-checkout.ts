/**
 * A paid checkout half-way, as checkout leaves it for a gateway to confirm, for the gateway
 * tests: a plan, a reader, the preview's attempt with the gateway's real order (made through the
 * adapter against the Razorpay stand-in), and, unless told otherwise, the PENDING subscription
 * and PENDING payment the create wrote. Rows are written directly so these tests do not depend
 * on the checkout service's internals; they hold what the schema says checkout stores.
 */
import { randomUUID } from "node:crypto";

import { afterAll, beforeAll } from "vitest";

import { resetEnvCache } from "../../env.js";
import { systemActor } from "../auth/actor";
import type { Db } from "../db/client";
import { createGroup } from "../subscriptions/catalogue/groups";
import { createPlan } from "../subscriptions/catalogue/plans";
import type { GatewayCredentials, PaymentAdapter } from "../subscriptions/payments/adapter";
import { gatewayCredentialsFor } from "../subscriptions/payments/credentials";
import { resolveSubscriber } from "../subscriptions/subscribers/subscribers";
import { addDuration } from "../subscriptions/subscribers/subscription-state";
import { razorpayFixture, type RazorpayFixture } from "./razorpay-fixture";
import { createTestStaff } from "./staff";

type PendingCheckout = {
  attemptId: string;
  orderId: string;
  subscriptionId: number | null;
  memberId: number;
  amountCents: number;
  currency: string;
};

export async function pendingRazorpayCheckout(
  db: Db,
  args: {
    accountId: number;
    adapter: PaymentAdapter;
    creds: GatewayCredentials;
    amountCents?: number;
    currency?: string;
    /** false: the reader paid but no create arrived (yet). */
    withSubscription?: boolean;
    /** When the attempt expires (default: in 30 minutes). */
    expiresAt?: Date;
    groupType?: "standard" | "campaign";
  },
): Promise<PendingCheckout> {
  const now = new Date();
  const amountCents = args.amountCents ?? 49900;
  const currency = args.currency ?? "INR";
  const actor = systemActor(args.accountId, "test");
  const group = await createGroup(db, {
    actor,
    input: {
      name: `Digital ${randomUUID().slice(0, 6)}`,
      subscriptionType: args.groupType ?? "standard",
      ...(args.groupType === "campaign" ? { currency, targetAmountCents: 10_000_000 } : {}),
    },
  });
  const plan = await createPlan(db, {
    actor,
    input: {
      groupId: group.id,
      title: "Monthly",
      durationLength: 1,
      durationUnit: "months",
      priceCents: amountCents,
      priceCurrency: currency,
    },
  });
  const member = await resolveSubscriber(db, {
    accountId: args.accountId,
    provider: "email",
    identity: `reader-${randomUUID().slice(0, 8)}@example.com`,
    create: true,
    now,
  });
  const attemptId = randomUUID();
  const prepared = await args.adapter.preparePayment(args.creds, {
    accountId: args.accountId,
    attemptId,
    amountCents,
    currency,
    recurring: false,
    plan: { id: plan.id, title: plan.title },
    subscriber: { id: member!.id, name: null, email: null, phone: null },
  });
  await db.subscriptionAttempt.create({
    data: {
      id: attemptId,
      accountId: args.accountId,
      memberId: member!.id,
      terms: { subscription_plan_id: plan.id },
      paymentType: "razorpay",
      amountCents,
      currency,
      externalReferenceId: prepared.externalReferenceId,
      expiresAt: args.expiresAt ?? new Date(now.getTime() + 30 * 60_000),
      ...(args.withSubscription === false ? {} : { usedAt: now }),
    },
  });
  let subscriptionId: number | null = null;
  if (args.withSubscription !== false) {
    const subscription = await db.subscription.create({
      data: {
        accountId: args.accountId,
        memberId: member!.id,
        subscriptionType: args.groupType === "campaign" ? "CAMPAIGN" : "STANDARD",
        planId: plan.id,
        groupId: group.id,
        attemptId,
        createdBy: "client_api",
        status: "PENDING",
        startTimestamp: now,
        endTimestamp: addDuration(now, 1, "MONTHS"),
        planName: plan.title,
        durationLength: 1,
        durationUnit: "MONTHS",
        planAmountCents: amountCents,
        planAmountCurrency: currency,
        paymentType: "razorpay",
        paymentAmountCents: amountCents,
        paymentAmountCurrency: currency,
      },
    });
    subscriptionId = subscription.id;
    await db.payment.create({
      data: {
        accountId: args.accountId,
        subscriptionId,
        attemptId,
        paymentType: "razorpay",
        externalOrderId: prepared.externalReferenceId,
        amountCents,
        currency,
        status: "PENDING",
      },
    });
  }
  return {
    attemptId,
    orderId: prepared.externalReferenceId!,
    subscriptionId,
    memberId: member!.id,
    amountCents,
    currency,
  };
}

/**
 * For a test file of Razorpay payments: call at the top level. Each call of the returned function
 * starts a fresh Razorpay stand-in (razorpay-fixture.ts), points the adapter at it, and makes an
 * account (a new one, or the one whose id is given) whose owner saved its credentials through the
 * dashboard's procedure; `url` is the stand-in's. The settings it changes are restored, and the
 * stand-in closed, after the file's tests.
 */
export function razorpayStandIn(): (
  db: Db,
  account?: number,
) => Promise<{
  fx: RazorpayFixture;
  url: string;
  owner: Awaited<ReturnType<typeof createTestStaff>>;
  accountId: number;
  creds: GatewayCredentials;
}> {
  let server: { url: string; close: () => Promise<void> } | undefined;
  const saved: Record<string, string | undefined> = {};
  const names = ["RAZORPAY_API_BASE_URL", "PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS"];
  beforeAll(() => {
    for (const name of names) saved[name] = process.env[name];
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    resetEnvCache();
    await server?.close();
  });
  return async (db, account) => {
    const fx = razorpayFixture();
    await server?.close();
    server = await fx.listen();
    process.env.RAZORPAY_API_BASE_URL = server.url;
    process.env.PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS = "true";
    resetEnvCache();
    const owner = await createTestStaff(db, { roles: ["OWNER"], ...(account === undefined ? {} : { account }) });
    const accountId = owner.account.id;
    await owner.caller.paymentGateways.save({
      provider: "razorpay",
      environment: "sandbox",
      appKey: fx.keyId,
      secret: fx.keySecret,
      webhookSecret: fx.webhookSecret,
    });
    const creds = (await gatewayCredentialsFor(db, accountId, "razorpay")) as GatewayCredentials;
    return { fx, url: server.url, owner, accountId, creds };
  };
}
