/**
 * One trial per reader (docs/subscriptions.md, "Trials"), through the server API, on PGlite and
 * PostgreSQL: a reader who had a trial is offered none and pays from the start; asking for one is
 * 422; two checkouts of one reader at once give one trial.
 */
import { describe, expect, it } from "vitest";

import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { getDb } from "@/server/db";
import { revenueReport } from "@/server/subscriptions/reports/reports";
import { createCheckoutFixture, testpayPayment, type CheckoutFixture } from "@/server/testing/checkout";
import { call } from "@/server/testing/engagement";
import { runJobsNow } from "@/server/testing/jobs";

const ada = { provider: "email", identity: "ada@example.com" };

type Preview = {
  subscription?: { payment_amount_cents: number; trial_period_length?: number | null };
  attempt_token: string;
  external_reference_id: string;
  error?: { details?: { field: string; issue: string }[] };
};

async function preview(f: CheckoutFixture, extra: Record<string, unknown> = {}) {
  const sub = {
    subscription_plan_id: f.trial.id,
    payment: { payment_type: "testpay", amount_currency: "USD" },
    ...extra,
  };
  const res = await call(SERVER_PREVIEW, "POST", "/x", ada, { subscription: sub }, { "x-subauth": f.serverKey });
  return { status: res.status, body: (await res.json()) as Preview, sub };
}

async function create(f: CheckoutFixture, p: Awaited<ReturnType<typeof preview>>) {
  const amount = p.body.subscription!.payment_amount_cents;
  const payment = testpayPayment(p.body.external_reference_id, amount, "USD");
  const res = await call(
    SERVER_CREATE,
    "POST",
    "/x",
    ada,
    {
      subscription: { ...p.sub, payment: { ...p.sub.payment, amount_cents: amount, ...payment } },
      attempt_token: p.body.attempt_token,
    },
    { "x-subauth": f.serverKey },
  );
  return { status: res.status, body: (await res.json()) as { error?: { details?: { field: string }[] } } };
}

const trialsOf = (f: CheckoutFixture) =>
  f.db.subscription.count({ where: { accountId: f.account.id, trialPeriodLength: { not: null } } });

describe("one trial per reader", () => {
  it("a reader who had a trial is offered none, pays the price from the start, and is refused one asked for", async () => {
    const f = await createCheckoutFixture(await getDb());
    const first = await preview(f);
    expect(first.body.subscription!.payment_amount_cents).toBe(500); // the trial's authorization
    expect((await create(f, first)).status).toBe(201);

    const again = await preview(f);
    expect(again.status).toBe(200);
    expect(again.body.subscription!.payment_amount_cents).toBe(f.trial.priceCents);
    expect(await trialsOf(f)).toBe(1);

    for (const asked of [{ trial_period: true }, { trial_period_length: 7, trial_period_unit: "days" }]) {
      const refused = await preview(f, asked);
      expect(refused.status).toBe(422);
      expect(refused.body.error?.details?.[0]).toMatchObject({
        field: "subscription.trial_period",
        issue: expect.stringContaining("one per reader") as unknown,
      });
    }
    // The second subscription is made at the full price, without a trial.
    expect((await create(f, again)).status).toBe(201);
    expect(await trialsOf(f)).toBe(1);
  });

  it("two checkouts of one reader at once, each previewed with a trial: one gets it, the other 422", async () => {
    const f = await createCheckoutFixture(await getDb());
    const a = await preview(f);
    const b = await preview(f);
    expect([a.body.subscription!.payment_amount_cents, b.body.subscription!.payment_amount_cents]).toEqual([500, 500]);
    const made = await Promise.all([create(f, a), create(f, b)]);
    expect(made.map((m) => m.status).sort()).toEqual([201, 422]);
    expect(made.find((m) => m.status === 422)!.body.error?.details?.[0]?.field).toBe("subscription.trial_period");
    expect(await trialsOf(f)).toBe(1);
  });

  it("keeps the trial's authorization and its refund out of revenue; the full-price checkout counts", async () => {
    const f = await createCheckoutFixture(await getDb());
    expect((await create(f, await preview(f))).status).toBe(201);
    await runJobsNow(f.db); // the authorization is refunded
    expect((await create(f, await preview(f))).status).toBe(201);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = await revenueReport(f.db, { accountId: f.account.id, range: { from: day(-1), to: day(1) } });
    expect(report.totals).toEqual([
      {
        currency: "USD",
        captured_cents: f.trial.priceCents,
        refunded_cents: 0,
        net_cents: f.trial.priceCents,
        tax_cents: 0,
        refunded_tax_cents: 0,
        net_excluding_tax_cents: f.trial.priceCents,
      },
    ]);
    expect(await f.db.payment.count({ where: { accountId: f.account.id, status: "REFUNDED", amountCents: 500 } })).toBe(
      1,
    );
  });
});
