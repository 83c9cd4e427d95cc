/**
 * The data migration 20261128120000_trial_period_amount, run again on rows written as checkout
 * used to write them (the test database is migrated before any row exists), on PGlite and
 * PostgreSQL: a trial's subscription that still holds the authorization gets the period's price
 * its checkout froze (terms.total_cents: the price after coupon and tax); every other row stays.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { MIGRATIONS_DIR } from "../../db/migrate";
import { createTestPublisher } from "../../testing/publishing-factories";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "../../testing/subscription-fixtures";
import { resolveSubscriber } from "./subscribers";

const MIGRATION = path.join(MIGRATIONS_DIR, "20261128120000_trial_period_amount", "migration.sql");
const DAY = 86_400_000;

describe("migration trial_period_amount", () => {
  it("gives trial subscriptions still holding the authorization their frozen period price, and nothing else", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const group = await insertTestGroup(db, account.id);
    const plan = await insertTestPlan(db, group, { recurring: true, priceCents: 900, priceCurrency: "USD" });
    const now = new Date();

    /** A subscription from a checkout whose attempt charged `attemptCents` and froze `terms`. */
    async function row(name: string, o: { stored: number; attemptCents: number; trial: boolean; total: unknown }) {
      const member = await resolveSubscriber(db, {
        accountId: account.id,
        provider: "email",
        identity: `${name}@example.com`,
        create: true,
        now,
      });
      const attempt = await db.subscriptionAttempt.create({
        data: {
          id: randomUUID(),
          accountId: account.id,
          memberId: member!.id,
          terms: {
            plan_id: plan.id,
            price_cents: 900,
            discount_cents: 180,
            total_cents: o.total,
            amount_cents: o.attemptCents,
            trial: o.trial ? { length: 14, unit: "DAYS" } : null,
          } as never,
          paymentType: "demo_test",
          amountCents: o.attemptCents,
          currency: "USD",
          expiresAt: new Date(now.getTime() + DAY),
          usedAt: now,
        },
      });
      const sub = await insertTestSubscription(db, {
        accountId: account.id,
        memberId: member!.id,
        planId: plan.id,
        paymentType: "demo_test",
        recurring: true,
      });
      return db.subscription.update({
        where: { id: sub.id },
        data: {
          attemptId: attempt.id,
          paymentAmountCents: o.stored,
          trialEndsAt: o.trial ? new Date(now.getTime() + 14 * DAY) : null,
          trialPeriodLength: o.trial ? 14 : null,
          trialPeriodUnit: o.trial ? "DAYS" : null,
        },
      });
    }

    const old = await row("old-trial", { stored: 500, attemptCents: 500, trial: true, total: 720 });
    const fixed = await row("new-trial", { stored: 720, attemptCents: 500, trial: true, total: 720 });
    const noTrial = await row("no-trial", { stored: 900, attemptCents: 900, trial: false, total: 900 });
    const changed = await row("switched", { stored: 1200, attemptCents: 500, trial: true, total: 720 });
    const unreadable = await row("odd-terms", { stored: 500, attemptCents: 500, trial: true, total: "7.20" });
    const noAttempt = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: old.memberId,
      planId: plan.id,
      recurring: true,
    });
    await db.subscription.update({
      where: { id: noAttempt.id },
      data: { paymentAmountCents: 500, trialEndsAt: new Date(now.getTime() + DAY), trialPeriodLength: 14 },
    });

    const sql = await fs.readFile(MIGRATION, "utf8");
    expect(await db.$executeRawUnsafe(sql)).toBe(1);
    const rows = { old, fixed, noTrial, changed, unreadable, noAttempt };
    const amounts = async (): Promise<Record<string, number>> => {
      const found = await db.subscription.findMany({ where: { id: { in: Object.values(rows).map((r) => r.id) } } });
      const byId = new Map(found.map((r) => [r.id, r.paymentAmountCents]));
      return Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, byId.get(r.id)!]));
    };
    const expected = { old: 720, fixed: 720, noTrial: 900, changed: 1200, unreadable: 500, noAttempt: 500 };
    expect(await amounts()).toEqual(expected);
    // Run again: nothing left to change.
    expect(await db.$executeRawUnsafe(sql)).toBe(0);
    expect(await amounts()).toEqual(expected);
  });
});
