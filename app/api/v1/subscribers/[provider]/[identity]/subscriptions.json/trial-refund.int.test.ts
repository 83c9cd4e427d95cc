/**
 * A trial's authorization is charged at checkout and refunded by the job payment.trial_refund
 * through the payment's adapter (testpay here), on PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";

import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { getDb } from "@/server/db";
import { createCheckoutFixture, testpayPayment, testpayRefunds } from "@/server/testing/checkout";
import { call } from "@/server/testing/engagement";
import { runJobsNow } from "@/server/testing/jobs";

const ada = { provider: "email", identity: "ada@example.com" };

describe("trial authorization refund", () => {
  it("charges 500 cents at checkout, queues one refund, and the job refunds it through the adapter", async () => {
    const f = await createCheckoutFixture(await getDb());
    const sub = {
      subscription_plan_id: f.trial.id,
      payment: { payment_type: "testpay", amount_currency: "USD" },
      trial_period_length: 7,
      trial_period_unit: "days",
    };
    const res = await call(SERVER_PREVIEW, "POST", "/x", ada, { subscription: sub }, { "x-subauth": f.serverKey });
    const preview = (await res.json()) as {
      subscription: { payment_amount_cents: number };
      attempt_token: string;
      external_reference_id: string;
    };
    expect(res.status, JSON.stringify(preview)).toBe(200);
    expect(preview.subscription.payment_amount_cents).toBe(500);
    const payment = testpayPayment(preview.external_reference_id, 500, "USD");
    const made = await call(
      SERVER_CREATE,
      "POST",
      "/x",
      ada,
      {
        subscription: { ...sub, payment: { ...sub.payment, amount_cents: 500, ...payment } },
        attempt_token: preview.attempt_token,
      },
      { "x-subauth": f.serverKey },
    );
    const body = (await made.json()) as {
      subscription: { id: number; next_payment_due_date: string; trial_end_date?: string };
    };
    expect(made.status, JSON.stringify(body)).toBe(201);
    const row = await f.db.subscription.findUniqueOrThrow({ where: { id: body.subscription.id } });
    expect(row.nextPaymentDueDate?.toISOString()).toBe(row.trialEndsAt?.toISOString());

    const jobs = await f.db.job.findMany({ where: { name: "payment.trial_refund", accountId: f.account.id } });
    expect(jobs).toHaveLength(1);
    await runJobsNow(f.db);
    const paid = await f.db.payment.findFirstOrThrow({ where: { subscriptionId: body.subscription.id } });
    expect(paid.status).toBe("REFUNDED");
    expect(paid.refundedCents).toBe(500);
    // The one refund path (refunds.ts): a refund row and an audit entry by the system.
    const refunds = await f.db.paymentRefund.findMany({ where: { paymentId: paid.id } });
    expect(refunds.map((r) => [r.status, r.amountCents, r.externalRefundId, r.reason, r.actorId])).toEqual([
      ["SUCCEEDED", 500, `rfnd_${payment.payment_token}`, "trial authorization", null],
    ]);
    expect(
      await f.db.auditLog.count({
        where: { accountId: f.account.id, action: "payment.refund", targetId: String(paid.id) },
      }),
    ).toBe(1);
    // Run again (as after a crash): the payment is refunded already; nothing more happens.
    await f.db.job.create({
      data: {
        name: "payment.trial_refund",
        accountId: f.account.id,
        payload: { paymentId: paid.id },
        runAt: new Date(),
      },
    });
    await runJobsNow(f.db);
    expect(await f.db.paymentRefund.count({ where: { paymentId: paid.id } })).toBe(1);
    expect(testpayRefunds.filter((r) => r.externalPaymentId === payment.payment_token)).toEqual([
      { externalPaymentId: payment.payment_token, amountCents: 500, currency: "USD" },
    ]);
  });
});
