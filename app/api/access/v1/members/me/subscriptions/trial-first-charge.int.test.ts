/**
 * A trial through demo_test, from the demo paywall's calls: the checkout charges the 5-unit
 * authorization, the subscription records what each period costs (the plan's price after the
 * coupon), and every consumer reads that: the first charge at the trial's end, the renewal after
 * it, the self-service card, the "update your card" e-mail and the revenue report's figures.
 * Cancelling during the trial ends access at the trial's end.
 */
import { afterEach, describe, expect, it } from "vitest";

import { resetEnvCache } from "@/env.js";
import { withTransaction } from "@/server/db/transaction";
import { DEMO_EXPIRED_CARD_TOKEN } from "@/server/subscriptions/payments/demo-test-gateway";
import { advanceSubscription } from "@/server/subscriptions/recurring/lifecycle";
import { selfServiceOverview } from "@/server/subscriptions/self-service/self-service";
import { grantsAccess } from "@/server/subscriptions/subscribers/subscription-state";
import { cancelSubscription } from "@/server/subscriptions/subscribers/subscriptions";
import { demoCheckout, demoReaderJwt, seedDemoWithTools } from "@/server/testing/demo-checkout";

afterEach(() => {
  delete process.env.DEMO_TOOLS;
  resetEnvCache();
});

async function seedDemo() {
  const { db, accountId, plan } = await seedDemoWithTools("Monthly");
  return { db, accountId, monthly: plan };
}

type Wire = { id: number; payment_amount_cents: number; trial_end_date?: string };

/** Preview and create the Monthly plan's 14-day trial with WELCOME20, as the demo paywall does. */
async function subscribeWithTrial(planId: number, email: string) {
  const jwt = await demoReaderJwt(email);
  const { previewed, created } = await demoCheckout(jwt, { subscription_plan_id: planId, coupon_code: "WELCOME20" });
  // What the checkout says: 5 dollars now (refunded), then 9.00 less 20 % = 7.20 a month.
  expect(previewed.subscription).toMatchObject({ payment_amount_cents: 500, total_amount_cents: 720 });
  const body = (await created.json()) as { subscription: Wire };
  expect(created.status, JSON.stringify(body)).toBe(201);
  return body.subscription;
}

describe("a trial's first charge", () => {
  it("charges the plan's price after the coupon at the trial's end and at each renewal, and says so everywhere", async () => {
    const { db, accountId, monthly } = await seedDemo();
    const bought = await subscribeWithTrial(monthly.id, "trial-reader@example.com");
    // The subscription records what a period costs; the checkout's payment is the authorization.
    expect(bought.payment_amount_cents).toBe(720);
    const row = await db.subscription.findUniqueOrThrow({ where: { id: bought.id } });
    expect(row).toMatchObject({ paymentAmountCents: 720, paymentAmountCurrency: "USD" });
    const checkoutPayments = await db.payment.findMany({ where: { subscriptionId: bought.id } });
    expect(checkoutPayments.map((p) => p.amountCents)).toEqual([500]);

    // The self-service card: "Free trial; then $7.20 on <trial end>", "$7.20 per month".
    const before = await selfServiceOverview(db, {
      accountId,
      memberId: row.memberId,
      now: new Date(),
      timeZone: "UTC",
    });
    const card = before.subscriptions.find((c) => c.id === bought.id)!;
    expect(card.amount_cents).toBe(720);
    expect(card.summary).toMatch(/^Free trial; then \$7\.20 on /);

    // The trial ends: the first charge is 7.20, and pays the period checkout set.
    const trialEnd = row.trialEndsAt!;
    await withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId: bought.id, now: trialEnd }));
    const afterTrial = await db.subscription.findUniqueOrThrow({ where: { id: bought.id } });
    expect(afterTrial.endTimestamp?.toISOString()).toBe(row.endTimestamp?.toISOString());
    // The renewal a month later: 7.20 again.
    await withTransaction(db, (tx) =>
      advanceSubscription(tx, { subscriptionId: bought.id, now: afterTrial.nextPaymentDueDate! }),
    );
    const charges = await db.payment.findMany({
      where: { subscriptionId: bought.id, status: "CAPTURED", externalPaymentId: { startsWith: "demo_renew_" } },
      orderBy: { id: "asc" },
    });
    expect(charges.map((p) => [p.amountCents, p.currency])).toEqual([
      [720, "USD"],
      [720, "USD"],
    ]);
    const invoices = await db.invoice.findMany({ where: { subscriptionId: bought.id }, orderBy: { id: "asc" } });
    expect(invoices.map((i) => i.amountCents)).toEqual([720, 720]);

    // The next renewal is declined: the "update your card" e-mail names 7.20 USD.
    const renewed = await db.subscription.update({
      where: { id: bought.id },
      data: { paymentToken: DEMO_EXPIRED_CARD_TOKEN },
    });
    await withTransaction(db, (tx) =>
      advanceSubscription(tx, { subscriptionId: bought.id, now: renewed.nextPaymentDueDate! }),
    );
    const mail = await db.outgoingEmail.findFirstOrThrow({ where: { accountId, kind: "subscription.payment_failed" } });
    expect(mail.text).toContain("the $7.20 payment");
  });

  it("cancelled during the trial: access ends when the trial ends, and nothing is charged", async () => {
    const { db, accountId, monthly } = await seedDemo();
    const bought = await subscribeWithTrial(monthly.id, "trial-leaver@example.com");
    const row = await db.subscription.findUniqueOrThrow({ where: { id: bought.id } });
    const trialEnd = row.trialEndsAt!;
    const midTrial = new Date(trialEnd.getTime() - 3 * 86_400_000);
    await cancelSubscription(db, {
      accountId,
      caller: { via: "client_api", memberId: row.memberId },
      id: bought.id,
      now: midTrial,
    });
    const cancelled = await db.subscription.findUniqueOrThrow({ where: { id: bought.id } });
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.endTimestamp?.toISOString()).toBe(trialEnd.toISOString());
    expect(grantsAccess(cancelled, new Date(trialEnd.getTime() - 1))).toBe(true);
    expect(grantsAccess(cancelled, new Date(trialEnd.getTime() + 1))).toBe(false);
    await withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId: bought.id, now: trialEnd }));
    const ended = await db.subscription.findUniqueOrThrow({ where: { id: bought.id } });
    expect(ended.status).toBe("EXPIRED");
    expect(await db.payment.count({ where: { subscriptionId: bought.id, status: "CAPTURED", amountCents: 720 } })).toBe(
      0,
    );
  });
});
