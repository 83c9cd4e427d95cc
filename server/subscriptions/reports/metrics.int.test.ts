/**
 * Revenue metrics (metrics.ts, metrics-load.ts) on the real database: a handful of subscriptions
 * whose figures are computed by hand, and who may read them (tRPC revenue.metrics).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { revenueMetrics } from "@/server/subscriptions/reports/metrics-load";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import {
  insertTestGroup,
  insertTestPlan,
  insertTestSubscriber,
  insertTestSubscription,
} from "@/server/testing/subscription-fixtures";

const at = (iso: string) => new Date(iso);

describe("revenue metrics", () => {
  it("computes MRR, ARR, ARPU, churn and trial conversion per month and per plan", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const group = await insertTestGroup(db, accountId);
    const monthly = await insertTestPlan(db, group, { title: "Monthly", priceCents: 1000, recurring: true });
    const yearly = await insertTestPlan(db, group, {
      title: "Yearly",
      priceCents: 12000,
      recurring: true,
      durationUnit: "YEARS",
    });
    const once = await insertTestPlan(db, group, { title: "Single month", priceCents: 5000 });
    const [ada, bo, cy, di, ed] = await Promise.all(
      ["ada", "bo", "cy", "di", "ed"].map((n) => insertTestSubscriber(db, accountId, `${n}@example.com`)),
    );
    const add = (
      memberId: number,
      planId: number,
      over: Parameters<typeof insertTestSubscription>[1] extends infer A ? Partial<A> : never,
    ) => insertTestSubscription(db, { accountId, memberId, planId, ...over });

    // Ada: monthly since 5 Sep, renewing (ends after now): 10.00 a month in October and November.
    await add(ada!.id, monthly.id, { start: at("2026-09-05T00:00:00Z"), end: at("2026-12-05T00:00:00Z") });
    // Ada also yearly since 20 Sep: 120.00 / 12 = 10.00 a month.
    await add(ada!.id, yearly.id, { start: at("2026-09-20T00:00:00Z"), end: at("2027-09-20T00:00:00Z") });
    // Bo: monthly since 1 Sep, expired on 15 October: churned in October.
    await add(bo!.id, monthly.id, {
      start: at("2026-09-01T00:00:00Z"),
      end: at("2026-10-15T00:00:00Z"),
      status: "EXPIRED",
    });
    // Cy: a one-time purchase: no MRR.
    await add(cy!.id, once.id, { start: at("2026-10-02T00:00:00Z"), end: at("2026-11-02T00:00:00Z") });
    // Di: a monthly trial from 1 Nov ending 8 Nov, charged at its end: converted, paying from 8 Nov.
    const di1 = await add(di!.id, monthly.id, {
      start: at("2026-11-01T00:00:00Z"),
      end: at("2026-12-08T00:00:00Z"),
    });
    await db.subscription.update({ where: { id: di1.id }, data: { trialEndsAt: at("2026-11-08T00:00:00Z") } });
    await db.payment.create({
      data: {
        accountId,
        subscriptionId: di1.id,
        paymentType: "manual",
        amountCents: 1000,
        currency: "USD",
        status: "CAPTURED",
        createdAt: at("2026-11-08T00:00:05Z"),
      },
    });
    // Ed: a trial ending 12 Nov whose charge failed: not converted, never paying.
    const ed1 = await add(ed!.id, monthly.id, {
      start: at("2026-11-05T00:00:00Z"),
      end: at("2026-11-12T00:00:00Z"),
      status: "FAILED",
    });
    await db.subscription.update({ where: { id: ed1.id }, data: { trialEndsAt: at("2026-11-12T00:00:00Z") } });
    // Deleted subscriptions and another account's never count.
    await add(ed!.id, monthly.id, { start: at("2026-09-01T00:00:00Z"), deletedAt: at("2026-09-02T00:00:00Z") });
    const other = await createTestStaff(db, { roles: ["REVENUE"] });
    const otherPlan = await insertTestPlan(db, await insertTestGroup(db, other.account.id), { recurring: true });
    await insertTestSubscription(db, {
      accountId: other.account.id,
      memberId: (await insertTestSubscriber(db, other.account.id, "zed@example.com")).id,
      planId: otherPlan.id,
      start: at("2026-09-01T00:00:00Z"),
    });

    const now = at("2026-11-20T12:00:00Z");
    const metrics = await revenueMetrics(db, { accountId, now });
    expect(metrics.months.map((m) => m.month)).toEqual([
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
      "2026-04",
      "2026-05",
      "2026-06",
      "2026-07",
      "2026-08",
      "2026-09",
      "2026-10",
      "2026-11",
    ]);
    const month = (key: string) => metrics.months.find((m) => m.month === key)!;
    const usd = (cents: number) => [{ currency: "USD", cents }];

    // September (as of 1 Oct): Ada 10 + 10, Bo 10 → MRR 30.00 from 2 readers: ARPU 15.00. Nobody paying on 1 Sep.
    expect(month("2026-09")).toMatchObject({
      mrr: usd(3000),
      arr: usd(36000),
      arpu: usd(1500),
      paying_subscribers: 2,
      paying_at_start: 0,
      churn_rate: null,
    });
    // October: on 1 Oct Ada ×2 and Bo pay (3); Bo ends 15 Oct → churn 1/3. At 1 Nov: Ada's 20.00.
    expect(month("2026-10")).toMatchObject({
      mrr: usd(2000),
      arr: usd(24000),
      arpu: usd(2000),
      paying_subscribers: 1,
      paying_at_start: 2 + 1,
      ended: 1,
      trials_ended: 0,
      trial_conversion: null,
    });
    expect(month("2026-10").churn_rate).toBeCloseTo(1 / 3);
    // November, to now: Ada 20.00 + Di 10.00 = 30.00 from 2 readers; no churn; trials Di (paid) and Ed (not): 1/2.
    expect(month("2026-11")).toMatchObject({
      mrr: usd(3000),
      arr: usd(36000),
      arpu: usd(1500),
      paying_subscribers: 2,
      paying_at_start: 2,
      ended: 0,
      churn_rate: 0,
      trials_ended: 2,
      trials_converted: 1,
      trial_conversion: 0.5,
    });
    expect(month("2026-08")).toMatchObject({ mrr: [], paying_subscribers: 0 });

    // Per plan, this month: Monthly 20.00 (Ada, Di), Yearly 10.00 (Ada); the one-time plan has none.
    expect(metrics.plans.map((p) => [p.plan_name, p.mrr, p.paying_subscribers, p.trial_conversion])).toEqual([
      ["Monthly", usd(2000), 2, 0.5],
      ["Yearly", usd(1000), 1, null],
    ]);
    expect(metrics.currencies).toEqual(["USD"]);

    // The dashboard reads them through tRPC (REVENUE); an editor may not.
    const viaTrpc = await revenue.caller.revenue.metrics();
    expect(viaTrpc.months).toHaveLength(12);
    const editor = await createTestStaff(db, { account: accountId, roles: ["EDITOR"] });
    expect(await trpcCodeOf(editor.caller.revenue.metrics())).toBe("FORBIDDEN");
  });
});
